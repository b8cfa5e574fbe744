package client

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestNewNormalizesBaseURL(t *testing.T) {
	for in, want := range map[string]string{
		"":                                   DefaultBaseURL + "/api/v3.1",
		"https://backend.composio.dev":       "https://backend.composio.dev/api/v3.1",
		"https://backend.composio.dev/":      "https://backend.composio.dev/api/v3.1",
		"http://127.0.0.1:8080/api/v3":       "http://127.0.0.1:8080/api/v3.1",
		"http://127.0.0.1:8080/api/v3.1/":    "http://127.0.0.1:8080/api/v3.1",
		"https://example.com/proxy/prefix//": "https://example.com/proxy/prefix/api/v3.1",
	} {
		c, err := New(Config{BaseURL: in})
		if err != nil {
			t.Fatalf("New(%q): %v", in, err)
		}
		if got := c.BaseURL(); got != want {
			t.Errorf("New(%q).BaseURL() = %q, want %q", in, got, want)
		}
	}
	for _, bad := range []string{"ftp://x", "localhost:8080", "https://user:pw@example.com", "://"} {
		if _, err := New(Config{BaseURL: bad}); err == nil {
			t.Errorf("New(%q) succeeded, want error", bad)
		} else if strings.Contains(err.Error(), "pw") {
			t.Errorf("error leaks URL credentials: %v", err)
		}
	}
}

func TestNewDefaults(t *testing.T) {
	c, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	if c.cfg.MaxRetries != DefaultMaxRetries || c.cfg.MaxInFlight != DefaultMaxInFlight || c.cfg.Timeout != DefaultTimeout || c.cfg.PollInterval != time.Second {
		t.Errorf("defaults not applied: %+v", c.cfg)
	}
	c, _ = New(Config{MaxRetries: -3})
	if c.cfg.MaxRetries != 0 {
		t.Errorf("MaxRetries -3 => %d, want 0", c.cfg.MaxRetries)
	}
}

func TestRequestHeaders(t *testing.T) {
	c, rec := newTestClient(t, nil, func(cfg *Config) {
		cfg.DefaultHeaders = map[string]string{"X-Custom": "yes"}
	})
	if err := c.UpdateConnectedAccountStatus(context.Background(), "ca_1", true, ""); err != nil {
		t.Fatal(err)
	}
	h := rec.last(t).Header
	for k, want := range map[string]string{
		"X-Api-Key":    testAPIKey,
		"User-Agent":   "terraform-provider-service/9.9.9",
		"Accept":       "application/json",
		"Content-Type": "application/json",
		"X-Custom":     "yes",
	} {
		if got := h.Get(k); got != want {
			t.Errorf("header %s = %q, want %q", k, got, want)
		}
	}
	c2, rec2 := newTestClient(t, nil, func(cfg *Config) { cfg.UserAgent = "" })
	if _, err := c2.GetAuthConfig(context.Background(), "ac_1"); err != nil {
		t.Fatal(err)
	}
	if got := rec2.last(t).Header.Get("User-Agent"); got != DefaultUserAgent {
		t.Errorf("default User-Agent = %q", got)
	}
	if got := rec2.last(t).Header.Get("Content-Type"); got != "" {
		t.Errorf("GET without body has Content-Type %q", got)
	}
}

// statusSequence answers the given statuses in order (then 200 {}), with
// optional headers per answer.
func statusSequence(statuses []int, headers map[string]string) http.HandlerFunc {
	var n atomic.Int32
	return func(w http.ResponseWriter, _ *http.Request) {
		i := int(n.Add(1)) - 1
		if i < len(statuses) {
			for k, v := range headers {
				w.Header().Set(k, v)
			}
			writeJSON(w, statuses[i], map[string]any{"error": map[string]any{"message": "try later", "status": statuses[i]}})
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"id": "ac_1", "toolkit": map[string]any{"slug": "github"}, "auth_config": map[string]any{"id": "ac_1"}})
	}
}

