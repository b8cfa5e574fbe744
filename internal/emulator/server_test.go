package emulator

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

func TestAuthRequired(t *testing.T) {
	e := newEnv(t, Options{})
	checkErr(t, e.doKey("", "GET", v+"/toolkits", nil), 401, "missing API key")
	checkErr(t, e.doKey("nope", "GET", "/api/v3/toolkits", nil), 401, "invalid API key")
	checkErr(t, e.doKey("", "GET", "/_emulator/stats", nil), 401, "API key")
	for _, p := range apiPrefixes {
		r := e.must(200, "GET", p+"/toolkits/github", nil)
		if r.str("slug") != "github" {
			t.Fatalf("%s: %s", p, r.raw)
		}
	}
}

func TestUnknownRoute(t *testing.T) {
	e := newEnv(t, Options{})
	e.mustErr(404, "no route", "GET", v+"/nothing/here", nil)
	e.mustErr(404, "no route", "PUT", v+"/auth_configs", nil)
}

func TestContentTypeAlwaysJSON(t *testing.T) {
	e := newEnv(t, Options{})
	ac := e.createManagedAC("github")
	for _, r := range []resp{
		e.do("PATCH", v+"/auth_configs/"+ac+"/DISABLED", nil),
		e.do("PATCH", v+"/auth_configs/"+ac, map[string]any{"type": "default", "scopes": "repo"}),
		e.do("DELETE", v+"/auth_configs/"+ac, nil),
	} {
		if r.status != 200 || r.header.Get("Content-Type") != "application/json" || r.body == nil {
			t.Fatalf("status %d ct %q body %q", r.status, r.header.Get("Content-Type"), r.raw)
		}
	}
}

func TestInvalidJSONBody(t *testing.T) {
	e := newEnv(t, Options{})
	e.mustErr(400, "not valid JSON", "POST", v+"/auth_configs", "{nope")
}

func TestProjectIsolation(t *testing.T) {
	e := newEnv(t, Options{APIKeys: map[string]string{"key-a": "alpha", "key-a2": "alpha", "key-b": "beta"}})
	e.key = "key-a"
	ac := e.createCustomAC("stripe", "API_KEY", map[string]any{})
	ca := e.apiKeyAccount(ac, "u1")
	ti := e.must(200, "POST", v+"/trigger_instances/STRIPE_CHARGE_SUCCEEDED_TRIGGER/upsert", map[string]any{"connected_account_id": ca}).str("trigger_id")

	// same project, other key: visible
	e.key = "key-a2"
	e.must(200, "GET", v+"/auth_configs/"+ac, nil)
	// other project: 404 everywhere, lists empty
	e.key = "key-b"
	e.mustErr(404, "not found", "GET", v+"/auth_configs/"+ac, nil)
	e.mustErr(404, "not found", "PATCH", v+"/auth_configs/"+ac, map[string]any{"type": "custom", "name": "x"})
	e.mustErr(404, "not found", "DELETE", v+"/auth_configs/"+ac, nil)
	e.mustErr(404, "not found", "GET", v+"/connected_accounts/"+ca, nil)
	e.mustErr(404, "not found", "PATCH", v+"/connected_accounts/"+ca+"/status", map[string]any{"enabled": false})
	e.mustErr(404, "not found", "DELETE", v+"/connected_accounts/"+ca, nil)
	e.mustErr(404, "not found", "PATCH", v+"/trigger_instances/manage/"+ti, map[string]any{"status": "disable"})
	e.mustErr(404, "not found", "POST", "/_emulator/connected_accounts/"+ca+"/complete", nil)
	e.mustErr(404, "not found", "POST", v+"/connected_accounts", map[string]any{"auth_config": map[string]any{"id": ac}})
	e.mustErr(404, "not found", "POST", v+"/trigger_instances/STRIPE_CHARGE_SUCCEEDED_TRIGGER/upsert", map[string]any{"connected_account_id": ca})
	for _, p := range []string{"/auth_configs", "/connected_accounts", "/trigger_instances/active?show_disabled=true"} {
		if r := e.must(200, "GET", v+p, nil); len(r.items()) != 0 {
			t.Fatalf("%s leaked: %s", p, r.raw)
		}
	}
	e.key = "key-a"
	if r := e.must(200, "GET", v+"/trigger_instances/active", nil); len(r.items()) != 1 {
		t.Fatalf("own trigger missing: %s", r.raw)
	}
}

func TestDefaultKeyAndEmptyKeyRejected(t *testing.T) {
	if _, err := New(Options{APIKeys: map[string]string{"": "p"}}); err == nil {
		t.Fatal("empty key accepted")
	}
	e := newEnv(t, Options{})
	e.must(200, "GET", v+"/auth_configs", nil)
}

func TestRequestIDHeader(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.must(200, "GET", v+"/toolkits/categories", nil)
	if !strings.HasPrefix(r.header.Get("x-request-id"), "req_") {
		t.Fatalf("x-request-id %q", r.header.Get("x-request-id"))
	}
	_ = http.StatusOK
}

func TestRateLimitHeaders(t *testing.T) {
	e := newEnv(t, Options{})
	first := e.must(200, "GET", v+"/toolkits", nil)
	second := e.must(200, "GET", "/api/v3/toolkits/categories", nil)
	if first.header.Get("X-RateLimit") != "10000" || first.header.Get("X-RateLimit-Window-Size") != "60s" {
		t.Fatalf("headers: %v", first.header)
	}
	r1, _ := strconv.Atoi(first.header.Get("X-RateLimit-Remaining"))
	r2, _ := strconv.Atoi(second.header.Get("X-RateLimit-Remaining"))
	if r1 <= 0 || r2 != r1-1 {
		t.Fatalf("remaining %d then %d", r1, r2)
	}
	// also on errors of API routes
	if r := e.doKey("", "GET", v+"/auth_configs", nil); r.status != 401 || r.header.Get("X-RateLimit-Remaining") == "" {
		t.Fatalf("401 without rate-limit headers: %v", r.header)
	}
}

func TestRealtimeAuth(t *testing.T) {
	e := newEnv(t, Options{})
	creds := e.must(200, "GET", "/api/v3/internal/sdk/realtime/credentials", nil)
	channel := "private-" + creds.str("project_id") + "_triggers"
	form := func(body string) resp {
		req, _ := http.NewRequestWithContext(context.Background(), "POST", e.ts.URL+"/api/v3/internal/sdk/realtime/auth", strings.NewReader(body))
		req.Header.Set("x-api-key", e.key)
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		res, err := e.ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var r resp
		r.status = res.StatusCode
		_ = json.NewDecoder(res.Body).Decode(&r.body)
		return r
	}
	r := form("socket_id=123.456&channel_name=" + channel)
	mac := hmac.New(sha256.New, []byte(realtimeSecret))
	mac.Write([]byte("123.456:" + channel))
	if r.status != 200 || r.str("auth") != creds.str("pusher_key")+":"+hex.EncodeToString(mac.Sum(nil)) {
		t.Fatalf("auth: %d %v", r.status, r.body)
	}
	if r := form("socket_id=1.2&channel_name=private-other_triggers"); r.status != 403 {
		t.Fatalf("other channel: %d", r.status)
	}
	if r := form("channel_name=" + channel); r.status != 400 {
		t.Fatalf("no socket id: %d", r.status)
	}
}
