package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// Write policy (retry and reconciliation rule)
//
// Every operation belongs to one of four kinds; the kind, not only the HTTP
// method, decides what may be repeated. do picks the kind from the method
// (GET/HEAD read, DELETE delete, PATCH/PUT idempotent write, POST create);
// doKind states it explicitly (POST /trigger_instances/{slug}/upsert is an
// idempotent write). Operations added later pick their kind the same way:
//
//   - read (GET, HEAD): retried on 429, 502, 503, 504, on any connection
//     failure (refused, reset, EOF) and on a per-attempt timeout.
//   - idempotent write (PATCH that sets values, status changes
//     PATCH /auth_configs/{id}/{status}, PATCH /connected_accounts/{id}/status,
//     PATCH /trigger_instances/manage/{id}, trigger upsert, PUT,
//     POST /connected_accounts/{id}/revoke (a repeat finds the account
//     REVOKED and answers 200), and later webhook/MCP updates): repeating it
//     leaves the same state, so it is retried exactly like a read.
//   - delete (DELETE): retried like a read; when an earlier attempt of the
//     same call was sent (so it may have been applied) and a retry answers
//     404, 410 or 409 "already deleted", the call counts as done.
//   - create (POST that makes a new object: auth config, connected account,
//     link, and every create added later): retried only
//     where the service cannot have applied it: 429 (the rate limiter
//     answers before any handler runs), 503 carrying Retry-After or
//     retry-after-ms (the service refused and asked to come back), and
//     transport failures before the request headers were written (dial, DNS,
//     TLS, connection refused; detected with httptrace.WroteHeaders).
//     After an ambiguous failure (the request was sent and there is no
//     answer: reset, EOF, per-attempt timeout, 502, 504, bare 503) do returns
//     an *AmbiguousWriteError and never repeats the request itself. Creates
//     go through createReconciled (reconcile.go): it lists the candidates by
//     the object's natural key (auth config: toolkit + name + created at or
//     after the request was sent; connected account: user_id +
//     auth_config_id + created at or after; later resources by their own
//     keys), retrying that read until the context deadline (the resource's
//     create timeout) or DefaultReconcileWindow so that a restarting service
//     can come back; it adopts a single match, creates again when there is
//     none, and fails naming the candidates when there are several. Objects
//     this client created itself are never adopted twice.
//
// Common to all kinds:
//   - A response header `x-should-retry: false` disables retrying; `true`
//     forces it (the server vouches that nothing was applied).
//   - A server-requested delay longer than maxServerDelay, or any delay that
//     would pass the context deadline, ends the retries immediately.
//   - Status 500 and other 4xx are never retried (the service answered).
//   - Retries use exponential backoff with jitter between RetryWaitMin and
//     RetryWaitMax (or the delay the server asks for), up to MaxRetries.
//   - A 429 (the rate limiter answered before any handler ran, so nothing
//     was applied and any kind may be sent again) does not count against
//     MaxRetries: the pacer (pacing.go) holds every request of the client
//     until Retry-After, or for a shared backoff, and the request is retried
//     until it passes, for up to MaxThrottleWait from its first 429 (or its
//     context deadline, or a Retry-After beyond maxServerDelay). MaxRetries
//     0 (retries disabled) returns the 429.
//
// Everything is logged at DEBUG (waiting for the rate limit at INFO, see
// pacing.go): each attempt and response, each retry with
// its reason, an ambiguous create, each reconciliation and its outcome
// (adopted, none found so created again, several candidates), and a retried
// delete treated as done.

// opKind classifies an operation for the write policy above.
type opKind int

const (
	opRead opKind = iota
	opIdempotent
	opDelete
	opCreate
)

func (k opKind) String() string {
	switch k {
	case opRead:
		return "read"
	case opIdempotent:
		return "idempotent write"
	case opDelete:
		return "delete"
	default:
		return "create"
	}
}

// kindOf is the default kind of a method (see doKind for exceptions).
func kindOf(method string) opKind {
	switch method {
	case http.MethodGet, http.MethodHead:
		return opRead
	case http.MethodDelete:
		return opDelete
	case http.MethodPatch, http.MethodPut:
		return opIdempotent
	default:
		return opCreate
	}
}

// maxServerDelay caps how long a Retry-After is honoured.
const maxServerDelay = 60 * time.Second

// maxResponseBody bounds how much of a response body is read.
const maxResponseBody = 32 << 20

type response struct {
	status int
	header http.Header
	body   []byte
	sent   bool // request headers were written to the connection
	// pace is what the pacer made of the answer (a 429 starting a wait).
	pace pacerOutcome
}

// do performs one logical API call of the method's default kind: JSON-encodes
// in (if non-nil), retries per the policy above, decodes a 2xx body into out
// (if non-nil) and turns any other status into *APIError.
func (c *Client) do(ctx context.Context, method, path string, query url.Values, in, out any) error {
	return c.doKind(ctx, kindOf(method), method, path, query, in, out)
}

