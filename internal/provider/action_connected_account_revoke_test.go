package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/testutil"
)

// requireActionCLI skips a test of actions on a CLI without them, printing
// why: OpenTofu (no actions yet) and Terraform before 1.minor (1.14 for
// actions and -invoke, 1.16 for the action_trigger destroy events). why is
// the reason on Terraform, e.g. "actions need Terraform 1.14+" (the
// wording test/skipcheck allows).
func requireActionCLI(t *testing.T, minor int, why string) {
	t.Helper()
	cli := testutil.RequireTerraform(t)
	if testutil.CLIName(cli) == "tofu" {
		t.Skip("OpenTofu has no actions (" + why + ")")
	}
	if ok, version := testutil.TerraformAtLeast(t, cli, 1, minor); !ok {
		t.Skipf("%s: %s", version, why)
	}
}

// e2eOutputs returns the workspace's outputs (terraform output -json) as strings.
func (w *e2eWorkspace) e2eOutputs() map[string]string {
	w.t.Helper()
	var raw map[string]struct {
		Value any `json:"value"`
	}
	out := w.RunOK("output", "-json").Stdout
	if i := strings.Index(out, "{"); i >= 0 {
		out = out[i:]
	}
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		w.t.Fatalf("terraform output -json: %v\n%s", err, out)
	}
	vals := map[string]string{}
	for k, v := range raw {
		vals[k] = fmt.Sprint(v.Value)
	}
	return vals
}

