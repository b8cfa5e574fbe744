# Look an MCP server up by id ...
data "service_mcp_server" "by_id" {
  id = "6f1c2c9e-5b1a-4c3e-9d2f-0a1b2c3d4e5f"
}

# ... or by its exact name.
data "service_mcp_server" "support" {
  name = "support-agent"
}

output "support_tools" {
  value = data.service_mcp_server.support.allowed_tools
}
