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

output "objects" {
  description = "Every object the module manages, whole: the tests' last plans compare it with the last apply's, to show that nothing would change and nothing drifted."
  sensitive   = true
  value = {
    auth_config       = service_auth_config.github
    connected_account = service_connected_account.github
    commit_trigger    = one(service_trigger_instance.commits[*])
  }
}
