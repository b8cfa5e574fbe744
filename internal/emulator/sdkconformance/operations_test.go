package sdkconformance

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/integration-service/terraform-provider-service/internal/emulator"
)

// listClientOperations prints the operation list the installed
// @composio/client carries (its GENERATED_OPERATIONS: method, path, chain),
// found as the dist module export that is an array of {method, path, chain}.
const listClientOperations = `
import { readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
const require = createRequire(join(process.cwd(), "package.json"));
const dist = dirname(require.resolve("@composio/client/package.json")) + "/dist";
for (const f of readdirSync(dist).filter((f) => /^generated-operations-.*\.mjs$/.test(f))) {
  const mod = await import(pathToFileURL(join(dist, f)).href);
  for (const v of Object.values(mod)) {
    if (Array.isArray(v) && v.length > 0 && v.every((o) => o && o.method && o.path && Array.isArray(o.chain))) {
      console.log(JSON.stringify(v.map((o) => ({ method: o.method.toUpperCase(), path: o.path, chain: o.chain.join(".") }))));
      process.exit(0);
    }
  }
}
console.error("no operation list found in " + dist);
process.exit(1);
`

type clientOperation struct {
	Method string `json:"method"`
	Path   string `json:"path"`
	Chain  string `json:"chain"`
}

// TestOperationTableMatchesClient checks the emulator's operation table
// against the operation list of the installed @composio/client 2.0.0-rc.6
// (core-0.21's lockfile pins it), then walks that list against an in-process
// emulator: every operation answers a route, a non-emulated one 501 with
// the error envelope naming it.
func TestOperationTableMatchesClient(t *testing.T) {
	nodeBin, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node/npm not found: " + err.Error())
	}
	npmBin, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("node/npm not found: " + err.Error())
	}
	dir, err := filepath.Abs("core-0.21")
	if err != nil {
		t.Fatal(err)
	}
	ensureNodeModules(t, npmBin, dir, "0.21.0")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, nodeBin, "--input-type=module", "-e", listClientOperations)
	cmd.Dir = dir
	cmd.Env = filteredEnv()
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("listing the client's operations: %v", err)
	}
	var clientOps []clientOperation
	if err := json.Unmarshal(out, &clientOps); err != nil {
		t.Fatalf("client operations: %v\n%s", err, out)
	}
	if len(clientOps) != 104 {
		t.Errorf("installed client lists %d operations, want 104 (2.0.0-rc.6)", len(clientOps))
	}

	table := map[string]emulator.Operation{}
	for _, op := range emulator.Operations() {
		table[op.Method+" /api/v3.1"+op.Path] = op
	}
	inClient := map[string]bool{}
	for _, co := range clientOps {
		key := co.Method + " " + co.Path
		inClient[key] = true
		op, ok := table[key]
		switch {
		case !ok:
			t.Errorf("client operation %s (%s) is missing from the emulator's table", key, co.Chain)
		case !op.InTypes || op.ClientMethod != co.Chain:
			t.Errorf("%s: table says client method %q (in types %v), client has %q", key, op.ClientMethod, op.InTypes, co.Chain)
		}
	}
	for key, op := range table {
		if op.InTypes && !inClient[key] {
			t.Errorf("table operation %s (%s) is not in the installed client", key, op.ID)
		}
	}

	srv, err := emulator.New(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(func() { ts.Close(); _ = srv.Close() })
	param := regexp.MustCompile(`\{[^}]+\}`)
	emulated := 0
	for _, co := range clientOps {
		op := table[co.Method+" "+co.Path]
		path := param.ReplaceAllStringFunc(co.Path, func(p string) string {
			if p == "{status}" {
				return "ENABLED"
			}
			return "zz" + strings.Trim(p, "{}")
		})
		status, envelope := call(t, ts.URL, co.Method, path)
		switch {
		case envelope.Error.Code == emulator.CodeRouteNotFound:
			t.Errorf("%s %s: route miss: %+v", co.Method, path, envelope.Error)
		case op.Emulated:
			emulated++
			if status == http.StatusNotImplemented {
				t.Errorf("%s %s: emulated %s answered 501", co.Method, path, op.ID)
			}
		default:
			want := "operation " + op.ID + " is not emulated"
			if status != http.StatusNotImplemented || envelope.Error.Message != want || envelope.Error.Status != 501 || envelope.Error.RequestID == "" {
				t.Errorf("%s %s: %d %+v, want 501 envelope %q", co.Method, path, status, envelope.Error, want)
			}
		}
	}
	t.Logf("%d of the client's %d operations emulated; the others answer 501", emulated, len(clientOps))
}

type errorEnvelope struct {
	Error struct {
		Message   string `json:"message"`
		Code      int    `json:"code"`
		Status    int    `json:"status"`
		RequestID string `json:"request_id"`
	} `json:"error"`
}

func call(t *testing.T, base, method, path string) (int, errorEnvelope) {
	t.Helper()
	var body *strings.Reader
	if method == http.MethodPost || method == http.MethodPatch {
		body = strings.NewReader("{}")
	} else {
		body = strings.NewReader("")
	}
	req, err := http.NewRequestWithContext(context.Background(), method, base+path, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("x-api-key", apiKey)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	var env errorEnvelope
	if res.StatusCode >= 400 {
		if err := json.NewDecoder(res.Body).Decode(&env); err != nil {
			t.Fatalf("%s %s: %d without a JSON envelope: %v", method, path, res.StatusCode, err)
		}
	}
	return res.StatusCode, env
}
