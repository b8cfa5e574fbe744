resource "service_auth_config" "stripe" {
  toolkit     = "stripe"
  type        = "use_custom_auth"
  auth_scheme = "API_KEY"
}

variable "stripe_api_key" {
  type      = string
  sensitive = true
  ephemeral = true
}

# An API-key account is ACTIVE as soon as it is created: the key is sent once
# (write-only) and never stored in state. revoke_on_delete: destroying it (or
# replacing it) also revokes the key at the provider.
resource "service_connected_account" "stripe" {
  user_id        = "user-42"
  auth_config_id = service_auth_config.stripe.id

  credentials_wo = {
    api_key = var.stripe_api_key
  }
  credentials_wo_version = 1
  revoke_on_delete       = true
}

resource "service_auth_config" "github" {
  toolkit = "github"
}

# An OAuth account starts INITIATED. Send the user to redirect_url; once they
# approve, the next refresh shows it ACTIVE without any change to plan.
# The alias (unique per user and toolkit) is how your application picks this
# account among the user's GitHub accounts; change it in place, or remove it.
resource "service_connected_account" "github" {
  user_id        = "user-42"
  auth_config_id = service_auth_config.github.id
  callback_url   = "https://app.example.com/integrations/done"
  alias          = "work"
}

output "github_connect_url" {
  value = service_connected_account.github.redirect_url
}
