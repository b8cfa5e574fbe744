package contract

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

// record is one HTTP exchange, named by the contract operation it matched.
type record struct {
	Source     string              `json:"source"` // walk | client
	Operation  string              `json:"operation"`
	Method     string              `json:"method"`
	Path       string              `json:"path"`
	PathParams map[string]string   `json:"path_params,omitempty"`
	Query      map[string][]string `json:"query,omitempty"`
	Body       json.RawMessage     `json:"body,omitempty"`
	Status     int                 `json:"status"`
	Response   json.RawMessage     `json:"response,omitempty"`
}

// router matches request paths to operations of the table.
type router struct{ ops []operation }

// match returns the operation whose method and template fit the request and
// its path parameters; with several fits the one with most literal segments wins.
func (r router) match(method, path string) (operation, map[string]string, bool) {
	segs := strings.Split(strings.Trim(path, "/"), "/")
	var best operation
	var bestParams map[string]string
	bestLiterals := -1
	for _, op := range r.ops {
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

// recorder wraps the emulator's handler and records every API exchange that
// matches an operation of the table.
type recorder struct {
	next   http.Handler
	router router
	mu     sync.Mutex
	source string
	recs   []record
	missed []string // API requests no operation matched
}

func newRecorder(next http.Handler, ops []operation) *recorder {
	return &recorder{next: next, router: router{ops: ops}, source: "walk"}
}

func (rc *recorder) setSource(s string) {
	rc.mu.Lock()
	rc.source = s
	rc.mu.Unlock()
}

func (rc *recorder) records() []record {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]record(nil), rc.recs...)
}

func (rc *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !strings.HasPrefix(r.URL.Path, "/api/") {
		rc.next.ServeHTTP(w, r)
		return
	}
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	rw := httptest.NewRecorder()
	rc.next.ServeHTTP(rw, r)
	for k, v := range rw.Header() {
		w.Header()[k] = v
	}
	w.WriteHeader(rw.Code)
	_, _ = w.Write(rw.Body.Bytes())

	op, params, ok := rc.router.match(r.Method, r.URL.Path)
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if !ok {
		rc.missed = append(rc.missed, r.Method+" "+r.URL.Path)
		return
	}
	rec := record{
		Source: rc.source, Operation: op.Operation, Method: r.Method, Path: r.URL.Path,
		PathParams: params, Status: rw.Code,
	}
	if q := r.URL.Query(); len(q) > 0 {
		rec.Query = q
	}
	if len(bytes.TrimSpace(body)) > 0 {
		if json.Valid(body) {
			rec.Body = body
		} else {
			rec.Body, _ = json.Marshal(string(body))
		}
	}
	if json.Valid(rw.Body.Bytes()) {
		rec.Response = append(json.RawMessage(nil), rw.Body.Bytes()...)
	}
	rc.recs = append(rc.recs, rec)
}
