// Package testutil is for tests only: the helpers shared by the end-to-end
// tests under test/ and the provider's and emulator's tests under internal/
// (locating the repository, building the provider and the emulator, starting
// the emulator on a free loopback port, running the Terraform CLI offline,
// installing the npm packages of the SDK and contract tests), and the values
// tests build and read (framework values and diagnostics, decoded JSON).
package testutil

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// ProviderSource is the provider's source address in required_providers.
const ProviderSource = "integration-service/service"

// RepoRoot returns the repository root (the directory holding go.mod).
func RepoRoot(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatalf("getwd: %v", err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Fatalf("go.mod not found above the working directory")
		}
		dir = parent
	}
}

// CLIPath returns the Terraform or OpenTofu binary the tests run, or "" when
// none is found: TF_CLI (a command name or a path, e.g. "tofu" or
// bin/terraform-1.16.4), else TF_ACC_TERRAFORM_PATH (the binary
// terraform-plugin-testing runs, so that every test of one pass uses the same
// CLI), else terraform on PATH, else tofu on PATH.
func CLIPath() string {
	for _, env := range []string{"TF_CLI", "TF_ACC_TERRAFORM_PATH"} {
		if v := os.Getenv(env); v != "" {
			if p, err := exec.LookPath(v); err == nil {
				return p
			}
			return ""
		}
	}
	for _, name := range []string{"terraform", "tofu"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// CLIName is the product of a CLI binary as users name it: "tofu" for
// OpenTofu, else "terraform".
func CLIName(path string) string {
	if strings.HasPrefix(filepath.Base(path), "tofu") {
		return "tofu"
	}
	return "terraform"
}

// TerraformAtLeast reports whether cli is Terraform major.minor or later
// (OpenTofu never is: OpenTofu 1.12 has no list resources, for one), from
// `cli version -json`, and the version it reports.
func TerraformAtLeast(tb testing.TB, cli string, major, minor int) (bool, string) {
	tb.Helper()
	ok, version := CLIAtLeast(tb, cli, major, minor)
	return ok && CLIName(cli) != "tofu", version
}

// CLIAtLeast reports whether cli, Terraform or OpenTofu, is major.minor or
// later, and the product and version it reports (e.g. "tofu 1.12.6"): for a
// feature both have from the same version on, such as import by resource
// identity (1.12).
func CLIAtLeast(tb testing.TB, cli string, major, minor int) (bool, string) {
	tb.Helper()
	out, err := exec.CommandContext(tb.Context(), cli, "version", "-json").Output()
	if err != nil {
		tb.Fatalf("%s version -json: %v", cli, err)
	}
	var v struct {
		Version string `json:"terraform_version"`
	}
	if i := strings.Index(string(out), "{"); i >= 0 {
		out = out[i:] // OpenTofu may print CLI configuration warnings first
	}
	if err := json.Unmarshal(out, &v); err != nil {
		tb.Fatalf("%s version -json: %v\n%s", cli, err, out)
	}
	var gotMajor, gotMinor int
	_, _ = fmt.Sscanf(v.Version, "%d.%d", &gotMajor, &gotMinor)
	ok := gotMajor > major || (gotMajor == major && gotMinor >= minor)
	return ok, CLIName(cli) + " " + v.Version
}

// RequireTerraform skips the test when no Terraform or OpenTofu binary is
// found (see CLIPath) and returns its path otherwise.
func RequireTerraform(tb testing.TB) string {
	tb.Helper()
	p := CLIPath()
	if p == "" {
		if v := os.Getenv("TF_CLI"); v != "" {
			tb.Skipf("TF_CLI=%s is not an executable", v)
		}
		if v := os.Getenv("TF_ACC_TERRAFORM_PATH"); v != "" {
			tb.Skipf("TF_ACC_TERRAFORM_PATH=%s is not an executable", v)
		}
		tb.Skip("neither terraform nor tofu is on PATH (or set TF_CLI)")
	}
	return p
}

// GoBuild builds the package pkg (relative to the repository root, e.g. "."
// or "./cmd/service-emulator") into dir/name and returns the binary's path.
func GoBuild(tb testing.TB, dir, name, pkg string) string {
	tb.Helper()
	root := RepoRoot(tb)
	out := filepath.Join(dir, name)
	if runtime.GOOS == "windows" {
		out += ".exe"
	}
	cmd := exec.CommandContext(tb.Context(), "go", "build", "-o", out, pkg)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("go build %s: %v\n%s", pkg, err, b)
	}
	return out
}

// BuildProvider builds the provider into a new temporary directory and
// returns that directory (suitable for dev_overrides).
func BuildProvider(tb testing.TB) string {
	tb.Helper()
	dir := tb.TempDir()
	GoBuild(tb, dir, "terraform-provider-service", ".")
	return dir
}

// DevOverridesConfig writes a Terraform/OpenTofu CLI configuration that
// serves the provider from providerDir and never contacts a registry, and
// returns its path. It names the provider on both registry hosts: Terraform
// reads the source "integration-service/service" as registry.terraform.io,
// OpenTofu as registry.opentofu.org.
func DevOverridesConfig(tb testing.TB, providerDir string) string {
	tb.Helper()
	cfg := fmt.Sprintf(`provider_installation {
  dev_overrides {
    "registry.terraform.io/%[1]s"  = %[2]q
    "registry.opentofu.org/%[1]s" = %[2]q
  }
  direct {
    exclude = ["registry.terraform.io/*/*", "registry.opentofu.org/*/*"]
  }
}
`, ProviderSource, providerDir)
	p := filepath.Join(tb.TempDir(), "terraform.rc")
	if err := os.WriteFile(p, []byte(cfg), 0o600); err != nil {
		tb.Fatal(err)
	}
	return p
}

// TerraformEnv returns the environment for a terraform run: the process
// environment without Terraform and service variables that would change the
// outcome, plus CHECKPOINT_DISABLE, TF_IN_AUTOMATION, the CLI config and extra.
func TerraformEnv(cliConfig string, extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "TF_") || strings.HasPrefix(k, "SERVICE_") {
			continue
		}
		env = append(env, kv)
	}
	env = append(env,
		"CHECKPOINT_DISABLE=1",
		"TF_IN_AUTOMATION=1",
		"TF_INPUT=0",
		"TF_CLI_CONFIG_FILE="+cliConfig,
	)
	return append(env, extra...)
}

