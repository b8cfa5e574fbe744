// Package devloop_test runs the README's "Your own configuration against the
// local build" steps verbatim: the shell block, in a temporary directory
// holding the README's configuration next to a copy of this repository, must
// plan and apply without `terraform init` against the emulator that
// `make dev` starts, and `make dev-stop` must stop that emulator. It runs
// them with only Terraform on PATH, then with only OpenTofu on PATH (`tofu`
// for `terraform` in the steps).
package devloop_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/integration-service/terraform-provider-service/internal/testutil"
	"github.com/integration-service/terraform-provider-service/test/demo"
)

const section = "## Your own configuration against the local build"

func TestReadmeDevLoop(t *testing.T) {
	for _, tool := range []string{"make", "bash", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not on PATH", tool)
		}
	}
	root := testutil.RepoRoot(t)
	clis := []demo.CLI{demo.FindTerraform(root), demo.FindTofu(root)}
	if clis[0].Path == "" && clis[1].Path == "" {
		t.Skipf("neither CLI: %s; %s", clis[0].Skip, clis[1].Skip)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	shell, config := readmeBlocks(t, string(readme))

	// The layout the README describes: the configuration's directory with
	// this repository cloned next to it as ../terraform-provider-service.
	// One copy for both CLIs: the second `make dev` reuses its bin/.
	work := t.TempDir()
	repo := filepath.Join(work, "terraform-provider-service")
	copyTree(t, root, repo)
	// Whatever happens, the emulator the steps started does not outlive the test.
	t.Cleanup(func() {
		stop := exec.CommandContext(context.Background(), "make", "-s", "-C", repo, "dev-stop") //nolint:usetesting // t.Context is done during Cleanup
		_ = stop.Run()
	})

	for _, c := range clis {
		// With only terraform, or only tofu, on PATH: the README's steps,
		// with `tofu` for `terraform` in the tofu run.
		t.Run("only "+c.Name+" on PATH", func(t *testing.T) {
			if c.Path == "" {
				t.Skip(c.Skip)
			}
			steps := shell
			if c.Name == "tofu" {
				steps = tofuSteps(shell)
			}
			runSteps(t, root, repo, c, steps, config)
		})
	}
}

// runSteps runs the README's shell steps with c as the only CLI on PATH, in a
// new configuration directory next to repo, from a repository without .dev/.
func runSteps(t *testing.T, root, repo string, c demo.CLI, shell, config string) {
	t.Logf("%s %s: %s", c.Product, c.Version, c.Path)
	dev := filepath.Join(repo, ".dev")
	if err := os.RemoveAll(dev); err != nil {
		t.Fatal(err)
	}
	cfgDir := filepath.Join(filepath.Dir(repo), "config-"+c.Name)
	if err := os.MkdirAll(cfgDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cfgDir, "main.tf"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	path := demo.OnlyCLIPath(t, c.Name, c.Path)
	fmtCheck := exec.CommandContext(t.Context(), c.Path, "fmt", "-check", "-diff", "-no-color")
	fmtCheck.Dir = cfgDir
	fmtCheck.Env = append(cleanEnv(), "PATH="+path, "TF_CLI_CONFIG_FILE="+filepath.Join(t.TempDir(), "none.rc"))
	if out, err := fmtCheck.CombinedOutput(); err != nil {
		t.Errorf("the README's configuration is not formatted (%s fmt -check: %v):\n%s", c.Name, err, out)
	}

	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-euo", "pipefail", "-c", shell)
	cmd.Dir = cfgDir
	cmd.Env = append(cleanEnv(), "PATH="+path)
	cmd.WaitDelay = 10 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	t.Logf("README steps took %s", time.Since(start).Round(time.Millisecond))
	if err != nil {
		t.Fatalf("the README's steps failed: %v\nsteps:\n%s\nstdout:\n%s\nstderr:\n%s", err, shell, stdout.String(), stderr.String())
	}
	out := ansi.ReplaceAllString(stdout.String(), "")
	if !strings.Contains(out, "Plan: 1 to add, 0 to change, 0 to destroy.") {
		t.Errorf("%s plan did not plan the configuration's one resource:\n%s", c.Name, out)
	}
	if !strings.Contains(out, "Apply complete! Resources: 1 added, 0 changed, 0 destroyed.") {
		t.Errorf("%s apply did not create the resource:\n%s", c.Name, out)
	}
	if _, err := os.Stat(filepath.Join(cfgDir, ".terraform")); err == nil {
		t.Errorf("the steps created %s: they should not need %s init", filepath.Join(cfgDir, ".terraform"), c.Name)
	}
	for _, want := range []string{
		"emulator started",
		"emulator stopped",
		"dev: using " + c.Product + " " + c.Version + " (",
		"then " + c.Name + " plan/apply in your configuration",
	} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("make dev/dev-stop did not report %q:\n%s", want, stderr.String())
		}
	}
	// The CLI configuration serves the build under both registry hosts, so
	// that one file works for Terraform and OpenTofu.
	rc, err := os.ReadFile(filepath.Join(dev, "terraform.rc"))
	if err != nil {
		t.Fatal(err)
	}
	for _, host := range []string{"registry.terraform.io", "registry.opentofu.org"} {
		if !strings.Contains(string(rc), `"`+host+`/`+testutil.ProviderSource+`" = `) {
			t.Errorf(".dev/terraform.rc has no dev_overrides entry for %s/%s:\n%s", host, testutil.ProviderSource, rc)
		}
	}

	// dev-stop removed the pid file and the process it named is gone.
	if _, err := os.Stat(filepath.Join(dev, "emulator.pid")); err == nil {
		t.Errorf("%s/emulator.pid is still there after make dev-stop", dev)
	}
	if pid := pidFromLog(stderr.String()); pid > 0 && processAlive(pid) {
		t.Errorf("the emulator (pid %d) is still running after make dev-stop", pid)
	}
	// The data stays for the next `make dev`, in the git-ignored directory.
	if _, err := os.Stat(filepath.Join(dev, "emulator.db")); err != nil {
		t.Errorf("no emulator data kept in .dev/: %v", err)
	}
	for _, p := range []string{".dev/emulator.db", "emulator.db"} {
		ignored := exec.CommandContext(t.Context(), "git", "check-ignore", "-q", p)
		ignored.Dir = root
		if err := ignored.Run(); err != nil {
			t.Errorf(".gitignore does not cover %s, which documented commands create: %v", p, err)
		}
	}
}