func TestRetryHonoursRetryAfterSeconds(t *testing.T) {
	c, rec := newTestClient(t, statusSequence([]int{429}, map[string]string{"Retry-After": "1"}))
	start := time.Now()
	if _, err := c.GetAuthConfig(context.Background(), "ac_1"); err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el < 900*time.Millisecond {
		t.Errorf("retried after %v, want >= 1s (Retry-After)", el)
	}
	if rec.count() != 2 {
		t.Errorf("attempts = %d, want 2", rec.count())
	}
}

func TestRetryHonoursRetryAfterMs(t *testing.T) {
	c, rec := newTestClient(t, statusSequence([]int{503, 503}, map[string]string{"Retry-After-Ms": "120", "Retry-After": "30"}))
	start := time.Now()
	if _, err := c.GetAuthConfig(context.Background(), "ac_1"); err != nil {
		t.Fatal(err)
	}
	el := time.Since(start)
	if el < 220*time.Millisecond || el > 5*time.Second {
		t.Errorf("elapsed %v, want ~240ms from retry-after-ms", el)
	}
	if rec.count() != 3 {
		t.Errorf("attempts = %d, want 3", rec.count())
	}
}

// TestCreateRetriedOn503WithOnlyRetryAfterMs: a create answered 503 with
// retry-after-ms and no Retry-After (the service refused it and asked to come
// back) is sent again after the delay it asks for; it is not an ambiguous
// failure, so nothing is reconciled (no list request).
func TestCreateRetriedOn503WithOnlyRetryAfterMs(t *testing.T) {
	c, rec := newTestClient(t, statusSequence([]int{503}, map[string]string{"Retry-After-Ms": "150"}))
	start := time.Now()
	got, err := c.CreateAuthConfig(context.Background(), acReq())
	if err != nil {
		t.Fatalf("create answered 503 with retry-after-ms: %v; want it retried and succeeding", err)
	}
	if el := time.Since(start); el < 140*time.Millisecond {
		t.Errorf("retried after %v, want >= 150ms (retry-after-ms)", el)
	}
	var posts, others int
	for _, r := range rec.all() {
		if r.Method == http.MethodPost {
			posts++
		} else {
			others++
		}
	}
	if got.ID != "ac_1" || posts != 2 || others != 0 {
		t.Errorf("id=%q posts=%d other requests=%d; want ac_1 after 2 POSTs and no reconciliation", got.ID, posts, others)
	}
}

func TestRetryAfterParsing(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	cases := []struct {
		h    http.Header
		want time.Duration
		ok   bool
	}{
		{http.Header{"Retry-After": {"3"}}, 3 * time.Second, true},
		{http.Header{"Retry-After": {now.Add(7 * time.Second).Format(http.TimeFormat)}}, 7 * time.Second, true},
		{http.Header{"Retry-After": {now.Add(-time.Hour).Format(http.TimeFormat)}}, 0, true},
		{http.Header{"Retry-After-Ms": {"250.5"}}, 250*time.Millisecond + 500*time.Microsecond, true},
		{http.Header{"Retry-After": {"soon"}}, 0, false},
		{http.Header{"Retry-After": {"-1"}}, 0, false},
		{http.Header{}, 0, false},
	}
	for _, tc := range cases {
		got, ok := retryAfter(tc.h, now)
		if got != tc.want || ok != tc.ok {
			t.Errorf("retryAfter(%v) = %v,%v want %v,%v", tc.h, got, ok, tc.want, tc.ok)
		}
	}
}

