# A project of the organization by name (or by id), read with the
# organization's key. Its API key is not readable.
data "service_project" "default" {
  name = "default"
}

output "default_project_id" {
  value = data.service_project.default.id
}
