# A saved session config (written in the service's dashboard) and a session
# that follows it.
data "service_session_config" "support" {
  id = "sc_1a2b3c4d5e6f"
}

resource "service_tool_router_session" "bob" {
  user_id           = "bob"
  session_config_id = data.service_session_config.support.id
}

output "support_policy_toolkits" {
  value = data.service_session_config.support.toolkits
}
