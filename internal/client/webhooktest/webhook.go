// Package webhooktest is for tests only: it verifies and parses the
// webhooks the emulator delivers as a receiver does (the official SDK's
// verifyWebhook), so tests check the emulator's and the provider's deliveries.
package webhooktest

import (
	"bytes"
	"crypto/hmac"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/webhooksig"
)

// DefaultWebhookTolerance is the default allowed clock skew of a webhook timestamp.
const DefaultWebhookTolerance = 300 * time.Second

// Webhook header names (lookup is the caller's job; http.Header is case-insensitive).
const (
	WebhookIDHeader        = "webhook-id"
	WebhookTimestampHeader = "webhook-timestamp"
	WebhookSignatureHeader = "webhook-signature"
	WebhookVersionHeader   = "x-composio-webhook-version"
)

// Webhook verification errors (use errors.Is).
var (
	// ErrWebhookVerification: missing inputs or no matching v1 signature.
	ErrWebhookVerification = errors.New("webhook signature verification failed")
	// ErrWebhookTimestamp: the timestamp is outside the tolerance.
	ErrWebhookTimestamp = errors.New("webhook timestamp outside tolerance")
	// ErrWebhookPayload: the timestamp is not an integer or the body is not
	// a known V1/V2/V3 payload.
	ErrWebhookPayload = errors.New("invalid webhook payload")
)

// VerifyWebhookParams are the inputs of VerifyWebhook: the raw body and the
// webhook-signature, webhook-id and webhook-timestamp header values.
type VerifyWebhookParams struct {
	Payload   []byte
	Signature string
	ID        string
	Timestamp string
	Secret    string
	// Tolerance: nil = 300s; 0 disables the timestamp check.
	Tolerance *time.Duration
	// Now is the clock (default time.Now).
	Now func() time.Time
}

// TriggerConnectedAccount is the connected account of an incoming event.
type TriggerConnectedAccount struct {
	ID             string
	UUID           string
	AuthConfigID   string
	AuthConfigUUID string
	UserID         string
	Status         string
}

// TriggerMetadata is the metadata of an incoming event.
type TriggerMetadata struct {
	ID               string
	UUID             string
	TriggerSlug      string
	ToolkitSlug      string
	TriggerConfig    map[string]any
	ConnectedAccount TriggerConnectedAccount
}

// IncomingTriggerPayload is a webhook event normalised from any version.
type IncomingTriggerPayload struct {
	ID              string
	UUID            string
	TriggerSlug     string
	ToolkitSlug     string
	UserID          string
	Payload         map[string]any
	OriginalPayload map[string]any
	Metadata        TriggerMetadata
}

// VerifyWebhookResult is a verified, parsed webhook.
type VerifyWebhookResult struct {
	Version    string // V1 | V2 | V3
	Payload    IncomingTriggerPayload
	RawPayload map[string]any
}

