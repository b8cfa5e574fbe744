package demo_test

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

// TestDemoChoosesCLI checks how scripts/demo.sh chooses the CLI and refuses
// one that is too old, with fake CLIs: it stops before starting anything.
func TestDemoChoosesCLI(t *testing.T) {
	demo.RequireBash(t)
	root := testutil.RepoRoot(t)
	empty := demo.OnlyCLIPath(t, "", "")
	fakes := t.TempDir()
	oldTF := demo.FakeCLI(t, t.TempDir(), "terraform", "Terraform", "1.10.5")
	oldTofu := demo.FakeCLI(t, fakes, "tofu", "OpenTofu", "1.10.0")
	notCLI := demo.FakeCLI(t, t.TempDir(), "tofu", "Packer", "1.11.0")
	for _, tc := range []struct {
		name string
		path string   // PATH
		env  []string // extra variables
		want string   // the demo's error line
	}{
		{"neither", empty, nil,
			"demo: neither terraform (>= 1.11) nor tofu (>= 1.11) is on PATH; install one or set TF_CLI"},
		{"old terraform", filepath.Dir(oldTF) + ":" + empty, nil,
			"demo: Terraform 1.10.5 (" + oldTF + ") is too old: Terraform >= 1.11 or OpenTofu >= 1.11 is needed (write-only attributes)"},
		{"old terraform, tofu too", filepath.Dir(oldTF) + ":" + fakes + ":" + empty, nil,
			"demo: Terraform 1.10.5 (" + oldTF + ") is too old: Terraform >= 1.11 or OpenTofu >= 1.11 is needed (write-only attributes); tofu is on PATH too: TF_CLI=tofu runs it"},
		{"old tofu", fakes + ":" + empty, nil,
			"demo: OpenTofu 1.10.0 (" + oldTofu + ") is too old: Terraform >= 1.11 or OpenTofu >= 1.11 is needed (write-only attributes)"},
		{"TF_CLI names tofu", filepath.Dir(oldTF) + ":" + fakes + ":" + empty, []string{"TF_CLI=tofu"},
			"demo: OpenTofu 1.10.0 (" + oldTofu + ") is too old: Terraform >= 1.11 or OpenTofu >= 1.11 is needed (write-only attributes)"},
		{"TF_CLI is a path", empty, []string{"TF_CLI=" + oldTF},
			"demo: Terraform 1.10.5 (" + oldTF + ") is too old: Terraform >= 1.11 or OpenTofu >= 1.11 is needed (write-only attributes)"},
		{"TF_CLI not on PATH", empty, []string{"TF_CLI=tofu"},
			"demo: TF_CLI=tofu is not on PATH (set TF_CLI to terraform, tofu or the path of either)"},
		{"TF_CLI missing file", empty, []string{"TF_CLI=" + filepath.Join(fakes, "nope")},
			"demo: TF_CLI=" + filepath.Join(fakes, "nope") + " is not an executable file"},
		{"not a CLI", empty, []string{"TF_CLI=" + notCLI},
			"demo: " + notCLI + ` is neither Terraform nor OpenTofu: 'version' printed "Packer v1.11.0"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, filepath.Join(root, "scripts", "demo.sh"))
			cmd.Dir = root
			tmp := t.TempDir()
			cmd.Env = demo.ScriptEnv(tc.path, append([]string{"TMPDIR=" + tmp}, tc.env...)...)
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("the demo succeeded, want an error:\n%s", out)
			}
			if got := strings.TrimSpace(string(out)); got != tc.want {
				t.Errorf("the demo printed\n%s\nwant\n%s", got, tc.want)
			}
			if entries, _ := os.ReadDir(tmp); len(entries) > 0 {
				t.Errorf("the demo left %d entries in TMPDIR", len(entries))
			}
		})
	}
}
