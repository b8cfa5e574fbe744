package client

// Tests added to kill mutants that survived `make mutate` (CONTRIBUTING.md,
// "Mutation testing"); each names the mutant it kills.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflogtest"
)

// auth_configs.go, reconciliation of a create with Type "managed": the
// recovered config must be matched as a managed one (the "r.Type ==
// AuthConfigTypeManaged" half of the managed test).
func TestMutantCreateManagedAuthConfigReconciles(t *testing.T) {
	f := &fakeStore{crashNext: 1}
	c, _ := newTestClient(t, f.handler)
	r := acReq()
	r.Type = AuthConfigTypeManaged
	got, err := c.CreateAuthConfig(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != "ac_1" || f.creates != 1 {
		t.Errorf("id=%s creates=%d; want the committed ac_1 adopted after one create", got.ID, f.creates)
	}
}

// client.go, New: a zero RetryWaitMin or RetryWaitMax takes its default (the
// "<= 0" tests; "< 0" would keep the zero).
func TestMutantNewDefaultsRetryWaits(t *testing.T) {
	c, err := New(Config{APIKey: testAPIKey})
	if err != nil {
		t.Fatal(err)
	}
	if c.cfg.RetryWaitMin != DefaultRetryWaitMin || c.cfg.RetryWaitMax != DefaultRetryWaitMax {
		t.Errorf("retry waits = %v..%v, want the defaults %v..%v", c.cfg.RetryWaitMin, c.cfg.RetryWaitMax, DefaultRetryWaitMin, DefaultRetryWaitMax)
	}
}

// connected_accounts.go, initiateOnce: a non-empty connectionData.val.status
// overrides the top-level status.
func TestMutantInitiateStatusFromConnectionData(t *testing.T) {
	c, _ := newTestClient(t, replyJSON(201, `{"id":"ca_1","status":"INITIATED","connectionData":{"val":{"status":"ACTIVE"}}}`))
	got, err := c.InitiateConnectedAccount(context.Background(), InitiateConnectedAccountRequest{AuthConfigID: "ac_1", UserID: "u1"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != "ACTIVE" {
		t.Errorf("status = %q, want ACTIVE from connectionData", got.Status)
	}
}

// errors.go, snippet: a body of exactly maxErrorSnippet bytes is kept whole
// (the "<=" boundary).
func TestMutantSnippetAtLimitIsWhole(t *testing.T) {
	body := strings.Repeat("a", maxErrorSnippet)
	if got := newAPIError("GET", "/x", 500, nil, []byte(body), nil).Message; got != body {
		t.Errorf("message = %q, want the whole %d-byte body", got, maxErrorSnippet)
	}
}

// logging.go: the API key is masked in every logged field (here the URL of a
// request whose path carries it), the logged attempt counts from 1 (the
// "attempt + 1" of the request and retry logs), and a request without query
// parameters has no "?" (transport.go, doKind's "len(query) > 0").
func TestMutantLogsMaskKeyAndCountAttempts(t *testing.T) {
	c, _ := newTestClient(t, statusSequence([]int{503}, nil))
	var buf bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &buf)
	_, _ = c.GetConnectedAccount(ctx, "id-"+testAPIKey)
	out := buf.String()
	if strings.Contains(out, testAPIKey) {
		t.Errorf("log output contains the API key:\n%s", out)
	}
	first := map[string]any{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var e map[string]any
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("bad log line %q: %v", line, err)
		}
		if u, _ := e["http_url"].(string); strings.Contains(u, "?") {
			t.Errorf("URL of a request without a query has a '?': %s", u) // transport.go: len(query) > 0
		}
		if m, _ := e["@message"].(string); first[m] == nil && e["attempt"] != nil {
			first[m] = e["attempt"]
		}
	}
	for _, m := range []string{"service API request", "service API request will be retried"} {
		if first[m] != float64(1) {
			t.Errorf("first %q log has attempt %v, want 1:\n%s", m, first[m], out)
		}
	}
}

// mcp_servers.go, pagesByNumberIter: against a service that never ends,
// exactly maxNumberedPages pages are read (the "<=" bound).
func TestMutantNumberedPagesBound(t *testing.T) {
	c, rec := newTestClient(t, replyJSON(200, `{"items":[{"id":"x"}],"total_pages":1000000}`))
	n := 0
	for _, err := range pagesByNumberIter[map[string]any](context.Background(), c, "/mcp/servers", nil) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != maxNumberedPages || rec.count() != maxNumberedPages {
		t.Errorf("items=%d requests=%d, want %d pages read", n, rec.count(), maxNumberedPages)
	}
}

// probe.go, Probe: when even the first dial fails because the window is
// over, that failure is the cause named (the "cause == nil" half).
func TestMutantProbeWindowOverBeforeFirstDial(t *testing.T) {
	c, err := New(Config{BaseURL: "http://127.0.0.1:9"})
	if err != nil {
		t.Fatal(err)
	}
	err = c.Probe(context.Background(), time.Nanosecond)
	if err == nil || errors.Unwrap(err) == nil || strings.Contains(err.Error(), "%!") {
		t.Fatalf("err = %v; want one wrapping the failed dial", err)
	}
}

// probe.go, cleanDialError: a *net.OpError is reduced to its inner error.
func TestMutantCleanDialError(t *testing.T) {
	inner := errors.New("connection refused")
	if got := cleanDialError(&net.OpError{Op: "dial", Net: "tcp", Err: inner}); got != inner { //nolint:errorlint // the very error, not one wrapping it
		t.Errorf("cleanDialError = %v, want the inner %v", got, inner)
	}
}

// reconcile.go, findPatiently: the waits between failed reconciliation lists
// grow with the attempt (the "attempt++"): the third is at least 2x2x the
// minimum wait (less its jitter).
func TestMutantReconcileListWaitsGrow(t *testing.T) {
	f := &fakeStore{crashNext: 1, listDown: 15} // three lists of 1+4 attempts each fail
	c, _ := newTestClient(t, f.handler, func(cfg *Config) {
		cfg.RetryWaitMin, cfg.RetryWaitMax = 4*time.Millisecond, time.Second
	})
	var buf bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &buf)
	if _, err := c.CreateAuthConfig(ctx, acReq()); err != nil {
		t.Fatal(err)
	}
	var waits []float64
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var e map[string]any
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("bad log line %q: %v", line, err)
		}
		if m, _ := e["@message"].(string); strings.HasPrefix(m, "service API reconciliation list failed") {
			w, _ := e["retry_in_ms"].(float64)
			waits = append(waits, w)
		}
	}
	if len(waits) != 3 || waits[2] < 8 {
		t.Errorf("reconciliation list waits = %v ms, want 3 with the third >= 8", waits)
	}
}

