# MCP servers are imported by their id (a UUID), as listed by the
# service_mcp_servers data source.
import {
  to = service_mcp_server.support
  id = "6f1c2c9e-5b1a-4c3e-9d2f-0a1b2c3d4e5f"
}