func TestRetryRules(t *testing.T) {
	type call func(c *Client) error
	get := func(c *Client) error { _, err := c.GetAuthConfig(context.Background(), "ac_1"); return err }
	// One create attempt sequence, without the reconciliation (reconcile_test.go).
	post := func(c *Client) error {
		_, err := c.createAuthConfigOnce(context.Background(), CreateAuthConfigRequest{ToolkitSlug: "github"})
		return err
	}
	patch := func(c *Client) error { return c.EnableTrigger(context.Background(), "ti_1") }
	del := func(c *Client) error { return c.DeleteAuthConfig(context.Background(), "ac_1") }
	cases := []struct {
		name     string
		fn       call
		statuses []int
		headers  map[string]string
		attempts int
		wantErr  bool
	}{
		{"GET 502 retried", get, []int{502}, nil, 2, false},
		{"GET 503 retried", get, []int{503}, nil, 2, false},
		{"GET 504 retried", get, []int{504, 504}, nil, 3, false},
		{"GET 429 retried", get, []int{429}, nil, 2, false},
		{"GET 500 not retried", get, []int{500}, nil, 1, true},
		{"GET 409 not retried", get, []int{409}, nil, 1, true},
		{"GET x-should-retry false", get, []int{503}, map[string]string{"X-Should-Retry": "false"}, 1, true},
		{"GET gives up after MaxRetries", get, []int{503, 503, 503, 503, 503, 503}, nil, 5, true},
		{"POST 502 exactly one attempt", post, []int{502}, nil, 1, true},
		{"POST 504 not retried", post, []int{504}, nil, 1, true},
		{"POST bare 503 not retried", post, []int{503}, nil, 1, true},
		{"POST 500 not retried", post, []int{500}, nil, 1, true},
		{"POST 503 with Retry-After retried", post, []int{503}, map[string]string{"Retry-After": "0"}, 2, false},
		{"POST 503 with only Retry-After-Ms retried", post, []int{503}, map[string]string{"Retry-After-Ms": "0"}, 2, false},
		{"POST 503 with an empty Retry-After-Ms not retried", post, []int{503}, map[string]string{"Retry-After-Ms": ""}, 1, true},
		{"POST 429 retried", post, []int{429}, nil, 2, false},
		{"POST x-should-retry true", post, []int{500}, map[string]string{"X-Should-Retry": "true"}, 2, false},
		{"PATCH 502 retried", patch, []int{502}, nil, 2, false},
		{"PATCH bare 503 retried", patch, []int{503}, nil, 2, false},
		{"PATCH 429 retried", patch, []int{429, 429}, nil, 3, false},
		{"PATCH 500 not retried", patch, []int{500}, nil, 1, true},
		{"DELETE 504 retried", del, []int{504}, nil, 2, false},
		{"DELETE 429 retried", del, []int{429}, map[string]string{"Retry-After": "0"}, 2, false},
		{"DELETE 404 on the first attempt is an error", del, []int{404}, nil, 1, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, rec := newTestClient(t, statusSequence(tc.statuses, tc.headers))
			err := tc.fn(c)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tc.wantErr)
			}
			if rec.count() != tc.attempts {
				t.Errorf("attempts = %d, want %d", rec.count(), tc.attempts)
			}
			if err != nil {
				var ae *APIError
				if !errors.As(err, &ae) || ae.StatusCode != tc.statuses[0] {
					t.Errorf("error %v is not an APIError with status %d", err, tc.statuses[0])
				}
			}
		})
	}
}

func TestMaxRetriesNegativeDisablesRetry(t *testing.T) {
	for _, status := range []int{503, 429} {
		c, rec := newTestClient(t, statusSequence([]int{status, status}, nil), func(cfg *Config) { cfg.MaxRetries = -1 })
		if _, err := c.GetAuthConfig(context.Background(), "ac_1"); err == nil {
			t.Fatalf("%d: want error", status)
		}
		if rec.count() != 1 {
			t.Errorf("%d: attempts = %d, want 1", status, rec.count())
		}
	}
}

// goGetAuthConfig starts n gets of the auth config ac_1 at once, each
// failing the test on an error; wait on the answer for them to end.
func goGetAuthConfig(t *testing.T, c *Client, n int) *sync.WaitGroup {
	t.Helper()
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			if _, err := c.GetAuthConfig(context.Background(), "ac_1"); err != nil {
				t.Error(err)
			}
		})
	}
	return &wg
}

