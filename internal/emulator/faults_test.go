package emulator

import (
	"bytes"
	"log/slog"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestFaultSeedParsing(t *testing.T) {
	fs, err := parseFaults("seed=18446744073709551615,status=503:0.5")
	if err != nil || !fs.seeded || fs.seed != 18446744073709551615 || len(fs.statuses) != 1 {
		t.Fatalf("%+v %v", fs, err)
	}
	for _, bad := range []string{"seed=-1", "seed=x", "seed=", "seed=1.5"} {
		if _, err := parseFaults(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// faultOutcomes sends n requests and returns what each got: the status, and
// for a 503 which retry header it carried.
func faultOutcomes(e *testEnv, n int) []string {
	e.t.Helper()
	out := make([]string, n)
	for i := range out {
		r := e.do("GET", v+"/toolkits/categories", nil)
		out[i] = strconv.Itoa(r.status)
		if r.status == 503 {
			out[i] += " Retry-After=" + r.header.Get("Retry-After") + " Retry-After-Ms=" + r.header.Get("Retry-After-Ms")
		}
	}
	return out
}

// TestFaultSeedReplaysARun: the same seed makes the same choices for the same
// requests, whether given at start (Options.Faults, --faults) or through PUT
// /_emulator/faults; without a seed one is picked, logged and shown by GET
// /_emulator/faults, and giving it back replays the run.
func TestFaultSeedReplaysARun(t *testing.T) {
	const spec = "status=429:0.2,status=503:0.4"
	var logs bytes.Buffer
	picked := newEnv(t, Options{Faults: spec, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	info := picked.must(200, "GET", "/_emulator/faults", nil)
	seed := info.str("seed")
	if info.str("faults") != spec || seed == "" {
		t.Fatalf("GET /_emulator/faults = %s; want the spec and the seed picked", info.raw)
	}
	if !regexp.MustCompile(`msg="faults set" spec=\S+ seed=` + seed + ` seed_picked=true`).MatchString(logs.String()) {
		t.Fatalf("the picked seed %s is not logged:\n%s", seed, logs.String())
	}
	run := faultOutcomes(picked, 60)

	replay := newEnv(t, Options{Faults: "seed=" + seed + "," + spec})
	if got := faultOutcomes(replay, 60); !slices.Equal(got, run) {
		t.Fatalf("seed %s at start did not replay the run:\n%v\n%v", seed, run, got)
	}
	// The same through the control route, which restarts the sequence.
	r := replay.must(200, "PUT", "/_emulator/faults", "seed="+seed+","+spec)
	if r.str("seed") != seed {
		t.Fatalf("PUT answered %s", r.raw)
	}
	if got := faultOutcomes(replay, 60); !slices.Equal(got, run) {
		t.Fatalf("seed %s through PUT /_emulator/faults did not replay the run:\n%v\n%v", seed, run, got)
	}
	other := newEnv(t, Options{Faults: "seed=1," + spec})
	if seed != "1" && slices.Equal(faultOutcomes(other, 60), run) {
		t.Fatalf("seeds 1 and %s made the same 60 choices", seed)
	}
	// Clearing the faults clears the seed.
	if r := replay.must(200, "PUT", "/_emulator/faults", ""); r.str("faults") != "" || r.get("seed") != nil {
		t.Fatalf("cleared faults: %s", r.raw)
	}
}

// TestFault503RetryHeaders: an injected 503 carries either Retry-After: 0
// or, alone, Retry-After-Ms: 0 (the client must honour both); other 5xx
// carry Retry-After: 0.
func TestFault503RetryHeaders(t *testing.T) {
	e := newEnv(t, Options{Faults: "seed=3,status=503:1"})
	seen := map[string]int{}
	for _, o := range faultOutcomes(e, 40) {
		seen[o]++
	}
	if len(seen) != 2 || seen["503 Retry-After=0 Retry-After-Ms="] == 0 || seen["503 Retry-After= Retry-After-Ms=0"] == 0 {
		t.Fatalf("503 retry headers seen: %v; want both Retry-After alone and Retry-After-Ms alone", seen)
	}
	e.must(200, "PUT", "/_emulator/faults", "status=502:1")
	if r := e.do("GET", v+"/toolkits/categories", nil); r.status != 502 || r.header.Get("Retry-After") != "0" {
		t.Fatalf("502: status %d Retry-After %q", r.status, r.header.Get("Retry-After"))
	}
}

// TestFaultRateLimit: under ratelimit=N/min each organization gets N API
// requests per window; the next is answered 429 with Retry-After, the
// X-RateLimit headers and the documented body, and is counted in the stats.
// Another organization, an unknown key and the control routes are not
// affected.
func TestFaultRateLimit(t *testing.T) {
	e := newEnv(t, Options{
		Faults:     "ratelimit=3/min",
		APIKeys:    map[string]string{"k1": "p1", "k2": "p2"},
		OrgAPIKeys: map[string]string{"org-key-a": "org-a", "org-key-b": "org-b"},
	})
	e.key = "k1"
	const route = "GET /api/v3.1/auth_configs"
	for i, key := range []string{"k1", "k2", "k1"} { // the configured projects belong to org-a
		r := e.doKey(key, "GET", v+"/auth_configs", nil)
		if r.status != 200 || r.header.Get("X-RateLimit") != "3" || r.header.Get("X-RateLimit-Remaining") != strconv.Itoa(2-i) ||
			r.header.Get("X-RateLimit-Window-Size") != "60s" || r.header.Get("Retry-After") != "" {
			t.Fatalf("request %d: %d %v", i+1, r.status, r.header)
		}
	}
	for _, h := range []map[string]string{{"x-api-key": "k2"}, {"x-org-api-key": "org-key-a"}} {
		r := e.doHeaders(h, "GET", v+"/auth_configs", nil)
		ra, err := strconv.Atoi(r.header.Get("Retry-After"))
		if r.status != 429 || err != nil || ra < 1 || ra > 60 || r.header.Get("X-RateLimit") != "3" ||
			r.header.Get("X-RateLimit-Remaining") != "0" || r.header.Get("X-RateLimit-Window-Size") != "60s" {
			t.Fatalf("beyond the limit with %v: %d %v", h, r.status, r.header)
		}
		if r.str("message") != "Rate limit exceeded. Limit: 3 requests per 1 minutes" || r.header.Get("x-request-id") == "" {
			t.Fatalf("429 body %s, request id %q", r.raw, r.header.Get("x-request-id"))
		}
	}
	// Another organization and an unknown key have windows of their own.
	if r := e.doHeaders(orgHeaders("org-key-b"), "GET", projectsPath+"/list", nil); r.status != 200 || r.header.Get("X-RateLimit-Remaining") != "2" {
		t.Fatalf("organization b: %d %v", r.status, r.header)
	}
	if r := e.doKey("unknown", "GET", v+"/auth_configs", nil); r.status != 401 {
		t.Fatalf("unknown key: %d, want 401", r.status)
	}
	// Control routes are neither counted nor throttled; the stats count the 429s.
	for range 5 {
		e.must(200, "GET", "/_emulator/faults", nil)
	}
	st := e.must(200, "GET", "/_emulator/stats", nil)
	if st.get("throttled") != float64(2) || st.get("throttled_requests", route) != float64(2) || st.get("requests", route) != float64(6) {
		t.Fatalf("stats: %s", st.raw)
	}
	if r := e.must(200, "DELETE", "/_emulator/stats", nil); r.get("throttled") != float64(0) {
		t.Fatalf("reset: %s", r.raw)
	}
	if st := e.must(200, "GET", "/_emulator/stats", nil); st.get("throttled") != float64(0) {
		t.Fatalf("stats after reset: %s", st.raw)
	}

	// Setting faults starts the windows afresh; with the headers off no
	// response says anything about the limit, the 429 included.
	e.must(200, "PUT", "/_emulator/faults", "ratelimit=3/min,ratelimit-headers=off")
	for i := range 4 {
		r := e.doKey("k1", "GET", v+"/auth_configs", nil)
		want := 200
		if i == 3 {
			want = 429
		}
		if r.status != want {
			t.Fatalf("headers off, request %d: %d, want %d", i+1, r.status, want)
		}
		for _, h := range []string{"X-RateLimit", "X-RateLimit-Remaining", "X-RateLimit-Window-Size", "Retry-After"} {
			if r.header.Get(h) != "" {
				t.Fatalf("headers off, request %d carries %s: %v", i+1, h, r.header)
			}
		}
	}
	// Without the fault nothing is refused (the window is over its 3 already).
	e.must(200, "PUT", "/_emulator/faults", "")
	for range 5 {
		e.must(200, "GET", v+"/auth_configs", nil)
	}
}

// TestFaultRateLimitRetryAfter: Retry-After is the whole seconds left in
// the organization's window, and a request sent once they have passed (a new
// window) is served.
func TestFaultRateLimitRetryAfter(t *testing.T) {
	e := newEnv(t, Options{Faults: "ratelimit=1/min"})
	e.must(200, "GET", v+"/auth_configs", nil)
	age := func(d time.Duration) {
		e.srv.statsMu.Lock()
		defer e.srv.statsMu.Unlock()
		for _, w := range e.srv.rate {
			w.start = time.Now().Add(-d)
		}
	}
	for _, tc := range []struct {
		age  time.Duration
		want string
	}{{0, "60"}, {30*time.Second + 500*time.Millisecond, "30"}, {59*time.Second + 500*time.Millisecond, "1"}} {
		age(tc.age)
		if r := e.do("GET", v+"/auth_configs", nil); r.status != 429 || r.header.Get("Retry-After") != tc.want {
			t.Errorf("window %v old: %d, Retry-After %q; want 429, %s", tc.age, r.status, r.header.Get("Retry-After"), tc.want)
		}
	}
	age(time.Minute)
	if r := e.do("GET", v+"/auth_configs", nil); r.status != 200 || r.header.Get("X-RateLimit-Remaining") != "0" {
		t.Fatalf("after the window: %d %v", r.status, r.header)
	}
}

func TestFaultRateLimitParsing(t *testing.T) {
	fs, err := parseFaults("ratelimit=120/min,ratelimit-headers=off")
	if err != nil || fs.rateLimit != 120 || !fs.rateHeadersOff {
		t.Fatalf("%+v %v", fs, err)
	}
	for _, bad := range []string{"ratelimit=0/min", "ratelimit=-1/min", "ratelimit=10/s", "ratelimit=10", "ratelimit=x/min", "ratelimit-headers=no"} {
		if _, err := parseFaults(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// error-form makes every error answer take one of the forms the service's
// answers were seen in; a bad form is refused by name.
func TestErrorFormFault(t *testing.T) {
	missing := v + "/auth_configs/ac_000000000000"
	for form, check := range map[string]func(r resp) bool{
		"envelope": func(r resp) bool {
			return r.get("error", "code") == float64(CodeAuthConfigNotFound) && r.str("error", "slug") != "" && r.str("error", "request_id") != ""
		},
		"code-string": func(r resp) bool {
			return r.get("error", "code") == strconv.Itoa(CodeAuthConfigNotFound) && r.str("error", "id") != ""
		},
		"bare-string": func(r resp) bool { return strings.Contains(r.str("error"), "not found") },
		"message":     func(r resp) bool { return strings.Contains(r.str("message"), "not found") && r.get("error") == nil },
		"minimal": func(r resp) bool {
			body, _ := r.get("error").(map[string]any)
			_, rid := body["request_id"]
			_, slug := body["slug"]
			return len(body) == 3 && !rid && !slug && r.get("error", "status") == 404.0
		},
	} {
		e := newEnv(t, Options{Faults: "error-form=" + form})
		if r := e.do("GET", missing, nil); r.status != 404 || !check(r) {
			t.Errorf("error-form=%s: %d %s", form, r.status, r.raw)
		}
	}
	e := newEnv(t, Options{Faults: "status=429:1,error-form=message"})
	if r := e.do("GET", v+"/auth_configs", nil); r.status != 429 || !strings.Contains(r.str("message"), "Rate limit") {
		t.Errorf("429 as a top-level message: %d %s", r.status, r.raw)
	}
	if _, err := parseFaults("error-form=xml"); err == nil || !strings.Contains(err.Error(), "error-form must be one of") {
		t.Errorf("error-form=xml: %v", err)
	}
}
