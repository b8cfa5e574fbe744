# Read a toolkit from the catalog, including the fields each auth scheme needs
# when you create an auth config and when you connect an account.
data "service_toolkit" "github" {
  slug = "github"
}

output "github_auth_schemes" {
  value = [for d in data.service_toolkit.github.auth_config_details : d.mode]
}
