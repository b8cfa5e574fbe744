package parity

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// startService starts an in-process emulator seeded as the check seeds its
// own: the "service" the tests compare the check's emulator with.
func startService(t *testing.T) *localEmulator {
	t.Helper()
	e, err := startEmulator(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Close)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := seedEmulator(ctx, e.URL, e.APIKey, e.OrgKey); err != nil {
		t.Fatal(err)
	}
	return e
}

// proxy is a reverse proxy in front of the service that counts what it
// forwards and can rewrite the JSON answers of chosen routes.
type proxy struct {
	URL      string
	mu       sync.Mutex
	requests []string // "METHOD /path", in order
	statuses []int
}

// rewrite changes a successful JSON answer (nil: left as is).
type rewrite func(r *http.Request, body any) any

func startProxy(t *testing.T, target string, rw rewrite) *proxy {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{}
	rp := httputil.NewSingleHostReverseProxy(u)
	rp.ModifyResponse = func(resp *http.Response) error {
		p.mu.Lock()
		p.statuses = append(p.statuses, resp.StatusCode)
		p.mu.Unlock()
		if rw == nil || resp.StatusCode != http.StatusOK {
			return nil
		}
		b, err := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if err != nil {
			return err
		}
		var body any
		if json.Unmarshal(b, &body) == nil {
			if changed := rw(resp.Request, body); changed != nil {
				b, _ = json.Marshal(changed)
			}
		}
		resp.Body = io.NopCloser(bytes.NewReader(b))
		resp.ContentLength = int64(len(b))
		resp.Header.Set("Content-Length", strconv.Itoa(len(b)))
		return nil
	}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		p.requests = append(p.requests, r.Method+" "+r.URL.Path)
		p.mu.Unlock()
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	p.URL = ts.URL
	return p
}

func (p *proxy) seen() ([]string, []int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.requests...), append([]int(nil), p.statuses...)
}

// runCheck runs the check as `make parity` does with env, returning its
// exit status, stdout and stderr.
func runCheck(t *testing.T, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var stdout, stderr bytes.Buffer
	code := Main(ctx, args, func(k string) string { return env[k] }, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// section is the report's block of one operation (its heading line to the
// next blank line).
func section(report, opID string) string {
	i := strings.Index(report, "\n"+opID+"  GET ")
	if i < 0 {
		return ""
	}
	rest := report[i+1:]
	if j := strings.Index(rest, "\n\n"); j >= 0 {
		rest = rest[:j+1]
	}
	return rest
}

// valueLike matches what must never appear in a report or a recording: the
// emulator's ids (ac_..., ca_..., UUIDs) and the values the seed writes.
var valueLike = regexp.MustCompile(`\b[a-z]{2,4}_[A-Za-z0-9]{12}\b|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|` +
	`sk_test_parity_seed|parity-seed-signing-secret|parity-user-[0-9]|parity stripe|parity-mcp-[0-9]|hooks\.example\.com|` +
	`emulator-key|emulator-org-key|1234567890\.1234567890123|A0123456789`)

func noValues(t *testing.T, what, text string) {
	t.Helper()
	if m := valueLike.FindAllString(text, 5); len(m) > 0 {
		t.Errorf("%s holds values (ids, names, secrets or keys): %q", what, m)
	}
}
