# Service-managed OAuth: the service owns the OAuth app, nothing secret here.
resource "service_auth_config" "github" {
  toolkit = "github"
  name    = "GitHub (managed)"
}

# Your own OAuth app. The client secret is write-only: Terraform sends it to
# the service but never stores it in state or in saved plans. Bump
# credentials_wo_version to send new values (for example after a rotation).
variable "slack_client_secret" {
  type      = string
  sensitive = true
  ephemeral = true
}

variable "proxy_key" {
  type      = string
  sensitive = true
  ephemeral = true
}

resource "service_auth_config" "slack" {
  toolkit     = "slack"
  type        = "use_custom_auth"
  auth_scheme = "OAUTH2"
  name        = "Slack (our OAuth app)"
  scopes      = ["channels:read", "chat:write"]
  user_scopes = ["search:read"]

  credentials_wo = {
    client_id     = "1234567890.0987654321"
    client_secret = var.slack_client_secret
  }
  credentials_wo_version = 1

  # Ask for the scopes of these tools when a user connects, and let the
  # connected accounts execute only these tools.
  tool_access_config = {
    tools_for_connected_account_creation = ["SLACK_SEND_MESSAGE", "SLACK_LIST_ALL_CHANNELS"]
    tools_available_for_execution        = ["SLACK_SEND_MESSAGE", "SLACK_LIST_ALL_CHANNELS"]
  }

  # Calls to Slack go through our egress proxy; its key is write-only.
  proxy_config = {
    proxy_url                 = "https://egress.example.com/slack"
    proxy_auth_key_wo         = var.proxy_key
    proxy_auth_key_wo_version = 1
  }
  is_enabled_for_tool_router = true
}

# API-key toolkits need no app credentials: each connected account brings its
# own key. `enabled = false` keeps the auth config but refuses new connections.
# revoke_on_delete: destroying the auth config also revokes, at the provider,
# the credentials of every account made through it.
resource "service_auth_config" "stripe" {
  toolkit          = "stripe"
  type             = "use_custom_auth"
  auth_scheme      = "API_KEY"
  name             = "Stripe"
  enabled          = true
  revoke_on_delete = true

  # Every connected account inherits these connection fields (write-only):
  # here one restricted key shared by all accounts.
  shared_credentials_wo         = { api_key = var.stripe_shared_key }
  shared_credentials_wo_version = 1
}

variable "stripe_shared_key" {
  type      = string
  sensitive = true
  ephemeral = true
}

# An account of the Stripe auth config needs no credentials of its own: it
# inherits api_key from shared_credentials_wo and is ACTIVE at once.
resource "service_connected_account" "stripe_team" {
  user_id        = "user-42"
  auth_config_id = service_auth_config.stripe.id
}