// writeAuthConfigOr429 answers a 429 with Retry-After: 1 and message when
// throttled, else the auth config ac_1.
func writeAuthConfigOr429(w http.ResponseWriter, throttled bool, message string) {
	if throttled {
		w.Header().Set("Retry-After", "1")
		writeJSON(w, 429, map[string]any{"message": message})
		return
	}
	writeJSON(w, 200, map[string]any{"id": "ac_1"})
}

// TestThrottledRequestsWaitTogether: after a 429 with Retry-After, requests
// sent meanwhile by other goroutines wait for it too instead of reaching
// the service (and being refused) on their own; all succeed.
func TestThrottledRequestsWaitTogether(t *testing.T) {
	var mu sync.Mutex
	var arrivals []time.Time
	var throttledAt time.Time
	h := func(w http.ResponseWriter, _ *http.Request) {
		mu.Lock()
		arrivals = append(arrivals, time.Now())
		first := len(arrivals) == 1
		if first {
			throttledAt = time.Now()
		}
		mu.Unlock()
		writeAuthConfigOr429(w, first, "Rate limit exceeded. Limit: 10 requests per 1 minutes")
	}
	c, rec := newTestClient(t, h)
	var wg sync.WaitGroup
	get := func() {
		defer wg.Done()
		if _, err := c.GetAuthConfig(context.Background(), "ac_1"); err != nil {
			t.Error(err)
		}
	}
	wg.Add(1)
	go get()
	for rec.count() == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond) // the 429 has reached the client
	for range 4 {
		wg.Add(1)
		go get()
	}
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	if len(arrivals) != 6 {
		t.Fatalf("requests at the service = %d, want 6 (one 429, its retry and four others)", len(arrivals))
	}
	for i, at := range arrivals[1:] {
		if at.Sub(throttledAt) < 900*time.Millisecond {
			t.Errorf("request %d reached the service %v after the 429; want every request to wait for its Retry-After of 1s", i+2, at.Sub(throttledAt))
		}
	}
}

// TestThrottledWithoutHeadersOutlastsMaxRetries: 429s carrying no header do
// not use up MaxRetries: the shared backoff keeps waiting (doubling) until the
// service accepts again, long after MaxRetries backoffs of their own would
// have given up, without hammering it.
func TestThrottledWithoutHeadersOutlastsMaxRetries(t *testing.T) {
	var start atomic.Int64
	h := func(w http.ResponseWriter, _ *http.Request) {
		start.CompareAndSwap(0, time.Now().UnixNano())
		if time.Since(time.Unix(0, start.Load())) < time.Second {
			writeJSON(w, 429, map[string]any{"message": "Too Many Requests"})
			return
		}
		writeJSON(w, 200, map[string]any{"id": "ac_1"})
	}
	c, rec := newTestClient(t, h, func(cfg *Config) { cfg.MaxRetries = 2; cfg.RetryWaitMin = 50 * time.Millisecond })
	if _, err := c.GetAuthConfig(context.Background(), "ac_1"); err != nil {
		t.Fatalf("throttled for 1s with max 2 retries: %v; want it to wait until the service accepts", err)
	}
	if n := rec.count(); n < 4 || n > 10 {
		t.Errorf("attempts = %d; want a handful (a backoff doubling from 50ms over 1s)", n)
	}
}

