package emulator

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/integration-service/terraform-provider-service/internal/client/webhooktest"
)

func TestStats(t *testing.T) {
	e := newEnv(t, Options{})
	e.must(200, "DELETE", "/_emulator/stats", nil)
	ac := e.createManagedAC("github")
	e.must(200, "GET", v+"/auth_configs/"+ac, nil)
	e.must(200, "GET", "/api/v3/auth_configs/"+ac, nil)
	e.mustErr(400, "toolkit.slug", "POST", v+"/auth_configs", map[string]any{})
	e.must(200, "PATCH", v+"/auth_configs/"+ac+"/DISABLED", nil)
	s := e.must(200, "GET", "/_emulator/stats", nil)
	req := s.get("requests").(map[string]any)
	if req["GET /api/v3.1/auth_configs/{nanoid}"] != 1.0 || req["GET /api/v3/auth_configs/{nanoid}"] != 1.0 ||
		req["POST /api/v3.1/auth_configs"] != 2.0 || req["PATCH /api/v3.1/auth_configs/{nanoid}/{status}"] != 1.0 {
		t.Fatalf("requests: %s", s.raw)
	}
	if s.get("writes") != 2.0 {
		t.Fatalf("writes (successful POST/PATCH/PUT/DELETE on API routes): %s", s.raw)
	}
	// Per project: only authenticated requests, under the key's project.
	proj := s.get("projects").(map[string]any)["default"].(map[string]any)
	if proj["GET /api/v3.1/auth_configs/{nanoid}"] != 1.0 || proj["POST /api/v3.1/auth_configs"] != 2.0 || len(proj) != 4 {
		t.Fatalf("requests of project default: %s", s.raw)
	}
}

