package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
)

// envRecord is the environment variable --record defaults to (for scripts
// that start the emulator themselves, such as scripts/demo.sh).
const envRecord = "SERVICE_EMULATOR_RECORD"

// recordedRequest is one line of the --record file: an API request as the
// emulator received it.
type recordedRequest struct {
	Method string          `json:"method"`
	Path   string          `json:"path"`
	Query  string          `json:"query,omitempty"`
	Body   json.RawMessage `json:"body,omitempty"`
}

// requestRecorder appends every API request (paths under /api/) to a file,
// one JSON line each, before the emulator handles it (a request that
// crashes the process with the crash-after-commit fault is still there). It
// is for tests that check what a client sent: the file holds the request
// bodies as sent, credentials included.
type requestRecorder struct {
	next http.Handler
	mu   sync.Mutex
	f    *os.File
}

func newRequestRecorder(next http.Handler, file string) (*requestRecorder, error) {
	f, err := os.OpenFile(file, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600) //nolint:gosec // G304: the file the operator named with --record
	if err != nil {
		return nil, err
	}
	return &requestRecorder{next: next, f: f}, nil
}

func (rr *requestRecorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, "/api/") {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		rec := recordedRequest{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery}
		if len(bytes.TrimSpace(body)) > 0 {
			if json.Valid(body) {
				rec.Body = body
			} else {
				rec.Body, _ = json.Marshal(string(body))
			}
		}
		if line, err := json.Marshal(rec); err == nil {
			rr.mu.Lock()
			_, _ = rr.f.Write(append(line, '\n'))
			rr.mu.Unlock()
		}
	}
	rr.next.ServeHTTP(w, r)
}

func (rr *requestRecorder) Close() error { return rr.f.Close() }
