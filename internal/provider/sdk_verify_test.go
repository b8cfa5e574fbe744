package provider

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/integration-service/terraform-provider-service/internal/testutil"
)

// sdkVerifyScript verifies deliveries (JSON array on stdin of {payload,
// signature, id, timestamp, secret}) with the official SDK's
// triggers.verifyWebhook and prints the versions it parsed as a JSON array.
const sdkVerifyScript = `
const { pathToFileURL } = require('node:url');
(async () => {
  const sdk = await import(pathToFileURL(process.argv[1]).href);
  const composio = new sdk.Composio({ apiKey: 'verify-only', baseURL: 'http://127.0.0.1:9', allowTracking: false, disableVersionCheck: true });
  let input = '';
  for await (const chunk of process.stdin) input += chunk;
  const out = [];
  for (const d of JSON.parse(input)) {
    const res = await composio.triggers.verifyWebhook(d);
    out.push({ version: res.version, triggerSlug: res.payload.triggerSlug, accountId: res.payload.metadata.connectedAccount.id });
    let rejected = false;
    try { await composio.triggers.verifyWebhook({ ...d, secret: d.secret + 'x' }); } catch { rejected = true; }
    if (!rejected) throw new Error('a wrong secret verified');
  }
  process.stdout.write(JSON.stringify(out));
})().catch((e) => { console.error(e); process.exit(1); });
`

type sdkVerifyInput struct {
	Payload   string `json:"payload"`
	Signature string `json:"signature"`
	ID        string `json:"id"`
	Timestamp string `json:"timestamp"`
	Secret    string `json:"secret"`
}

type sdkVerifyResult struct {
	Version     string `json:"version"`
	TriggerSlug string `json:"triggerSlug"`
	AccountID   string `json:"accountId"`
}

// sdkVersionForVerify is the @composio/core whose verifyWebhook checks the
// deliveries: the one internal/emulator/sdkconformance/core-0.21 pins.
const sdkVersionForVerify = "0.21.0"

// sdkVerifyWebhooks runs the official TypeScript SDK's verifyWebhook over
// deliveries, with the @composio/core of internal/emulator/sdkconformance/
// core-0.21 (installed there with npm ci when missing; the SDK conformance
// test uses the same installation). It skips t when node or npm is missing.
func sdkVerifyWebhooks(t *testing.T, deliveries []sdkVerifyInput) []sdkVerifyResult {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH: the official SDK's verifyWebhook cannot run")
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm is not on PATH: the official SDK cannot be installed")
	}
	dir, err := filepath.Abs(filepath.Join("..", "emulator", "sdkconformance", "core-0.21"))
	if err != nil {
		t.Fatal(err)
	}
	testutil.NPMInstall(t, npm, dir, os.Environ(), func() bool { return testutil.NPMInstalledVersion(dir, "@composio/core") == sdkVersionForVerify })
	entry := filepath.Join(dir, "node_modules", "@composio", "core", "dist", "index.mjs")
	in, err := json.Marshal(deliveries)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "-e", sdkVerifyScript, entry)
	cmd.Env = append(os.Environ(), "TELEMETRY_DISABLED=true", "NODE_ENV=test", "HOME="+t.TempDir())
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		_, _ = stdin.Write(in)
		_ = stdin.Close()
	}()
	out, err := cmd.Output()
	if err != nil {
		var stderr string
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("the SDK's verifyWebhook failed: %v\n%s", err, stderr)
	}
	var res []sdkVerifyResult
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("SDK verification output %q: %v", out, err)
	}
	return res
}
