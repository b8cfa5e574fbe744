# Every MCP server serving GitHub whose name contains "agent".
data "service_mcp_servers" "github_agents" {
  name     = "agent"
  toolkits = ["github"]
}

output "github_agent_urls" {
  value = { for s in data.service_mcp_servers.github_agents.servers : s.name => s.mcp_url }
}