// TestAccE2E_connectedAccountRevokeAction runs the action's documentation
// example (examples/actions/service_connected_account_revoke/action.tf)
// through the CLI: `terraform apply -invoke=action...` revokes the account
// (progress reported, the emulator logs the revocation), which stays and
// reads REVOKED, and the next plan is empty (a revoked account plans no
// change). Invoking it again succeeds without revoking anything. The
// service's refusals become diagnostics that say what to do, with nothing
// changed: 409 (an INITIATED account), 400 (mailchimp, whose toolkit cannot
// revoke) and 404 (an unknown account).
func TestAccE2E_connectedAccountRevokeAction(t *testing.T) {
	requireActionCLI(t, 14, "actions need Terraform 1.14+: service_connected_account_revoke, terraform apply -invoke")
	testAccRequireEmulator(t) // the revocation log and the mailchimp catalog marker are the emulator's
	t.Parallel()
	w := newE2EWorkspace(t)
	example, err := os.ReadFile(filepath.Join(testutil.RepoRoot(t), "examples", "actions", "service_connected_account_revoke", "action.tf"))
	if err != nil {
		t.Fatal(err)
	}
	w.WriteFile("action.tf", string(example))
	name := acctest.RandomWithPrefix("tf-acc-revoke")
	w.WriteFile("refusals.tf", fmt.Sprintf(`
resource "service_auth_config" "github" {
  toolkit = "github"
  name    = %[1]q
}

resource "service_connected_account" "initiated" {
  user_id        = %[1]q
  auth_config_id = service_auth_config.github.id
}

resource "service_auth_config" "mailchimp" {
  toolkit     = "mailchimp"
  type        = "use_custom_auth"
  auth_scheme = "API_KEY"
  name        = %[1]q
}

resource "service_connected_account" "mailchimp" {
  user_id        = %[1]q
  auth_config_id = service_auth_config.mailchimp.id
  credentials    = { api_key = "mc_test_key-us1" }
}

action "service_connected_account_revoke" "initiated" {
  config {
    connected_account_id = service_connected_account.initiated.id
  }
}

action "service_connected_account_revoke" "mailchimp" {
  config {
    connected_account_id = service_connected_account.mailchimp.id
  }
}

action "service_connected_account_revoke" "missing" {
  config {
    connected_account_id = "ca_doesnotexist42"
  }
}

output "alice" { value = service_connected_account.alice.id }
output "initiated" { value = service_connected_account.initiated.id }
output "mailchimp" { value = service_connected_account.mailchimp.id }
`, name))
	keyVar := "-var=alice_stripe_key=sk_test_revoke_action"
	w.RunOK("apply", "-auto-approve", "-no-color", "-input=false", keyVar)
	ids := w.e2eOutputs()
	c := testAccClient(t)
	ctx := context.Background()
	status := func(id string) *client.ConnectedAccount {
		t.Helper()
		a, err := c.GetConnectedAccount(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	if a := status(ids["alice"]); a.Status != client.StatusActive {
		t.Fatalf("alice's account is %s before the action", a.Status)
	}

	invoke := func(action string) e2eResult {
		return w.Run(nil, "apply", "-auto-approve", "-no-color", "-input=false", keyVar, "-invoke=action.service_connected_account_revoke."+action)
	}
	res := invoke("alice")
	if res.ExitCode != 0 {
		t.Fatalf("invoke: exit %d\n%s\n%s", res.ExitCode, res.Stdout, res.Stderr)
	}
	for _, want := range []string{
		"Revoking the upstream tokens of connected account " + ids["alice"],
		"Connected account " + ids["alice"] + " is REVOKED: revoked credential at the provider",
	} {
		if !strings.Contains(res.Stdout, want) {
			t.Errorf("the invoke output lacks %q:\n%s", want, res.Stdout)
		}
	}
	if a := status(ids["alice"]); a.Status != client.StatusRevoked {
		t.Fatalf("alice's account is %s after the action, want REVOKED", a.Status)
	}
	if log := testAccRevocationsOf(t, ids["alice"]); len(log) != 1 || log[0].Via != "revoke" {
		t.Fatalf("the emulator's revocation log for %s: %+v", ids["alice"], log)
	}
	// What the resource plans for a revoked account: nothing.
	if plan := w.Run(nil, "plan", "-detailed-exitcode", "-no-color", "-input=false", keyVar); plan.ExitCode != 0 {
		t.Fatalf("the plan after revoking is not empty (exit %d):\n%s\n%s", plan.ExitCode, plan.Stdout, plan.Stderr)
	}
	if res := invoke("alice"); res.ExitCode != 0 || !strings.Contains(res.Stdout, "was already REVOKED: nothing left to revoke") {
		t.Fatalf("invoking again: exit %d\n%s\n%s", res.ExitCode, res.Stdout, res.Stderr)
	}

	for _, tc := range []struct {
		action string
		want   []string
		id     string
		status string
	}{
		{"initiated", []string{`cannot be revoked in its status`, `neither ACTIVE nor REVOKED`, `is INITIATED`, `HTTP status: 409`, `Request ID: req_`}, ids["initiated"], client.StatusInitiated},
		{"mailchimp", []string{`Toolkit cannot revoke`, `Revoke the access at the provider itself`, `toolkit mailchimp does not support`, `HTTP status: 400`}, ids["mailchimp"], client.StatusActive},
		{"missing", []string{`Connected account ca_doesnotexist42 not found`, `connected_account_id`, `HTTP status: 404`, `Request ID: req_`}, "", ""},
	} {
		res := invoke(tc.action)
		if res.ExitCode == 0 {
			t.Fatalf("invoking %s succeeded:\n%s", tc.action, res.Stdout)
		}
		out := res.Stdout + res.Stderr
		summary := testAccErrRe(tc.want[0])
		if re := testAccErrRe(tc.want...); !re.MatchString(out) {
			t.Errorf("invoking %s: the output does not match %s:\n%s", tc.action, re, out)
		}
		// Said once: the explanation and the service's answer (its request
		// id) are printed one time; the error names the failure.
		if n := strings.Count(out, "Request ID: req_"); n != 1 {
			t.Errorf("invoking %s: the service's answer is printed %d times, want once:\n%s", tc.action, n, out)
		}
		if !summary.MatchString(res.Stderr) {
			t.Errorf("invoking %s: the error does not match %s:\n%s", tc.action, summary, res.Stderr)
		}
		if tc.id != "" {
			if a := status(tc.id); a.Status != tc.status {
				t.Errorf("a refused revocation changed %s to %s", tc.id, a.Status)
			}
			if log := testAccRevocationsOf(t, tc.id); len(log) != 0 {
				t.Errorf("a refused revocation was logged: %+v", log)
			}
		}
	}
	w.RunOK("destroy", "-auto-approve", "-no-color", "-input=false", keyVar)
}

// TestAccE2E_revokeBeforeDestroy runs the before_destroy example
// (examples/actions/service_connected_account_revoke/before-destroy, Terraform
// 1.16+): `terraform destroy` revokes the account (logged by the emulator)
// right before deleting it. With a toolkit that cannot revoke (mailchimp),
// the refused revocation stops a replacement before the delete (the account
// stays ACTIVE), and `terraform destroy` reports it as a warning and deletes
// the account anyway, as the example says.
func TestAccE2E_revokeBeforeDestroy(t *testing.T) {
	requireActionCLI(t, 16, "action_trigger destroy events need Terraform 1.16+: before_destroy")
	testAccRequireEmulator(t)
	t.Parallel()
	example, err := os.ReadFile(filepath.Join(testutil.RepoRoot(t), "examples", "actions", "service_connected_account_revoke", "before-destroy", "main.tf"))
	if err != nil {
		t.Fatal(err)
	}
	c := testAccClient(t)
	ctx := context.Background()
	name := acctest.RandomWithPrefix("tf-acc-revoke-destroy")
	run := func(toolkit string) (w *e2eWorkspace, id string, vars []string) {
		ac, err := c.CreateAuthConfig(ctx, client.CreateAuthConfigRequest{ToolkitSlug: toolkit, Type: client.AuthConfigTypeCustom, Name: name, AuthScheme: "API_KEY"})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = testAccDeleteAuthConfig(context.Background(), c, ac.ID) })
		w = newE2EWorkspace(t)
		// The example as copied: it names its provider's source itself.
		if err := os.Remove(w.Path("providers.tf")); err != nil {
			t.Fatal(err)
		}
		w.WriteFile("main.tf", string(example)+"\noutput \"id\" { value = service_connected_account.bob.id }\n")
		vars = []string{"-var=auth_config_id=" + ac.ID, "-var=bob_stripe_key=key_" + toolkit}
		w.RunOK(append([]string{"apply", "-auto-approve", "-no-color", "-input=false"}, vars...)...)
		return w, w.e2eOutputs()["id"], vars
	}

	w, id, vars := run("stripe")
	res := w.RunOK(append([]string{"destroy", "-auto-approve", "-no-color", "-input=false"}, vars...)...)
	if !strings.Contains(res.Stdout, "Connected account "+id+" is REVOKED") {
		t.Errorf("the destroy did not report the revocation:\n%s", res.Stdout)
	}
	if log := testAccRevocationsOf(t, id); len(log) != 1 || log[0].Via != "revoke" {
		t.Fatalf("the emulator's revocation log for %s: %+v", id, log)
	}
	if _, err := c.GetConnectedAccount(ctx, id); !client.IsNotFound(err) {
		t.Fatalf("the account was not deleted after its revocation: %v", err)
	}

	w, id, vars = run("mailchimp")
	t.Cleanup(func() { _ = c.DeleteConnectedAccount(context.Background(), id) })
	res = w.Run(nil, append([]string{"apply", "-auto-approve", "-no-color", "-input=false", "-replace=service_connected_account.bob"}, vars...)...)
	if res.ExitCode == 0 || !testAccErrRe(`Error: Toolkit cannot revoke`, id).MatchString(res.Stderr) {
		t.Fatalf("the replacement went ahead although the revocation was refused (exit %d):\n%s\n%s", res.ExitCode, res.Stdout, res.Stderr)
	}
	if a, err := c.GetConnectedAccount(ctx, id); err != nil || a.Status != client.StatusActive {
		t.Fatalf("the account whose revocation failed was deleted or changed: %v %v", a, err)
	}
	if got := w.e2eOutputs()["id"]; got != id {
		t.Fatalf("the state holds %s, want the account the replacement left: %s", got, id)
	}
	res = w.RunOK(append([]string{"destroy", "-auto-approve", "-no-color", "-input=false"}, vars...)...)
	if !testAccErrRe(`Warning: Toolkit cannot revoke`, id).MatchString(res.Stdout + res.Stderr) {
		t.Errorf("the destroy did not warn about the refused revocation:\n%s\n%s", res.Stdout, res.Stderr)
	}
	if _, err := c.GetConnectedAccount(ctx, id); !client.IsNotFound(err) {
		t.Fatalf("terraform destroy did not delete the account: %v", err)
	}
}
