// Package sdkconformance drives the service emulator with the official TypeScript SDK
// (@composio/core, pinned in package.json / package-lock.json) and cross-checks webhook
// signatures between the SDK and the Go verifier (internal/client/webhooktest).
//
// Two SDK versions run, each from its own folder with its own lockfile: 0.5.3 (this folder,
// /api/v3 paths) and 0.21.0 (core-0.21/, /api/v3.1 paths, plus tools, toolkits.authorize and
// tool-router sessions). Each test builds cmd/service-emulator, starts it on a free loopback
// port with a Go webhook receiver, installs the SDK with `npm ci` when node_modules is missing
// or holds another version, and runs that folder's conformance.test.mjs with node. The tests
// are skipped only when node or npm is not installed.
package sdkconformance

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/integration-service/terraform-provider-service/internal/client/webhooktest"
	"github.com/integration-service/terraform-provider-service/internal/testutil"
	"github.com/integration-service/terraform-provider-service/internal/webhooksig"
)

const (
	sdkPackage     = "@composio/core"
	apiKey         = "emulator-key"
	nodeRunTimeout = 3 * time.Minute
)

// TestSDKConformance runs @composio/core 0.5.3 (conformance.test.mjs in this folder).
func TestSDKConformance(t *testing.T) { runConformance(t, ".", "0.5.3") }

// TestSDKConformanceCore021 runs @composio/core 0.21.0 (core-0.21/conformance.test.mjs).
func TestSDKConformanceCore021(t *testing.T) { runConformance(t, "core-0.21", "0.21.0") }

// runConformance runs the conformance script in dir (relative to this folder) with the SDK
// version pinned there.
func runConformance(t *testing.T, sdkDir, sdkVersion string) {
	nodeBin, dir := nodeSDK(t, sdkDir, sdkVersion)

	secret := "whsec-conformance-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	recv := newReceiver(secret)
	hook := httptest.NewServer(recv)
	t.Cleanup(hook.Close)

	emu := startEmulator(t, "--listen", "127.0.0.1:0", "--webhook-url", hook.URL+"/hook", "--webhook-secret", secret)

	tmp := t.TempDir()
	goVectors := filepath.Join(tmp, "go-vectors.json")
	nodeVectors := filepath.Join(tmp, "node-vectors.json")
	writeGoVectors(t, goVectors)

	ctx, cancel := context.WithTimeout(context.Background(), nodeRunTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, nodeBin, "--test-reporter=spec", "conformance.test.mjs")
	cmd.Dir = dir
	cmd.Env = append(filteredEnv(),
		"HOME="+tmp, // keep ~/.composio/user_data.json of the developer out of the run
		"NODE_ENV=test",
		"TELEMETRY_DISABLED=true",
		"NO_COLOR=1",
		"FORCE_COLOR=0",
		"SDKC_BASE_URL="+emu.baseURL,
		"SDKC_API_KEY="+apiKey,
		"SDKC_WEBHOOK_SECRET="+secret,
		"SDKC_CAPTURE_URL="+hook.URL,
		"SDKC_GO_VECTORS="+goVectors,
		"SDKC_NODE_VECTORS="+nodeVectors,
	)
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	start := time.Now()
	runErr := cmd.Run()
	elapsed := time.Since(start).Round(time.Millisecond)
	if ctx.Err() != nil {
		runErr = fmt.Errorf("timed out after %s: %w", nodeRunTimeout, runErr)
	}
	if runErr != nil {
		t.Fatalf("SDK conformance script failed (%v, %s):\n%s\n--- emulator log (tail) ---\n%s",
			runErr, elapsed, out.String(), emu.logTail())
	}
	t.Logf("SDK %s@%s conformance passed in %s\n%s", sdkPackage, sdkVersion, elapsed, summary(out.String()))

	// The emulator delivered at least one webhook, and Go's verifier accepts every delivery.
	deliveries := recv.all()
	if len(deliveries) == 0 {
		t.Fatal("the emulator delivered no webhook")
	}
	for _, d := range deliveries {
		if d.VerifyErr != "" {
			t.Errorf("webhooktest.VerifyWebhook rejected the emulator's delivery %s: %s", d.ID, d.VerifyErr)
		}
		if !strings.HasPrefix(d.ContentType, "application/json") {
			t.Errorf("webhook %s content-type = %q, want application/json", d.ID, d.ContentType)
		}
	}

	verifyNodeVectors(t, nodeVectors)
}

// ---------------------------------------------------------------------------------------------
// node_modules

// nodeSDK returns the node binary and the absolute path of sdkDir (relative
// to this folder), whose node_modules hold the SDK at sdkVersion
// (ensureNodeModules). It skips the test without node and npm.
func nodeSDK(t *testing.T, sdkDir, sdkVersion string) (nodeBin, dir string) {
	t.Helper()
	nodeBin, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node/npm not found: " + err.Error())
	}
	npmBin, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("node/npm not found: " + err.Error())
	}
	dir, err = filepath.Abs(sdkDir)
	if err != nil {
		t.Fatal(err)
	}
	ensureNodeModules(t, npmBin, dir, sdkVersion)
	return nodeBin, dir
}

