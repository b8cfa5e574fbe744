package faults_test

import (
	"context"
	"fmt"
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
		w := newWorkspace(t, emu, fmt.Sprintf(`
resource "service_auth_config" "ac" {
  toolkit     = "stripe"
  type        = "use_custom_auth"
  auth_scheme = "API_KEY"
  name        = "pair-%[1]s"
}

resource "service_connected_account" "first" {
  user_id        = %[1]q
  auth_config_id = service_auth_config.ac.id
  credentials_wo = {
    api_key = "sk_test_first"
  }
  credentials_wo_version = 1
}

resource "service_connected_account" "second" {
  user_id        = %[1]q
  auth_config_id = service_auth_config.ac.id
  credentials_wo = {
    api_key = "sk_test_second"
  }
  credentials_wo_version = 1
}
`, user))
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