func TestFaultSpecParsing(t *testing.T) {
	fs, err := parseFaults("status=429:0.1, status=503:0.1,latency=20ms,reset=0.02")
	if err != nil || len(fs.statuses) != 2 || fs.latency != 20*time.Millisecond || fs.reset != 0.02 {
		t.Fatalf("%+v %v", fs, err)
	}
	for _, bad := range []string{"status=200:0.1", "status=503:2", "latency=fast", "reset=x", "boom=1", "nokey"} {
		if _, err := parseFaults(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if _, err := New(Options{Faults: "bad"}); err == nil {
		t.Error("New accepted bad faults")
	}
}

func TestFaultInjection(t *testing.T) {
	e := newEnv(t, Options{Faults: "status=429:1"})
	r := e.do("GET", v+"/toolkits", nil)
	checkErr(t, r, 429, "Rate limit")
	if r.header.Get("Retry-After") == "" {
		t.Fatal("429 without Retry-After")
	}
	// control routes are not faulted
	e.must(200, "PUT", "/_emulator/faults", "status=503:1")
	checkErr(t, e.do("GET", v+"/toolkits", nil), 503, "injected")
	e.must(200, "PUT", "/_emulator/faults", map[string]any{"spec": "latency=30ms"})
	start := time.Now()
	e.must(200, "GET", v+"/toolkits", nil)
	if d := time.Since(start); d < 30*time.Millisecond {
		t.Fatalf("latency not applied: %v", d)
	}
	e.must(200, "PUT", "/_emulator/faults", "reset=1")
	req, _ := http.NewRequestWithContext(context.Background(), "GET", e.ts.URL+v+"/toolkits", nil)
	req.Header.Set("x-api-key", testKey)
	if res, err := http.DefaultClient.Do(req); err == nil {
		res.Body.Close()
		t.Fatal("reset fault answered")
	}
	e.mustErr(400, "unknown kind", "PUT", "/_emulator/faults", "explode=1")
	if r := e.must(200, "PUT", "/_emulator/faults", ""); r.str("faults") != "" {
		t.Fatal(r.raw)
	}
	e.must(200, "GET", v+"/toolkits", nil)
	// a probabilistic mix fails some requests and passes others
	e.must(200, "PUT", "/_emulator/faults", "status=503:0.5")
	ok, failed := 0, 0
	for i := 0; i < 60; i++ {
		if e.do("GET", v+"/toolkits/categories", nil).status == 200 {
			ok++
		} else {
			failed++
		}
	}
	if ok == 0 || failed == 0 {
		t.Fatalf("p=0.5: ok %d failed %d", ok, failed)
	}
}

type hookRecorder struct {
	mu       sync.Mutex
	failN    int
	attempts int
	got      []http.Header
	bodies   [][]byte
	done     chan struct{}
}

func (h *hookRecorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	h.mu.Lock()
	defer h.mu.Unlock()
	h.attempts++
	if h.attempts <= h.failN {
		w.WriteHeader(500)
		return
	}
	h.got = append(h.got, r.Header.Clone())
	h.bodies = append(h.bodies, body)
	w.WriteHeader(204)
	close(h.done)
}

func TestFireTriggerSignedWebhookWithRetries(t *testing.T) {
	rec := &hookRecorder{failN: 2, done: make(chan struct{})}
	hook := httptest.NewServer(rec)
	defer hook.Close()
	const secret = "whsec_test-secret"
	e := newEnv(t, Options{WebhookURL: hook.URL, WebhookSecret: secret, WebhookBackoff: 10 * time.Millisecond})
	ac := e.createCustomAC("stripe", "API_KEY", nil)
	ca := e.apiKeyAccount(ac, "u1")
	ti := e.must(200, "POST", v+"/trigger_instances/STRIPE_CHARGE_SUCCEEDED_TRIGGER/upsert", map[string]any{"connected_account_id": ca}).str("trigger_id")
	f := e.must(200, "POST", "/_emulator/trigger_instances/"+ti+"/fire", map[string]any{"charge_id": "ch_1", "amount": 500})
	if f.get("queued") != true {
		t.Fatal(f.raw)
	}
	select {
	case <-rec.done:
	case <-time.After(5 * time.Second):
		t.Fatal("webhook not delivered")
	}
	rec.mu.Lock()
	h, body, attempts := rec.got[0], rec.bodies[0], rec.attempts
	rec.mu.Unlock()
	if attempts != 3 {
		t.Fatalf("attempts %d, want 3", attempts)
	}
	id, ts := h.Get("webhook-id"), h.Get("webhook-timestamp")
	if id != f.str("webhook_id") || h.Get("x-composio-webhook-version") != "V3" {
		t.Fatalf("headers %v", h)
	}
	if n, err := strconv.ParseInt(ts, 10, 64); err != nil || time.Since(time.Unix(n, 0)) > time.Minute {
		t.Fatalf("timestamp %q", ts)
	}
	if _, err := webhooktest.VerifyWebhook(webhooktest.VerifyWebhookParams{Payload: body, Signature: h.Get("webhook-signature"),
		ID: id, Timestamp: ts, Secret: secret}); err != nil {
		t.Fatalf("signature %q: %v", h.Get("webhook-signature"), err)
	}
	var p map[string]any
	if err := json.Unmarshal(body, &p); err != nil {
		t.Fatal(err)
	}
	md := p["metadata"].(map[string]any)
	if p["type"] != "composio.trigger.message" || p["id"] != id || md["trigger_slug"] != "STRIPE_CHARGE_SUCCEEDED_TRIGGER" ||
		md["trigger_id"] != ti || md["connected_account_id"] != ca || md["auth_config_id"] != ac || md["user_id"] != "u1" ||
		p["data"].(map[string]any)["charge_id"] != "ch_1" {
		t.Fatalf("payload %s", body)
	}
	// disabled triggers and inactive accounts do not fire
	e.must(200, "PATCH", v+"/trigger_instances/manage/"+ti, map[string]any{"status": "disable"})
	r := e.do("POST", "/_emulator/trigger_instances/"+ti+"/fire", map[string]any{})
	checkErr(t, r, 409, "disabled")
	// The fix agrees with the message: enable it; never "no change is needed".
	if fix := r.str("error", "suggested_fix"); !strings.Contains(fix, "Enable the trigger instance") || strings.Contains(fix, "no change is needed") {
		t.Fatalf("a disabled trigger's suggested_fix %q does not say to enable it", fix)
	}
	e.mustErr(404, "not found", "POST", "/_emulator/trigger_instances/ti_nope/fire", map[string]any{})
	// The receiver has answered, but the emulator counts the delivery only
	// once it has read that answer: wait for the counter rather than race it.
	deadline := time.Now().Add(5 * time.Second)
	for {
		st := e.must(200, "GET", "/_emulator/stats", nil)
		if st.get("webhooks", "delivered") == 1.0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal(st.raw)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestFireWithoutWebhook(t *testing.T) {
	e := newEnv(t, Options{})
	ac := e.createCustomAC("stripe", "API_KEY", nil)
	ca := e.apiKeyAccount(ac, "u1")
	ti := e.must(200, "POST", v+"/trigger_instances/STRIPE_PAYMENT_FAILED_TRIGGER/upsert", map[string]any{"connected_account_id": ca}).str("trigger_id")
	if r := e.must(200, "POST", "/_emulator/trigger_instances/"+ti+"/fire", map[string]any{"x": 1}); r.get("queued") != false {
		t.Fatal(r.raw)
	}
	rec := &hookRecorder{done: make(chan struct{})}
	hook := httptest.NewServer(rec)
	defer hook.Close()
	e.must(200, "PUT", "/_emulator/webhook", map[string]any{"url": hook.URL, "secret": "s"})
	e.must(200, "POST", "/_emulator/trigger_instances/"+ti+"/fire", map[string]any{"x": 1})
	select {
	case <-rec.done:
	case <-time.After(5 * time.Second):
		t.Fatal("not delivered after PUT /_emulator/webhook")
	}
	// An account that is no longer ACTIVE: the fix says what makes it fire,
	// not that nothing needs to change.
	e.must(200, "POST", "/_emulator/connected_accounts/"+ca+"/expire", nil)
	r := e.do("POST", "/_emulator/trigger_instances/"+ti+"/fire", map[string]any{})
	checkErr(t, r, 409, "not ACTIVE")
	if fix := r.str("error", "suggested_fix"); !strings.Contains(fix, "ACTIVE") || strings.Contains(fix, "no change is needed") {
		t.Fatalf("an inactive account's suggested_fix %q does not say what makes the trigger fire", fix)
	}
}
