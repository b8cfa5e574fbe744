# Terraform 1.12+ and OpenTofu 1.12+: import by identity. The identity of an
# MCP server is its id (a UUID); `terraform query` (Terraform 1.14+) with the
# service_mcp_server list resource finds them.
import {
  to = service_mcp_server.support
  identity = {
    id = "6f1c2c9e-5b1a-4c3e-9d2f-0a1b2c3d4e5f"
  }
}