// TestMaxThrottleWaitBoundsThrottling: a service refusing every request
// with 429 fails the request once MaxThrottleWait has passed.
func TestMaxThrottleWaitBoundsThrottling(t *testing.T) {
	c, rec := newTestClient(t, replyJSON(429, `{"message":"Too Many Requests"}`), func(cfg *Config) {
		cfg.MaxThrottleWait = 400 * time.Millisecond
		cfg.RetryWaitMin = 20 * time.Millisecond
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second) // bounds the test if the limit does not hold
	defer cancel()
	start := time.Now()
	_, err := c.GetAuthConfig(ctx, "ac_1")
	if !IsStatus(err, 429) {
		t.Fatalf("err = %v, want the 429", err)
	}
	// It stops when the next wait would end beyond MaxThrottleWait.
	if el := time.Since(start); el > 400*time.Millisecond+time.Second || rec.count() < 3 {
		t.Errorf("gave up after %v and %d attempts; want several attempts within MaxThrottleWait (400ms)", el, rec.count())
	}
}

// TestPacingToTheAnnouncedLimit: once an answer announced 3 requests per
// 500ms window (a fixed window at the service), twelve requests sent at once
// are paced within it and none is refused.
func TestPacingToTheAnnouncedLimit(t *testing.T) {
	const limit, window = 3, 500 * time.Millisecond
	var mu sync.Mutex
	var winStart time.Time
	used, refused := 0, 0
	h := func(w http.ResponseWriter, _ *http.Request) {
		mu.Lock()
		now := time.Now()
		if now.Sub(winStart) >= window {
			winStart, used = now, 0
		}
		used++
		over, remaining := used > limit, max(limit-used, 0)
		if over {
			refused++
		}
		mu.Unlock()
		w.Header().Set("X-RateLimit", strconv.Itoa(limit))
		w.Header().Set("X-RateLimit-Remaining", strconv.Itoa(remaining))
		w.Header().Set("X-RateLimit-Window-Size", window.String())
		writeAuthConfigOr429(w, over, "Rate limit exceeded")
	}
	c, rec := newTestClient(t, h)
	if _, err := c.GetAuthConfig(context.Background(), "ac_1"); err != nil { // learns the limit
		t.Fatal(err)
	}
	start := time.Now()
	goGetAuthConfig(t, c, 12).Wait()
	mu.Lock()
	defer mu.Unlock()
	if refused != 0 || rec.count() != 13 {
		t.Errorf("%d of %d requests refused; want none", refused, rec.count())
	}
	if el := time.Since(start); el < 3*window {
		t.Errorf("13 requests at 3 per %v took %v; want at least %v", window, el, 3*window)
	}
}

func TestRetryAfterTooLongGivesUp(t *testing.T) {
	c, rec := newTestClient(t, statusSequence([]int{429}, map[string]string{"Retry-After": "3600"}))
	start := time.Now()
	_, err := c.GetAuthConfig(context.Background(), "ac_1")
	if !IsStatus(err, 429) {
		t.Fatalf("err = %v, want 429", err)
	}
	if rec.count() != 1 || time.Since(start) > time.Second {
		t.Errorf("attempts = %d after %v; want 1, immediately", rec.count(), time.Since(start))
	}
}

func TestRetryStopsAtContextDeadline(t *testing.T) {
	c, rec := newTestClient(t, statusSequence([]int{429}, map[string]string{"Retry-After": "5"}))
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := c.GetAuthConfig(ctx, "ac_1")
	if !IsStatus(err, 429) {
		t.Fatalf("err = %v, want the 429", err)
	}
	if rec.count() != 1 || time.Since(start) > 250*time.Millisecond {
		t.Errorf("attempts = %d after %v", rec.count(), time.Since(start))
	}
}

// flakyDialer refuses the first n dials, then dials for real.
type flakyDialer struct {
	fail  int32
	dials atomic.Int32
}

func (d *flakyDialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	if d.dials.Add(1) <= d.fail {
		return nil, &net.OpError{Op: "dial", Net: network, Err: errors.New("connection refused")}
	}
	var nd net.Dialer
	return nd.DialContext(ctx, network, addr)
}

func TestConnectionFailureRetriedForWrites(t *testing.T) {
	d := &flakyDialer{fail: 2}
	c, rec := newTestClient(t, replyJSON(201, `{"toolkit":{"slug":"github"},"auth_config":{"id":"ac_9","auth_scheme":"OAUTH2","is_composio_managed":true}}`), func(cfg *Config) {
		cfg.HTTPClient = &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
	})
	got, err := c.CreateAuthConfig(context.Background(), CreateAuthConfigRequest{ToolkitSlug: "github"})
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != "ac_9" || d.dials.Load() != 3 || rec.count() != 1 {
		t.Errorf("id=%q dials=%d server requests=%d; want ac_9, 3, 1", got.ID, d.dials.Load(), rec.count())
	}
}

func TestConnectionRefusedExhaustsRetries(t *testing.T) {
	ln, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	c, err := New(Config{BaseURL: "http://" + addr, APIKey: testAPIKey, MaxRetries: 2, RetryWaitMin: time.Millisecond, RetryWaitMax: 2 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.GetToolkit(context.Background(), "github", "")
	if err == nil || !strings.Contains(err.Error(), "GET /api/v3.1/toolkits/github") {
		t.Fatalf("err = %v", err)
	}
	if strings.Contains(err.Error(), testAPIKey) {
		t.Errorf("error leaks the key: %v", err)
	}
}

// hangUp closes the connection after reading the request: the request was
// sent, the outcome is unknown.
func hangUp(w http.ResponseWriter, _ *http.Request) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic("no hijacker")
	}
	conn, _, err := hj.Hijack()
	if err == nil {
		conn.Close()
	}
}

func TestResetAfterSend(t *testing.T) {
	c, rec := newTestClient(t, hangUp)
	_, err := c.createAuthConfigOnce(context.Background(), CreateAuthConfigRequest{ToolkitSlug: "github"})
	if !IsAmbiguous(err) {
		t.Fatalf("err = %v, want an ambiguous write error", err)
	}
	if rec.count() != 1 {
		t.Errorf("create attempts = %d, want exactly 1 (may have been applied)", rec.count())
	}
	c, rec = newTestClient(t, hangUp)
	if err := c.EnableTrigger(context.Background(), "ti_1"); err == nil || IsAmbiguous(err) {
		t.Fatalf("err = %v, want a plain error", err)
	}
	if rec.count() != 1+DefaultMaxRetries {
		t.Errorf("PATCH attempts = %d, want %d (idempotent, retried like a read)", rec.count(), 1+DefaultMaxRetries)
	}
	c, rec = newTestClient(t, hangUp)
	if _, err := c.GetTriggerInstance(context.Background(), "ti_1"); err == nil {
		t.Fatal("want error")
	}
	if rec.count() != 1+DefaultMaxRetries {
		t.Errorf("GET attempts = %d, want %d", rec.count(), 1+DefaultMaxRetries)
	}
}

func TestPerAttemptTimeout(t *testing.T) {
	// The attempt timeout must be long enough for a request to reach the
	// handler on a loaded machine (the recorder counts arrivals): 50 ms was
	// seen to flake at load 40.
	const attempt = 250 * time.Millisecond
	slow := func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(2 * time.Second):
		case <-r.Context().Done():
		}
		writeJSON(w, 200, map[string]any{})
	}
	c, rec := newTestClient(t, slow, func(cfg *Config) { cfg.Timeout = attempt; cfg.MaxRetries = 2 })
	if _, err := c.GetAuthConfig(context.Background(), "ac_1"); err == nil {
		t.Fatal("want timeout error")
	}
	if rec.count() != 3 {
		t.Errorf("GET attempts = %d, want 3", rec.count())
	}
	c, rec = newTestClient(t, slow, func(cfg *Config) { cfg.Timeout = attempt })
	if _, err := c.createAuthConfigOnce(context.Background(), CreateAuthConfigRequest{ToolkitSlug: "github"}); !IsAmbiguous(err) {
		t.Fatalf("err = %v, want an ambiguous timeout", err)
	}
	if rec.count() != 1 {
		t.Errorf("create attempts after timeout = %d, want 1", rec.count())
	}
	c, rec = newTestClient(t, slow, func(cfg *Config) { cfg.Timeout = attempt; cfg.MaxRetries = 2 })
	if _, err := c.UpsertTrigger(context.Background(), "GITHUB_COMMIT_EVENT", UpsertTriggerRequest{ConnectedAccountID: "ca_1"}); err == nil {
		t.Fatal("want timeout error")
	}
	if rec.count() != 3 {
		t.Errorf("upsert attempts after timeouts = %d, want 3 (idempotent)", rec.count())
	}
}

