package examples_test

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/test/testutil"
)

// TestEnvironmentsExample applies examples/environments as its README says,
// against an emulator of its own: stage 1 (organization/) with the
// organization's key only creates the staging and production projects and
// outputs their keys; stage 2 (environments/) configures one provider per
// project from those keys and creates each environment's auth configs. It then
// checks that each project's objects are visible with its own key and
// invisible with the other's, that both plans are empty, and tears down in
// reverse order: stage 2 destroy, then stage 1, whose destroy is refused at
// plan while deletion_protection is on (nothing deleted) and succeeds once it
// is off.
func TestEnvironmentsExample(t *testing.T) {
	testutil.RequireTerraform(t)
	root := testutil.RepoRoot(t)
	emulatorBin := testutil.GoBuild(t, t.TempDir(), "service-emulator", "./cmd/service-emulator")
	cliConfig := testutil.DevOverridesConfig(t, testutil.BuildProvider(t))
	e := testutil.StartEmulator(t, emulatorBin)
	ctx := t.Context()

	work := t.TempDir()
	testutil.CopyDir(t, filepath.Join(root, "examples", "environments"), work)
	orgDir, envDir := filepath.Join(work, "organization"), filepath.Join(work, "environments")

	// Stage 1: the organization's key only (no SERVICE_API_KEY).
	orgEnv := testutil.TerraformEnv(cliConfig, "SERVICE_BASE_URL="+e.URL, "SERVICE_ORG_API_KEY="+e.OrgAPIKey)
	org := func(args ...string) (string, int) {
		return testutil.Terraform(t, orgDir, orgEnv, append(args, "-no-color")...)
	}
	if out, code := org("apply", "-auto-approve"); code != 0 {
		t.Fatalf("stage 1 apply failed (exit %d):\n%s", code, out)
	}
	orgDone := false
	t.Cleanup(func() {
		if !orgDone {
			_, _ = org("destroy", "-auto-approve", "-var", "deletion_protection=false")
		}
	})
	expectEmptyPlan(t, org, "of stage 1 after apply")
	out, code := testutil.Terraform(t, orgDir, orgEnv, "output", "-json", "api_keys")
	if code != 0 {
		t.Fatalf("output api_keys (exit %d):\n%s", code, out)
	}
	var keys map[string]string
	if err := json.Unmarshal([]byte(jsonPart(out)), &keys); err != nil || keys["staging"] == "" || keys["production"] == "" {
		t.Fatalf("api_keys output = %q (%v); want a key for staging and production", out, err)
	}

	// Stage 2: one provider per project, keys from stage 1.
	envEnv := testutil.TerraformEnv(cliConfig, "SERVICE_BASE_URL="+e.URL,
		"TF_VAR_staging_api_key="+keys["staging"], "TF_VAR_production_api_key="+keys["production"])
	envs := func(args ...string) (string, int) {
		return testutil.Terraform(t, envDir, envEnv, append(args, "-no-color")...)
	}
	// The local module is installed by `terraform get` (init would also look
	// the provider up in the registry; the dev override serves it instead).
	if out, code := envs("get"); code != 0 {
		t.Fatalf("stage 2 get (exit %d):\n%s", code, out)
	}
	if out, code := envs("apply", "-auto-approve"); code != 0 {
		t.Fatalf("stage 2 apply failed (exit %d):\n%s", code, out)
	}
	envsDone := false
	t.Cleanup(func() {
		if !envsDone {
			_, _ = envs("destroy", "-auto-approve")
		}
	})
	expectEmptyPlan(t, envs, "of stage 2 after apply")

	// Each project sees its own auth configs and none of the other's.
	for env, key := range keys {
		c, err := client.New(client.Config{BaseURL: e.URL, APIKey: key})
		if err != nil {
			t.Fatal(err)
		}
		acs, err := c.ListAuthConfigs(ctx, client.AuthConfigListParams{})
		if err != nil {
			t.Fatalf("%s: listing auth configs with its key: %v", env, err)
		}
		var names []string
		for _, ac := range acs {
			names = append(names, ac.Name)
		}
		slices.Sort(names)
		want := []string{"GitHub (" + env + ")", "Slack (" + env + ")"}
		if !slices.Equal(names, want) {
			t.Errorf("%s project's auth configs = %q, want %q (each project sees only its own)", env, names, want)
		}
	}

	if out, code := envs("destroy", "-auto-approve"); code != 0 {
		t.Fatalf("stage 2 destroy failed (exit %d):\n%s", code, out)
	}
	envsDone = true

	// deletion_protection refuses the destroy at plan; nothing is deleted.
	out, code = org("destroy", "-auto-approve")
	if code == 0 || !strings.Contains(out, "deletion_protection") {
		t.Fatalf("stage 1 destroy with deletion_protection on: exit %d, want a refusal naming deletion_protection:\n%s", code, out)
	}
	oc, err := client.New(client.Config{BaseURL: e.URL, OrgAPIKey: e.OrgAPIKey})
	if err != nil {
		t.Fatal(err)
	}
	live := func() []string {
		var names []string
		for p, err := range oc.Projects(ctx) {
			if err != nil {
				t.Fatalf("listing projects: %v", err)
			}
			names = append(names, p.Name)
		}
		return names
	}
	if names := live(); !slices.Contains(names, "staging") || !slices.Contains(names, "production") {
		t.Fatalf("projects after the refused destroy = %q; want staging and production kept", names)
	}
	if out, code := org("apply", "-auto-approve", "-var", "deletion_protection=false"); code != 0 {
		t.Fatalf("turning deletion_protection off (exit %d):\n%s", code, out)
	}
	if out, code := org("destroy", "-auto-approve", "-var", "deletion_protection=false"); code != 0 {
		t.Fatalf("stage 1 destroy (exit %d):\n%s", code, out)
	}
	orgDone = true
	if names := live(); slices.Contains(names, "staging") || slices.Contains(names, "production") {
		t.Errorf("projects after destroy = %q; want staging and production gone", names)
	}
}
