resource "service_auth_config" "github" {
  toolkit = "github"
}

resource "service_auth_config" "gmail" {
  toolkit = "gmail"
}

# One MCP endpoint over both toolkits, exposing three tools. Each tool is
# checked at plan time against the tools of the auth configs' toolkits.
resource "service_mcp_server" "support" {
  name            = "support-agent"
  auth_config_ids = [service_auth_config.github.id, service_auth_config.gmail.id]
  allowed_tools = [
    "GITHUB_CREATE_AN_ISSUE",
    "GITHUB_GET_A_REPOSITORY",
    "GMAIL_SEND_EMAIL",
  ]
}

# MCP clients connect with the user's id as a query parameter.
output "support_mcp_url" {
  value = "${service_mcp_server.support.mcp_url}?user_id=user-42"
}