// doKind is do with the operation's kind stated explicitly.
func (c *Client) doKind(ctx context.Context, kind opKind, method, path string, query url.Values, in, out any) error {
	var payload []byte
	if in != nil {
		var err error
		payload, err = json.Marshal(in)
		if err != nil {
			return fmt.Errorf("%s %s: encoding request: %w", method, APIPrefix+path, err)
		}
	}
	u := c.base + path
	if len(query) > 0 {
		u += "?" + query.Encode()
	}
	errPath := APIPrefix + path
	credName, credValue, err := c.credentialHeader(method, path)
	if err != nil {
		return err
	}
	ctx = c.logContext(ctx)
	sentBefore := false // an earlier attempt reached the service
	first := time.Now()
	retries := 0                 // retries counted against MaxRetries (429s are not)
	var throttledSince time.Time // first 429 of this call
	for attempt := 0; ; attempt++ {
		start := time.Now()
		c.logRequest(ctx, method, u, credName, credValue, payload, attempt)
		res, err := c.attempt(ctx, method, u, credName, credValue, payload)
		if err == nil {
			c.logResponse(ctx, method, u, res, time.Since(start))
			if res.status >= 200 && res.status < 300 {
				if st, ok := out.(statusRecorder); ok {
					st.recordStatus(res.status)
				}
				return decodeBody(method, errPath, res.body, out)
			}
			if kind == opDelete && sentBefore && alreadyGone(res) {
				c.logPolicy(ctx, "service API delete treated as done", method, u, map[string]any{
					"http_status": res.status, "reason": "an earlier attempt was sent and the object is now gone",
				})
				return nil
			}
		}
		var final error
		if err != nil {
			if ctxErr := ctx.Err(); ctxErr != nil {
				return fmt.Errorf("%s %s: %w", method, errPath, ctxErr)
			}
			final = fmt.Errorf("%s %s: %w", method, errPath, cleanTransportError(err))
		} else {
			final = newAPIError(method, errPath, res.status, res.header, res.body, c.redact)
		}
		retry, reason := shouldRetry(kind, res, err)
		ambiguous := kind == opCreate && isAmbiguous(res, err)
		if ambiguous {
			final = &AmbiguousWriteError{Method: method, Path: errPath, SentAt: first, Err: final}
			c.logPolicy(ctx, "service API create failed ambiguously; it is not repeated blindly", method, u, map[string]any{
				"attempt": attempt + 1, "error": final.Error(),
			})
		}
		if res != nil && res.sent {
			sentBefore = true
		}
		if !retry || c.cfg.MaxRetries == 0 {
			return final
		}
		var hdr http.Header
		if res != nil {
			hdr = res.header
		}
		if err == nil && res.status == http.StatusTooManyRequests {
			// Throttled: the pacer holds this request with every other one
			// (pacing.go); it is retried until it passes, for up to
			// MaxThrottleWait, whatever MaxRetries says.
			if res.pace.newBlock {
				c.logThrottled(ctx, res.pace)
			}
			if throttledSince.IsZero() {
				throttledSince = time.Now()
			}
			wait := c.pacer.blockedFor()
			if d, ok := retryAfter(hdr, time.Now()); ok && d > maxServerDelay {
				return final
			}
			if time.Since(throttledSince)+wait > c.cfg.MaxThrottleWait {
				return final
			}
			if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
				return final
			}
			c.logRetry(ctx, method, u, attempt, wait, reason)
			continue
		}
		if retries >= c.cfg.MaxRetries {
			return final
		}
		wait, serverAsked := c.backoff(retries, hdr)
		retries++
		if serverAsked && wait > maxServerDelay {
			return final
		}
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
			return final
		}
		c.logRetry(ctx, method, u, attempt, wait, reason)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("%s %s: %w (last error: %w)", method, errPath, ctx.Err(), final)
		case <-t.C:
		}
	}
}

func (c *Client) attempt(ctx context.Context, method, u, credName, credValue string, payload []byte) (*response, error) {
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-c.sem }()
	ticket, err := c.pacer.acquire(ctx, func(w pacerWait) { c.logPacing(ctx, w) })
	if err != nil {
		return nil, err
	}
	if ticket.waited >= minReportedWait && c.cfg.OnRateLimitWait != nil {
		c.cfg.OnRateLimitWait(ctx, RateLimitWait{Waited: ticket.waited, Cause: ticket.why.cause()})
	}

	actx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	var wrote atomic.Bool
	actx = httptrace.WithClientTrace(actx, &httptrace.ClientTrace{
		WroteHeaders: func() { wrote.Store(true) },
	})
	var body io.Reader
	if payload != nil {
		body = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(actx, method, u, body)
	if err != nil {
		c.pacer.done(ticket, nil)
		return nil, err
	}
	req.Header = c.headers.Clone()
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if credName != "" {
		req.Header.Set(credName, credValue)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		res := &response{sent: wrote.Load()}
		c.pacer.done(ticket, res)
		return res, err
	}
	defer resp.Body.Close()
	res := &response{status: resp.StatusCode, header: resp.Header, sent: true}
	res.pace = c.pacer.done(ticket, res)
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBody))
	if err != nil {
		return &response{sent: true}, err
	}
	res.body = data
	return res, nil
}

