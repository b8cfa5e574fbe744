# Every project of the organization; `name` keeps those whose name contains
# the text (case-insensitive).
data "service_projects" "all" {}

output "project_ids_by_name" {
  value = { for p in data.service_projects.all.projects : p.name => p.id }
}
