# Terraform 1.14 or later (OpenTofu has no actions).
resource "service_auth_config" "stripe" {
  toolkit     = "stripe"
  type        = "use_custom_auth"
  auth_scheme = "API_KEY"
  name        = "Stripe (revocation example)"
}

variable "alice_stripe_key" {
  type      = string
  sensitive = true
  ephemeral = true
}

resource "service_connected_account" "alice" {
  user_id                = "alice"
  auth_config_id         = service_auth_config.stripe.id
  credentials_wo         = { api_key = var.alice_stripe_key }
  credentials_wo_version = 1
}

# Revokes Alice's key at the provider and keeps the account, which then reads
# status = "REVOKED" (and plans no change). Run it when needed:
#
#   terraform apply -invoke=action.service_connected_account_revoke.alice
action "service_connected_account_revoke" "alice" {
  config {
    connected_account_id = service_connected_account.alice.id
  }
}
