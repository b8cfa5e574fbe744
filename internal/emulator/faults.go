package emulator

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// faultSpec is a parsed fault specification such as
// "status=429:0.1,status=503:0.1,latency=20ms,reset=0.02":
//   - status=CODE:P  answer CODE (with the error envelope) with probability P
//   - latency=D      delay every API request by D (Go duration)
//   - reset=P        drop the connection without a response with probability P
//   - crash-after-commit=METHOD:/route[:N]  crash after committing the Nth
//     successful request to the route (see crashFault)
type faultSpec struct {
	raw      string
	statuses []statusFault
	latency  time.Duration
	reset    float64
	crash    crashFault
}

type statusFault struct {
	code int
	p    float64
}

func parseFaults(spec string) (faultSpec, error) {
	fs := faultSpec{raw: strings.TrimSpace(spec)}
	if fs.raw == "" {
		return fs, nil
	}
	for _, part := range strings.Split(fs.raw, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		k, v, ok := strings.Cut(part, "=")
		if !ok {
			return fs, fmt.Errorf("fault %q: expected key=value", part)
		}
		switch strings.TrimSpace(k) {
		case "status":
			c, p, ok := strings.Cut(v, ":")
			if !ok {
				p = "1"
			}
			code, err := strconv.Atoi(c)
			if err != nil || code < 400 || code > 599 {
				return fs, fmt.Errorf("fault %q: status must be an HTTP error code 400-599", part)
			}
			prob, err := parseProb(p)
			if err != nil {
				return fs, fmt.Errorf("fault %q: %w", part, err)
			}
			fs.statuses = append(fs.statuses, statusFault{code: code, p: prob})
		case "latency":
			d, err := time.ParseDuration(v)
			if err != nil || d < 0 {
				return fs, fmt.Errorf("fault %q: latency must be a duration like 20ms", part)
			}
			fs.latency = d
		case "reset":
			prob, err := parseProb(v)
			if err != nil {
				return fs, fmt.Errorf("fault %q: %w", part, err)
			}
			fs.reset = prob
		case "crash-after-commit":
			cf, err := parseCrashFault(v)
			if err != nil {
				return fs, fmt.Errorf("fault %q: %w", part, err)
			}
			fs.crash = cf
		default:
			return fs, fmt.Errorf("fault %q: unknown kind %q (want status, latency, reset or crash-after-commit)", part, k)
		}
	}
	return fs, nil
}

func parseProb(s string) (float64, error) {
	p, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || p < 0 || p > 1 {
		return 0, fmt.Errorf("probability %q must be between 0 and 1", s)
	}
	return p, nil
}

type faultInjector struct {
	mu   sync.RWMutex
	spec faultSpec
}

func newFaultInjector(fs faultSpec) *faultInjector { return &faultInjector{spec: fs} }

func (f *faultInjector) set(fs faultSpec) {
	f.mu.Lock()
	f.spec = fs
	f.mu.Unlock()
}

func (f *faultInjector) get() faultSpec {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.spec
}

// apply injects the configured faults; it returns true when the request has
// been answered (or dropped) and must not be handled.
func (f *faultInjector) apply(w http.ResponseWriter, r *http.Request, c *call) bool {
	fs := f.get()
	if fs.raw == "" {
		return false
	}
	if fs.latency > 0 {
		select {
		case <-time.After(fs.latency):
		case <-r.Context().Done():
			return true
		}
	}
	if fs.reset > 0 && rand.Float64() < fs.reset {
		if hj, ok := w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				_ = conn.Close()
				return true
			}
		}
		panic(http.ErrAbortHandler)
	}
	for _, sf := range fs.statuses {
		if rand.Float64() < sf.p {
			e := newErr(sf.code, 10000+sf.code, "InjectedFault", "injected fault: HTTP %d", sf.code)
			if sf.code == http.StatusTooManyRequests {
				e.Slug = "RateLimited"
				e.Message = "Rate limit exceeded (injected fault)"
				e.RetryAfter = "1"
			}
			if sf.code >= 500 {
				w.Header().Set("Retry-After", "0")
			}
			c.s.writeError(c, e)
			return true
		}
	}
	return false
}
