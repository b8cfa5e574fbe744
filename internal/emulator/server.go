package emulator

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultAPIKey is the key of the single "default" project used when no keys
// are configured.
const DefaultAPIKey = "emulator-key"

// Options configures a Server.
type Options struct {
	// DataPath is the bbolt data file; "" keeps everything in memory.
	DataPath string
	// APIKeys maps API key -> project name; empty means {"emulator-key": "default"}.
	APIKeys map[string]string
	// Faults is an initial fault spec, e.g. "status=429:0.1,status=503:0.1,latency=20ms,reset=0.02".
	Faults string
	// WebhookURL receives fired trigger events (signed V3 webhooks) when set.
	WebhookURL string
	// WebhookSecret keys the webhook HMAC signature.
	WebhookSecret string
	// Logger receives structured logs; nil discards them.
	Logger *slog.Logger
	// BaseURL is the public origin used in redirect URLs and MCP URLs; when
	// empty the origin of each request (Host header) is used. See SetBaseURL.
	BaseURL string
	// WebhookMaxAttempts bounds delivery attempts per event (default 6).
	WebhookMaxAttempts int
	// WebhookBackoff is the delay before the first retry, doubled on each
	// further retry (default 250ms).
	WebhookBackoff time.Duration
}

// Server is the emulator. Create it with New, serve Handler(), and Close it.
type Server struct {
	opts     Options
	log      *slog.Logger
	st       *store
	cat      *catalog
	keys     map[string]string
	mux      *http.ServeMux
	baseURL  atomic.Value // string
	faults   *faultInjector
	hooks    *webhookSender
	statsMu  sync.Mutex
	requests map[string]int64
	writes   int64
	rate     map[string]*rateWindow // per API key, under statsMu
	closed   atomic.Bool
}

// New creates a server, opening (or creating) the data file when configured.
func New(opts Options) (*Server, error) {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	keys := map[string]string{}
	for k, p := range opts.APIKeys {
		if k == "" {
			return nil, errors.New("emulator: empty API key")
		}
		if p == "" {
			p = "default"
		}
		keys[k] = p
	}
	if len(keys) == 0 {
		keys[DefaultAPIKey] = "default"
	}
	faults, err := parseFaults(opts.Faults)
	if err != nil {
		return nil, err
	}
	st, err := openStore(opts.DataPath)
	if err != nil {
		return nil, err
	}
	s := &Server{
		opts:     opts,
		log:      log,
		st:       st,
		cat:      builtinCatalog(),
		keys:     keys,
		mux:      http.NewServeMux(),
		faults:   newFaultInjector(faults),
		requests: map[string]int64{},
	}
	s.baseURL.Store(strings.TrimRight(opts.BaseURL, "/"))
	s.hooks = newWebhookSender(opts, log)
	s.routes()
	return s, nil
}

// SetBaseURL sets the public origin (e.g. an httptest server URL) used in
// redirect_url, hosted links and MCP URLs.
func (s *Server) SetBaseURL(u string) { s.baseURL.Store(strings.TrimRight(u, "/")) }

// Handler returns the HTTP handler serving the API, control routes and consent pages.
func (s *Server) Handler() http.Handler { return s.mux }

// Close stops webhook delivery and closes the data file.
func (s *Server) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	s.hooks.close()
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	return s.st.close()
}

func (s *Server) origin(r *http.Request) string {
	if u, _ := s.baseURL.Load().(string); u != "" {
		return u
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// call is the per-request context handed to API handlers.
type call struct {
	w         http.ResponseWriter
	r         *http.Request
	project   string
	requestID string
	s         *Server
}

// handlerFunc answers with a status and a JSON body, or an *apiError.
type handlerFunc func(c *call) (int, any, *apiError)

var apiPrefixes = []string{"/api/v3", "/api/v3.1"}

// api registers an API route under both version prefixes.
func (s *Server) api(method, path string, h handlerFunc) {
	for _, p := range apiPrefixes {
		s.mux.Handle(method+" "+p+path, s.wrap(h, true))
	}
}

// control registers a control route (API key required, no faults, not counted as writes).
func (s *Server) control(method, path string, h handlerFunc) {
	s.mux.Handle(method+" /_emulator"+path, s.wrap(h, false))
}

func (s *Server) wrap(h handlerFunc, isAPI bool) http.Handler {
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
		project, aerr := s.authenticate(r)
		if aerr != nil {
			s.writeError(c, aerr)
			return
		}
		c.project = project
		status, body, aerr := h(c)
		if aerr != nil {
			s.writeError(c, aerr)
			return
		}
		if isAPI && r.Method != http.MethodGet && r.Method != http.MethodHead && status < 300 {
			s.statsMu.Lock()
			s.writes++
			s.statsMu.Unlock()
		}
		s.writeJSON(w, status, body)
	})
}

