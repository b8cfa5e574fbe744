package contract

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockStamp, inside node_modules, holds the SHA-256 of the package-lock.json
// node_modules was installed from; `npm ci` runs only when it differs.
const lockStamp = ".contract-lock.sha256"

// nodeEnv is node and npm on PATH with node_modules installed from the
// committed lock file.
type nodeEnv struct {
	node string
	dir  string
}

var (
	setupOnce sync.Once
	setupEnv  *nodeEnv
	setupSkip string
	setupErr  string
)

// requireNode skips the test when node or npm is missing and installs the
// pinned packages (once per test binary) otherwise.
func requireNode(t *testing.T) *nodeEnv {
	t.Helper()
	setupOnce.Do(func() { setupEnv, setupSkip, setupErr = setupNode() })
	if setupSkip != "" {
		t.Skip(setupSkip)
	}
	if setupErr != "" {
		t.Fatal(setupErr)
	}
	return setupEnv
}

func setupNode() (env *nodeEnv, skip, fail string) {
	nodeBin, err := exec.LookPath("node")
	if err != nil {
		return nil, "contract test skipped: node not found on PATH (" + err.Error() + ")", ""
	}
	npmBin, err := exec.LookPath("npm")
	if err != nil {
		return nil, "contract test skipped: npm not found on PATH (" + err.Error() + ")", ""
	}
	dir, err := filepath.Abs(".")
	if err != nil {
		return nil, "", err.Error()
	}
	lock, err := os.ReadFile(filepath.Join(dir, "package-lock.json"))
	if err != nil {
		return nil, "", "reading package-lock.json: " + err.Error()
	}
	sum := sha256.Sum256(lock)
	want := hex.EncodeToString(sum[:])
	stamp := filepath.Join(dir, "node_modules", lockStamp)
	if got, err := os.ReadFile(stamp); err == nil && strings.TrimSpace(string(got)) == want {
		return &nodeEnv{node: nodeBin, dir: dir}, "", ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, npmBin, "ci", "--no-audit", "--no-fund", "--prefer-offline")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, "", "npm ci in " + dir + " failed: " + err.Error() + "\n" + string(out)
	}
	if err := os.WriteFile(stamp, []byte(want+"\n"), 0o600); err != nil {
		return nil, "", err.Error()
	}
	return &nodeEnv{node: nodeBin, dir: dir}, "", ""
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

// operation is one entry of the package's operation table.
type operation struct {
	Method    string `json:"method"`
	Path      string `json:"path"`
	Operation string `json:"operation"`
	Name      string `json:"name"`
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