// VerifyWebhook checks a webhook's signature and timestamp the way the
// service signs them, then parses the body (V3, then V2, then V1).
//
// Errors never include the secret or the expected signature.
func VerifyWebhook(p VerifyWebhookParams) (*VerifyWebhookResult, error) {
	switch {
	case len(p.Payload) == 0:
		return nil, fmt.Errorf("%w: empty payload", ErrWebhookVerification)
	case strings.TrimSpace(p.Signature) == "":
		return nil, fmt.Errorf("%w: empty %s", ErrWebhookVerification, WebhookSignatureHeader)
	case p.Secret == "":
		return nil, fmt.Errorf("%w: empty secret", ErrWebhookVerification)
	case p.ID == "":
		return nil, fmt.Errorf("%w: empty %s", ErrWebhookVerification, WebhookIDHeader)
	case p.Timestamp == "":
		return nil, fmt.Errorf("%w: empty %s", ErrWebhookVerification, WebhookTimestampHeader)
	}
	ts, err := strconv.ParseInt(strings.TrimSpace(p.Timestamp), 10, 64)
	if err != nil {
		return nil, fmt.Errorf("%w: %s %q is not an integer number of seconds", ErrWebhookPayload, WebhookTimestampHeader, p.Timestamp)
	}
	tol := DefaultWebhookTolerance
	if p.Tolerance != nil {
		tol = *p.Tolerance
	}
	if tol > 0 {
		now := time.Now
		if p.Now != nil {
			now = p.Now
		}
		skew := now().Unix() - ts
		if skew < 0 {
			skew = -skew
		}
		if time.Duration(skew)*time.Second > tol {
			return nil, fmt.Errorf("%w: timestamp %d is %ds away from now (tolerance %s)", ErrWebhookTimestamp, ts, skew, tol)
		}
	}
	want := webhooksig.MAC(p.Secret, p.ID, p.Timestamp, p.Payload)
	matched, sawV1 := false, false
	for _, entry := range strings.Fields(p.Signature) {
		version, value, ok := strings.Cut(entry, ",")
		if !ok || version != "v1" {
			continue
		}
		sawV1 = true
		got, err := base64.StdEncoding.DecodeString(value)
		if err != nil {
			continue
		}
		if hmac.Equal(got, want) {
			matched = true
		}
	}
	if !sawV1 {
		return nil, fmt.Errorf("%w: no v1 signature in %s", ErrWebhookVerification, WebhookSignatureHeader)
	}
	if !matched {
		return nil, fmt.Errorf("%w: no signature matches", ErrWebhookVerification)
	}
	return ParseWebhookPayload(p.Payload)
}

// ParseWebhookPayload parses a webhook body without verifying it. Detection
// order is V3, V2, V1.
func ParseWebhookPayload(body []byte) (*VerifyWebhookResult, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var raw map[string]any
	if err := dec.Decode(&raw); err != nil || raw == nil {
		return nil, fmt.Errorf("%w: body is not a JSON object", ErrWebhookPayload)
	}
	if p, ok := parseV3(raw); ok {
		return &VerifyWebhookResult{Version: "V3", Payload: p, RawPayload: raw}, nil
	}
	if p, ok := parseV2(raw); ok {
		return &VerifyWebhookResult{Version: "V2", Payload: p, RawPayload: raw}, nil
	}
	if p, ok := parseV1(raw); ok {
		return &VerifyWebhookResult{Version: "V1", Payload: p, RawPayload: raw}, nil
	}
	return nil, fmt.Errorf("%w: body does not match any known version (V1, V2 or V3)", ErrWebhookPayload)
}

func str(m map[string]any, k string) (string, bool) {
	s, ok := m[k].(string)
	return s, ok
}

func obj(m map[string]any, k string) (map[string]any, bool) {
	o, ok := m[k].(map[string]any)
	return o, ok
}

func strs(m map[string]any, keys ...string) ([]string, bool) {
	out := make([]string, len(keys))
	for i, k := range keys {
		s, ok := str(m, k)
		if !ok {
			return nil, false
		}
		out[i] = s
	}
	return out, true
}

// sdkToolkitSlug is the toolkit slug the SDK's parser reports for a trigger
// slug: its toolkit prefix in upper case, UNKNOWN when it has none.
func sdkToolkitSlug(slug string) string {
	if tk := client.ToolkitPrefix(slug); tk != "" {
		return strings.ToUpper(tk)
	}
	return "UNKNOWN"
}