// Rate-limit headers sent on every API response, as the real service does.
// The emulator never limits (only the fault injector answers 429); the
// remaining count is per API key over a fixed one-minute window.
const (
	rateLimitPerMinute = 10000
	rateLimitWindow    = time.Minute
)

type rateWindow struct {
	start time.Time
	used  int
}

func (s *Server) rateLimitHeaders(w http.ResponseWriter, r *http.Request) {
	key := r.Header.Get("x-api-key")
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

func (s *Server) authenticate(r *http.Request) (string, *apiError) {
	key := r.Header.Get("x-api-key")
	if key == "" {
		return "", newErr(http.StatusUnauthorized, CodeUnauthorized, "Unauthorized", "missing API key: send it in the x-api-key header")
	}
	p, ok := s.keys[key]
	if !ok {
		return "", newErr(http.StatusUnauthorized, CodeUnauthorized, "Unauthorized", "invalid API key")
	}
	return p, nil
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

func (s *Server) routes() {
	s.registerAuthConfigRoutes()
	s.registerConnectedAccountRoutes()
	s.registerToolkitRoutes()
	s.registerTriggerRoutes()
	s.registerToolRoutes()
	s.registerSessionRoutes()
	s.registerMCPRoutes()
	s.registerControlRoutes()
	s.registerConsentRoutes()
	s.api("GET", "/internal/sdk/realtime/credentials", func(c *call) (int, any, *apiError) {
		return 200, map[string]any{"pusher_key": realtimeKey, "project_id": c.project, "pusher_cluster": "emulator"}, nil
	})
	s.api("POST", "/internal/sdk/realtime/auth", s.realtimeAuth)
	s.mux.Handle("/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.countRequest(r)
		rid := newRequestID()
		w.Header().Set("x-request-id", rid)
		if r.URL.Path == "/" && r.Method == http.MethodGet {
			s.writeJSON(w, 200, map[string]any{"service": "service-emulator", "api": apiPrefixes})
			return
		}
		e := newErr(http.StatusNotFound, CodeRouteNotFound, "RouteNotFound", "no route for %s %s", r.Method, r.URL.Path)
		s.writeJSON(w, e.Status, e.envelope(rid))
	}))
}

// Pusher app key and secret of the emulated realtime channel.
const (
	realtimeKey    = "emulator"
	realtimeSecret = "emulator-realtime-secret"
)

// realtimeAuth answers the Pusher channel authorization (form-encoded
// socket_id and channel_name) for the caller's private-<project>_triggers
// channel: {"auth": "<key>:<hex HMAC-SHA256(secret, socket_id:channel_name)>"}.
func (s *Server) realtimeAuth(c *call) (int, any, *apiError) {
	if err := c.r.ParseForm(); err != nil {
		return 0, nil, errBadRequest("reading form: %v", err)
	}
	socketID, channel := c.r.PostForm.Get("socket_id"), c.r.PostForm.Get("channel_name")
	if socketID == "" || channel == "" {
		return 0, nil, errValidation("socket_id", "socket_id and channel_name are required (form-encoded)")
	}
	if want := "private-" + c.project + "_triggers"; channel != want {
		return 0, nil, newErr(http.StatusForbidden, CodeForbidden, "Forbidden", "channel %q is not this project's channel %q", channel, want)
	}
	mac := hmac.New(sha256.New, []byte(realtimeSecret))
	mac.Write([]byte(socketID + ":" + channel))
	return 200, map[string]any{"auth": realtimeKey + ":" + hex.EncodeToString(mac.Sum(nil))}, nil
}
