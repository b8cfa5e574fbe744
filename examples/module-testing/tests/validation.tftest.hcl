# Input validation only: a mocked provider answers every run, so these runs
# need no emulator, no service and no API key (mock_provider: Terraform 1.7
# or later, OpenTofu 1.8 or later). Without the mock, every run configures
# the real provider, which checks that it reaches the service first.
mock_provider "service" {}

variables {
  user_id = "tftest-user"
  repository = {
    owner = "octo-org"
    name  = "octo-repo"
  }
}

run "rejects_an_invalid_prefix" {
  command = plan
  variables {
    name_prefix = "Team Alpha"
  }
  expect_failures = [var.name_prefix]
}

run "accepts_a_valid_prefix" {
  command = plan
  variables {
    name_prefix = "team-alpha"
  }
  assert {
    condition     = service_auth_config.github.name == "team-alpha-github"
    error_message = "The auth config is named after the prefix."
  }
}
