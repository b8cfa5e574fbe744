# Quickstart: one auth config of each kind, an API-key account that is ACTIVE
# at once, an OAuth account waiting for the user's approval, a trigger on the
# API-key account, and the catalog read through data sources.
#
# Run it against the local emulator with `make demo`, or against the service:
#   export SERVICE_API_KEY=...            # your project's API key
#   terraform init && terraform apply     # or: tofu init && tofu apply

terraform {
  required_version = ">= 1.11" # Terraform >= 1.11 or OpenTofu >= 1.11 (write-only attributes)

  required_providers {
    service = {
      source = "integration-service/service"
    }
  }
}

# SERVICE_API_KEY and SERVICE_BASE_URL come from the environment.
provider "service" {
  # Pin the versions whose trigger schemas this configuration relies on.
  toolkit_versions = {
    stripe = "20251015_00"
  }
}

# ---------------------------------------------------------------- catalog

data "service_toolkit_categories" "all" {}

data "service_toolkits" "finance" {
  category = "finance"
}

data "service_toolkit" "stripe" {
  slug = "stripe"
}

data "service_trigger_types" "stripe" {
  toolkits = ["stripe"]
}

# ----------------------------------------------------------- auth configs

# 1. Service-managed OAuth: the service owns the GitHub OAuth app.
resource "service_auth_config" "github_managed" {
  toolkit = "github"
  name    = "quickstart-github-managed"
}

# 2. Your own OAuth app. The secret is write-only: sent to the service, never
#    stored in state. Bump credentials_wo_version to send new values.
resource "service_auth_config" "linear_custom" {
  toolkit     = "linear"
  type        = "use_custom_auth"
  auth_scheme = "OAUTH2"
  name        = "quickstart-linear-oauth-app"
  scopes      = ["read", "write"]

  credentials_wo = {
    client_id     = "quickstart-linear-client"
    client_secret = var.linear_client_secret
  }
  credentials_wo_version = 1
}

# 3. API keys: each connected account brings its own key.
resource "service_auth_config" "stripe_api_key" {
  toolkit     = "stripe"
  type        = "use_custom_auth"
  auth_scheme = "API_KEY"
  name        = "quickstart-stripe"
}

# ------------------------------------------------------ connected accounts

# An API-key account is ACTIVE as soon as it is created.
resource "service_connected_account" "stripe" {
  user_id        = var.user_id
  auth_config_id = service_auth_config.stripe_api_key.id

  credentials_wo = {
    api_key = var.stripe_api_key
  }
  credentials_wo_version = 1
}

# An OAuth account starts INITIATED: open redirect_url to approve it. After
# approval the next refresh shows ACTIVE, with nothing to change.
resource "service_connected_account" "github" {
  user_id        = var.user_id
  auth_config_id = service_auth_config.github_managed.id
  callback_url   = var.callback_url
}

# ------------------------------------------------------------- triggers

# Fires for every successful Stripe charge of at least min_amount cents on
# the API-key account. The config is checked at plan time against the
# trigger type's schema at the pinned stripe version.
resource "service_trigger_instance" "stripe_charges" {
  user_id              = var.user_id
  slug                 = "STRIPE_CHARGE_SUCCEEDED_TRIGGER"
  connected_account_id = service_connected_account.stripe.id
  trigger_config = jsonencode({
    min_amount = 5000
  })
}