// Terraform runs the CLI (see CLIPath) with args in dir and returns the combined output
// and the exit code. It fails the test only when terraform cannot be started.
func Terraform(tb testing.TB, dir string, env []string, args ...string) (string, int) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(tb.Context(), 3*time.Minute)
	defer cancel()
	cli := CLIPath()
	if cli == "" {
		tb.Fatal("neither terraform nor tofu is on PATH (or set TF_CLI)")
	}
	cmd := exec.CommandContext(ctx, cli, args...)
	cmd.Dir = dir
	cmd.Env = env
	b, err := cmd.CombinedOutput()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && ctx.Err() == nil {
			return string(b), ee.ExitCode()
		}
		tb.Fatalf("terraform %s: %v\n%s", strings.Join(args, " "), err, b)
	}
	return string(b), 0
}

// MustTerraform runs terraform and fails the test on a non-zero exit code.
func MustTerraform(tb testing.TB, dir string, env []string, args ...string) string {
	tb.Helper()
	out, code := Terraform(tb, dir, env, args...)
	if code != 0 {
		tb.Fatalf("terraform %s exited %d:\n%s", strings.Join(args, " "), code, out)
	}
	return out
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}

// CopyDir copies the regular files under src to dst (directories created,
// files 0600), leaving out .terraform directories (a previous run's providers
// and modules).
func CopyDir(tb testing.TB, src, dst string) {
	tb.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".terraform" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o600)
	})
	if err != nil {
		tb.Fatal(err)
	}
}
