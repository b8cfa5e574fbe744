// Package moduletest_test runs examples/module-testing's `terraform test`
// suite the way docs/guides/testing-your-modules.md tells users to: against
// an emulator process, with SERVICE_BASE_URL and SERVICE_API_KEY in the
// environment. Here the provider is this tree's build (dev_overrides, so
// `terraform get` replaces `terraform init`); users install it from the
// registry with `terraform init`.
package moduletest_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/integration-service/terraform-provider-service/internal/testutil"
	"github.com/integration-service/terraform-provider-service/internal/testutil/contractcheck"
)

func TestModuleTestingExample(t *testing.T) {
	testutil.RequireTerraform(t)
	root := testutil.RepoRoot(t)
	emulator := contractcheck.StartEmulator(t, testutil.GoBuild(t, t.TempDir(), "service-emulator", "./cmd/service-emulator"))
	env := testutil.TerraformEnv(testutil.DevOverridesConfig(t, testutil.BuildProvider(t)),
		"SERVICE_BASE_URL="+emulator.URL,
		"SERVICE_API_KEY="+emulator.APIKey,
	)

	// A copy, so that nothing is written into examples/.
	work := filepath.Join(t.TempDir(), "module-testing")
	testutil.CopyDir(t, filepath.Join(root, "examples", "module-testing"), work)
	if _, err := os.Stat(filepath.Join(work, "tests", "github_connection.tftest.hcl")); err != nil {
		t.Fatalf("the example has no test file: %v", err)
	}

	testutil.MustTerraform(t, work, env, "get", "-no-color")
	out, code := testutil.Terraform(t, work, env, "test", "-no-color")
	if code != 0 {
		t.Fatalf("terraform test failed (exit %d):\n%s", code, out)
	}
	for _, run := range []string{"connect", "user_approves", "subscribe", "commit_pushed", "stable", "no_drift",
		"rejects_an_invalid_prefix", "accepts_a_valid_prefix", "subscribes_once_approved"} {
		if !strings.Contains(out, `run "`+run+`"... pass`) {
			t.Errorf("run %q did not pass:\n%s", run, out)
		}
	}
	if !strings.Contains(out, "Success! 9 passed, 0 failed.") {
		t.Errorf("terraform test did not report 9 passed runs:\n%s", out)
	}

	// terraform test destroyed what it created.
	for _, path := range []string{"/api/v3.1/auth_configs", "/api/v3.1/connected_accounts", "/api/v3.1/trigger_instances/active"} {
		if n := countItems(t, emulator, path); n != 0 {
			t.Errorf("GET %s lists %d objects after terraform test, want 0 (teardown destroys everything)", path, n)
		}
	}
}

func countItems(t *testing.T, e *testutil.Emulator, path string) int {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, e.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("x-api-key", e.APIKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct {
		Items []json.RawMessage `json:"items"`
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s", path, resp.Status)
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	return len(body.Items)
}
