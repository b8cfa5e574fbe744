package contract

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/integration-service/terraform-provider-service/internal/testutil"
)

// nodeEnv is node on PATH with node_modules installed from the committed
// lock file.
type nodeEnv struct {
	node string
	dir  string
}

// requireNode skips the test when node or npm is missing and otherwise
// installs the pinned packages unless node_modules already holds what
// package-lock.json pins (testutil.NPMInstall: one install across parallel
// test binaries).
func requireNode(t *testing.T) *nodeEnv {
	t.Helper()
	nodeBin, err := exec.LookPath("node")
	if err != nil {
		t.Skip("contract test skipped: node not found on PATH (" + err.Error() + ")")
	}
	npmBin, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("contract test skipped: npm not found on PATH (" + err.Error() + ")")
	}
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	testutil.NPMInstall(t, npmBin, dir, os.Environ(), func() bool { return testutil.NPMLockInstalled(dir) })
	return &nodeEnv{node: nodeBin, dir: dir}
}

// run runs check.mjs with args and returns its stdout.
func (n *nodeEnv) run(t *testing.T, args ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, n.node, append([]string{"check.mjs"}, args...)...)
	cmd.Dir = n.dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node check.mjs %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.Bytes()
}

// checkOutput is check.mjs's report on a file of records.
type checkOutput struct {
	Findings []finding `json:"findings"`
	Checked  int       `json:"checked"`
	MS       int       `json:"ms"`
}

// check writes recs to a temporary file, runs check.mjs over it and returns
// its report.
func (n *nodeEnv) check(t *testing.T, recs []record) checkOutput {
	t.Helper()
	dir := t.TempDir()
	recFile, outFile := filepath.Join(dir, "records.json"), filepath.Join(dir, "findings.json")
	b, err := json.Marshal(recs)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(recFile, b, 0o600); err != nil {
		t.Fatal(err)
	}
	n.run(t, "check", recFile, outFile)
	var out checkOutput
	if b, err = os.ReadFile(outFile); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// operation is one entry of the package's operation table.
type operation struct {
	Method    string `json:"method"`
	Path      string `json:"path"`
	Operation string `json:"operation"`
	Name      string `json:"name"`
	// Schemes are the credential schemes the operation accepts (none
	// declared: ApiKeyAuth).
	Schemes []string `json:"schemes"`
}

var (
	opsOnce sync.Once
	opsList []operation
)

// operations returns the installed package's operation table.
func operations(t *testing.T, n *nodeEnv) []operation {
	t.Helper()
	opsOnce.Do(func() {
		if err := json.Unmarshal(n.run(t, "ops"), &opsList); err != nil {
			t.Fatalf("decoding the operation table: %v", err)
		}
	})
	if len(opsList) == 0 {
		t.Fatal("the installed package lists no operations")
	}
	return opsList
}