// shouldRetry implements the policy documented at the top of this file.
func shouldRetry(kind opKind, res *response, err error) (bool, string) {
	repeatable := kind != opCreate
	if err != nil {
		if res == nil || !res.sent {
			return true, "connection failed before the request was sent"
		}
		if repeatable {
			return true, "connection failed: " + cleanTransportError(err).Error()
		}
		return false, ""
	}
	switch strings.ToLower(res.header.Get("X-Should-Retry")) {
	case "true":
		return true, "server asked for a retry"
	case "false":
		return false, ""
	}
	switch res.status {
	case http.StatusTooManyRequests:
		return true, "rate limited (429)"
	case http.StatusServiceUnavailable:
		if repeatable || res.header.Get("Retry-After") != "" || res.header.Get("Retry-After-Ms") != "" {
			return true, "service unavailable (503)"
		}
	case http.StatusBadGateway, http.StatusGatewayTimeout:
		if repeatable {
			return true, "gateway error (" + strconv.Itoa(res.status) + ")"
		}
	}
	return false, ""
}

// isAmbiguous reports a failure after which the service may or may not have
// applied a create: the request was sent and no answer tells.
func isAmbiguous(res *response, err error) bool {
	if err != nil {
		return res != nil && res.sent
	}
	if strings.EqualFold(res.header.Get("X-Should-Retry"), "true") {
		return false
	}
	switch res.status {
	case http.StatusBadGateway, http.StatusGatewayTimeout:
		return true
	case http.StatusServiceUnavailable:
		return res.header.Get("Retry-After") == "" && res.header.Get("Retry-After-Ms") == ""
	}
	return false
}

// alreadyGone reports a delete answer meaning the object no longer exists:
// 404, 410, or 409 whose message says it is already deleted.
func alreadyGone(res *response) bool {
	switch res.status {
	case http.StatusNotFound, http.StatusGone:
		return true
	case http.StatusConflict:
		msg := strings.ToLower(string(res.body))
		return strings.Contains(msg, "already deleted") || strings.Contains(msg, "already been deleted")
	}
	return false
}

// backoff returns the delay before retry number attempt+1 and whether the
// server chose it.
func (c *Client) backoff(attempt int, h http.Header) (time.Duration, bool) {
	if d, ok := retryAfter(h, time.Now()); ok {
		return d, true
	}
	// Jitter: uniformly in [d/2, d].
	return jitter(expBackoff(c.cfg.RetryWaitMin, c.cfg.RetryWaitMax, attempt)), false
}

// retryAfter reads retry-after-ms (float milliseconds) or Retry-After
// (delta seconds or HTTP date).
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if h == nil {
		return 0, false
	}
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s < 0 {
			return 0, false
		}
		return time.Duration(s * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		d := t.Sub(now)
		if d < 0 {
			d = 0
		}
		return d, true
	}
	return 0, false
}

// statusRecorder is an answer type that keeps the success status (e.g. 200
// "existing returned" against 201 "created").
type statusRecorder interface{ recordStatus(status int) }

func decodeBody(method, path string, body []byte, out any) error {
	if out == nil || len(bytes.TrimSpace(body)) == 0 {
		return nil
	}
	if err := json.Unmarshal(body, out); err != nil {
		return fmt.Errorf("%s %s: decoding response: %w", method, path, err)
	}
	return nil
}

// cleanTransportError strips the *url.Error wrapper (which repeats the full
// URL) so errors stay short; the method and path are added by the caller.
func cleanTransportError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// redact removes the API keys from text that may reach an error or a log,
// except a key that is no secret (documentedKeys).
func (c *Client) redact(s string) string {
	if s == "" {
		return s
	}
	for _, key := range []string{c.cfg.APIKey, c.cfg.OrgAPIKey} {
		if key != "" && !documentedKeys[key] {
			s = strings.ReplaceAll(s, key, "***")
		}
	}
	return s
}

// documentedKeys are the keys the documentation prints: the local
// emulator's default project and organization keys. They protect nothing,
// and the emulator's messages name them as the defaults to use ("default
// emulator-org-key"): masking one because it is also a configured key (the
// two keys swapped, say) would turn that advice into "default ***".
var documentedKeys = map[string]bool{"emulator-key": true, "emulator-org-key": true}

// escape is url.PathEscape for one path segment.
func escape(s string) string { return url.PathEscape(s) }
