// Package faults_test applies configurations through the real Terraform CLI
// against an emulator process that injects faults (throttling, 503s,
// connection resets, latency) or crashes right after committing a create, and
// checks that no apply or destroy fails, nothing is duplicated and nothing is
// left behind: the provider's write policy (internal/client/transport.go).
package faults_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/testutil"
)

var (
	buildOnce            sync.Once
	providerDir, emuPath string
)

// binaries builds the provider and the emulator once per test binary.
func binaries(t *testing.T) (string, string) {
	t.Helper()
	testutil.RequireTerraform(t)
	if os.Getenv("TF_ACC") == "" {
		t.Skip("fault suite drives the terraform CLI: set TF_ACC=1 to run")
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "tfprov-faults-") //nolint:usetesting // shared by the tests of this binary
		if err != nil {
			t.Fatal(err)
		}
		providerDir = dir
		testutil.GoBuild(t, dir, "terraform-provider-service", ".")
		emuPath = testutil.GoBuild(t, dir, "service-emulator", "./cmd/service-emulator")
	})
	if emuPath == "" {
		t.Fatal("building the binaries failed in another test")
	}
	return providerDir, emuPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if providerDir != "" {
		_ = os.RemoveAll(providerDir)
	}
	os.Exit(code)
}

// workspace is a Terraform working directory wired to one emulator.
type workspace struct {
	t   *testing.T
	dir string
	env []string
}

