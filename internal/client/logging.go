package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// masked replaces secret values in logs.
const masked = "***"

// sensitiveFieldKeys are log field keys whose values tflog masks.
var sensitiveFieldKeys = []string{"x-api-key", "X-Api-Key", "x-org-api-key", "X-Org-Api-Key", "api_key", "authorization", "Authorization"}

// secretKeyParts: a JSON object key containing any of these (case-insensitive)
// has its value masked in logged bodies.
var secretKeyParts = []string{
	"api_key", "apikey", "x-api-key", "secret", "password", "passwd", "token",
	"authorization", "private_key", "credentials_json", "basic_encoded",
	"session_id_token", "cookie", "proxy_auth_key", "code_verifier",
}

// containerKeys: every scalar value below these keys is masked (credential
// maps whose field names are toolkit specific).
var containerKeys = map[string]bool{"credentials": true, "val": true, "custom_auth_params": true, "shared_credentials": true}

// unmaskedInContainers stay readable inside containerKeys (not secrets, useful
// when debugging).
var unmaskedInContainers = map[string]bool{"status": true, "scopes": true, "user_scopes": true, "client_id": true, "redirectUrl": true, "authScheme": true}

// logContext adds the client's field and secret masks to the provider logger
// in ctx. It and every log* helper below return at once unless that logger
// would emit debug logs: terraform-plugin-log copies and masks the fields of a
// call before it checks the level, so building them for a disabled level is
// pure cost on every request.
func (c *Client) logContext(ctx context.Context) context.Context {
	if !tflog.IsDebug(ctx) {
		return ctx
	}
	ctx = tflog.SetField(ctx, "service_client", true)
	ctx = tflog.MaskFieldValuesWithFieldKeys(ctx, sensitiveFieldKeys...)
	for _, key := range []string{c.cfg.APIKey, c.cfg.OrgAPIKey} {
		if key != "" {
			ctx = tflog.MaskAllFieldValuesStrings(ctx, key)
			ctx = tflog.MaskMessageStrings(ctx, key)
		}
	}
	return ctx
}

func (c *Client) logRequest(ctx context.Context, method, u, credName, credValue string, payload []byte, attempt int) {
	if !tflog.IsDebug(ctx) {
		return
	}
	tflog.Debug(ctx, "service API request", map[string]any{
		"http_method": method, "http_url": u, "attempt": attempt + 1,
	})
	if tflog.IsTrace(ctx) {
		h := c.headers.Clone()
		if credName != "" {
			h.Set(credName, credValue)
		}
		tflog.Trace(ctx, "service API request detail", map[string]any{
			"http_method": method, "http_url": u,
			"http_request_headers": maskHeaders(h), "http_request_body": maskBody(payload),
		})
	}
}

func (c *Client) logResponse(ctx context.Context, method, u string, res *response, d time.Duration) {
	if !tflog.IsDebug(ctx) {
		return
	}
	tflog.Debug(ctx, "service API response", map[string]any{
		"http_method": method, "http_url": u, "http_status": res.status,
		"duration_ms": d.Milliseconds(), "request_id": res.header.Get("X-Request-Id"),
	})
	if tflog.IsTrace(ctx) {
		tflog.Trace(ctx, "service API response detail", map[string]any{
			"http_method": method, "http_url": u, "http_status": res.status,
			"http_response_headers": maskHeaders(res.header), "http_response_body": c.redact(maskBody(res.body)),
		})
	}
}

func (c *Client) logRetry(ctx context.Context, method, u string, attempt int, wait time.Duration, reason string) {
	if !tflog.IsDebug(ctx) {
		return
	}
	tflog.Debug(ctx, "service API request will be retried", map[string]any{
		"http_method": method, "http_url": u, "attempt": attempt + 1,
		"retry_in_ms": wait.Milliseconds(), "reason": reason,
	})
}

func maskHeaders(h http.Header) map[string]string {
	out := make(map[string]string, len(h))
	for k, v := range h {
		lk := strings.ToLower(k)
		if isCredentialHeader(k) || lk == "authorization" || lk == "cookie" || lk == "set-cookie" {
			out[k] = masked
			continue
		}
		out[k] = strings.Join(v, ", ")
	}
	return out
}

