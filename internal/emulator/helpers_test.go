package emulator

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/integration-service/terraform-provider-service/internal/testutil"
)

const testKey = DefaultAPIKey

type testEnv struct {
	t   *testing.T
	srv *Server
	ts  *httptest.Server
	key string
}

func newEnv(t *testing.T, opts Options) *testEnv {
	t.Helper()
	srv, err := New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	ts := httptest.NewServer(srv.Handler())
	srv.SetBaseURL(ts.URL)
	t.Cleanup(func() {
		ts.Close()
		if err := srv.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return &testEnv{t: t, srv: srv, ts: ts, key: testKey}
}

type resp struct {
	status int
	header http.Header
	body   map[string]any
	list   []any
	raw    string
}

func (r resp) str(path ...string) string {
	v := r.get(path...)
	s, _ := v.(string)
	return s
}

func (r resp) get(path ...string) any {
	return testutil.Dig(r.body, path...)
}

func (r resp) items() []map[string]any {
	list, _ := r.body["items"].([]any)
	out := make([]map[string]any, 0, len(list))
	for _, it := range list {
		out = append(out, it.(map[string]any))
	}
	return out
}

func (e *testEnv) doKey(key, method, path string, body any) resp {
	e.t.Helper()
	return e.doHeaders(map[string]string{"x-api-key": key}, method, path, body)
}

// doHeaders sends a request with the given credential headers (an entry with
// an empty name or value is left out) instead of the env's x-api-key. A
// string body is sent as is, any other non-nil body as JSON.
func (e *testEnv) doHeaders(headers map[string]string, method, path string, body any) resp {
	e.t.Helper()
	var rd io.Reader
	if body != nil {
		if s, ok := body.(string); ok {
			rd = strings.NewReader(s)
		} else {
			b, _ := json.Marshal(body)
			rd = bytes.NewReader(b)
		}
	}
	req, err := http.NewRequestWithContext(context.Background(), method, e.ts.URL+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	for k, v := range headers {
		if k != "" && v != "" {
			req.Header.Set(k, v)
		}
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := e.ts.Client().Do(req)
	if err != nil {
		e.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	r := resp{status: res.StatusCode, header: res.Header, raw: string(data)}
	if ct := res.Header.Get("Content-Type"); strings.HasPrefix(ct, "application/json") {
		if strings.HasPrefix(strings.TrimSpace(r.raw), "[") {
			_ = json.Unmarshal(data, &r.list)
		} else if err := json.Unmarshal(data, &r.body); err != nil {
			e.t.Fatalf("%s %s: bad JSON %q: %v", method, path, data, err)
		}
	}
	return r
}

func (e *testEnv) do(method, path string, body any) resp {
	e.t.Helper()
	return e.doKey(e.key, method, path, body)
}

// must asserts the status and returns the response.
func (e *testEnv) must(status int, method, path string, body any) resp {
	e.t.Helper()
	r := e.do(method, path, body)
	if r.status != status {
		e.t.Fatalf("%s %s: status %d, want %d; body %s", method, path, r.status, status, r.raw)
	}
	return r
}

// mustErr asserts an error envelope with the status and a message containing want.
func (e *testEnv) mustErr(status int, want, method, path string, body any) {
	e.t.Helper()
	checkErr(e.t, e.do(method, path, body), status, want)
}

func checkErr(t *testing.T, r resp, status int, want string) {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d; body %s", r.status, status, r.raw)
	}
	if ct := r.header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("content-type %q", ct)
	}
	msg := r.str("error", "message")
	if !strings.Contains(msg, want) {
		t.Fatalf("error message %q does not contain %q", msg, want)
	}
	if st, _ := r.get("error", "status").(float64); int(st) != status {
		t.Fatalf("error.status %v, want %d", r.get("error", "status"), status)
	}
	if code, _ := r.get("error", "code").(float64); code == 0 {
		t.Fatalf("error.code missing: %s", r.raw)
	}
	if r.str("error", "request_id") == "" || r.str("error", "suggested_fix") == "" {
		t.Fatalf("error.request_id / suggested_fix missing: %s", r.raw)
	}
}

const v = "/api/v3.1"

func (e *testEnv) createCustomAC(toolkit, scheme string, creds map[string]any) string {
	e.t.Helper()
	r := e.must(201, "POST", v+"/auth_configs", map[string]any{
		"toolkit":     map[string]any{"slug": toolkit},
		"auth_config": map[string]any{"type": "use_custom_auth", "authScheme": scheme, "credentials": creds},
	})
	return r.str("auth_config", "id")
}

func (e *testEnv) createManagedAC(toolkit string) string {
	e.t.Helper()
	r := e.must(201, "POST", v+"/auth_configs", map[string]any{
		"toolkit": map[string]any{"slug": toolkit}, "auth_config": map[string]any{"type": "use_composio_managed_auth"},
	})
	return r.str("auth_config", "id")
}

func (e *testEnv) apiKeyAccount(acID, user string) string {
	e.t.Helper()
	r := e.must(201, "POST", v+"/connected_accounts", map[string]any{
		"auth_config": map[string]any{"id": acID},
		"connection": map[string]any{"user_id": user, "state": map[string]any{
			"authScheme": "API_KEY", "val": map[string]any{"status": "ACTIVE", "api_key": "sk_test_123"}}},
	})
	if r.str("status") != "ACTIVE" {
		e.t.Fatalf("API key account not ACTIVE: %s", r.raw)
	}
	return r.str("id")
}

func (e *testEnv) oauthAccount(acID, user, callback string) (id, redirect string) {
	e.t.Helper()
	r := e.must(201, "POST", v+"/connected_accounts", map[string]any{
		"auth_config": map[string]any{"id": acID},
		"connection":  map[string]any{"user_id": user, "callback_url": callback},
	})
	return r.str("id"), r.str("redirect_url")
}

// reopenAfter opens a server on the data file path, runs write on its store
// (holding the store's lock), closes it, and returns a server opened again
// on the same file, closed when the test ends.
func reopenAfter(t *testing.T, path string, write func(st *store) error) *Server {
	t.Helper()
	srv, err := New(Options{DataPath: path})
	if err != nil {
		t.Fatal(err)
	}
	srv.st.mu.Lock()
	err = write(srv.st)
	srv.st.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := New(Options{DataPath: path})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = again.Close() })
	return again
}
