# A support agent's tools for one end user: Stripe through the project's
# own auth config and the user's account, Linear's read-only tools, and the
# connection manager sending the user back to the app after connecting.
resource "service_auth_config" "stripe" {
  toolkit     = "stripe"
  type        = "use_custom_auth"
  auth_scheme = "API_KEY"
  name        = "Stripe (support agent)"
}

variable "stripe_api_key" {
  type      = string
  sensitive = true
  ephemeral = true
}

resource "service_connected_account" "alice_stripe" {
  user_id                = "alice"
  auth_config_id         = service_auth_config.stripe.id
  credentials_wo         = { api_key = var.stripe_api_key }
  credentials_wo_version = 1
}

resource "service_tool_router_session" "support" {
  user_id  = "alice"
  toolkits = ["stripe", "linear"]

  auth_configs       = { stripe = service_auth_config.stripe.id }
  connected_accounts = { stripe = [service_connected_account.alice_stripe.id] }

  tools = {
    stripe = { disabled = ["STRIPE_CREATE_ITEM"] }
    linear = { tags = ["readOnlyHint"] }
  }
  disabled_tags = ["destructiveHint"]

  manage_connections = {
    callback_url = "https://support.example.com/connected"
  }
  workbench = {
    sandbox_size = "medium"
  }
}

# The agent's deployment reads the URL from here (or from a secret another
# provider writes); it is sensitive, see the attribute's description.
output "support_mcp_url" {
  value     = service_tool_router_session.support.mcp_url
  sensitive = true
}
