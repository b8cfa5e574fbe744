# All auth configs of a toolkit, disabled ones included.
data "service_auth_configs" "github" {
  toolkit       = "github"
  show_disabled = true
}

output "github_auth_config_ids" {
  value = data.service_auth_configs.github.auth_configs[*].id
}
