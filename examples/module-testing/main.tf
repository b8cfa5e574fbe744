# A module a team might own: connects one of its users to GitHub through the
# service's managed OAuth app and, once the user has approved the connection,
# subscribes to the commits pushed to a repository.
#
# tests/ holds its `terraform test` suite (`tofu test` runs it too), which
# runs against the local emulator (docs/guides/testing-your-modules.md).

terraform {
  required_version = ">= 1.11" # Terraform >= 1.11 or OpenTofu >= 1.11 (write-only attributes)

  required_providers {
    service = {
      source = "integration-service/service"
    }
  }
}

resource "service_auth_config" "github" {
  toolkit = "github"
  name    = "${var.name_prefix}-github"
}

resource "service_connected_account" "github" {
  user_id        = var.user_id
  auth_config_id = service_auth_config.github.id
  callback_url   = var.callback_url
}

# A trigger needs an ACTIVE account: callers set subscribe = true once the
# user has approved the connection.
resource "service_trigger_instance" "commits" {
  count = var.subscribe ? 1 : 0

  user_id              = var.user_id
  slug                 = "GITHUB_COMMIT_EVENT"
  connected_account_id = service_connected_account.github.id
  trigger_config = jsonencode({
    owner = var.repository.owner
    repo  = var.repository.name
  })
}
