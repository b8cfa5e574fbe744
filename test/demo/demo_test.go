// Package demo_test runs scripts/demo.sh (what `make demo` runs after `make
// build`) with binaries built from this tree, once with only Terraform on PATH
// and once with only OpenTofu, and checks that it succeeds, stays readable and
// finishes (the demo, after the build) within three minutes.
package demo_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/integration-service/terraform-provider-service/internal/testutil"
	"github.com/integration-service/terraform-provider-service/internal/testutil/contractcheck"
	"github.com/integration-service/terraform-provider-service/test/demo"
)

func TestDemo(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("curl is not on PATH")
	}
	root := testutil.RepoRoot(t)
	clis := []demo.CLI{demo.FindTerraform(root), demo.FindTofu(root)}
	if clis[0].Path == "" && clis[1].Path == "" {
		t.Skipf("neither CLI: %s; %s", clis[0].Skip, clis[1].Skip)
	}

	// The same binaries `make build` produces, built into a temporary bin/
	// so that the test neither needs nor overwrites the developer's bin/.
	start := time.Now()
	bin := t.TempDir()
	provider := testutil.GoBuild(t, bin, "terraform-provider-service", ".")
	emulator := testutil.GoBuild(t, bin, "service-emulator", "./cmd/service-emulator")
	built := time.Since(start)
	t.Logf("binaries built in %s", built.Round(time.Millisecond))

	for _, c := range clis {
		// "only terraform on PATH" / "only tofu on PATH": the demo picks the
		// one there is, with no TF_CLI.
		t.Run("only "+c.Name+" on PATH", func(t *testing.T) {
			if c.Path == "" {
				t.Skip(c.Skip)
			}
			runDemo(t, root, c, provider, emulator)
		})
	}
}

// runDemo runs scripts/demo.sh with c as the only CLI on PATH and checks its
// output.
func runDemo(t *testing.T, root string, c demo.CLI, provider, emulator string) {
	t.Logf("%s %s: %s", c.Product, c.Version, c.Path)
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(root, "scripts", "demo.sh"))
	cmd.Dir = root
	tmp := t.TempDir()
	// the emulator the script starts records what it receives: checked
	// against the contract when the test ends
	record := filepath.Join(t.TempDir(), "requests.jsonl")
	t.Cleanup(func() { contractcheck.CheckRecordFile(t, record, t.Name()) })
	cmd.Env = demo.WithEnv(testutil.TerraformEnv(filepath.Join(t.TempDir(), "unused.rc")), nil,
		"PATH="+demo.OnlyCLIPath(t, c.Name, c.Path),
		"PROVIDER_BIN="+provider,
		"EMULATOR_BIN="+emulator,
		"TMPDIR="+tmp,
		"SERVICE_EMULATOR_RECORD="+record,
	)
	cmd.WaitDelay = 10 * time.Second
	ran := time.Now()
	out, err := cmd.CombinedOutput()
	elapsed := time.Since(ran)
	t.Logf("demo output (%s):\n%s", elapsed.Round(time.Millisecond), out)
	if err != nil {
		t.Fatalf("demo failed: %v", err)
	}
	// The promise is about the demo itself: the build's time depends on the
	// build cache and on what else the machine runs (make test builds in
	// parallel with other tests), so it is logged above, not held.
	if elapsed > 3*time.Minute {
		t.Errorf("the demo took %s, want under 3 minutes", elapsed)
	}

	text := string(out)
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^==> Starting emulator$`),
		regexp.MustCompile(`(?m)^    listening on http://127\.0\.0\.1:\d+ `),
		regexp.MustCompile(`(?m)^==> Configuring ` + c.Product + ` ` + regexp.QuoteMeta(c.Version) + ` to use the local provider build `),
		regexp.MustCompile(`(?m)^    CLI binary: /\S+$`),
		regexp.MustCompile(`(?m)^==> ` + c.Name + ` init$`),
		regexp.MustCompile(`(?m)^==> ` + c.Name + ` apply `),
		regexp.MustCompile(`(?m)^    Apply complete! Resources: 6 added, 0 changed, 0 destroyed\.$`),
		regexp.MustCompile(`(?m)^    stripe_account_status = "ACTIVE"$`),
		regexp.MustCompile(`(?m)^    github_account_status = "INITIATED"$`),
		regexp.MustCompile(`(?m)^    github_connect_url = "http://127\.0\.0\.1:\d+/`),
		regexp.MustCompile(`(?m)^==> Approving the OAuth connection$`),
		regexp.MustCompile(`(?m)^    github_account_status = ACTIVE$`),
		regexp.MustCompile(`(?m)^    Destroy complete! Resources: 6 destroyed\.$`),
		regexp.MustCompile(`(?m)^==> Stopping emulator$`),
		regexp.MustCompile(`(?m)^==> ` + c.Name + ` destroy$`),
		regexp.MustCompile(`(?m)^==> Demo finished in \d+s \(` + c.Product + ` ` + regexp.QuoteMeta(c.Version) + `\)$`),
	} {
		if !want.MatchString(text) {
			t.Errorf("demo output lacks a line matching %s", want)
		}
	}

	// The plan is empty right after apply, and again after the user approved
	// the OAuth account (status is read-only and never a diff).
	if n := strings.Count(text, "No changes: the state matches the service (exit code 0)."); n != 2 {
		t.Errorf("found %d empty plans, want 2 (after apply, after approval)", n)
	}

	// Readable: progress lines, no wall of logs.
	if n := strings.Count(text, "\n"); n > 60 {
		t.Errorf("demo printed %d lines, want a short summary (at most 60)", n)
	}
	for _, noise := range []string{"Warning:", "[DEBUG]", "[TRACE]", "level=", "\x1b["} {
		if strings.Contains(text, noise) {
			t.Errorf("demo output contains %q: %s and emulator logs belong in the log files", noise, c.Name)
		}
	}
	// Every message names the CLI that runs, never the other one.
	others := []string{"tofu ", "OpenTofu"}
	if c.Name == "tofu" {
		others = []string{"terraform ", "Terraform"}
	}
	for _, other := range others {
		if strings.Contains(text, other) {
			t.Errorf("the demo ran %s but its output says %q", c.Product, other)
		}
	}

	// The emulator is stopped and the temporary directory removed.
	entries, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("demo left %s behind in TMPDIR", e.Name())
	}
}
