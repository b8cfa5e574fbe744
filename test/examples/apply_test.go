package examples_test

// TestExamplesApply applies every resource, data source and ephemeral
// resource example (the examples the docs show) against an emulator of its
// own, then checks that a second plan is empty, that the import examples
// import what the apply created, and that destroy removes everything. A
// broken docs example therefore fails `make test`.
//
// What an example references but does not create is provided here:
//
//   - variables: the values in exampleVars, written to a .auto.tfvars file
//     beside the copy (only the variables the example declares);
//   - ids of objects the example expects to exist (the data source examples
//     that look one up by id, the ephemeral resource's account): seeds
//     creates the objects through the emulator's API first and the literal
//     placeholder id of the example is replaced by the created object's id
//     in the copy (or the id is given as a variable);
//   - required_providers, left out of docs examples, is added to the copy.
//
// The import examples (import-by-string-id.tf, and import-by-identity.tf on
// Terraform and OpenTofu 1.12+) are applied after the resource example: the imported
// address is removed from the state with `state rm`, the import block is
// added with the example's placeholder id replaced by the removed object's
// id, and apply must import it and leave a plan that is empty.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/testutil"
	"github.com/integration-service/terraform-provider-service/internal/testutil/contractcheck"
)

// exampleVars are the values of the variables the examples declare.
var exampleVars = map[string]string{
	"stripe_api_key":       "sk_test_examples_0000000000",
	"stripe_shared_key":    "rk_test_examples_shared_0000",
	"slack_client_secret":  "examples-slack-client-secret",
	"slack_signing_secret": "examples-slack-signing-secret",
	"proxy_key":            "examples-proxy-key",
}

// seed creates objects an example expects to exist and returns the
// replacements (placeholder id in the example => created id) and extra
// variable values.
type seed func(ctx context.Context, t *testing.T, c *client.Client, e *testutil.Emulator) (replace, vars map[string]string)

var seeds = map[string]seed{
	// Looks up "ac_1a2b3c4d5e6f" by id and GitHub's "GitHub (managed)" by name.
	"data-sources/service_auth_config": func(ctx context.Context, t *testing.T, c *client.Client, _ *testutil.Emulator) (map[string]string, map[string]string) {
		ac := createAuthConfig(ctx, t, c, "github", "GitHub (managed)")
		return map[string]string{"ac_1a2b3c4d5e6f": ac}, nil
	},
	// Looks up an MCP server by id and "support-agent" by name.
	"data-sources/service_mcp_server": func(ctx context.Context, t *testing.T, c *client.Client, _ *testutil.Emulator) (map[string]string, map[string]string) {
		ac := createAuthConfig(ctx, t, c, "github", "")
		s, err := c.CreateMCPServer(ctx, client.CreateMCPServerRequest{Name: "support-agent", AuthConfigIDs: []string{ac}, AllowedTools: []string{"GITHUB_CREATE_AN_ISSUE"}})
		if err != nil {
			t.Fatalf("seed MCP server: %v", err)
		}
		return map[string]string{"6f1c2c9e-5b1a-4c3e-9d2f-0a1b2c3d4e5f": s.ID}, nil
	},
	// Reads a saved session config (the service writes them only in its
	// dashboard: the emulator's control route stands in for it).
	"data-sources/service_session_config": func(ctx context.Context, t *testing.T, _ *client.Client, e *testutil.Emulator) (map[string]string, map[string]string) {
		id := seedSessionConfig(ctx, t, e, "Support policy")
		return map[string]string{"sc_1a2b3c4d5e6f": id}, nil
	},
	// Lists the session configs named "support".
	"data-sources/service_session_configs": func(ctx context.Context, t *testing.T, _ *client.Client, e *testutil.Emulator) (map[string]string, map[string]string) {
		seedSessionConfig(ctx, t, e, "Support policy")
		seedSessionConfig(ctx, t, e, "Operations policy")
		return nil, nil
	},
	// Reads the credentials of an ACTIVE GitHub (OAuth) account: created, then
	// approved through the emulator's control route.
	"ephemeral-resources/service_connected_account_credentials": func(ctx context.Context, t *testing.T, c *client.Client, e *testutil.Emulator) (map[string]string, map[string]string) {
		ac := createAuthConfig(ctx, t, c, "github", "")
		cr, err := c.InitiateConnectedAccount(ctx, client.InitiateConnectedAccountRequest{AuthConfigID: ac, UserID: "user-42"})
		if err != nil {
			t.Fatalf("seed connected account: %v", err)
		}
		control(ctx, t, e, "/_emulator/connected_accounts/"+cr.ID+"/complete")
		return nil, map[string]string{"github_account_id": cr.ID}
	},
}