func ensureNodeModules(t *testing.T, npmBin, dir, sdkVersion string) {
	t.Helper()
	testutil.NPMInstall(t, npmBin, dir, filteredEnv(), func() bool { return testutil.NPMInstalledVersion(dir, sdkPackage) == sdkVersion })
}

// filteredEnv is the test's environment without variables the SDK would pick up on its own.
func filteredEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "COMPOSIO_") || strings.HasPrefix(kv, "SDKC_") {
			continue
		}
		env = append(env, kv)
	}
	return env
}

// summary keeps the spec reporter's totals.
func summary(out string) string {
	var b strings.Builder
	for _, line := range strings.Split(out, "\n") {
		l := strings.TrimSpace(line)
		for _, p := range []string{"ℹ tests", "ℹ pass", "ℹ fail", "ℹ skipped", "ℹ duration_ms"} {
			if strings.HasPrefix(l, p) {
				b.WriteString(l + "\n")
			}
		}
	}
	return b.String()
}

// ---------------------------------------------------------------------------------------------
// emulator process

type emulatorProc struct {
	baseURL string
	mu      sync.Mutex
	log     bytes.Buffer
}

func (e *emulatorProc) Write(p []byte) (int, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.log.Write(p)
}

func (e *emulatorProc) logTail() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	s := e.log.String()
	if len(s) > 8000 {
		s = "…" + s[len(s)-8000:]
	}
	return s
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	d, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			t.Fatal("go.mod not found above the test directory")
		}
		d = parent
	}
}

func startEmulator(t *testing.T, args ...string) *emulatorProc {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go toolchain not on PATH: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "service-emulator")
	buildCtx, cancelBuild := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancelBuild()
	build := exec.CommandContext(buildCtx, goBin, "build", "-o", bin, "./cmd/service-emulator")
	build.Dir = moduleRoot(t)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/service-emulator: %v\n%s", err, out)
	}

	emu := &emulatorProc{}
	// The process lives until t.Cleanup sends SIGTERM; the context is only a backstop.
	runCtx, cancelRun := context.WithCancel(context.Background())
	cmd := exec.CommandContext(runCtx, bin, args...)
	cmd.Env = append(os.Environ(), "SERVICE_LOG_LEVEL=info")
	cmd.Stderr = emu
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start emulator: %v", err)
	}
	exited := make(chan struct{})
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			cancelRun() // kills the process
			<-exited
		}
		cancelRun()
	})

	first := make(chan string, 1)
	go func() {
		r := bufio.NewReader(stdout)
		line, _ := r.ReadString('\n')
		first <- line
		_, _ = io.Copy(emu, r)
		_ = cmd.Wait()
		close(exited)
	}()
	select {
	case line := <-first:
		const prefix = "listening on "
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, prefix) {
			t.Fatalf("emulator's first stdout line = %q, want %q\n%s", line, prefix+"http://HOST:PORT", emu.logTail())
		}
		emu.baseURL = strings.TrimPrefix(line, prefix)
	case <-time.After(30 * time.Second):
		t.Fatalf("emulator printed no listening line within 30s\n%s", emu.logTail())
	}
	return emu
}

// ---------------------------------------------------------------------------------------------
// webhook receiver

type delivery struct {
	ID          string `json:"id"`
	Timestamp   string `json:"timestamp"`
	Signature   string `json:"signature"`
	ContentType string `json:"content_type"`
	Body        string `json:"body"`
	TriggerID   string `json:"trigger_id"`
	Version     string `json:"version"`
	VerifyErr   string `json:"verify_error,omitempty"`
}

type receiver struct {
	secret string
	mu     sync.Mutex
	got    []delivery
}

func newReceiver(secret string) *receiver { return &receiver{secret: secret} }

func (r *receiver) all() []delivery {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]delivery(nil), r.got...)
}