func TestContextCanceled(t *testing.T) {
	c, _ := newTestClient(t, statusSequence([]int{503, 503, 503}, map[string]string{"Retry-After": "10"}))
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	_, err := c.GetAuthConfig(ctx, "ac_1")
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestMaxInFlight(t *testing.T) {
	var cur, peak atomic.Int32
	release := make(chan struct{})
	h := func(w http.ResponseWriter, _ *http.Request) {
		n := cur.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		<-release
		cur.Add(-1)
		writeJSON(w, 200, map[string]any{"id": "ac_1"})
	}
	c, rec := newTestClient(t, h, func(cfg *Config) { cfg.MaxInFlight = 3 })
	wg := goGetAuthConfig(t, c, 12)
	deadline := time.Now().Add(2 * time.Second)
	for rec.count() < 3 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond)
	if got := rec.count(); got != 3 {
		t.Errorf("requests in flight = %d, want 3", got)
	}
	close(release)
	wg.Wait()
	if peak.Load() != 3 || rec.count() != 12 {
		t.Errorf("peak = %d, total = %d; want 3, 12", peak.Load(), rec.count())
	}
}

func TestBackoffBounds(t *testing.T) {
	c, _ := New(Config{RetryWaitMin: 100 * time.Millisecond, RetryWaitMax: time.Second})
	for attempt := range 10 {
		want := 100 * time.Millisecond << attempt
		if want > time.Second || want <= 0 {
			want = time.Second
		}
		for range 20 {
			d, server := c.backoff(attempt, nil)
			if server || d < want/2 || d > want {
				t.Fatalf("attempt %d: backoff %v outside [%v, %v]", attempt, d, want/2, want)
			}
		}
	}
}

