# The project's active session configs whose name contains "support".
data "service_session_configs" "support" {
  search = "support"
}

output "support_config_ids" {
  value = data.service_session_configs.support.ids
}