func createAuthConfig(ctx context.Context, t *testing.T, c *client.Client, toolkit, name string) string {
	t.Helper()
	ac, err := c.CreateAuthConfig(ctx, client.CreateAuthConfigRequest{ToolkitSlug: toolkit, Type: client.AuthConfigTypeManaged, Name: name})
	if err != nil {
		t.Fatalf("seed auth config: %v", err)
	}
	return ac.ID
}

// seedSessionConfig stores a session config of the example's project
// through the emulator's control route and returns its id.
func seedSessionConfig(ctx context.Context, t *testing.T, e *testutil.Emulator, name string) string {
	t.Helper()
	body := `{"name":` + strconv.Quote(name) + `,"description":"Support agents",` +
		`"config":{"toolkits":{"enable":["github","slack"]},"tags":{"disable":["destructiveHint"]}}}`
	var out struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(controlBody(ctx, t, e, "/_emulator/session_configs", body), &out); err != nil || out.ID == "" {
		t.Fatalf("seed session config: %v", err)
	}
	return out.ID
}

func control(ctx context.Context, t *testing.T, e *testutil.Emulator, path string) {
	t.Helper()
	controlBody(ctx, t, e, path, "{}")
}

// controlBody POSTs body to a control route and returns its answer.
func controlBody(ctx context.Context, t *testing.T, e *testutil.Emulator, path, body string) []byte {
	t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("x-api-key", e.APIKey)
	req.Header.Set("content-type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode/100 != 2 {
		t.Fatalf("POST %s: %s %s", path, resp.Status, b)
	}
	return b
}

// applyDirs are the example directories applied: every resource, data
// source and ephemeral resource example, and the provider example.
func applyDirs(t *testing.T, root string) []string {
	t.Helper()
	var dirs []string
	for _, kind := range []string{"resources", "data-sources", "ephemeral-resources"} {
		entries, err := os.ReadDir(filepath.Join(root, "examples", kind))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.IsDir() {
				dirs = append(dirs, kind+"/"+e.Name())
			}
		}
	}
	sort.Strings(dirs)
	return append(dirs, "provider")
}

var (
	variableRE = regexp.MustCompile(`(?m)^variable\s+"([A-Za-z0-9_-]+)"`)
	importToRE = regexp.MustCompile(`(?m)^\s*to\s*=\s*(\S+)`)
	importIDRE = regexp.MustCompile(`(?m)^\s*id\s*=\s*"([^"]+)"`)
)

func TestExamplesApply(t *testing.T) {
	testutil.RequireTerraform(t)
	root := testutil.RepoRoot(t)
	emulatorBin := testutil.GoBuild(t, t.TempDir(), "service-emulator", "./cmd/service-emulator")
	cliConfig := testutil.DevOverridesConfig(t, testutil.BuildProvider(t))

	for _, rel := range applyDirs(t, root) {
		t.Run(rel, func(t *testing.T) {
			t.Parallel()
			applyExample(t, root, rel, emulatorBin, cliConfig)
		})
	}
}

