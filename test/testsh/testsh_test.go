// Package testsh tests scripts/test.sh itself: how its second stage (the Go
// tests, run by gotestsum as `scripts/test.sh --go-test`) collects the
// exit status of the compatibility passes it runs in the background.
//
// A compatibility pass on the oldest Terraform starts at once and may end 20
// minutes before it is collected, while cold builds start thousands of
// processes: PIDs wrap, and a later child of the script's shell gets the
// pass's PID. A script that collects the pass with `wait PID` then reads it
// wrongly, both ways: bash forgets the ended pass ("wait: pid N is not a
// child of this shell", a passing run failed) or answers with the new child's
// status (a failed pass read as passed). These tests make the PID come round
// on purpose: the script runs in a PID namespace of its own whose pid_max is
// 400 (Linux 6.14 and later keep pid_max per namespace; elsewhere the PIDs
// come round after about 32,000 processes, which takes longer), with fakes of
// go, sleep and the CLIs on PATH.
//
// TESTSH_SCRIPT names another script to test instead of scripts/test.sh: with
// the one of commit a3a6d60 (`git show a3a6d60:scripts/test.sh >/tmp/old.sh`)
// both tests fail.
package testsh

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/integration-service/terraform-provider-service/internal/testutil"
)

// fakeGo stands in for go. `go test` is one of the three passes, told apart
// by TF_CLI: the compatibility pass on the oldest Terraform records its
// parent's PID (the background subshell the script started it in) and exits
// with OLDEST_RC; the others pass. `go list` and `go vet` find nothing.
const fakeGo = `#!/usr/bin/env bash
case "$1" in
test)
	if [[ "$TF_CLI" == "$TERRAFORM_OLDEST" ]]; then
		echo "$PPID" >"$FAKE/oldest.pid"
		echo '{"Action":"output","Package":"example","Output":"oldest pass\n"}'
		exit "$OLDEST_RC"
	fi
	if [[ "$TF_CLI" == "$TOFU" ]]; then
		echo "$PPID" >"$FAKE/tofu.pid"
	fi
	echo '{"Action":"output","Package":"example","Output":"pass\n"}'
	exit 0
	;;
esac
exit 0
`

// fakeSleep stands in for sleep in the script's polling loops, so that the
// shell starts a child every few milliseconds. It uses only bash builtins
// (no process of its own would take a PID). Until the PID of the ended
// oldest pass comes round, it does nothing; then the child whose PID is that
// PID minus LEAD (0: this very sleep) writes the CLIs' build results, and
// the script goes on: with LEAD 0 a foreground child has taken the PID, with
// LEAD > 0 the next children the script starts are counted down to it, so
// that one of them (a background pass, for some LEAD) takes the PID.
const fakeSleep = `#!/usr/bin/env bash
[[ -e "$FAKE/released" ]] && exit 0
read -r target <"$FAKE/oldest.pid" 2>/dev/null || exit 0
# The pass must have ended (kill is a builtin).
[[ -e "$FAKE/wrapped" ]] || ! kill -0 "$target" 2>/dev/null || exit 0
if [[ ! -e "$FAKE/wrapped" ]]; then
	# Wait for the PIDs to wrap below the target first.
	(( $$ < target )) && : >"$FAKE/wrapped"
	exit 0
fi
if (( $$ + LEAD == target )) || (( $$ > target )); then
	: >"$FAKE/released"
	echo "$$" >"$FAKE/released.pid"
	echo 0 >"$TEST_PARTS/cli-terraform.rc"
	echo 0 >"$TEST_PARTS/cli-tofu.rc"
fi
exit 0
`

const fakeCLI = `#!/usr/bin/env bash
echo '{"terraform_version": "%s"}'
`

type run struct {
	code   int
	stderr string
	stdout string
	fake   string
}

