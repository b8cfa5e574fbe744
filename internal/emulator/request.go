// Per-request plumbing: authentication, rate-limit headers, counting, JSON
// decoding and encoding, the error envelope on the wire.

package emulator

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// call is the per-request context handed to API handlers.
type call struct {
	w http.ResponseWriter
	r *http.Request
	// project is the data scope of the project whose API key authenticated
	// the call ("" for an organization key or a no_auth call without one).
	project string
	// org is the organization whose API key authenticated the call.
	org       string
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
		if isAPI {
			s.rateLimitHeaders(w, r)
			if s.faults.apply(w, r, c) {
				return
			}
		}
		if aerr := s.authenticate(c, schemes); aerr != nil {
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

// Rate-limit headers sent on every API response, as the real service does.
// The emulator never limits (only the fault injector answers 429); the
// remaining count is per credential (the request's API key, organization
// key or user key) over a fixed one-minute window.
const (
	rateLimitPerMinute = 10000
	rateLimitWindow    = time.Minute
)

type rateWindow struct {
	start time.Time
	used  int
}

func (s *Server) rateLimitHeaders(w http.ResponseWriter, r *http.Request) {
	key := credentialKey(r)
	now := time.Now()
	s.statsMu.Lock()
	if s.rate == nil {
		s.rate = map[string]*rateWindow{}
	}
	win := s.rate[key]
	if win == nil || now.Sub(win.start) >= rateLimitWindow {
		win = &rateWindow{start: now}
		s.rate[key] = win
	}
	win.used++
	remaining := max(rateLimitPerMinute-win.used, 0)
	s.statsMu.Unlock()
	h := w.Header()
	h.Set("X-RateLimit", strconv.Itoa(rateLimitPerMinute))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(remaining))
	h.Set("X-RateLimit-Window-Size", "60s")
}

func (s *Server) countRequest(r *http.Request) {
	pattern := r.Pattern
	if pattern == "" {
		pattern = r.Method + " (unmatched)"
	}
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
	s.writeJSON(c.w, e.Status, e.envelope(c.requestID))
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
