package sdkconformance

import (
	"context"
	"encoding/json"
	"os/exec"
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
// (method, path, client method) against the operation list of the installed
// @composio/client 2.0.0-rc.6 (core-0.21's lockfile pins it). That every
// operation answers is walked by the emulator's TestEveryOperationAnswers
// (the table) and test/contract's TestEveryOperationAnswers (the package).
func TestOperationTableMatchesClient(t *testing.T) {
	nodeBin, dir := nodeSDK(t, "core-0.21", "0.21.0")
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
}
