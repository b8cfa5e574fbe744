package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// ErrConnectionFailed is wrapped by WaitForConnection when the account reaches
// FAILED, EXPIRED or REVOKED.
var ErrConnectionFailed = errors.New("connection failed")

// ErrWaitTimeout is wrapped by WaitForConnection when the deadline passes
// before the account becomes ACTIVE.
var ErrWaitTimeout = errors.New("timed out waiting for connection")

// APIError is returned for every non-2xx response.
//
// It is decoded from the service envelope
// {"error":{"message","code","status","request_id","suggested_fix","errors","slug"}}
// tolerating code as number or string, falling back to a top-level
// message/request_id and to the x-request-id response header.
// Error() never contains request bodies or credentials.
type APIError struct {
	StatusCode   int
	Code         int
	Slug         string
	Message      string
	RequestID    string
	SuggestedFix string
	Errors       []string
	Method       string
	Path         string
}

// Error renders e.g.
// `GET /api/v3.1/auth_configs/ac_x: 404 Not Found: Auth config not found (code 201, request id req_123). Suggested fix: ...`.
func (e *APIError) Error() string {
	var b strings.Builder
	if e.Method != "" || e.Path != "" {
		b.WriteString(strings.TrimSpace(e.Method + " " + e.Path))
		b.WriteString(": ")
	}
	b.WriteString(strconv.Itoa(e.StatusCode))
	if t := http.StatusText(e.StatusCode); t != "" {
		b.WriteString(" ")
		b.WriteString(t)
	}
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(strings.TrimRight(e.Message, ". "))
	}
	var meta []string
	if e.Code != 0 {
		meta = append(meta, "code "+strconv.Itoa(e.Code))
	}
	if e.Slug != "" {
		meta = append(meta, e.Slug)
	}
	if e.RequestID != "" {
		meta = append(meta, "request id "+e.RequestID)
	}
	if len(meta) > 0 {
		b.WriteString(" (")
		b.WriteString(strings.Join(meta, ", "))
		b.WriteString(")")
	}
	b.WriteString(".")
	if len(e.Errors) > 0 {
		b.WriteString(" Details: ")
		b.WriteString(strings.Join(e.Errors, "; "))
		b.WriteString(".")
	}
	if e.SuggestedFix != "" {
		b.WriteString(" Suggested fix: ")
		b.WriteString(e.SuggestedFix)
	}
	return b.String()
}

// IsStatus reports whether err is (or wraps) an APIError with the given status.
func IsStatus(err error, status int) bool {
	var ae *APIError
	return errors.As(err, &ae) && ae.StatusCode == status
}

// IsNotFound reports a 404 (also 410 Gone: the object no longer exists).
func IsNotFound(err error) bool {
	return IsStatus(err, http.StatusNotFound) || IsStatus(err, http.StatusGone)
}

// IsConflict reports a 409.
func IsConflict(err error) bool { return IsStatus(err, http.StatusConflict) }

type errorEnvelope struct {
	Error     json.RawMessage `json:"error"`
	Message   any             `json:"message"`
	RequestID string          `json:"request_id"`
	Code      json.RawMessage `json:"code"`
}

type errorBody struct {
	Message      string          `json:"message"`
	Code         json.RawMessage `json:"code"`
	Status       json.RawMessage `json:"status"`
	RequestID    string          `json:"request_id"`
	SuggestedFix string          `json:"suggested_fix"`
	Errors       json.RawMessage `json:"errors"`
	Slug         string          `json:"slug"`
}

// maxErrorSnippet bounds how much of a non-JSON body reaches an error message.
const maxErrorSnippet = 200

// newAPIError decodes a failed response. redact removes values (the API key)
// that must never appear in an error.
func newAPIError(method, path string, status int, header http.Header, body []byte, redact func(string) string) *APIError {
	e := &APIError{StatusCode: status, Method: method, Path: path}
	trimmed := bytes.TrimSpace(body)
	var env errorEnvelope
	if len(trimmed) > 0 && trimmed[0] == '{' && json.Unmarshal(trimmed, &env) == nil {
		var eb errorBody
		if len(env.Error) > 0 && env.Error[0] == '{' && json.Unmarshal(env.Error, &eb) == nil {
			e.Message = eb.Message
			e.RequestID = eb.RequestID
			e.SuggestedFix = eb.SuggestedFix
			e.Slug = eb.Slug
			e.Code, e.Slug = decodeCode(eb.Code, e.Slug)
			e.Errors = decodeStrings(eb.Errors)
		} else if len(env.Error) > 0 {
			var s string
			if json.Unmarshal(env.Error, &s) == nil {
				e.Message = s
			}
		}
		if e.Message == "" {
			if s, ok := env.Message.(string); ok {
				e.Message = s
			}
		}
		if e.RequestID == "" {
			e.RequestID = env.RequestID
		}
		if e.Code == 0 {
			e.Code, e.Slug = decodeCode(env.Code, e.Slug)
		}
	} else if len(trimmed) > 0 {
		e.Message = snippet(string(trimmed))
	}
	if e.RequestID == "" && header != nil {
		e.RequestID = header.Get("X-Request-Id")
	}
	if redact != nil {
		e.Message = redact(e.Message)
		e.SuggestedFix = redact(e.SuggestedFix)
		for i := range e.Errors {
			e.Errors[i] = redact(e.Errors[i])
		}
	}
	return e
}

func decodeCode(raw json.RawMessage, slug string) (int, string) {
	if len(raw) == 0 || string(raw) == "null" {
		return 0, slug
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		if i, err := n.Int64(); err == nil {
			return int(i), slug
		}
		if f, err := n.Float64(); err == nil {
			return int(f), slug
		}
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		s = strings.TrimSpace(s)
		if i, err := strconv.Atoi(s); err == nil {
			return i, slug
		}
		if slug == "" {
			slug = s
		}
	}
	return 0, slug
}

func decodeStrings(raw json.RawMessage) []string {
	if len(raw) == 0 {
		return nil
	}
	var list []any
	if json.Unmarshal(raw, &list) != nil {
		var s string
		if json.Unmarshal(raw, &s) == nil && s != "" {
			return []string{s}
		}
		return nil
	}
	out := make([]string, 0, len(list))
	for _, v := range list {
		switch t := v.(type) {
		case string:
			out = append(out, t)
		case nil:
		default:
			b, _ := json.Marshal(t)
			out = append(out, string(b))
		}
	}
	return out
}

func snippet(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= maxErrorSnippet {
		return s
	}
	s = s[:maxErrorSnippet]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s + "…"
}

// notFound builds the APIError used when a lookup by filter finds nothing.
func notFound(method, path, msg string) *APIError {
	return &APIError{StatusCode: http.StatusNotFound, Method: method, Path: path, Message: msg}
}

// AmbiguousWriteError is returned for a create that was sent and got no
// answer saying whether the service applied it (connection reset, EOF,
// per-attempt timeout, 502, 504, 503 without Retry-After). See the write
// policy in transport.go; createReconciled resolves it.
type AmbiguousWriteError struct {
	Method string
	Path   string
	// SentAt is when the first attempt of the call started; an object the
	// call created has a creation time at or after it.
	SentAt time.Time
	Err    error
}

func (e *AmbiguousWriteError) Error() string {
	return e.Err.Error() + " (the request was sent and the service may have applied it)"
}

func (e *AmbiguousWriteError) Unwrap() error { return e.Err }
