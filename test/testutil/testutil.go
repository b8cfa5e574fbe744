// Package testutil holds helpers shared by the end-to-end tests under test/:
// locating the repository, building the provider and the emulator, starting
// the emulator on a free loopback port, and running the Terraform CLI offline.
package testutil

import (
	"context"
	"errors"
	"fmt"
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

// RequireTerraform skips the test when no terraform binary is on PATH and
// returns its path otherwise.
func RequireTerraform(tb testing.TB) string {
	tb.Helper()
	p, err := exec.LookPath("terraform")
	if err != nil {
		tb.Skip("terraform is not on PATH")
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

// DevOverridesConfig writes a Terraform CLI configuration that serves the
// provider from providerDir and never contacts a registry, and returns its path.
func DevOverridesConfig(tb testing.TB, providerDir string) string {
	tb.Helper()
	cfg := fmt.Sprintf(`provider_installation {
  dev_overrides {
    %q = %q
  }
  direct {
    exclude = ["registry.terraform.io/*/*"]
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

// Terraform runs terraform with args in dir and returns the combined output
// and the exit code. It fails the test only when terraform cannot be started.
func Terraform(tb testing.TB, dir string, env []string, args ...string) (string, int) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(tb.Context(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "terraform", args...)
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