// maskBody renders a JSON body with secret values replaced; non-JSON bodies
// are summarised, never printed.
func maskBody(b []byte) string {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return ""
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return fmt.Sprintf("[non-JSON body, %d bytes]", len(b))
	}
	out, err := json.Marshal(maskValue(v, false))
	if err != nil {
		return fmt.Sprintf("[unprintable body, %d bytes]", len(b))
	}
	return string(out)
}

func maskValue(v any, inContainer bool) any {
	switch t := v.(type) {
	case map[string]any:
		for k, val := range t {
			switch {
			case isSecretKey(k):
				t[k] = maskScalar(val)
			case containerKeys[k]:
				t[k] = maskValue(val, true)
			case inContainer && unmaskedInContainers[k]:
				t[k] = maskValue(val, false)
			default:
				t[k] = maskValue(val, inContainer)
			}
		}
		return t
	case []any:
		for i := range t {
			t[i] = maskValue(t[i], inContainer)
		}
		return t
	default:
		if inContainer {
			return maskScalar(v)
		}
		return v
	}
}

func maskScalar(v any) any {
	if v == nil {
		return nil
	}
	return masked
}

func isSecretKey(k string) bool {
	lk := strings.ToLower(k)
	for _, p := range secretKeyParts {
		if strings.Contains(lk, p) {
			return true
		}
	}
	return false
}

// logPolicy logs a write-policy decision (ambiguous create, reconciliation,
// delete treated as done) at DEBUG.
func (c *Client) logPolicy(ctx context.Context, msg, method, u string, fields map[string]any) {
	if !tflog.IsDebug(ctx) {
		return
	}
	f := map[string]any{"http_method": method, "http_url": u}
	for k, v := range fields {
		f[k] = v
	}
	tflog.Debug(ctx, msg, f)
}

// logThrottled logs at INFO that a 429 made every request wait, so that a
// slow run says why: "throttled by the service, waiting N s".
func (c *Client) logThrottled(ctx context.Context, o pacerOutcome) {
	reason := "429 with Retry-After"
	if !o.serverAsked {
		reason = "429 without Retry-After: shared backoff, then one request alone"
	}
	tflog.Info(ctx, fmt.Sprintf("throttled by the service, waiting %s s", waitSeconds(o.wait)), map[string]any{
		"service_client": true, "wait_ms": o.wait.Milliseconds(), "reason": reason,
	})
}

// logPacing logs at INFO that the client holds its requests back to stay
// within a rate limit.
func (c *Client) logPacing(ctx context.Context, w pacerWait) {
	tflog.Info(ctx, fmt.Sprintf("pacing requests to the service's rate limit (%d per %s), waiting %s s", w.limit, w.window, waitSeconds(w.wait)), map[string]any{
		"service_client": true, "wait_ms": w.wait.Milliseconds(), "limit": w.limit, "window": w.window.String(),
	})
}

// cause says in words why acquire held a request back.
func (w pacerWait) cause() string {
	switch {
	case w.throttled && w.serverAsked:
		return "the service answered 429 Too Many Requests with Retry-After; every request waited until then"
	case w.throttled && w.wait > 0:
		return "the service answered 429 Too Many Requests without Retry-After; every request waited a shared backoff"
	case w.throttled:
		return "the service answered 429 Too Many Requests; every request waited for one request sent alone to pass"
	case w.limit > 0:
		return fmt.Sprintf("pacing to a rate limit of %d requests per %s (the service's rate-limit headers, or the "+
			"client's own cap per minute)", w.limit, w.window)
	default:
		return "pacing to the service's rate limit"
	}
}

// waitSeconds renders a wait in seconds for a log message: "0.5", "12".
func waitSeconds(d time.Duration) string {
	if d < 10*time.Second {
		return strconv.FormatFloat(d.Seconds(), 'f', 1, 64)
	}
	return strconv.Itoa(int(d.Round(time.Second).Seconds()))
}
