# Terraform 1.16 or later (the before_destroy event): revoke the account's
# tokens right before `terraform destroy`, or the delete half of a
# replacement, deletes it. Unlike revoke_on_delete (a background job of the
# service), the revocation is done and reported first. If it fails, a
# replacement stops before the delete (the account stays, its tokens still
# work); `terraform destroy` reports the failure as a warning and deletes the
# account anyway (Terraform never lets an action block a destroy).
terraform {
  required_version = ">= 1.16"

  required_providers {
    service = {
      source = "integration-service/service"
    }
  }
}

variable "auth_config_id" {
  type = string
}

variable "bob_stripe_key" {
  type      = string
  sensitive = true
  ephemeral = true
}

resource "service_connected_account" "bob" {
  user_id                = "bob"
  auth_config_id         = var.auth_config_id
  credentials_wo         = { api_key = var.bob_stripe_key }
  credentials_wo_version = 1

  lifecycle {
    action_trigger {
      events  = [before_destroy]
      actions = [action.service_connected_account_revoke.bob]
    }
  }
}

action "service_connected_account_revoke" "bob" {
  config {
    # caller is the resource that triggers the action.
    connected_account_id = caller.id
  }
}