// transport.go, doKind: only 2xx is success; a 300 is an error (the "< 300"
// bound).
func TestMutantStatus300IsAnError(t *testing.T) {
	c, _ := newTestClient(t, replyJSON(300, `{"id":"ca_1"}`))
	var ae *APIError
	if _, err := c.GetConnectedAccount(context.Background(), "ca_1"); !errors.As(err, &ae) || ae.StatusCode != 300 {
		t.Errorf("err = %v, want an APIError with status 300", err)
	}
}

// transport.go, doKind: the ambiguous-create log counts attempts from 1.
func TestMutantAmbiguousCreateLogAttempt(t *testing.T) {
	f := &fakeStore{crashNext: 1}
	c, _ := newTestClient(t, f.handler)
	var buf bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &buf)
	if _, err := c.CreateAuthConfig(ctx, acReq()); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var e map[string]any
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("bad log line %q: %v", line, err)
		}
		if m, _ := e["@message"].(string); strings.HasPrefix(m, "service API create failed ambiguously") {
			if e["attempt"] != float64(1) {
				t.Errorf("ambiguous create logged with attempt %v, want 1", e["attempt"])
			}
			return
		}
	}
	t.Errorf("no ambiguous-create log:\n%s", buf.String())
}

// transport.go, doKind: a server-asked delay of exactly maxServerDelay is
// still waited for (the "> maxServerDelay" bound); the wait is cut short here
// by cancelling the context once the retry is logged.
func TestMutantServerDelayAtLimitIsWaited(t *testing.T) {
	c, _ := newTestClient(t, statusSequence([]int{503}, map[string]string{"Retry-After": "60"}))
	var buf bytes.Buffer
	ctx, cancel := context.WithCancel(tflogtest.RootLogger(context.Background(), &buf))
	time.AfterFunc(300*time.Millisecond, cancel)
	_, _ = c.GetConnectedAccount(ctx, "ca_1")
	cancel()
	if !strings.Contains(buf.String(), `"retry_in_ms":60000`) {
		t.Errorf("no retry logged after a Retry-After of 60s:\n%s", buf.String())
	}
}

// transport.go, backoff: the jitter spreads the wait over [d/2, d], both ends
// included (the "half > 0" test and the "rand.N(half+1)").
func TestMutantBackoffJitterRange(t *testing.T) {
	c, err := New(Config{APIKey: testAPIKey, RetryWaitMin: 4, RetryWaitMax: 4})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[time.Duration]bool{}
	for range 300 {
		d, _ := c.backoff(0, nil)
		if d < 2 || d > 4 {
			t.Fatalf("wait %v outside [2ns, 4ns]", d)
		}
		seen[d] = true
	}
	if !seen[2] || !seen[3] || !seen[4] {
		t.Errorf("waits seen = %v, want each of 2ns, 3ns and 4ns", seen)
	}
}

