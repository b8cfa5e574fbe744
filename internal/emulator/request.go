// Per-request plumbing: authentication, the rate limit and its headers, counting, JSON
// decoding and encoding, the error envelope on the wire.

package emulator

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/integration-service/terraform-provider-service/internal/jsonschema"
)

// call is the per-request context handed to API handlers.
type call struct {
	w http.ResponseWriter
	r *http.Request
	// project is the data scope of the project whose API key authenticated
	// the call ("" for an organization key or a no_auth call without one).
	project string
	// org is the organization whose API key authenticated the call.
	org string
	// keyPerms are the permissions of the scoped project key that
	// authenticated the call (nil: a full key or no project key).
	keyPerms  map[string]string
	requestID string
	s         *Server
}

// handlerFunc answers with a status and a JSON body, or an *apiError.
type handlerFunc func(c *call) (int, any, *apiError)

// wrap wraps a handler of a route taking a project API key (x-api-key).
func (s *Server) wrap(h handlerFunc, isAPI bool) http.Handler { return s.wrapOp(h, isAPI, apiKey) }

// wrapOp wraps a handler of a route accepting the credential schemes (see
// authenticate): faults, authentication, counting, the answer.
func (s *Server) wrapOp(h handlerFunc, isAPI bool, schemes []string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := &call{w: w, r: r, requestID: newRequestID(), s: s}
		w.Header().Set("x-request-id", c.requestID)
		s.countRequest(r)
		if isAPI && (s.rateLimit(w, r) || s.faults.apply(w, r, c)) {
			return
		}
		if aerr := s.authenticate(c, schemes); aerr != nil {
			s.writeError(c, aerr)
			return
		}
		if aerr := checkKeyPermission(c); isAPI && aerr != nil {
			s.writeError(c, aerr)
			return
		}
		if isAPI {
			s.countProjectRequest(c.project, r)
		}
		status, body, aerr := h(c)
		if aerr != nil {
			s.writeError(c, aerr)
			return
		}
		if isAPI && r.Method != http.MethodGet && r.Method != http.MethodHead && status < 300 {
			s.statsMu.Lock()
			s.writes++
			s.statsMu.Unlock()
			if s.crashAfterCommit(w, r) {
				return
			}
		}
		s.writeJSON(w, status, body)
	})
}

// Rate limit: every API request counts in its organization's window, a
// fixed one-minute window started by the organization's first request after
// the previous window ended (the service limits each organization per
// minute). Every API response carries X-RateLimit (the limit),
// X-RateLimit-Remaining (what is left of the window) and
// X-RateLimit-Window-Size ("60s"), as the real service does. The emulator
// only refuses requests under the ratelimit=N/min fault (faults.go): the
// limit is then N instead of rateLimitPerMinute, and a request beyond it is
// answered 429 with Retry-After (the whole seconds left in the window, so a
// request sent then passes) and the documented body {"message": "Rate limit
// exceeded. Limit: N requests per 1 minutes"}. ratelimit-headers=off leaves
// out the three headers and Retry-After. Setting faults starts every window
// afresh (putFaults).
const (
	rateLimitPerMinute = 10000
	rateLimitWindow    = time.Minute
)

type rateWindow struct {
	start time.Time
	used  int
}

// rateSubject is whose window a request counts in: the organization of its
// credential (a project key's or an organization key's), else the
// credential itself (an unknown key has a window of its own, requests
// without a key share one).
func (s *Server) rateSubject(r *http.Request) string {
	present := presentCredentials(r)
	if len(present) == 0 {
		return "key:"
	}
	key := r.Header.Get(present[0].header)
	switch present[0].scheme {
	case SchemeAPIKey:
		s.keysMu.RLock()
		pk, ok := s.keys[key]
		s.keysMu.RUnlock()
		if ok {
			return "org:" + pk.org
		}
	case SchemeOrgAPIKey:
		if org, ok := s.orgKeys[key]; ok {
			return "org:" + org
		}
	}
	return "key:" + key
}

