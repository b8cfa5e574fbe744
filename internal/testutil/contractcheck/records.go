// Package contractcheck checks recorded HTTP exchanges against the wire
// contract, the TypeScript types of the official @composio/client pinned in
// test/contract (check.mjs walks the values with the TypeScript type
// checker). test/contract uses it for its walk of the emulator and the Go
// client; the provider's acceptance and end-to-end tests, the examples, the
// demo, the module test and the fault tests use it for every request they
// send to an emulator (RequestProblems), so a request the provider builds
// outside the contract fails the test that sent it. test/contract's
// exceptions.json is the one list of accepted deviations.
package contractcheck

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
)

// Record is one HTTP exchange, named by the contract operation it matched.
type Record struct {
	Source     string              `json:"source"` // walk | client | provider test name
	Operation  string              `json:"operation"`
	Method     string              `json:"method"`
	Path       string              `json:"path"`
	PathParams map[string]string   `json:"path_params,omitempty"`
	Query      map[string][]string `json:"query,omitempty"`
	Body       json.RawMessage     `json:"body,omitempty"`
	Status     int                 `json:"status"`
	Response   json.RawMessage     `json:"response,omitempty"`
}

// Operation is one entry of the package's operation table.
type Operation struct {
	Method    string `json:"method"`
	Path      string `json:"path"`
	Operation string `json:"operation"`
	Name      string `json:"name"`
	// Schemes are the credential schemes the operation accepts (none
	// declared: ApiKeyAuth).
	Schemes []string `json:"schemes"`
}

// Router matches request paths to operations of the table.
type Router struct{ Ops []Operation }

// Match returns the operation whose method and template fit the request and
// its path parameters; with several fits the one with most literal segments wins.
func (r Router) Match(method, path string) (Operation, map[string]string, bool) {
	segs := strings.Split(strings.Trim(path, "/"), "/")
	var best Operation
	var bestParams map[string]string
	bestLiterals := -1
	for _, op := range r.Ops {
		if op.Method != method {
			continue
		}
		tsegs := strings.Split(strings.Trim(op.Path, "/"), "/")
		if len(tsegs) != len(segs) {
			continue
		}
		params := map[string]string{}
		literals := 0
		ok := true
		for i, ts := range tsegs {
			if strings.HasPrefix(ts, "{") && strings.HasSuffix(ts, "}") {
				v, err := url.PathUnescape(segs[i])
				if err != nil || v == "" {
					ok = false
					break
				}
				params[ts[1:len(ts)-1]] = v
				continue
			}
			if ts != segs[i] {
				ok = false
				break
			}
			literals++
		}
		if ok && literals > bestLiterals {
			best, bestParams, bestLiterals = op, params, literals
		}
	}
	return best, bestParams, bestLiterals >= 0
}

// NewRecord builds the record of one exchange: the request (method, path,
// query, body) matched to its operation, the status and, when keepResponse,
// the response body. ok is false when no operation of r matches.
func (r Router) NewRecord(source, method string, u *url.URL, body []byte, status int, response []byte) (Record, bool) {
	op, params, ok := r.Match(method, u.Path)
	if !ok {
		return Record{}, false
	}
	rec := Record{Source: source, Operation: op.Operation, Method: method, Path: u.Path, PathParams: params, Status: status}
	if q := u.Query(); len(q) > 0 {
		rec.Query = q
	}
	if len(bytes.TrimSpace(body)) > 0 {
		if json.Valid(body) {
			rec.Body = append(json.RawMessage(nil), body...)
		} else {
			rec.Body, _ = json.Marshal(string(body))
		}
	}
	if response != nil && json.Valid(response) {
		rec.Response = append(json.RawMessage(nil), response...)
	}
	return rec, true
}

// Recorder wraps a handler (an emulator's) and records every API exchange
// (paths under /api/) that matches an operation of the table; the others
// are kept in Missed.
type Recorder struct {
	next         http.Handler
	router       Router
	keepResponse bool
	mu           sync.Mutex
	source       string
	recs         []Record
	missed       []string
}

// NewRecorder records the exchanges next serves, responses included when
// keepResponse (the contract test checks them; the request checks of the
// other tests do not need them).
func NewRecorder(next http.Handler, ops []Operation, keepResponse bool) *Recorder {
	return &Recorder{next: next, router: Router{Ops: ops}, keepResponse: keepResponse, source: "walk"}
}

// SetSource names the source of the records that follow.
func (rc *Recorder) SetSource(s string) {
	rc.mu.Lock()
	rc.source = s
	rc.mu.Unlock()
}

// Records returns the records so far.
func (rc *Recorder) Records() []Record {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]Record(nil), rc.recs...)
}

// Take returns the records so far and forgets them.
func (rc *Recorder) Take() []Record {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	out := rc.recs
	rc.recs = nil
	return out
}

// Missed returns "METHOD path" of the API requests no operation matched.
func (rc *Recorder) Missed() []string {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]string(nil), rc.missed...)
}

func (rc *Recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !strings.HasPrefix(r.URL.Path, "/api/") {
		rc.next.ServeHTTP(w, r)
		return
	}
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	var status int
	var resp []byte
	if rc.keepResponse {
		rw := httptest.NewRecorder()
		rc.next.ServeHTTP(rw, r)
		for k, v := range rw.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rw.Code)
		_, _ = w.Write(rw.Body.Bytes())
		status, resp = rw.Code, rw.Body.Bytes()
	} else {
		// passed through as it is written (streamed answers stay streamed)
		sw := &statusWriter{ResponseWriter: w, code: http.StatusOK}
		rc.next.ServeHTTP(sw, r)
		status = sw.code
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rec, ok := rc.router.NewRecord(rc.source, r.Method, r.URL, body, status, resp)
	if !ok {
		rc.missed = append(rc.missed, r.Method+" "+r.URL.Path)
		return
	}
	rc.recs = append(rc.recs, rec)
}

// statusWriter notes the status of an answer it passes through.
type statusWriter struct {
	http.ResponseWriter
	code        int
	wroteHeader bool
}

func (w *statusWriter) WriteHeader(code int) {
	if !w.wroteHeader {
		w.code, w.wroteHeader = code, true
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	w.wroteHeader = true
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Flush keeps streamed answers streaming.
func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
