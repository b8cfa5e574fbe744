# The tools of a toolkit at the version the provider is configured with.
data "service_tools" "github" {
  toolkit = "github"
}

# Let the auth config's connected accounts execute only the issue tools.
resource "service_auth_config" "github_issues" {
  toolkit = "github"
  name    = "GitHub (issues only)"

  tool_access_config = {
    tools_available_for_execution = [
      for slug in data.service_tools.github.slugs : slug if strcontains(slug, "ISSUE")
    ]
  }
}

# The arguments a tool takes.
output "create_issue_arguments" {
  value = keys(jsondecode([
    for t in data.service_tools.github.tools : t.input_schema if t.slug == "GITHUB_CREATE_AN_ISSUE"
  ][0]).properties)
}
