# Look an auth config up by id ...
data "service_auth_config" "by_id" {
  id = "ac_1a2b3c4d5e6f"
}

# ... or by toolkit and name.
data "service_auth_config" "by_name" {
  toolkit = "github"
  name    = "GitHub (managed)"
}

output "github_auth_config_status" {
  value = data.service_auth_config.by_name.status
}
