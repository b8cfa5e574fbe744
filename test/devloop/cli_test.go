package devloop_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/integration-service/terraform-provider-service/internal/testutil"
	"github.com/integration-service/terraform-provider-service/test/demo"
)

// TestDevChoosesCLI checks that `make dev` (scripts/dev.sh start) checks the
// CLI users will run before it starts anything, with fake CLIs, in a copy of
// the scripts (so that nothing can touch the repository's .dev/).
func TestDevChoosesCLI(t *testing.T) {
	demo.RequireBash(t)
	root := testutil.RepoRoot(t)
	repo := t.TempDir()
	for _, name := range []string{"dev.sh", "emulator-lib.sh"} {
		b, err := os.ReadFile(filepath.Join(root, "scripts", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(repo, "scripts"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(repo, "scripts", name), b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	empty := demo.OnlyCLIPath(t, "", "")
	fakes := t.TempDir()
	oldTofu := demo.FakeCLI(t, fakes, "tofu", "OpenTofu", "1.10.7")
	for _, tc := range []struct {
		name string
		path string
		env  []string
		want string
	}{
		{"neither", empty, nil,
			"dev: neither terraform (>= 1.11) nor tofu (>= 1.11) is on PATH; install one or set TF_CLI"},
		{"old tofu", fakes + ":" + empty, nil,
			"dev: OpenTofu 1.10.7 (" + oldTofu + ") is too old: Terraform >= 1.11 or OpenTofu >= 1.11 is needed (write-only attributes)"},
		{"TF_CLI not on PATH", empty, []string{"TF_CLI=terraform"},
			"dev: TF_CLI=terraform is not on PATH (set TF_CLI to terraform, tofu or the path of either)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, filepath.Join(repo, "scripts", "dev.sh"), "start")
			cmd.Dir = repo
			cmd.Env = demo.ScriptEnv(tc.path, tc.env...)
			var stdout, stderr strings.Builder
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err == nil {
				t.Fatalf("dev.sh start succeeded, want an error:\n%s%s", stdout.String(), stderr.String())
			}
			if stdout.Len() > 0 {
				t.Errorf("dev.sh start printed to stdout (what eval runs): %q", stdout.String())
			}
			if got := strings.TrimSpace(stderr.String()); got != tc.want {
				t.Errorf("dev.sh start printed\n%s\nwant\n%s", got, tc.want)
			}
			if _, err := os.Stat(filepath.Join(repo, ".dev")); err == nil {
				t.Errorf("dev.sh start created .dev/ although it refused the CLI")
			}
		})
	}
}