func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	switch {
	case req.Method == http.MethodPost && req.URL.Path == "/hook":
		body, err := io.ReadAll(req.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		d := delivery{
			ID:          req.Header.Get("webhook-id"),
			Timestamp:   req.Header.Get("webhook-timestamp"),
			Signature:   req.Header.Get("webhook-signature"),
			ContentType: req.Header.Get("content-type"),
			Version:     req.Header.Get("x-composio-webhook-version"),
			Body:        string(body),
		}
		// The trigger id: metadata.trigger_id (V3), data.trigger_nano_id (V2), trigger_id (V1).
		var payload struct {
			TriggerID string `json:"trigger_id"`
			Metadata  struct {
				TriggerID string `json:"trigger_id"`
			} `json:"metadata"`
			Data struct {
				TriggerNanoID string `json:"trigger_nano_id"`
			} `json:"data"`
		}
		_ = json.Unmarshal(body, &payload)
		switch d.Version {
		case "V1":
			d.TriggerID = payload.TriggerID
		case "V2":
			d.TriggerID = payload.Data.TriggerNanoID
		default:
			d.TriggerID = payload.Metadata.TriggerID
		}
		if _, err := webhooktest.VerifyWebhook(webhooktest.VerifyWebhookParams{
			Payload: body, Signature: d.Signature, ID: d.ID, Timestamp: d.Timestamp, Secret: r.secret,
		}); err != nil {
			d.VerifyErr = err.Error()
		}
		r.mu.Lock()
		r.got = append(r.got, d)
		r.mu.Unlock()
		w.WriteHeader(http.StatusOK)
	case req.Method == http.MethodGet && req.URL.Path == "/captured":
		want := req.URL.Query().Get("trigger_id")
		out := []delivery{}
		for _, d := range r.all() {
			if want == "" || d.TriggerID == want {
				out = append(out, d)
			}
		}
		w.Header().Set("content-type", "application/json")
		_ = json.NewEncoder(w).Encode(out)
	default:
		http.NotFound(w, req)
	}
}

// ---------------------------------------------------------------------------------------------
// signature vectors

type vector struct {
	ID        string `json:"id"`
	Timestamp string `json:"timestamp"`
	Body      string `json:"body"`
	Signature string `json:"signature"`
}

type vectorFile struct {
	Secret string `json:"secret"`
	Valid  vector `json:"valid"`
	Stale  vector `json:"stale"`
}

func v3Body(id string, ts time.Time) string {
	b, _ := json.Marshal(map[string]any{
		"id":        "evt_" + id,
		"timestamp": ts.UTC().Format(time.RFC3339),
		"type":      "composio.trigger.message",
		"metadata": map[string]any{
			"log_id": "log_" + id, "trigger_slug": "STRIPE_CHARGE_SUCCEEDED_TRIGGER", "trigger_id": "ti_go",
			"connected_account_id": "ca_go", "auth_config_id": "ac_go", "user_id": "go-user",
		},
		"data": map[string]any{"amount": 4200, "note": "signed in Go ✓"},
	})
	return string(b)
}

// writeGoVectors signs a current and a stale V3 payload with webhooksig.Sign.
func writeGoVectors(t *testing.T, path string) {
	t.Helper()
	secret := "go-secret-" + strconv.FormatInt(time.Now().UnixNano(), 36)
	mk := func(id string, ts time.Time) vector {
		v := vector{ID: "msg_" + id, Timestamp: strconv.FormatInt(ts.Unix(), 10), Body: v3Body(id, ts)}
		v.Signature = webhooksig.Sign(secret, v.ID, v.Timestamp, []byte(v.Body))
		return v
	}
	now := time.Now()
	f := vectorFile{Secret: secret, Valid: mk("valid", now), Stale: mk("stale", now.Add(-time.Hour))}
	b, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// verifyNodeVectors checks that webhooktest.VerifyWebhook accepts the SDK-algorithm signature and
// rejects a tampered body, a wrong secret and a stale timestamp.
func verifyNodeVectors(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("node wrote no signature vectors: %v", err)
	}
	var f vectorFile
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	params := func(v vector) webhooktest.VerifyWebhookParams {
		return webhooktest.VerifyWebhookParams{
			Payload: []byte(v.Body), Signature: v.Signature, ID: v.ID, Timestamp: v.Timestamp, Secret: f.Secret,
		}
	}

	res, err := webhooktest.VerifyWebhook(params(f.Valid))
	if err != nil {
		t.Fatalf("webhooktest.VerifyWebhook rejected an SDK-algorithm signature: %v", err)
	}
	if res.Version != "V3" {
		t.Errorf("VerifyWebhook version = %q, want V3", res.Version)
	}

	reject := func(name string, p webhooktest.VerifyWebhookParams) {
		t.Helper()
		if _, err := webhooktest.VerifyWebhook(p); err == nil {
			t.Errorf("webhooktest.VerifyWebhook accepted a %s", name)
		}
	}
	tampered := params(f.Valid)
	tampered.Payload = bytes.Replace(tampered.Payload, []byte(`"sha":"f00d"`), []byte(`"sha":"f00e"`), 1)
	if bytes.Equal(tampered.Payload, []byte(f.Valid.Body)) {
		t.Fatal("tampering did not change the body")
	}
	reject("tampered body", tampered)
	wrong := params(f.Valid)
	wrong.Secret += "-wrong"
	reject("wrong secret", wrong)
	reject("stale timestamp", params(f.Stale))

	// The stale vector is correctly signed: with the tolerance check disabled it verifies.
	noTol := params(f.Stale)
	zero := time.Duration(0)
	noTol.Tolerance = &zero
	if _, err := webhooktest.VerifyWebhook(noTol); err != nil {
		t.Errorf("stale vector with tolerance disabled: %v", err)
	}
}
