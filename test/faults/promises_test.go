package faults_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/testutil"
)

// The promises of issue 37, through the CLI that TF_CLI names (Terraform or
// OpenTofu), with -parallelism=10, against an emulator injecting the fault
// suite's faults (TestFaultSuite's, with 2% resets).

// promiseEmulator starts an emulator with the fault suite's faults.
func promiseEmulator(t *testing.T) *testutil.Emulator {
	t.Helper()
	_, emuBin := binaries(t)
	seed := faultSeed(t)
	return testutil.StartEmulatorWith(t, emuBin, testutil.EmulatorOptions{
		Faults: "seed=" + strconv.FormatUint(seed, 10) + ",status=429:0.1,status=503:0.1,reset=0.02,latency=20ms",
	})
}

// faultClient is a client that retries through the injected faults, for
// the test's own reads and control calls.
func faultClient(t *testing.T, emu *testutil.Emulator) *client.Client {
	t.Helper()
	c, err := client.New(client.Config{BaseURL: emu.URL, APIKey: emu.APIKey, MaxRetries: 10,
		RetryWaitMin: 50 * time.Millisecond, RetryWaitMax: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// userAccounts is a stripe API-key auth config named acName and, for each
// of names, a service_connected_account of user on it (ACTIVE at once).
func userAccounts(acName, user string, names ...string) string {
	hcl := fmt.Sprintf(`
resource "service_auth_config" "ac" {
  toolkit     = "stripe"
  type        = "use_custom_auth"
  auth_scheme = "API_KEY"
  name        = %q
}
`, acName)
	for _, name := range names {
		hcl += fmt.Sprintf(`
resource "service_connected_account" %q {
  user_id        = %q
  auth_config_id = service_auth_config.ac.id
  credentials_wo = {
    api_key = "sk_test_%s"
  }
  credentials_wo_version = 1
}
`, name, user, name)
	}
	return hcl
}

// TestPromise_oneAccountPerUserAndAuthConfig: 20 rounds, each an apply of
// two service_connected_accounts of one user on one auth config (API keys,
// ACTIVE at once) under -parallelism=10: the second is refused before it is
// written (the apply fails naming it), the service holds exactly one
// account of the user, and the destroy leaves nothing.
func TestPromise_oneAccountPerUserAndAuthConfig(t *testing.T) {
	t.Parallel()
	emu := promiseEmulator(t)
	c := faultClient(t, emu)
	const rounds = 20
	duplicates := 0
	for round := range rounds {
		user := fmt.Sprintf("pair-user-%02d", round)
		w := newWorkspace(t, emu, userAccounts("pair-"+user, user, "first", "second"))
		out, code := w.run("apply", "-auto-approve", "-no-color", "-input=false", "-parallelism=10")
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		accounts, err := c.ListConnectedAccounts(ctx, client.ConnectedAccountListParams{UserIDs: []string{user}})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case len(accounts) > 1:
			duplicates++
			t.Errorf("round %d: %d accounts of user %s on the service after one apply (exit %d), want 1", round, len(accounts), user, code)
		case code == 0:
			t.Errorf("round %d: the apply of two accounts of one user and auth config succeeded:\n%s", round, tailText(out, 3000))
		case !strings.Contains(out, "Connected account already exists") || !strings.Contains(out, "created a moment ago by this apply"):
			t.Errorf("round %d: the apply failed, but not on the duplicate of this apply:\n%s", round, tailText(out, 4000))
		}
		w.mustRun("destroy", "-auto-approve", "-no-color", "-input=false", "-parallelism=10")
	}
	t.Logf("%d rounds, %d with two accounts", rounds, duplicates)
	checkEmpty(t, emu)
}

// TestPromise_failedTestRunLeavesNothing: a `terraform test` (`tofu test`)
// run whose apply stops on a provider check (a credential field misspelt on
// an auth config created in the same run) fails, and its teardown destroys
// the auth config: nothing is left in state or on the service.
func TestPromise_failedTestRunLeavesNothing(t *testing.T) {
	t.Parallel()
	emu := promiseEmulator(t)
	w := newWorkspace(t, emu, `
resource "service_auth_config" "ac" {
  toolkit     = "stripe"
  type        = "use_custom_auth"
  auth_scheme = "API_KEY"
  name        = "leak"
}

resource "service_connected_account" "a" {
  user_id        = "leak-user"
  auth_config_id = service_auth_config.ac.id
  credentials_wo = {
    apikey = "sk_test_misspelt"
  }
  credentials_wo_version = 1
}
`)
	if err := os.MkdirAll(filepath.Join(w.dir, "tests"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(w.dir, "tests", "leak.tftest.hcl"), []byte("run \"apply\" {}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, code := w.run("test", "-no-color")
	if code == 0 || !strings.Contains(out, "apikey") {
		t.Fatalf("the run did not fail on the misspelt field (exit %d):\n%s", code, tailText(out, 4000))
	}
	if strings.Contains(out, "cleaned up manually") {
		t.Errorf("the teardown left objects behind:\n%s", tailText(out, 4000))
	}
	checkEmpty(t, emu)
}

// TestPromise_destroyAfterRevocation: a configuration reading an account's
// ephemeral credentials; once the account is REVOKED, a plan and a destroy
// (without -refresh=false) succeed.
func TestPromise_destroyAfterRevocation(t *testing.T) {
	t.Parallel()
	emu := promiseEmulator(t)
	c := faultClient(t, emu)
	ctx := t.Context()
	ac, err := c.CreateAuthConfig(ctx, client.CreateAuthConfigRequest{ToolkitSlug: "github", Type: client.AuthConfigTypeManaged, Name: "offboard"})
	if err != nil {
		t.Fatal(err)
	}
	conn, err := c.InitiateConnectedAccount(ctx, client.InitiateConnectedAccountRequest{AuthConfigID: ac.ID, UserID: "offboard-user",
		State: &client.ConnectionState{AuthScheme: "OAUTH2", Val: map[string]any{"access_token": "gho_offboard", "token_type": "bearer"}}})
	if err != nil {
		t.Fatal(err)
	}
	w := newWorkspace(t, emu, fmt.Sprintf(`
ephemeral "service_connected_account_credentials" "gh" {
  connected_account_id = %q
}

resource "service_auth_config" "consumer" {
  count       = 5
  toolkit     = "stripe"
  type        = "use_custom_auth"
  auth_scheme = "API_KEY"
  name        = "consumer-${count.index}"
  credentials_wo = {
    base_url = "https://api.example.com/${lookup(ephemeral.service_connected_account_credentials.gh.values, "token_type", "none")}"
  }
  credentials_wo_version = 1
}
`, conn.ID))
	w.mustRun("apply", "-auto-approve", "-no-color", "-input=false", "-parallelism=10")
	if _, err := c.RevokeConnectedAccount(ctx, conn.ID); err != nil {
		t.Fatal(err)
	}
	if out := w.mustRun("plan", "-no-color", "-input=false", "-parallelism=10"); !strings.Contains(out, "REVOKED") {
		t.Errorf("the plan after the revocation does not name the status:\n%s", tailText(out, 3000))
	}
	w.mustRun("destroy", "-auto-approve", "-no-color", "-input=false", "-parallelism=10")
	if err := c.DeleteConnectedAccount(ctx, conn.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DeleteAuthConfigWith(ctx, ac.ID, client.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	checkEmpty(t, emu)
}

// TestPromise_noSharedTriggerInstance: 10 rounds, each an apply of an
// account and two service_trigger_instances of one key (slug, account,
// trigger_config), the account created in the same apply so that the plan
// cannot compare them: one is refused, never do two resources hold one
// instance, and the account never has two.
func TestPromise_noSharedTriggerInstance(t *testing.T) {
	t.Parallel()
	emu := promiseEmulator(t)
	c := faultClient(t, emu)
	for round := range 10 {
		user := fmt.Sprintf("shared-user-%02d", round)
		trigger := func(name string) string {
			return fmt.Sprintf(`
resource "service_trigger_instance" %q {
  user_id              = %q
  slug                 = "STRIPE_CHARGE_SUCCEEDED_TRIGGER"
  connected_account_id = service_connected_account.a.id
  trigger_config       = jsonencode({ min_amount = 5 })
}
`, name, user)
		}
		w := newWorkspace(t, emu, userAccounts("shared-"+user, user, "a")+trigger("first")+trigger("second"))
		out, code := w.run("apply", "-auto-approve", "-no-color", "-input=false", "-parallelism=10")
		if code == 0 {
			t.Errorf("round %d: two triggers of one key applied:\n%s", round, tailText(out, 3000))
		}
		held := map[string]int{}
		for _, id := range w.stateIDs()["service_trigger_instance"] {
			held[id]++
		}
		for id, n := range held {
			if n > 1 {
				t.Errorf("round %d: %d resources hold trigger instance %s", round, n, id)
			}
		}
		var accountID string
		if ids := w.stateIDs()["service_connected_account"]; len(ids) == 1 {
			accountID = ids[0]
		}
		if accountID != "" {
			list, err := c.ListActiveTriggers(t.Context(), client.TriggerInstanceListParams{ConnectedAccountIDs: []string{accountID}, ShowDisabled: true})
			if err != nil {
				t.Fatal(err)
			}
			if len(list) > 1 {
				t.Errorf("round %d: account %s has %d trigger instances", round, accountID, len(list))
			}
		}
		w.mustRun("destroy", "-auto-approve", "-no-color", "-input=false", "-parallelism=10")
	}
	checkEmpty(t, emu)
}