// rateLimit counts an API request in its organization's window and sets the
// rate-limit headers; under the ratelimit fault it answers a request beyond
// the limit with 429 and returns true (the request is not handled).
func (s *Server) rateLimit(w http.ResponseWriter, r *http.Request) bool {
	fs := s.faults.get()
	limit := rateLimitPerMinute
	if fs.rateLimit > 0 {
		limit = fs.rateLimit
	}
	subject := s.rateSubject(r)
	now := time.Now()
	s.statsMu.Lock()
	if s.rate == nil {
		s.rate = map[string]*rateWindow{}
	}
	win := s.rate[subject]
	if win == nil || now.Sub(win.start) >= rateLimitWindow {
		win = &rateWindow{start: now}
		s.rate[subject] = win
	}
	win.used++
	remaining := max(limit-win.used, 0)
	left := win.start.Add(rateLimitWindow).Sub(now)
	throttled := fs.rateLimit > 0 && win.used > limit
	if throttled {
		s.throttled[routePattern(r)]++
	}
	s.statsMu.Unlock()
	h := w.Header()
	if !fs.rateHeadersOff {
		h.Set("X-RateLimit", strconv.Itoa(limit))
		h.Set("X-RateLimit-Remaining", strconv.Itoa(remaining))
		h.Set("X-RateLimit-Window-Size", "60s")
	}
	if !throttled {
		return false
	}
	if !fs.rateHeadersOff {
		h.Set("Retry-After", strconv.Itoa(int(math.Ceil(left.Seconds()))))
	}
	s.log.Debug("request throttled", "method", r.Method, "path", r.URL.Path, "subject", subject, "limit", limit,
		"retry_in", left.Round(time.Millisecond).String(), "request_id", w.Header().Get("x-request-id"))
	s.writeJSON(w, http.StatusTooManyRequests, map[string]any{
		"message": fmt.Sprintf("Rate limit exceeded. Limit: %d requests per 1 minutes", limit),
	})
	return true
}

// routePattern is the stats key of a request: its route pattern, or
// "<METHOD> (unmatched)".
func routePattern(r *http.Request) string {
	if r.Pattern == "" {
		return r.Method + " (unmatched)"
	}
	return r.Pattern
}

func (s *Server) countRequest(r *http.Request) {
	pattern := routePattern(r)
	if pattern == "GET /_emulator/stats" {
		return
	}
	s.statsMu.Lock()
	s.requests[pattern]++
	s.statsMu.Unlock()
}

// countProjectRequest counts an authenticated API request under its project.
func (s *Server) countProjectRequest(project string, r *http.Request) {
	if project == "" || r.Pattern == "" {
		return
	}
	s.statsMu.Lock()
	m := s.byProject[project]
	if m == nil {
		m = map[string]int64{}
		s.byProject[project] = m
	}
	m[r.Pattern]++
	s.statsMu.Unlock()
}

func (s *Server) writeJSON(w http.ResponseWriter, status int, body any) {
	if body == nil {
		body = map[string]any{}
	}
	data, err := json.Marshal(body)
	if err != nil {
		s.log.Error("encode response", "err", err)
		status = http.StatusInternalServerError
		data = []byte(`{"error":{"message":"internal error encoding response","code":10500,"status":500,"request_id":"","suggested_fix":"Report this emulator bug."}}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(data)
}

func (s *Server) writeError(c *call, e *apiError) {
	if e.RetryAfter != "" {
		c.w.Header().Set("Retry-After", e.RetryAfter)
	}
	if e.Status == http.StatusConflict {
		// a state conflict will not resolve by retrying; tell Stainless-style clients
		c.w.Header().Set("x-should-retry", "false")
	}
	lvl := slog.LevelDebug
	if e.Status >= 500 {
		lvl = slog.LevelWarn
	}
	s.log.Log(c.r.Context(), lvl, "request failed", "method", c.r.Method, "path", c.r.URL.Path,
		"status", e.Status, "code", e.Code, "message", e.Message, "request_id", c.requestID)
	s.writeJSON(c.w, e.Status, e.render(s.faults.get().errorForm, c.requestID))
}

// decode reads a JSON object body (empty body = empty object).
func (c *call) decode(into any) *apiError {
	data, err := io.ReadAll(io.LimitReader(c.r.Body, 4<<20))
	if err != nil {
		return errBadRequest("reading body: %v", err)
	}
	if len(strings.TrimSpace(string(data))) == 0 {
		data = []byte("{}")
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.UseNumber()
	if err := dec.Decode(into); err != nil {
		return newErr(http.StatusBadRequest, CodeInvalidJSON, "InvalidJSON", "request body is not valid JSON for this route: %v", err)
	}
	return nil
}

// schemaError checks v against a JSON Schema with the provider's validator
// (internal/jsonschema): the first violation's field under at ("" names the
// root; "trigger_config.branch") and what was expected there, or ok.
func schemaError(schema map[string]any, v any, at string) (field, msg string, ok bool) {
	vs := jsonschema.Validate(schema, v)
	if len(vs) == 0 {
		return "", "", true
	}
	field = vs[0].Field
	switch {
	case field == "":
		field = at
	case at != "":
		field = at + "." + field
	}
	return field, vs[0].Message, false
}

// toFloat is a JSON number (json.Number as decode reads it) as a float64.
func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	}
	return 0, false
}

// jsonEqual reports whether two JSON values are the same (numbers by value).
func jsonEqual(a, b any) bool {
	fa, okA := toFloat(a)
	fb, okB := toFloat(b)
	if okA && okB {
		return fa == fb
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}
