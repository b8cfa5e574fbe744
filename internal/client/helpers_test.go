package client

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"sync"
	"testing"
	"time"
)

const testAPIKey = "sk-test-SECRET-key-123"

type recordedRequest struct {
	Method string
	Path   string
	Query  url.Values
	Header http.Header
	Body   []byte
}

type recorder struct {
	mu   sync.Mutex
	reqs []recordedRequest
}

func (r *recorder) all() []recordedRequest {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]recordedRequest(nil), r.reqs...)
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.reqs)
}

func (r *recorder) last(t *testing.T) recordedRequest {
	t.Helper()
	all := r.all()
	if len(all) == 0 {
		t.Fatal("no request recorded")
	}
	return all[len(all)-1]
}

// newTestClient starts an httptest server running h (after recording each
// request) and returns a client pointed at it with fast retries.
func newTestClient(t *testing.T, h http.HandlerFunc, mods ...func(*Config)) (*Client, *recorder) {
	t.Helper()
	rec := &recorder{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rec.mu.Lock()
		rec.reqs = append(rec.reqs, recordedRequest{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(), Header: r.Header.Clone(), Body: body})
		rec.mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(body))
		if h != nil {
			h(w, r)
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{})
	}))
	t.Cleanup(srv.Close)
	cfg := Config{
		BaseURL:      srv.URL,
		APIKey:       testAPIKey,
		UserAgent:    "terraform-provider-service/9.9.9",
		RetryWaitMin: time.Millisecond,
		RetryWaitMax: 5 * time.Millisecond,
		PollInterval: 10 * time.Millisecond,
	}
	for _, m := range mods {
		m(&cfg)
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c, rec
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// replyJSON returns a handler always answering status with body (a JSON string).
func replyJSON(status int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}
}

// assertJSON compares a recorded body with the expected JSON text.
func assertJSON(t *testing.T, got []byte, want string) {
	t.Helper()
	if want == "" {
		if len(bytes.TrimSpace(got)) != 0 {
			t.Errorf("body = %s, want none", got)
		}
		return
	}
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("request body %q is not JSON: %v", got, err)
	}
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad expected JSON %q: %v", want, err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("body = %s\nwant   %s", got, want)
	}
}

func assertQuery(t *testing.T, got url.Values, want map[string]string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("query = %v, want %v", got, want)
		return
	}
	for k, v := range want {
		if g := got[k]; len(g) != 1 || g[0] != v {
			t.Errorf("query %s = %v, want %q (all: %v)", k, g, v, got)
		}
	}
}

func ptr[T any](v T) *T { return &v }
