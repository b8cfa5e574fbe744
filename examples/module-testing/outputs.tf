output "connect_url" {
  description = "Send the user here to approve the GitHub connection."
  value       = service_connected_account.github.redirect_url
}

output "account_id" {
  description = "The connected account's id."
  value       = service_connected_account.github.id
}

output "account_status" {
  description = "INITIATED until the user approves, then ACTIVE."
  value       = service_connected_account.github.status
}

output "trigger_id" {
  description = "The commit trigger's id, null until subscribe is true."
  value       = one(service_trigger_instance.commits[*].id)
}
