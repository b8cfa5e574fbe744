package moduletest_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/integration-service/terraform-provider-service/internal/testutil"
)

// TestModuleTestingValidationNeedsNoService runs the example's
// tests/validation.tftest.hcl, the guide's validation-only test, the way the
// guide says it runs: with no emulator, no SERVICE_BASE_URL and no key (the
// mock_provider answers). Without its mock_provider block the same file
// fails on "Missing API key": the real provider is configured first.
func TestModuleTestingValidationNeedsNoService(t *testing.T) {
	testutil.RequireTerraform(t)
	root := testutil.RepoRoot(t)
	env := testutil.TerraformEnv(testutil.DevOverridesConfig(t, testutil.BuildProvider(t))) // no SERVICE_* variable
	work := filepath.Join(t.TempDir(), "module-testing")
	testutil.CopyDir(t, filepath.Join(root, "examples", "module-testing"), work)

	testutil.MustTerraform(t, work, env, "get", "-no-color")
	out, code := testutil.Terraform(t, work, env, "test", "-no-color", "-filter=tests/validation.tftest.hcl")
	if code != 0 || !strings.Contains(out, "Success! 3 passed, 0 failed.") {
		t.Fatalf("the validation-only test needs something from a service (exit %d):\n%s", code, out)
	}
}

// driftModule is a helper module a test adds to the example: it disables a
// trigger instance through the service's API, as someone would outside
// Terraform.
const driftModule = `variable "trigger_id" {
  type = string
}

resource "terraform_data" "disable" {
  input = var.trigger_id
  provisioner "local-exec" {
    command = "curl -fsS -o /dev/null -X PATCH -H \"x-api-key: $SERVICE_API_KEY\" -H 'content-type: application/json' --data '{\"status\":\"disable\"}' \"$SERVICE_BASE_URL/api/v3.1/trigger_instances/manage/$ID\""
    environment = {
      ID = var.trigger_id
    }
  }
}
`

// TestModuleTestingDriftCheckFails: the example's last two runs fail when
// something would change. A trigger disabled outside Terraform after the
// last apply fails "stable", and "no_drift" on its own (the guide's earlier
// "stable" run, a bare command = plan, passed); a configuration the last
// apply did not apply (another name_prefix) fails "stable".
func TestModuleTestingDriftCheckFails(t *testing.T) {
	testutil.RequireTerraform(t)
	root := testutil.RepoRoot(t)
	emulator := testutil.StartEmulator(t, testutil.GoBuild(t, t.TempDir(), "service-emulator", "./cmd/service-emulator"))
	env := testutil.TerraformEnv(testutil.DevOverridesConfig(t, testutil.BuildProvider(t)),
		"SERVICE_BASE_URL="+emulator.URL,
		"SERVICE_API_KEY="+emulator.APIKey,
	)
	const marker, driftedMarker = "# Nothing would change", "# Nothing drifted"
	disable := func(s string) string {
		return strings.Replace(s, marker, `run "disabled_elsewhere" {
  module {
    source = "./tests/drift"
  }
  variables {
    trigger_id = run.subscribe.trigger_id
  }
}

`+marker, 1)
	}
	// Terraform 1.16 skips the runs after a failed one: each case expects
	// one run to fail, and "no_drift" is checked on its own.
	for _, tc := range []struct {
		name       string
		edit       func(string) string
		fail, pass []string
	}{
		{"disabled outside Terraform", disable, []string{"stable"}, []string{"disabled_elsewhere"}},
		{"disabled outside Terraform, refresh-only", func(s string) string {
			s = disable(s)
			i, j := strings.Index(s, marker), strings.Index(s, driftedMarker)
			return s[:i] + s[j:] // without run "stable"
		}, []string{"no_drift"}, []string{"disabled_elsewhere"}},
		{"a change not applied", func(s string) string {
			i := strings.Index(s, `run "stable" {`)
			return s[:i] + strings.Replace(s[i:], "subscribe    = true", "subscribe    = true\n    name_prefix  = \"renamed\"", 1)
		}, []string{"stable"}, []string{"commit_pushed"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			work := filepath.Join(t.TempDir(), "module-testing")
			testutil.CopyDir(t, filepath.Join(root, "examples", "module-testing"), work)
			file := filepath.Join(work, "tests", "github_connection.tftest.hcl")
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), marker) || !strings.Contains(string(b), driftedMarker) {
				t.Fatalf("the example's test file has no %q or %q", marker, driftedMarker)
			}
			if err := os.WriteFile(file, []byte(tc.edit(string(b))), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Join(work, "tests", "drift"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(work, "tests", "drift", "main.tf"), []byte(driftModule), 0o600); err != nil {
				t.Fatal(err)
			}
			testutil.MustTerraform(t, work, env, "get", "-no-color")
			out, code := testutil.Terraform(t, work, env, "test", "-no-color", "-filter=tests/github_connection.tftest.hcl")
			if code == 0 {
				t.Fatalf("terraform test passed although something would change:\n%s", out)
			}
			for _, run := range tc.fail {
				if !strings.Contains(out, `run "`+run+`"... fail`) {
					t.Errorf("run %q did not fail:\n%s", run, out)
				}
			}
			for _, run := range tc.pass {
				if !strings.Contains(out, `run "`+run+`"... pass`) {
					t.Errorf("run %q did not pass:\n%s", run, out)
				}
			}
		})
	}
}