// TestRateLimitWaitReported: a request held back after a 429 is told to
// Config.OnRateLimitWait once its wait is over, with its own ctx, how long
// it waited and why (Retry-After, or the shared backoff without it); a
// request that never waited is not.
func TestRateLimitWaitReported(t *testing.T) {
	type key struct{}
	for _, tc := range []struct {
		name    string
		headers map[string]string
		min     time.Duration
		cause   string
	}{
		{"retry-after", map[string]string{"Retry-After": "1"}, 900 * time.Millisecond, "429 Too Many Requests with Retry-After"},
		{"backoff", nil, 20 * time.Millisecond, "429 Too Many Requests without Retry-After"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var got []RateLimitWait
			c, _ := newTestClient(t, statusSequence([]int{429}, tc.headers), func(cfg *Config) {
				cfg.RetryWaitMin = 50 * time.Millisecond
				cfg.OnRateLimitWait = func(ctx context.Context, w RateLimitWait) {
					if ctx.Value(key{}) != "the request's" {
						t.Error("OnRateLimitWait was not given the request's ctx")
					}
					mu.Lock()
					got = append(got, w)
					mu.Unlock()
				}
			})
			ctx := context.WithValue(context.Background(), key{}, "the request's")
			if _, err := c.GetAuthConfig(ctx, "ac_1"); err != nil {
				t.Fatal(err)
			}
			if _, err := c.GetAuthConfig(ctx, "ac_1"); err != nil { // no wait: not reported
				t.Fatal(err)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(got) != 1 || got[0].Waited < tc.min || !strings.Contains(got[0].Cause, tc.cause) {
				t.Fatalf("OnRateLimitWait got %+v, want one wait of at least %v whose cause says %q", got, tc.min, tc.cause)
			}
		})
	}
}
