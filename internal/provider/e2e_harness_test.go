package provider

// End-to-end harness: runs the real terraform CLI against a provider binary
// built from this tree (dev_overrides, no registry, no `terraform init`) and
// the shared acceptance endpoint (the in-process emulator, see acc_test.go).
// Use it for what terraform-plugin-testing cannot show: the state file, saved
// plan files, TF_LOG output, `-generate-config-out`, and per-command request
// counts (testAccEmulatorStatsNow(t).Requests["GET /api/v3.1/toolkits/{slug}"]
// before and after a command; keys are the emulator's route patterns).
//
//	func TestAccFoo_e2e(t *testing.T) {
//		w := newE2EWorkspace(t) // skips unless TF_ACC is set and terraform is on PATH
//		w.WriteFile("main.tf", `resource "service_auth_config" "x" { toolkit = "github" }`)
//		w.RunOK("plan", "-out=tfplan")
//		res := w.Run(nil, "plan", "-detailed-exitcode") // res.ExitCode, res.Stdout, res.Stderr
//	}
//
// The workspace already holds providers.tf with the required_providers block
// that dev_overrides needs; do not write another one. The provider binary is
// built once per test binary and removed by TestMain.

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/integration-service/terraform-provider-service/internal/testutil"
)

var (
	e2eBuildOnce sync.Once
	e2eBinDir    string
	e2eBuildErr  error
)

// TestMain removes the provider binary built for end-to-end tests and prints
// the tables of BenchmarkRPC when it ran (bench_rpc_test.go). When the
// end-to-end benchmark runs this test binary as a provider process, it serves
// that instead (benchProviderMain never returns then).
func TestMain(m *testing.M) {
	benchProviderMain()
	code := m.Run()
	if !testAccCheckLateRequests() && code == 0 {
		code = 1
	}
	if report := rpcBenchReport(); report != "" {
		fmt.Println(report)
		if out := os.Getenv("SERVICE_BENCH_RPC_OUT"); out != "" {
			if err := os.WriteFile(out, []byte(report), 0o600); err != nil {
				fmt.Fprintln(os.Stderr, err)
				code = 1
			}
		}
	}
	if e2eBinDir != "" {
		_ = os.RemoveAll(e2eBinDir)
	}
	os.Exit(code)
}

// e2eProviderDir builds the provider binary (once per test binary) and returns
// the directory holding terraform-provider-service.
func e2eProviderDir(t *testing.T) string {
	t.Helper()
	e2eBuildOnce.Do(func() {
		// Shared by every test of the binary, so not t.TempDir; TestMain removes it.
		dir, err := os.MkdirTemp("", "tfprov-service-e2e-") //nolint:usetesting // outlives the first test
		if err != nil {
			e2eBuildErr = err
			return
		}
		e2eBinDir = dir
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "go", "build", "-o", filepath.Join(dir, "terraform-provider-service"), ".")
		cmd.Dir = testutil.RepoRoot(t)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			e2eBuildErr = fmt.Errorf("go build: %w\n%s", err, out)
		}
	})
	if e2eBuildErr != nil {
		t.Fatal(e2eBuildErr)
	}
	return e2eBinDir
}

// e2eWorkspace is a Terraform working directory wired to the test endpoint.
type e2eWorkspace struct {
	t   *testing.T
	Dir string
	env []string
}

// e2eResult is the outcome of one terraform command.
type e2eResult struct {
	Stdout, Stderr string
	ExitCode       int
}

// newE2EWorkspace returns a fresh working directory with providers.tf and a
// CLI configuration that serves the provider binary through dev_overrides.
// It skips the test unless TF_ACC is set and terraform is on PATH.
func newE2EWorkspace(t *testing.T) *e2eWorkspace {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("end-to-end test: set TF_ACC=1 to run")
	}
	testutil.RequireTerraform(t)
	return newE2EWorkspaceAt(t, testAccEnvironment(t))
}

// newE2EWorkspaceAt is newE2EWorkspace wired to the endpoint ep (e.g. an
// emulator of the test's own, testAccOwnEmulator).
func newE2EWorkspaceAt(t *testing.T, ep testAccEndpoint) *e2eWorkspace {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("end-to-end test: set TF_ACC=1 to run")
	}
	testutil.RequireTerraform(t)
	binDir := e2eProviderDir(t)
	dir := t.TempDir()
	cliConfig := testutil.DevOverridesConfig(t, binDir)
	w := &e2eWorkspace{
		t:   t,
		Dir: dir,
		env: testutil.TerraformEnv(cliConfig, EnvBaseURL+"="+ep.BaseURL, EnvAPIKey+"="+ep.APIKey),
	}
	w.WriteFile("providers.tf", fmt.Sprintf(`terraform {
  required_providers {
    service = {
      source = %q
    }
  }
}
`, testutil.ProviderSource))
	return w
}

