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

resource "service_connected_account" "stripe" {
  user_id        = "user-42"
  auth_config_id = service_auth_config.stripe.id
  credentials_wo = {
    api_key = var.stripe_api_key
  }
  credentials_wo_version = 1
}

# trigger_config is checked at plan time against the trigger type's config
# schema for the toolkit version the provider is configured with. Key order
# and whitespace never cause a diff. egress_url sends this instance's events
# to another https URL than the project's webhook (whose subscription still
# signs them and picks the payload version); remove it to deliver to the
# project's webhook again.
resource "service_trigger_instance" "large_charges" {
  user_id              = "user-42"
  slug                 = "STRIPE_CHARGE_SUCCEEDED_TRIGGER"
  connected_account_id = service_connected_account.stripe.id
  trigger_config = jsonencode({
    min_amount = 10000
  })
  egress_url = "https://billing.example.com/hooks/large-charges"
}

# Without connected_account_id the user's first ACTIVE account on the
# trigger's toolkit is used. `enabled = false` pauses delivery.
resource "service_trigger_instance" "all_charges" {
  user_id = "user-42"
  slug    = "STRIPE_CHARGE_SUCCEEDED_TRIGGER"
  enabled = false

  depends_on = [service_connected_account.stripe]
}
