# Every toolkit in a category (all pages are followed).
data "service_toolkits" "developer_tools" {
  category = "developer-tools"
}

output "developer_toolkits" {
  value = data.service_toolkits.developer_tools.toolkits[*].slug
}
