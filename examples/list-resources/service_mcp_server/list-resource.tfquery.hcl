# In a .tfquery.hcl file beside the configuration (Terraform 1.14 or later):
#
#   terraform query                                  # list what the service holds
#   terraform query -generate-config-out=import.tf   # import blocks and resources
#
# The MCP servers named "support ..." that serve github or slack, with the
# values the resource would store after an import.
list "service_mcp_server" "support" {
  provider         = service
  include_resource = true

  config {
    name     = "support"
    toolkits = ["github", "slack"]
  }
}
