# The objects every environment's project holds. The provider comes from the
# caller (one configuration per project).
terraform {
  required_providers {
    service = {
      source = "integration-service/service"
    }
  }
}

variable "environment" {
  description = "The environment's name, used in object names."
  type        = string
}

resource "service_auth_config" "github" {
  toolkit = "github"
  name    = "GitHub (${var.environment})"
}

resource "service_auth_config" "slack" {
  toolkit = "slack"
  name    = "Slack (${var.environment})"
}

output "github_auth_config_id" {
  value = service_auth_config.github.id
}