func parseV3(raw map[string]any) (IncomingTriggerPayload, bool) {
	head, ok := strs(raw, "id", "timestamp", "type")
	if !ok || !strings.HasPrefix(head[2], "composio.") {
		return IncomingTriggerPayload{}, false
	}
	meta, ok1 := obj(raw, "metadata")
	data, ok2 := obj(raw, "data")
	if !ok1 || !ok2 {
		return IncomingTriggerPayload{}, false
	}
	if m, ok := strs(meta, "log_id", "trigger_slug", "trigger_id", "connected_account_id", "auth_config_id", "user_id"); ok {
		slug, tid, ca, ac, user := m[1], m[2], m[3], m[4], m[5]
		tk := sdkToolkitSlug(slug)
		return IncomingTriggerPayload{
			ID: tid, UUID: tid, TriggerSlug: slug, ToolkitSlug: tk, UserID: user,
			Payload: data, OriginalPayload: data,
			Metadata: TriggerMetadata{
				ID: tid, UUID: tid, TriggerSlug: slug, ToolkitSlug: tk, TriggerConfig: map[string]any{},
				ConnectedAccount: TriggerConnectedAccount{ID: ca, UUID: ca, AuthConfigID: ac, AuthConfigUUID: ac, UserID: user, Status: client.StatusActive},
			},
		}, true
	}
	id, typ := head[0], head[2]
	return IncomingTriggerPayload{
		ID: id, UUID: id, TriggerSlug: typ, ToolkitSlug: "COMPOSIO",
		Payload: data, OriginalPayload: raw,
		Metadata: TriggerMetadata{
			ID: id, UUID: id, TriggerSlug: typ, ToolkitSlug: "COMPOSIO", TriggerConfig: map[string]any{},
			ConnectedAccount: TriggerConnectedAccount{Status: client.StatusActive},
		},
	}, true
}

var v2IDKeys = []string{"connection_id", "connection_nano_id", "trigger_nano_id", "trigger_id", "user_id"}

func parseV2(raw map[string]any) (IncomingTriggerPayload, bool) {
	head, ok := strs(raw, "type", "timestamp", "log_id")
	if !ok {
		return IncomingTriggerPayload{}, false
	}
	data, ok := obj(raw, "data")
	if !ok {
		return IncomingTriggerPayload{}, false
	}
	ids, ok := strs(data, v2IDKeys...)
	if !ok {
		return IncomingTriggerPayload{}, false
	}
	connID, connNano, trigNano, trigID, user := ids[0], ids[1], ids[2], ids[3], ids[4]
	rest := make(map[string]any, len(data))
	for k, v := range data {
		rest[k] = v
	}
	for _, k := range v2IDKeys {
		delete(rest, k)
	}
	slug := strings.ToUpper(head[0])
	tk, _, _ := strings.Cut(slug, "_")
	if tk == "" {
		tk = "UNKNOWN"
	}
	return IncomingTriggerPayload{
		ID: trigNano, UUID: trigID, TriggerSlug: slug, ToolkitSlug: tk, UserID: user,
		Payload: rest, OriginalPayload: rest,
		Metadata: TriggerMetadata{
			ID: trigNano, UUID: trigID, TriggerSlug: slug, ToolkitSlug: tk, TriggerConfig: map[string]any{},
			ConnectedAccount: TriggerConnectedAccount{ID: connNano, UUID: connID, UserID: user, Status: client.StatusActive},
		},
	}, true
}

func parseV1(raw map[string]any) (IncomingTriggerPayload, bool) {
	f, ok := strs(raw, "trigger_name", "connection_id", "trigger_id", "log_id")
	if !ok {
		return IncomingTriggerPayload{}, false
	}
	payload, ok := obj(raw, "payload")
	if !ok {
		return IncomingTriggerPayload{}, false
	}
	name, conn, tid := f[0], f[1], f[2]
	tk := sdkToolkitSlug(name)
	return IncomingTriggerPayload{
		ID: tid, UUID: tid, TriggerSlug: name, ToolkitSlug: tk,
		Payload: payload, OriginalPayload: payload,
		Metadata: TriggerMetadata{
			ID: tid, UUID: tid, TriggerSlug: name, ToolkitSlug: tk, TriggerConfig: map[string]any{},
			ConnectedAccount: TriggerConnectedAccount{ID: conn, UUID: conn, Status: client.StatusActive},
		},
	}, true
}
