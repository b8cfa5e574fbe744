package emulator

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
)

// crashFault is the fault kind "crash-after-commit=METHOD:PATH[:N]": the Nth
// (default first) successful request to the route METHOD PATH (the route
// pattern without the /api/v3 or /api/v3.1 prefix, e.g.
// POST:/auth_configs or POST:/connected_accounts) commits its change and then,
// instead of answering, crashes the emulator: Options.Crash is called (the
// command kills its own process with SIGKILL), or without it the connection
// is dropped, so the client sees a create that was applied but never answered.
type crashFault struct {
	method string
	path   string
	nth    int64
	seen   *atomic.Int64
}

func parseCrashFault(v string) (crashFault, error) {
	parts := strings.Split(strings.TrimSpace(v), ":")
	if len(parts) < 2 || len(parts) > 3 || parts[0] == "" || !strings.HasPrefix(parts[1], "/") {
		return crashFault{}, fmt.Errorf("crash-after-commit must be METHOD:/route[:N], e.g. POST:/auth_configs, got %q", v)
	}
	cf := crashFault{method: strings.ToUpper(parts[0]), path: parts[1], nth: 1, seen: &atomic.Int64{}}
	if len(parts) == 3 {
		n, err := strconv.Atoi(parts[2])
		if err != nil || n < 1 {
			return crashFault{}, fmt.Errorf("crash-after-commit %q: N must be a positive integer", v)
		}
		cf.nth = int64(n)
	}
	return cf, nil
}

// matches reports whether this committed request is the one to crash on.
func (cf crashFault) matches(r *http.Request) bool {
	if cf.seen == nil || r.Method != cf.method {
		return false
	}
	_, route, _ := strings.Cut(r.Pattern, " ")
	for _, p := range apiPrefixes {
		if route == p+cf.path {
			return cf.seen.Add(1) == cf.nth
		}
	}
	return false
}

// crashAfterCommit is called once a write has been committed and before its
// answer is written; it returns true when the request must not be answered.
func (s *Server) crashAfterCommit(w http.ResponseWriter, r *http.Request) bool {
	fs := s.faults.get()
	if !fs.crash.matches(r) {
		return false
	}
	s.log.Warn("crash-after-commit fault: the write is committed; crashing before answering",
		"method", r.Method, "path", r.URL.Path)
	if s.opts.Crash != nil {
		s.opts.Crash()
	}
	if hj, ok := w.(http.Hijacker); ok {
		if conn, _, err := hj.Hijack(); err == nil {
			_ = conn.Close()
			return true
		}
	}
	panic(http.ErrAbortHandler)
}
