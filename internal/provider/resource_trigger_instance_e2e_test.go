package provider

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"
)

// e2eApplyStopsThenDestroys applies cfg (in a new workspace, through the CLI
// that TF_CLI names), which must pass `terraform plan` and then fail at apply
// with every fragment of wantErr after creating exactly the resources
// created; then `terraform destroy` must succeed and leave an empty state.
// It is for the checks that cannot run before the object they look at
// exists (created in the same apply): they run in the final plan Terraform
// makes during apply, before the resource's own write.
func e2eApplyStopsThenDestroys(t *testing.T, cfg string, created []string, wantErr ...string) {
	t.Helper()
	w := newE2EWorkspace(t)
	w.WriteFile("main.tf", cfg)
	t.Cleanup(func() { w.Run(nil, "destroy", "-auto-approve", "-no-color", "-input=false") })
	res := w.Run(nil, "plan", "-no-color", "-input=false")
	if res.ExitCode != 0 {
		t.Fatalf("plan failed; the check is expected at apply only:\n%s%s", res.Stdout, res.Stderr)
	}
	if strings.Count(res.Stdout+res.Stderr, "Warning:") > strings.Count(res.Stdout+res.Stderr, "Warning: Provider development overrides") {
		t.Errorf("plan of an ordinary first apply has warnings:\n%s%s", res.Stdout, res.Stderr)
	}
	res = w.Run(nil, "apply", "-auto-approve", "-no-color", "-input=false")
	out := strings.Join(strings.Fields(res.Stdout+res.Stderr), " ")
	if res.ExitCode == 0 {
		t.Fatalf("apply succeeded; want an error with %q:\n%s", wantErr, res.Stdout)
	}
	for _, want := range wantErr {
		if !strings.Contains(out, want) {
			t.Fatalf("apply error lacks %q:\n%s%s", want, res.Stdout, res.Stderr)
		}
	}
	got := w.stateResources()
	slices.Sort(got)
	if want := slices.Sorted(slices.Values(created)); !slices.Equal(got, want) {
		t.Errorf("after the failed apply the state has %v, want %v", got, want)
	}
	w.RunOK("destroy", "-auto-approve", "-no-color", "-input=false")
	if left := w.stateResources(); len(left) != 0 {
		t.Errorf("state after destroy still has %v", left)
	}
}

// TestAccE2E_triggerOnAccountOfAnotherToolkit: a GITHUB_COMMIT_EVENT trigger
// on a new account of a stripe auth config. The plan checks what it can (the
// trigger type exists and trigger_config fits it) but not the account's
// toolkit, unknown until the account exists: the apply creates the auth
// config and the account, then stops on connected_account_id before writing
// the trigger; `terraform destroy` then succeeds.
func TestAccE2E_triggerOnAccountOfAnotherToolkit(t *testing.T) {
	t.Parallel()
	name := acctest.RandomWithPrefix("tf-acc-trig-tk")
	e2eApplyStopsThenDestroys(t, fmt.Sprintf(`
resource "service_auth_config" "stripe" {
  toolkit     = "stripe"
  type        = "use_custom_auth"
  auth_scheme = "API_KEY"
  name        = %[1]q
}

resource "service_connected_account" "stripe" {
  user_id                = "%[1]s-user"
  auth_config_id         = service_auth_config.stripe.id
  credentials_wo         = { api_key = "sk_test_e2e" }
  credentials_wo_version = 1
}

resource "service_trigger_instance" "commits" {
  user_id              = "%[1]s-user"
  slug                 = "GITHUB_COMMIT_EVENT"
  connected_account_id = service_connected_account.stripe.id
  trigger_config       = jsonencode({ owner = "acme", repo = "app" })
}
`, name), []string{"service_auth_config.stripe", "service_connected_account.stripe"},
		"Connected account is on another toolkit", `is on toolkit "stripe"`, `trigger GITHUB_COMMIT_EVENT belongs to toolkit "github"`)
}
