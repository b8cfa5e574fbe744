# A remote MCP server whose tools become the project's CUSTOM_ACME toolkit.
# Each connected account gives an API key, sent in the Authorization header.
resource "service_custom_toolkit" "acme" {
  slug        = "ACME"
  name        = "Acme"
  description = "Acme's internal tools"
  mcp_url     = "https://mcp.acme.example/mcp"

  auth_scheme = {
    mode    = "API_KEY"
    headers = { Authorization = "Bearer {{generic_api_key}}" }
  }
}

# The toolkit's auth config, created in the same apply: toolkit names the
# registered slug (CUSTOM_ACME) through the resource's id.
resource "service_auth_config" "acme" {
  toolkit                    = service_custom_toolkit.acme.id
  type                       = "use_custom_auth"
  auth_scheme                = "API_KEY"
  is_enabled_for_tool_router = true
}

# A server using OAuth with dynamic client registration.
resource "service_custom_toolkit" "docs" {
  slug    = "DOCS"
  name    = "Docs search"
  mcp_url = "https://mcp.docs.example/mcp"

  auth_scheme = {
    mode          = "DCR_OAUTH"
    discovery_url = "https://mcp.docs.example/.well-known/oauth-authorization-server"
  }
}