var terraformCommand = regexp.MustCompile(`(?m)^terraform `)

// tofuSteps is the README's shell block for OpenTofu: each command line
// starting with terraform runs tofu instead.
func tofuSteps(shell string) string {
	return terraformCommand.ReplaceAllString(shell, "tofu ")
}

var fence = regexp.MustCompile("(?s)```(shell|terraform)\n(.*?)```")

// readmeBlocks returns the first shell and terraform code blocks of the section.
func readmeBlocks(t *testing.T, readme string) (shell, config string) {
	t.Helper()
	i := strings.Index(readme, "\n"+section+"\n")
	if i < 0 {
		t.Fatalf("README.md has no %q section", section)
	}
	body := readme[i+len(section)+2:]
	if j := strings.Index(body, "\n## "); j >= 0 {
		body = body[:j]
	}
	for _, m := range fence.FindAllStringSubmatch(body, -1) {
		switch {
		case m[1] == "shell" && shell == "":
			shell = m[2]
		case m[1] == "terraform" && config == "":
			config = m[2]
		}
	}
	if shell == "" || config == "" {
		t.Fatalf("the README section %q needs a shell block and a terraform block", section)
	}
	if !strings.Contains(shell, "dev)") || !strings.Contains(shell, "dev-stop") {
		t.Fatalf("the README's shell block does not run make dev and make dev-stop:\n%s", shell)
	}
	return shell, config
}

// copyTree copies the repository's tracked and untracked-but-not-ignored
// files (what a fresh clone plus local edits holds) from src to dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	ls := exec.CommandContext(t.Context(), "git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	ls.Dir = src
	out, err := ls.Output()
	if err != nil {
		t.Skipf("cannot list the repository's files with git: %v", err)
	}
	for name := range strings.SplitSeq(strings.TrimRight(string(out), "\x00"), "\x00") {
		from := filepath.Join(src, name)
		info, err := os.Lstat(from)
		if err != nil || !info.Mode().IsRegular() {
			continue // deleted in the working tree, or not a plain file
		}
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		to := filepath.Join(dst, name)
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, b, info.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
}

// cleanEnv is the process environment without Terraform, service and make
// variables, as in a user's fresh shell.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "TF_") || strings.HasPrefix(k, "SERVICE_") || k == "MAKEFLAGS" || k == "MFLAGS" || k == "MAKELEVEL" {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1")
}

var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

var pidRE = regexp.MustCompile(`emulator started \(pid (\d+)\)`)

func pidFromLog(s string) int {
	m := pidRE.FindStringSubmatch(s)
	if m == nil {
		return 0
	}
	pid, _ := strconv.Atoi(m[1])
	return pid
}

// processAlive reports whether pid is a live (not zombie) process on Linux;
// elsewhere it cannot tell and says no.
func processAlive(pid int) bool {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	f := strings.Fields(string(b))
	return len(f) > 2 && f[2] != "Z"
}
