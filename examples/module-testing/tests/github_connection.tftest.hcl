# terraform test against the emulator: SERVICE_BASE_URL and SERVICE_API_KEY
# point at it (see docs/guides/testing-your-modules.md). Every run applies for
# real; terraform test destroys everything at the end.

variables {
  name_prefix = "tftest"
  user_id     = "tftest-user"
  repository = {
    owner = "octo-org"
    name  = "octo-repo"
  }
}

run "connect" {
  assert {
    condition     = output.account_status == "INITIATED"
    error_message = "A new OAuth connection must wait for the user's approval, got ${output.account_status}."
  }
  assert {
    condition     = startswith(output.connect_url, "http")
    error_message = "The user needs a URL to approve the connection."
  }
  assert {
    condition     = output.trigger_id == null
    error_message = "No trigger before subscribe is set."
  }
}

# The user clicks Approve on the consent page.
run "user_approves" {
  module {
    source = "./tests/emulator"
  }
  variables {
    route = "connected_accounts/${run.connect.account_id}/complete"
  }
}

run "subscribe" {
  variables {
    subscribe = true
  }
  assert {
    condition     = output.account_status == "ACTIVE"
    error_message = "The approved connection must read back ACTIVE, got ${output.account_status}."
  }
  assert {
    condition     = output.trigger_id != null
    error_message = "The commit trigger was not created."
  }
}

# A commit is pushed: the emulator fires the trigger (and would deliver it
# to a webhook receiver given with --webhook-url). Fails if the trigger is
# not active on an ACTIVE account.
run "commit_pushed" {
  module {
    source = "./tests/emulator"
  }
  variables {
    route = "trigger_instances/${run.subscribe.trigger_id}/fire"
    body  = jsonencode({ id = "0123abc", message = "fix: typo" })
  }
}

# Nothing would change: the plan's objects are those the last apply left
# (handed over as a variable: tofu test reads run.<name> only there).
# A planned update or replacement fails the assertion: its new values differ
# from them, or are unknown until apply.
run "stable" {
  command = plan
  variables {
    subscribe    = true
    last_applied = run.subscribe.objects
  }
  assert {
    condition     = output.objects == var.last_applied
    error_message = "The plan would change what the last apply left."
  }
}

# Nothing drifted: a refresh-only plan reads what the service holds, which
# must be what the last apply left (a change made outside Terraform, such as
# the trigger disabled, fails it).
run "no_drift" {
  command = plan
  plan_options {
    mode = refresh-only
  }
  variables {
    subscribe    = true
    last_applied = run.subscribe.objects
  }
  assert {
    condition     = output.objects == var.last_applied
    error_message = "The service's objects changed since the last apply."
  }
}