// runStage runs the script's --go-test stage in a PID namespace of its own.
func runStage(t *testing.T, oldestRC, lead int) run {
	t.Helper()
	root := testutil.RepoRoot(t)
	script := os.Getenv("TESTSH_SCRIPT")
	if script == "" {
		script = filepath.Join(root, "scripts", "test.sh")
	}
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		t.Skip("unshare (util-linux) is not on PATH: cannot give the script a PID namespace of its own")
	}
	dir := t.TempDir()
	fakeBin := filepath.Join(dir, "bin")
	parts := filepath.Join(dir, "parts")
	fake := filepath.Join(dir, "fake")
	for _, d := range []string{fakeBin, parts, fake} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(path, text string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A part of the first stage that passed, as the stage would leave it.
	write(filepath.Join(parts, "fmt-check.started"), "")
	write(filepath.Join(parts, "fmt-check.rc"), "0\n")
	write(filepath.Join(fakeBin, "go"), fakeGo)
	write(filepath.Join(fakeBin, "sleep"), fakeSleep)
	oldest := filepath.Join(dir, "terraform")
	newest := filepath.Join(dir, "terraform-newest")
	tofu := filepath.Join(dir, "tofu-fake")
	write(oldest, fmt.Sprintf(fakeCLI, "1.11.4"))
	write(newest, fmt.Sprintf(fakeCLI, "1.16.4"))
	write(tofu, fmt.Sprintf(fakeCLI, "1.12.6"))

	// The namespace's first process lowers pid_max (where the kernel keeps
	// it per namespace), then starts 310 processes: PIDs below 300 are never
	// handed out again once they wrap, and the pass must get one that is.
	inner := `echo 400 >/proc/sys/kernel/pid_max 2>/dev/null || echo "testsh: pid_max is not per namespace here: the PIDs come round after about 32,000 processes" >&2
for ((i = 0; i < 310; i++)); do /bin/true; done
exec bash "$SCRIPT" --go-test`
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, unshare, "--pid", "--fork", "--mount-proc", "--kill-child", "bash", "-c", inner)
	cmd.WaitDelay = 5 * time.Second
	cmd.Env = []string{
		"PATH=" + fakeBin + ":/usr/local/bin:/usr/bin:/bin",
		"HOME=" + dir,
		"SCRIPT=" + script,
		"FAKE=" + fake,
		"TEST_PARTS=" + parts,
		"TEST_PKGS=./example",
		"TERRAFORM_OLDEST=" + oldest,
		"TERRAFORM_NEWEST=" + newest,
		"TOFU=" + tofu,
		fmt.Sprintf("OLDEST_RC=%d", oldestRC),
		fmt.Sprintf("LEAD=%d", lead),
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	r := run{stdout: stdout.String(), stderr: stderr.String(), fake: fake}
	if ctx.Err() != nil {
		t.Fatalf("the script did not end within 4 minutes\nstderr:\n%s", r.stderr)
	}
	if err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("running the script: %v\nstderr:\n%s", err, r.stderr)
		}
		r.code = ee.ExitCode()
	}
	if strings.Contains(r.stderr, "Operation not permitted") && strings.Contains(r.stderr, "unshare") {
		t.Skipf("no PID namespace can be made here (needs root or user namespaces): %s", strings.TrimSpace(r.stderr))
	}
	if _, err := os.Stat(filepath.Join(fake, "released")); err != nil {
		t.Fatalf("the oldest pass's PID never came round (the fake sleep never released the script)\nstderr:\n%s", r.stderr)
	}
	return r
}

func readPID(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

// A passing compatibility pass whose PID a later child of the shell took is
// still a pass: the stage exits 0 and says nothing about it.
func TestPassingPartCollectedAfterItsPIDCameRound(t *testing.T) {
	t.Parallel()
	r := runStage(t, 0, 0)
	t.Logf("oldest pass ran as PID %s; the child released with PID %s", readPID(filepath.Join(r.fake, "oldest.pid")), readPID(filepath.Join(r.fake, "released.pid")))
	if r.code != 0 || strings.Contains(r.stderr, "not a child") {
		t.Fatalf("a passing run was reported failed (exit %d) after the pass's PID came round\nstderr:\n%s", r.code, r.stderr)
	}
	if !strings.Contains(r.stdout, "oldest pass") {
		t.Errorf("the oldest pass's output was not printed\nstdout:\n%s", r.stdout)
	}
}

// A failed compatibility pass stays failed however its PID came round: to a
// foreground child (LEAD 0) or to one of the next children the script starts,
// among them the OpenTofu pass, a background child whose own status is 0.
func TestFailedPartCollectedAfterItsPIDCameRound(t *testing.T) {
	t.Parallel()
	for lead := 0; lead <= 4; lead++ {
		t.Run(fmt.Sprintf("lead=%d", lead), func(t *testing.T) {
			t.Parallel()
			r := runStage(t, 3, lead)
			oldest, tofu := readPID(filepath.Join(r.fake, "oldest.pid")), readPID(filepath.Join(r.fake, "tofu.pid"))
			t.Logf("oldest pass ran as PID %s, the OpenTofu pass as PID %s", oldest, tofu)
			if r.code == 0 {
				t.Fatalf("a failed compatibility pass was read as passed (exit 0) after its PID came round (the OpenTofu pass got it: %v)\nstderr:\n%s", oldest == tofu, r.stderr)
			}
			if !strings.Contains(r.stderr, "compatibility pass on") {
				t.Errorf("the failure does not name the compatibility pass\nstderr:\n%s", r.stderr)
			}
		})
	}
}