func applyExample(t *testing.T, root, rel, emulatorBin, cliConfig string) {
	ctx := t.Context()
	e := contractcheck.StartEmulator(t, emulatorBin)
	c, err := client.New(client.Config{BaseURL: e.URL, APIKey: e.APIKey})
	if err != nil {
		t.Fatal(err)
	}
	var replace, vars map[string]string
	if s := seeds[rel]; s != nil {
		replace, vars = s(ctx, t, c, e)
	}
	env := testutil.TerraformEnv(cliConfig, "SERVICE_BASE_URL="+e.URL, "SERVICE_API_KEY="+e.APIKey, "SERVICE_ORG_API_KEY="+e.OrgAPIKey)

	src := filepath.Join(root, "examples", filepath.FromSlash(rel))
	work := t.TempDir()
	var text strings.Builder
	var imports []string
	for _, f := range globFiles(t, src, "*.tf") {
		if strings.HasPrefix(filepath.Base(f), "import-") {
			imports = append(imports, f)
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		for from, to := range replace {
			s = strings.ReplaceAll(s, from, to)
		}
		text.WriteString(s)
		if err := os.WriteFile(filepath.Join(work, filepath.Base(f)), []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if !strings.Contains(text.String(), "required_providers") {
		writeFile(t, filepath.Join(work, "zz_required_providers.tf"), requiredProviders)
	}
	var tfvars strings.Builder
	for _, m := range variableRE.FindAllStringSubmatch(text.String(), -1) {
		v, ok := vars[m[1]]
		if !ok {
			v, ok = exampleVars[m[1]]
		}
		if !ok {
			t.Fatalf("variable %q of the example has no value: add it to exampleVars or to the example's seed", m[1])
		}
		fmt.Fprintf(&tfvars, "%s = %q\n", m[1], v)
	}
	if tfvars.Len() > 0 {
		writeFile(t, filepath.Join(work, "examples_test.auto.tfvars"), tfvars.String())
	}

	tf := func(args ...string) (string, int) {
		return testutil.Terraform(t, work, env, append(args, "-no-color")...)
	}
	if out, code := tf("apply", "-auto-approve"); code != 0 {
		t.Fatalf("apply failed (exit %d):\n%s", code, out)
	}
	destroyed := destroyAtCleanup(t, tf)
	expectEmptyPlan(t, tf, "after apply")

	for _, imp := range imports {
		if ok, version := identityCLI(t); filepath.Base(imp) == "import-by-identity.tf" && !ok {
			t.Logf("%s skipped on %s: resource identity needs Terraform 1.12+ or OpenTofu 1.12+", filepath.Base(imp), version)
			continue
		}
		importExample(t, tf, work, imp)
	}

	if out, code := tf("destroy", "-auto-approve"); code != 0 {
		t.Fatalf("destroy failed (exit %d):\n%s", code, out)
	}
	*destroyed = true
	if out, _ := tf("state", "list"); strings.TrimSpace(out) != "" {
		t.Errorf("state after destroy is not empty:\n%s", out)
	}
}

// importExample removes the import block's address from the state and
// imports it again through the example's import block (placeholder id
// replaced by the object's id).
func importExample(t *testing.T, tf func(...string) (string, int), work, imp string) {
	t.Helper()
	name := filepath.Base(imp)
	b, err := os.ReadFile(imp)
	if err != nil {
		t.Fatal(err)
	}
	to, placeholder := importToRE.FindStringSubmatch(string(b)), importIDRE.FindStringSubmatch(string(b))
	if to == nil || placeholder == nil {
		t.Fatalf("%s: no `to = ...` and `id = \"...\"` found", name)
	}
	addr := to[1]
	id := stateID(t, tf, addr)
	if out, code := tf("state", "rm", addr); code != 0 {
		t.Fatalf("%s: state rm %s (exit %d):\n%s", name, addr, code, out)
	}
	dst := filepath.Join(work, name)
	writeFile(t, dst, strings.ReplaceAll(string(b), placeholder[1], id))
	out, code := tf("apply", "-auto-approve")
	if code != 0 {
		t.Fatalf("%s: apply importing %s (exit %d):\n%s", name, id, code, out)
	}
	if !strings.Contains(out, "1 imported") {
		t.Errorf("%s: apply did not import %s:\n%s", name, addr, out)
	}
	expectEmptyPlan(t, tf, "after "+name)
	if err := os.Remove(dst); err != nil {
		t.Fatal(err)
	}
}

func stateID(t *testing.T, tf func(...string) (string, int), addr string) string {
	t.Helper()
	out, code := tf("show", "-json")
	if code != 0 {
		t.Fatalf("show -json (exit %d):\n%s", code, out)
	}
	var st struct {
		Values struct {
			RootModule struct {
				Resources []struct {
					Address string         `json:"address"`
					Values  map[string]any `json:"values"`
				} `json:"resources"`
			} `json:"root_module"`
		} `json:"values"`
	}
	if err := json.Unmarshal([]byte(jsonPart(out)), &st); err != nil {
		t.Fatalf("show -json: %v\n%s", err, out)
	}
	for _, r := range st.Values.RootModule.Resources {
		if r.Address == addr {
			if id, ok := r.Values["id"].(string); ok && id != "" {
				return id
			}
		}
	}
	t.Fatalf("%s not in the state (or without id):\n%s", addr, out)
	return ""
}

// destroyAtCleanup runs `destroy -auto-approve` (with args) through tf when
// the test ends, unless the test sets the answer to true once it has
// destroyed everything itself.
func destroyAtCleanup(t *testing.T, tf func(...string) (string, int), args ...string) *bool {
	t.Helper()
	done := false
	t.Cleanup(func() {
		if !done {
			_, _ = tf(append([]string{"destroy", "-auto-approve"}, args...)...)
		}
	})
	return &done
}

func expectEmptyPlan(t *testing.T, tf func(...string) (string, int), when string) {
	t.Helper()
	out, code := tf("plan", "-detailed-exitcode")
	switch code {
	case 0:
	case 2:
		t.Errorf("plan %s is not empty:\n%s", when, out)
	default:
		t.Fatalf("plan %s failed (exit %d):\n%s", when, code, out)
	}
}

func writeFile(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
}
