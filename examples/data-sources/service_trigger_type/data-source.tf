# The trigger type is read at the toolkit version the provider is configured
# with (toolkit_versions, toolkit_version or SERVICE_TOOLKIT_VERSION_GITHUB).
data "service_trigger_type" "commit" {
  slug = "GITHUB_COMMIT_EVENT"
}

output "commit_trigger_required_config" {
  value = jsondecode(data.service_trigger_type.commit.input_schema).required
}
