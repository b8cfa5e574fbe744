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

// sdkVerifyWebhooks runs the official TypeScript SDK's verifyWebhook over
// deliveries, with the @composio/core the SDK conformance tests install
// (internal/emulator/sdkconformance/core-0.21). It returns ok=false, after
// logging why, when node or that installation is missing.
func sdkVerifyWebhooks(t *testing.T, deliveries []sdkVerifyInput) ([]sdkVerifyResult, bool) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Log("SDK verification skipped: node not found")
		return nil, false
	}
	entry, err := filepath.Abs(filepath.Join("..", "emulator", "sdkconformance", "core-0.21", "node_modules", "@composio", "core", "dist", "index.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(entry); err != nil {
		t.Logf("SDK verification skipped: @composio/core is not installed at %s (the SDK conformance test installs it with npm ci)", entry)
		return nil, false
	}
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
	return res, true
}
