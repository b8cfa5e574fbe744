package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// Retry rule
//
// A request is retried (up to Config.MaxRetries times, with exponential
// backoff and jitter between RetryWaitMin and RetryWaitMax, or the delay the
// server asks for in retry-after-ms / Retry-After) only when repeating it
// cannot apply a change twice:
//
//   - Reads (GET, HEAD) are retried on 429, 502, 503, 504, on any connection
//     failure (refused, reset, EOF) and on a per-attempt timeout.
//   - Writes (POST, PATCH, PUT, DELETE) are retried only when the service
//     cannot have applied them:
//     429 Too Many Requests (the rate limiter rejects before any handler
//     runs); 503 Service Unavailable carrying Retry-After/retry-after-ms (the
//     service explicitly refused and asked to come back); and transport
//     failures that happened before the request headers were written
//     (dial/DNS/TLS failures, connection refused), detected with
//     httptrace.WroteHeaders.
//     A write is NOT retried on 502/504, on a bare 503, on a timeout or a
//     connection reset after the request was sent, or on any other status:
//     an upstream gateway may have forwarded it and the service may have
//     applied it. The caller gets the error and Terraform can refresh state.
//   - A response header `x-should-retry: false` disables retrying; `true`
//     forces it (the server vouches that nothing was applied).
//   - A server-requested delay longer than maxServerDelay, or any delay that
//     would pass the context deadline, ends the retries immediately.
//
// Status 500 and other 4xx are never retried.

// maxServerDelay caps how long a Retry-After is honoured.
const maxServerDelay = 60 * time.Second

// maxResponseBody bounds how much of a response body is read.
const maxResponseBody = 32 << 20

type response struct {
	status int
	header http.Header
	body   []byte
	sent   bool // request headers were written to the connection
}

// do performs one logical API call: JSON-encodes in (if non-nil), retries per
// the rule above, decodes a 2xx body into out (if non-nil) and turns any other
// status into *APIError.
func (c *Client) do(ctx context.Context, method, path string, query url.Values, in, out any) error {
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
	ctx = c.logContext(ctx)
	for attempt := 0; ; attempt++ {
		start := time.Now()
		c.logRequest(ctx, method, u, payload, attempt)
		res, err := c.attempt(ctx, method, u, payload)
		if err == nil {
			c.logResponse(ctx, method, u, res, time.Since(start))
			if res.status >= 200 && res.status < 300 {
				return decodeBody(method, errPath, res.body, out)
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
		retry, reason := shouldRetry(method, res, err)
		if !retry || attempt >= c.cfg.MaxRetries {
			return final
		}
		var hdr http.Header
		if res != nil {
			hdr = res.header
		}
		wait, serverAsked := c.backoff(attempt, hdr)
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

func (c *Client) attempt(ctx context.Context, method, u string, payload []byte) (*response, error) {
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	defer func() { <-c.sem }()

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
		return nil, err
	}
	req.Header = c.headers.Clone()
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.cfg.APIKey != "" {
		req.Header.Set("X-Api-Key", c.cfg.APIKey)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return &response{sent: wrote.Load()}, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBody))
	if err != nil {
		return &response{sent: true}, err
	}
	return &response{status: resp.StatusCode, header: resp.Header, body: data, sent: true}, nil
}

// shouldRetry implements the retry rule documented at the top of this file.
func shouldRetry(method string, res *response, err error) (bool, string) {
	read := method == http.MethodGet || method == http.MethodHead
	if err != nil {
		if res == nil || !res.sent {
			return true, "connection failed before the request was sent"
		}
		if read {
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
		if read || res.header.Get("Retry-After") != "" || res.header.Get("Retry-After-Ms") != "" {
			return true, "service unavailable (503)"
		}
	case http.StatusBadGateway, http.StatusGatewayTimeout:
		if read {
			return true, "gateway error (" + strconv.Itoa(res.status) + ")"
		}
	}
	return false, ""
}

// backoff returns the delay before retry number attempt+1 and whether the
// server chose it.
func (c *Client) backoff(attempt int, h http.Header) (time.Duration, bool) {
	if d, ok := retryAfter(h, time.Now()); ok {
		return d, true
	}
	d := c.cfg.RetryWaitMin
	for i := 0; i < attempt && d < c.cfg.RetryWaitMax; i++ {
		d *= 2
	}
	if d > c.cfg.RetryWaitMax {
		d = c.cfg.RetryWaitMax
	}
	// Jitter: uniformly in [d/2, d].
	half := d / 2
	if half > 0 {
		d = half + rand.N(half+1)
	}
	return d, false
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

// redact removes the API key from text that may reach an error or a log.
func (c *Client) redact(s string) string {
	if c.cfg.APIKey == "" || s == "" {
		return s
	}
	return strings.ReplaceAll(s, c.cfg.APIKey, "***")
}

// escape is url.PathEscape for one path segment.
func escape(s string) string { return url.PathEscape(s) }
