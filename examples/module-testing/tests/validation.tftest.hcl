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

# The subscribe branch without an approval: the mocked apply creates
# nothing, and override_resource makes the account read ACTIVE.
run "subscribes_once_approved" {
  variables {
    name_prefix = "team-alpha"
    subscribe   = true
  }
  override_resource {
    target = service_connected_account.github
    values = {
      status = "ACTIVE"
    }
  }
  assert {
    condition     = output.account_status == "ACTIVE" && output.trigger_id != null
    error_message = "An approved connection gets the commit trigger."
  }
}
