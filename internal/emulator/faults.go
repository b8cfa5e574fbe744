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
// "seed=42,status=429:0.1,status=503:0.1,latency=20ms,reset=0.02":
//   - status=CODE:P  answer CODE (with the error envelope) with probability P;
//     a 5xx carries Retry-After: 0, except that a 503 carries only
//     Retry-After-Ms: 0 half of the time (both are the service's ways to say
//     "refused, come back")
//   - latency=D      delay every API request by D (Go duration)
//   - reset=P        drop the connection without a response with probability P
//   - crash-after-commit=METHOD:/route[:N]  crash after committing the Nth
//     successful request to the route (see crashFault)
//   - ratelimit=N/min  each organization gets N API requests per one-minute
//     window (a fixed window per organization, started by its first request
//     after the previous window ended; see Server.rateLimit): a request
//     beyond N is answered 429 with Retry-After (the whole seconds until the
//     window ends) and the X-RateLimit headers
//   - ratelimit-headers=off  the service says nothing about its limit: no
//     X-RateLimit, X-RateLimit-Remaining or X-RateLimit-Window-Size on any
//     response and no Retry-After on the ratelimit fault's 429 ("on", the
//     default, sends them)
//   - error-form=FORM  every error answer (injected or not) takes one of the
//     forms real answers of the service were seen in
//     (service-documents.md, "Answers"): envelope (the default: {"error":
//     {message, code, slug, status, request_id, suggested_fix, errors?}}),
//     code-string (code as a string, with an id member, as a 403 was seen),
//     bare-string ({"error": "message"}), message (a top-level
//     {"message"}, as 429s were seen) or minimal ({"error": {message, code,
//     status}}: no request_id, slug or suggested_fix)
//   - seed=N         seed of the random choices (an unsigned 64-bit integer):
//     the same seed makes the same choices for the same sequence of
//     requests; without it a seed is picked, and either way it is logged
//     and shown by GET /_emulator/faults
type faultSpec struct {
	raw      string
	statuses []statusFault
	latency  time.Duration
	reset    float64
	crash    crashFault
	// rateLimit is ratelimit=N/min's N (0: no limit); rateHeadersOff is
	// ratelimit-headers=off.
	rateLimit      int
	rateHeadersOff bool
	// errorForm is error-form=FORM's FORM ("" is the envelope).
	errorForm string
	seed      uint64
	seeded    bool // seed= was given
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
		case "seed":
			seed, err := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
			if err != nil {
				return fs, fmt.Errorf("fault %q: seed must be an unsigned integer", part)
			}
			fs.seed, fs.seeded = seed, true
		case "ratelimit":
			n, per, ok := strings.Cut(strings.TrimSpace(v), "/")
			limit, err := strconv.Atoi(n)
			if !ok || per != "min" || err != nil || limit < 1 {
				return fs, fmt.Errorf("fault %q: ratelimit must be N/min with N a positive integer, e.g. ratelimit=120/min", part)
			}
			fs.rateLimit = limit
		case "ratelimit-headers":
			switch strings.TrimSpace(v) {
			case "on":
				fs.rateHeadersOff = false
			case "off":
				fs.rateHeadersOff = true
			default:
				return fs, fmt.Errorf("fault %q: ratelimit-headers must be on or off", part)
			}
		case "error-form":
			form := strings.TrimSpace(v)
			if !errorForms[form] {
				return fs, fmt.Errorf("fault %q: error-form must be one of envelope, code-string, bare-string, message or minimal", part)
			}
			if form == errorFormEnvelope {
				form = ""
			}
			fs.errorForm = form
		case "crash-after-commit":
			cf, err := parseCrashFault(v)
			if err != nil {
				return fs, fmt.Errorf("fault %q: %w", part, err)
			}
			fs.crash = cf
		default:
			return fs, fmt.Errorf("fault %q: unknown kind %q (want status, latency, reset, ratelimit, ratelimit-headers, error-form, crash-after-commit or seed)", part, k)
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

// faultInjector applies the current spec; its random choices come from one
// generator seeded with the spec's seed, so a run can be replayed.
type faultInjector struct {
	mu    sync.RWMutex
	spec  faultSpec
	rngMu sync.Mutex
	rng   *rand.Rand
}

func newFaultInjector(fs faultSpec) *faultInjector {
	f := &faultInjector{}
	f.set(fs)
	return f
}

// set installs fs, picking a seed when it has none and faults to inject, and
// restarts the random choices from the seed. It returns the spec as set.
func (f *faultInjector) set(fs faultSpec) faultSpec {
	if !fs.seeded && fs.raw != "" {
		fs.seed = rand.Uint64() //nolint:gosec // G404: a fault schedule is replayed from its seed (seed=N), not a secret
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.rngMu.Lock()
	f.rng = rand.New(rand.NewPCG(fs.seed, fs.seed^0x9e3779b97f4a7c15)) //nolint:gosec // G404: a fault schedule is replayed from its seed (seed=N), not a secret
	f.rngMu.Unlock()
	f.spec = fs
	return fs
}

func (f *faultInjector) get() faultSpec {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.spec
}

// float is the next random number in [0, 1) of the seeded sequence.
func (f *faultInjector) float() float64 {
	f.rngMu.Lock()
	defer f.rngMu.Unlock()
	return f.rng.Float64()
}

// logAttrs describes the spec for a log line: the spec, and the seed when
// faults are set (with whether it was picked rather than given).
func (fs faultSpec) logAttrs() []any {
	if fs.raw == "" {
		return []any{"spec", ""}
	}
	return []any{"spec", fs.raw, "seed", fs.seed, "seed_picked", !fs.seeded}
}

// info is the control routes' view of the spec.
func (fs faultSpec) info() map[string]any {
	out := map[string]any{"faults": fs.raw}
	if fs.raw != "" {
		out["seed"] = strconv.FormatUint(fs.seed, 10)
	}
	return out
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
	if fs.reset > 0 && f.float() < fs.reset {
		if hj, ok := w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				_ = conn.Close()
				return true
			}
		}
		panic(http.ErrAbortHandler)
	}
	for _, sf := range fs.statuses {
		if f.float() < sf.p {
			e := newErr(sf.code, 10000+sf.code, "InjectedFault", "injected fault: HTTP %d", sf.code)
			if sf.code == http.StatusTooManyRequests {
				e.Slug = "RateLimited"
				e.Message = "Rate limit exceeded (injected fault)"
				e.RetryAfter = "1"
			}
			switch {
			case sf.code == http.StatusServiceUnavailable && f.float() < 0.5:
				w.Header().Set("Retry-After-Ms", "0")
			case sf.code >= 500:
				w.Header().Set("Retry-After", "0")
			}
			c.s.writeError(c, e)
			return true
		}
	}
	return false
}
