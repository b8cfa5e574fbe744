output "categories" {
  description = "Toolkit categories of the catalog."
  value       = sort(data.service_toolkit_categories.all.categories[*].slug)
}

output "finance_toolkits" {
  description = "Toolkits in the finance category."
  value       = sort(data.service_toolkits.finance.toolkits[*].slug)
}

output "stripe_auth_schemes" {
  description = "Auth schemes the stripe toolkit supports."
  value       = [for d in data.service_toolkit.stripe.auth_config_details : d.mode]
}

output "stripe_trigger_types" {
  description = "Trigger types of the stripe toolkit at the pinned version."
  value       = sort(data.service_trigger_types.stripe.trigger_types[*].slug)
}

output "auth_config_ids" {
  description = "The three auth configs, by kind."
  value = {
    managed_oauth = service_auth_config.github_managed.id
    custom_oauth  = service_auth_config.linear_custom.id
    custom_apikey = service_auth_config.stripe_api_key.id
  }
}

output "stripe_account_status" {
  description = "ACTIVE at once: the API key was supplied on creation."
  value       = service_connected_account.stripe.status
}

output "github_account_status" {
  description = "INITIATED until the user approves the connection."
  value       = service_connected_account.github.status
}

output "github_connect_url" {
  description = "Open this URL in a browser to approve the GitHub connection."
  value       = service_connected_account.github.redirect_url
}

output "stripe_trigger_id" {
  description = "Id of the trigger instance listening for Stripe charges."
  value       = service_trigger_instance.stripe_charges.id
}

output "github_account_id" {
  description = "Id of the OAuth connected account (the emulator's control routes take it)."
  value       = service_connected_account.github.id
}