// WriteFile writes name (relative to the workspace) with content.
func (w *e2eWorkspace) WriteFile(name, content string) {
	w.t.Helper()
	if err := os.WriteFile(filepath.Join(w.Dir, name), []byte(content), 0o600); err != nil {
		w.t.Fatal(err)
	}
}

// ReadFile returns the content of name (relative to the workspace).
func (w *e2eWorkspace) ReadFile(name string) []byte {
	w.t.Helper()
	b, err := os.ReadFile(filepath.Join(w.Dir, name))
	if err != nil {
		w.t.Fatal(err)
	}
	return b
}

// Path returns the absolute path of name inside the workspace.
func (w *e2eWorkspace) Path(name string) string { return filepath.Join(w.Dir, name) }

// Run runs terraform with args and extra environment variables (e.g.
// "TF_LOG=trace"). It fails the test only when terraform cannot be started.
func (w *e2eWorkspace) Run(extraEnv []string, args ...string) e2eResult {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, testutil.RequireTerraform(w.t), args...)
	cmd.Dir = w.Dir
	cmd.Env = append(append([]string{}, w.env...), extraEnv...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	res := e2eResult{Stdout: stdout.String(), Stderr: stderr.String()}
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ctx.Err() != nil {
			w.t.Fatalf("terraform %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, res.Stdout, res.Stderr)
		}
		res.ExitCode = ee.ExitCode()
	}
	return res
}

// RunOK is Run without extra environment that fails the test on a non-zero exit.
func (w *e2eWorkspace) RunOK(args ...string) e2eResult {
	w.t.Helper()
	return w.RunEnvOK(nil, args...)
}

// RunEnvOK is Run that fails the test on a non-zero exit.
func (w *e2eWorkspace) RunEnvOK(extraEnv []string, args ...string) e2eResult {
	w.t.Helper()
	res := w.Run(extraEnv, args...)
	if res.ExitCode != 0 {
		w.t.Fatalf("terraform %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), res.ExitCode, res.Stdout, res.Stderr)
	}
	return res
}

// PlanEntries returns the entries of the saved plan file name (a zip archive)
// by entry name. It fails the test when the file is not a zip archive or has
// no entries.
func (w *e2eWorkspace) PlanEntries(name string) map[string][]byte {
	w.t.Helper()
	raw := w.ReadFile(name)
	zr, err := zip.NewReader(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		w.t.Fatalf("opening the saved plan %s as a zip: %v", name, err)
	}
	if len(zr.File) == 0 {
		w.t.Fatalf("saved plan %s has no entries", name)
	}
	entries := make(map[string][]byte, len(zr.File))
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			w.t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		_ = rc.Close()
		if err != nil {
			w.t.Fatal(err)
		}
		entries[f.Name] = b
	}
	return entries
}

// e2ePlanChange is one resource change of a saved plan.
type e2ePlanChange struct {
	Address   string
	Actions   string // joined with ",", e.g. "no-op", "update", "delete,create"
	Importing bool   // the change imports the object
}

// PlanChanges returns the resource changes of the saved plan file name, from
// `terraform show -json`.
func (w *e2eWorkspace) PlanChanges(name string) []e2ePlanChange {
	w.t.Helper()
	var plan struct {
		ResourceChanges []struct {
			Address string `json:"address"`
			Change  struct {
				Actions   []string        `json:"actions"`
				Importing json.RawMessage `json:"importing"`
			} `json:"change"`
		} `json:"resource_changes"`
	}
	if err := json.Unmarshal([]byte(w.RunOK("show", "-json", name).Stdout), &plan); err != nil {
		w.t.Fatal(err)
	}
	changes := make([]e2ePlanChange, 0, len(plan.ResourceChanges))
	for _, rc := range plan.ResourceChanges {
		changes = append(changes, e2ePlanChange{
			Address:   rc.Address,
			Actions:   strings.Join(rc.Change.Actions, ","),
			Importing: len(rc.Change.Importing) != 0,
		})
	}
	return changes
}
