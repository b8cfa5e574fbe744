// Route registration: API routes under both version prefixes, control
// routes, the fallback.

package emulator

import "net/http"

// apiPrefixes are the version prefixes every API route is served under: the
// contract's /api/v3.1 and the /api/v3 alias older SDKs (0.5.x) call.
var apiPrefixes = []string{"/api/v3", "/api/v3.1"}

// api registers an API route outside the operation table (it takes a
// project API key) under both version prefixes.
func (s *Server) api(method, path string, h handlerFunc) {
	for _, p := range apiPrefixes {
		s.mux.Handle(method+" "+p+path, s.wrap(h, true))
	}
}

// apiOp registers an operation of the table under both version prefixes; a
// request must carry one credential of the operation's schemes.
func (s *Server) apiOp(op Operation, h handlerFunc) {
	for _, p := range apiPrefixes {
		s.mux.Handle(op.Method+" "+p+op.Path, s.wrapOp(h, true, op.Schemes))
	}
}

// control registers a control route (API key required, no faults, not counted as writes).
func (s *Server) control(method, path string, h handlerFunc) {
	s.mux.Handle(method+" /_emulator"+path, s.wrap(h, false))
}

func (s *Server) routes() {
	s.registerOperations()
	s.registerControl()
	s.registerConsentPages()
	s.registerRealtime()
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