// transport.go, retryAfter: retry-after-ms 0 and Retry-After 0 are valid
// answers (the "ms >= 0" and "s < 0" bounds).
func TestMutantRetryAfterZero(t *testing.T) {
	for _, name := range []string{"Retry-After-Ms", "Retry-After"} {
		h := http.Header{}
		h.Set(name, "0")
		if d, ok := retryAfter(h, time.Now()); !ok || d != 0 {
			t.Errorf("%s: 0: retryAfter = %v, %v; want 0, true", name, d, ok)
		}
	}
}

// versions.go, IsZero.
func TestMutantToolkitVersionsIsZero(t *testing.T) {
	for _, tc := range []struct {
		v    *ToolkitVersions
		want bool
	}{
		{nil, true},
		{&ToolkitVersions{}, true},
		{&ToolkitVersions{Global: "20251015_00"}, false},
		{&ToolkitVersions{PerToolkit: map[string]string{"github": "20251015_00"}}, false},
	} {
		if got := tc.v.IsZero(); got != tc.want {
			t.Errorf("%+v.IsZero() = %v, want %v", tc.v, got, tc.want)
		}
	}
}

// pagination.go, paginateFrom: the cursor it starts from counts as seen (the
// `cursor != ""` key of seen); a listing that comes back to it (c0 -> c1 ->
// c0) stops at the second page instead of reading c0 again.
func TestMutantPaginateFromStartCursorIsSeen(t *testing.T) {
	next := map[string]string{"c0": "c1", "c1": "c0"}
	c, rec := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		cur := r.URL.Query().Get("cursor")
		writeJSON(w, 200, map[string]any{"items": []any{map[string]any{"slug": cur}}, "next_cursor": next[cur]})
	})
	var err error
	for _, e := range paginateFrom[Category](context.Background(), c, "/toolkits/categories", nil, "c0") {
		if e != nil {
			err = e
		}
	}
	if err == nil || !strings.Contains(err.Error(), "repeated") || rec.count() != 2 {
		t.Fatalf("err = %v after %d requests; want a repeated-cursor error after 2", err, rec.count())
	}
}

// probe.go, Probe: a window of 0 takes the default (the "<= 0" test; "< 0"
// would probe within no time at all and fail).
func TestMutantProbeZeroWindowTakesTheDefault(t *testing.T) {
	c, _ := newTestClient(t, nil)
	if err := c.Probe(context.Background(), 0); err != nil {
		t.Fatalf("Probe with window 0 against a live server: %v; want the default window to apply", err)
	}
}

// probe.go, Probe: with a proxy configured, the proxy is dialled, not the
// service (the `tr.Proxy != nil` and `p != nil` tests): here the service's
// port is closed and the proxy listens.
func TestMutantProbeDialsTheProxy(t *testing.T) {
	proxy, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = proxy.Close() })
	closed, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	service := closed.Addr().String()
	_ = closed.Close()
	proxyURL := &url.URL{Scheme: "http", Host: proxy.Addr().String()}
	c, err := New(Config{BaseURL: "http://" + service, HTTPClient: &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxyURL)}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Probe(context.Background(), time.Second); err != nil {
		t.Fatalf("Probe through a listening proxy: %v; want the proxy dialled, not the closed service port", err)
	}
}

// projects.go, ListProjects: limit 0 sends no limit (the "> 0" test).
func TestMutantListProjectsZeroLimitSendsNone(t *testing.T) {
	c, rec := newTestClient(t, func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, 200, map[string]any{"data": []any{}})
	}, withOrgKey)
	if _, err := c.ListProjects(context.Background(), "", 0); err != nil {
		t.Fatal(err)
	}
	if q := rec.last(t).Query; q.Has("limit") {
		t.Errorf("query %v; want no limit for limit 0", q)
	}
}

// toolkits.go, Field.UnmarshalJSON: a field without a default has none (the
// `len(p.Default) > 0` test; ">= 0" would give it an empty default).
func TestMutantFieldWithoutDefault(t *testing.T) {
	var f Field
	if err := json.Unmarshal([]byte(`{"name":"api_key","type":"string"}`), &f); err != nil {
		t.Fatal(err)
	}
	if f.Default != nil {
		t.Errorf("Default = %q, want nil for a field without one", *f.Default)
	}
}