func newWorkspace(t *testing.T, emu *testutil.Emulator, config string) *workspace {
	t.Helper()
	provDir, _ := binaries(t)
	dir := t.TempDir()
	w := &workspace{t: t, dir: dir, env: testutil.TerraformEnv(testutil.DevOverridesConfig(t, provDir),
		"SERVICE_BASE_URL="+emu.URL, "SERVICE_API_KEY="+emu.APIKey)}
	providers := fmt.Sprintf(`terraform {
  required_providers {
    service = {
      source = %q
    }
  }
}
`, testutil.ProviderSource)
	for name, content := range map[string]string{"providers.tf": providers, "main.tf": config} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

func (w *workspace) run(args ...string) (string, int) {
	w.t.Helper()
	start := time.Now()
	out, code := testutil.Terraform(w.t, w.dir, w.env, args...)
	w.t.Logf("terraform %s: exit %d in %s", args[0], code, time.Since(start).Round(time.Millisecond))
	return out, code
}

func (w *workspace) mustRun(args ...string) string {
	w.t.Helper()
	out, code := w.run(args...)
	if code != 0 {
		w.t.Fatalf("terraform %s exited %d:\n%s", strings.Join(args, " "), code, tailText(out, 6000))
	}
	return out
}

// stateAttributes returns the attributes of every managed resource instance
// in the state, by type.
func (w *workspace) stateAttributes() map[string][]map[string]any {
	w.t.Helper()
	var st struct {
		Resources []struct {
			Mode      string `json:"mode"`
			Type      string `json:"type"`
			Instances []struct {
				Attributes map[string]any `json:"attributes"`
			} `json:"instances"`
		} `json:"resources"`
	}
	b, err := os.ReadFile(filepath.Join(w.dir, "terraform.tfstate"))
	if err != nil {
		w.t.Fatal(err)
	}
	if err := json.Unmarshal(b, &st); err != nil {
		w.t.Fatal(err)
	}
	out := map[string][]map[string]any{}
	for _, r := range st.Resources {
		if r.Mode != "managed" {
			continue
		}
		for _, in := range r.Instances {
			out[r.Type] = append(out[r.Type], in.Attributes)
		}
	}
	return out
}

// stateIDs returns the ids of the managed resources in the state by type.
func (w *workspace) stateIDs() map[string][]string {
	w.t.Helper()
	out := map[string][]string{}
	for typ, instances := range w.stateAttributes() {
		for _, attrs := range instances {
			id, _ := attrs["id"].(string)
			out[typ] = append(out[typ], id)
		}
		slices.Sort(out[typ])
	}
	return out
}

// serviceObjects lists what the emulator holds, by resource type, through a
// client that retries reads through the injected faults.
func serviceObjects(t *testing.T, emu *testutil.Emulator) (map[string][]string, map[string][]string) {
	t.Helper()
	c, err := client.New(client.Config{BaseURL: emu.URL, APIKey: emu.APIKey, MaxRetries: 10,
		RetryWaitMin: 50 * time.Millisecond, RetryWaitMax: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ids, names := map[string][]string{}, map[string][]string{}
	acs, err := c.ListAuthConfigs(ctx, client.AuthConfigListParams{ShowDisabled: true})
	if err != nil {
		t.Fatalf("listing auth configs: %v", err)
	}
	for _, a := range acs {
		ids["service_auth_config"] = append(ids["service_auth_config"], a.ID)
		names["service_auth_config"] = append(names["service_auth_config"], a.Name)
	}
	accts, err := c.ListConnectedAccounts(ctx, client.ConnectedAccountListParams{})
	if err != nil {
		t.Fatalf("listing connected accounts: %v", err)
	}
	for _, a := range accts {
		ids["service_connected_account"] = append(ids["service_connected_account"], a.ID)
		names["service_connected_account"] = append(names["service_connected_account"], a.UserID)
	}
	tis, err := c.ListActiveTriggers(ctx, client.TriggerInstanceListParams{ShowDisabled: true})
	if err != nil {
		t.Fatalf("listing trigger instances: %v", err)
	}
	for _, ti := range tis {
		ids["service_trigger_instance"] = append(ids["service_trigger_instance"], ti.ID)
		names["service_trigger_instance"] = append(names["service_trigger_instance"], ti.UserID)
	}
	for _, m := range []map[string][]string{ids, names} {
		for _, v := range m {
			slices.Sort(v)
		}
	}
	return ids, names
}

// checkExactly asserts that the service holds exactly the objects in the
// state, want[type] of each, with distinct natural keys (no duplicates).
func checkExactly(t *testing.T, w *workspace, emu *testutil.Emulator, want map[string]int) {
	t.Helper()
	state := w.stateIDs()
	ids, names := serviceObjects(t, emu)
	for typ, n := range want {
		if len(state[typ]) != n {
			t.Errorf("%s: %d in state, want %d", typ, len(state[typ]), n)
		}
		if !slices.Equal(state[typ], ids[typ]) {
			t.Errorf("%s: state and service differ\nstate:   %v\nservice: %v", typ, state[typ], ids[typ])
		}
		if c := slices.Compact(slices.Clone(names[typ])); len(c) != len(names[typ]) {
			t.Errorf("%s: duplicate natural keys on the service: %v", typ, names[typ])
		}
	}
}

func checkEmpty(t *testing.T, emu *testutil.Emulator) {
	t.Helper()
	ids, _ := serviceObjects(t, emu)
	for typ, v := range ids {
		if len(v) != 0 {
			t.Errorf("%s left on the service after destroy: %v", typ, v)
		}
	}
}

// fleetConfig declares auth configs (stripe API key), one connected account
// per user spread over them, and one trigger instance per account.
func fleetConfig(prefix string, authConfigs, accounts int) string {
	return fmt.Sprintf(`
resource "service_auth_config" "ac" {
  count       = %[2]d
  toolkit     = "stripe"
  type        = "use_custom_auth"
  auth_scheme = "API_KEY"
  name        = "%[1]s-${count.index}"
}

resource "service_connected_account" "a" {
  count          = %[3]d
  user_id        = "%[1]s-user-${count.index}"
  auth_config_id = service_auth_config.ac[count.index %% %[2]d].id
  credentials_wo = {
    api_key = "sk_test_%[1]s_${count.index}"
  }
  credentials_wo_version = 1
}

resource "service_trigger_instance" "t" {
  count                = %[3]d
  user_id              = "%[1]s-user-${count.index}"
  slug                 = "STRIPE_CHARGE_SUCCEEDED_TRIGGER"
  connected_account_id = service_connected_account.a[count.index].id
  trigger_config       = jsonencode({ min_amount = count.index + 1 })
}
`, prefix, authConfigs, accounts)
}

func tailText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}
