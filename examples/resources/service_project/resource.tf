# A project of the organization, managed with the organization's key: set
# org_api_key in the provider block or SERVICE_ORG_API_KEY in the environment.
resource "service_project" "production" {
  name = "production"

  # Change this value to regenerate the project's API key in place. Every key
  # of the project stops working at once: roll the new key out right after.
  api_key_rotation = "2026-01"

  # Deleting a project deletes everything in it. Keep the default (true) for
  # real projects: a destroy or a rename then fails at plan. This example sets
  # false so that it can be destroyed.
  deletion_protection = false
}

# config is taken only when the project is created: the service can neither
# return nor change it, so changing it later is a plan error.
resource "service_project" "staging" {
  name = "staging"

  config = {
    is_2fa_enabled                        = true
    mask_secret_keys_in_connected_account = true
    log_visibility_setting                = "dont_store_data"
    display_name                          = "Staging"
  }

  deletion_protection = false
  revoke_on_delete    = true
}

# Zero Data Retention (zdr_enabled) is the newer form of log_visibility_setting:
# set one of the two, never both. oauth_callback_verifier_url is an https URL
# of yours that the service calls to verify the user completing an OAuth
# connection. Both are taken at creation only, like the rest of config.
resource "service_project" "regulated" {
  name = "regulated"

  config = {
    is_2fa_enabled                        = true
    mask_secret_keys_in_connected_account = true
    zdr_enabled                           = true
    oauth_callback_verifier_url           = "https://auth.example.com/composio/verify"
  }

  deletion_protection = false
}

# The project's key, for the provider configuration (or the application)
# that manages the project's objects. See the guide "Projects and
# environments" for a layout that creates a project and its objects.
output "production_api_key" {
  value     = service_project.production.api_key
  sensitive = true
}
