package parity

import (
	"fmt"
	"net/http"
)

// readOnly is the transport of every request the check sends, to the
// service and to its emulator alike: it refuses anything but GET before a
// byte leaves the process. The check has no other way to send a request.
type readOnly struct {
	next http.RoundTripper
}

// WriteRefusedError is the error of a request the check refused to send.
type WriteRefusedError struct {
	Method, Path string
}

func (e *WriteRefusedError) Error() string {
	return fmt.Sprintf("parity: refused to send %s %s: the parity check sends only GET requests", e.Method, e.Path)
}

func (t readOnly) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method != http.MethodGet {
		if r.Body != nil {
			_ = r.Body.Close()
		}
		return nil, &WriteRefusedError{Method: r.Method, Path: r.URL.Path}
	}
	next := t.next
	if next == nil {
		next = http.DefaultTransport
	}
	return next.RoundTrip(r)
}

// readOnlyClient is an HTTP client that can send only GET requests through
// next (nil: the default transport) and follows no redirect (a redirect is
// an answer to compare, not to chase).
func readOnlyClient(next http.RoundTripper) *http.Client {
	return &http.Client{
		Transport: readOnly{next: next},
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}
