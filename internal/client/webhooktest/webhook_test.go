package webhooktest

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/integration-service/terraform-provider-service/internal/webhooksig"
)

// Fixed vectors computed independently with:
//
//	printf '%s' "msg_2Kd9.1767323045.$BODY" | openssl dgst -sha256 -hmac 'whsec_test_secret' -binary | base64
const (
	vecSecret    = "whsec_test_secret"
	vecID        = "msg_2Kd9"
	vecTimestamp = "1767323045" // 2026-01-02T03:04:05Z
	vecBody      = `{"id":"msg_1","timestamp":"2026-01-02T03:04:05Z","type":"composio.trigger.message","metadata":{"log_id":"log_1","trigger_slug":"GITHUB_COMMIT_EVENT","trigger_id":"ti_abc","connected_account_id":"ca_xyz","auth_config_id":"ac_123","user_id":"user-1"},"data":{"sha":"deadbeef"}}`
	vecSig       = "v1,00nR4aahQ2WWJ8fhfNVsZs+K8HW8DfXefYq8XCpJJkc="
	vecSigOther  = "v1,KnJlwon+juisqYtVwfn+zmjUnuJ4lhbI/5AkHJixdTI=" // same input, secret "other_secret"
	// printf '%s' 'msg_v1.1767323045.{"a":1}' | openssl dgst -sha256 -hmac 'whsec_test_secret' -binary | base64
	vecSmallSig = "v1,CG6q8ScskAfGg/z3rv7F0YTs3UXgoNqUfcV7gKpN4Js="
)

var vecNow = time.Unix(1767323045, 0)

func vecParams() VerifyWebhookParams {
	return VerifyWebhookParams{
		Payload: []byte(vecBody), Signature: vecSig, ID: vecID, Timestamp: vecTimestamp, Secret: vecSecret,
		Now: func() time.Time { return vecNow },
	}
}

func TestSignMatchesVectors(t *testing.T) {
	if got := webhooksig.Sign(vecSecret, vecID, vecTimestamp, []byte(vecBody)); got != vecSig {
		t.Errorf("webhooksig.Sign = %s, want %s", got, vecSig)
	}
	if got := webhooksig.Sign("other_secret", vecID, vecTimestamp, []byte(vecBody)); got != vecSigOther {
		t.Errorf("webhooksig.Sign(other) = %s", got)
	}
	if got := webhooksig.Sign(vecSecret, "msg_v1", vecTimestamp, []byte(`{"a":1}`)); got != vecSmallSig {
		t.Errorf("webhooksig.Sign(small) = %s", got)
	}
}

func TestVerifyWebhookValid(t *testing.T) {
	res, err := VerifyWebhook(vecParams())
	if err != nil {
		t.Fatal(err)
	}
	if res.Version != "V3" || res.Payload.ID != "ti_abc" || res.RawPayload["id"] != "msg_1" {
		t.Errorf("result %+v", res)
	}
}

func TestVerifyWebhookFailures(t *testing.T) {
	dur := func(d time.Duration) *time.Duration { return &d }
	cases := []struct {
		name string
		mod  func(p *VerifyWebhookParams)
		want error
	}{
		{"tampered body", func(p *VerifyWebhookParams) { p.Payload = []byte(strings.Replace(vecBody, "deadbeef", "deadbeee", 1)) }, ErrWebhookVerification},
		{"wrong secret", func(p *VerifyWebhookParams) { p.Secret = "other_secret" }, ErrWebhookVerification},
		{"signature for another secret", func(p *VerifyWebhookParams) { p.Signature = vecSigOther }, ErrWebhookVerification},
		{"wrong id", func(p *VerifyWebhookParams) { p.ID = "msg_other" }, ErrWebhookVerification},
		{"whsec prefix is not stripped", func(p *VerifyWebhookParams) { p.Secret = strings.TrimPrefix(vecSecret, "whsec_") }, ErrWebhookVerification},
		{"stale timestamp", func(p *VerifyWebhookParams) { p.Now = func() time.Time { return vecNow.Add(301 * time.Second) } }, ErrWebhookTimestamp},
		{"future timestamp", func(p *VerifyWebhookParams) { p.Now = func() time.Time { return vecNow.Add(-301 * time.Second) } }, ErrWebhookTimestamp},
		{"custom tolerance exceeded", func(p *VerifyWebhookParams) {
			p.Tolerance = dur(10 * time.Second)
			p.Now = func() time.Time { return vecNow.Add(11 * time.Second) }
		}, ErrWebhookTimestamp},
		{"non-integer timestamp", func(p *VerifyWebhookParams) { p.Timestamp = "1767323045.5" }, ErrWebhookPayload},
		{"iso timestamp", func(p *VerifyWebhookParams) { p.Timestamp = "2026-01-02T03:04:05Z" }, ErrWebhookPayload},
		{"empty payload", func(p *VerifyWebhookParams) { p.Payload = nil }, ErrWebhookVerification},
		{"empty signature", func(p *VerifyWebhookParams) { p.Signature = " " }, ErrWebhookVerification},
		{"empty secret", func(p *VerifyWebhookParams) { p.Secret = "" }, ErrWebhookVerification},
		{"empty id", func(p *VerifyWebhookParams) { p.ID = "" }, ErrWebhookVerification},
		{"empty timestamp", func(p *VerifyWebhookParams) { p.Timestamp = "" }, ErrWebhookVerification},
		{"only v2 entries", func(p *VerifyWebhookParams) { p.Signature = strings.Replace(vecSig, "v1,", "v2,", 1) }, ErrWebhookVerification},
		{"garbage base64", func(p *VerifyWebhookParams) { p.Signature = "v1,!!!notbase64" }, ErrWebhookVerification},
		{"bare signature without version", func(p *VerifyWebhookParams) { p.Signature = strings.TrimPrefix(vecSig, "v1,") }, ErrWebhookVerification},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := vecParams()
			tc.mod(&p)
			res, err := VerifyWebhook(p)
			if !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v (res %+v)", err, tc.want, res)
			}
			for _, leak := range []string{vecSecret, strings.TrimPrefix(vecSig, "v1,")} {
				if strings.Contains(err.Error(), leak) {
					t.Errorf("error leaks %q: %v", leak, err)
				}
			}
		})
	}
}

func TestVerifyWebhookTolerance(t *testing.T) {
	zero := time.Duration(0)
	p := vecParams()
	p.Tolerance = &zero
	p.Now = func() time.Time { return vecNow.Add(365 * 24 * time.Hour) }
	if _, err := VerifyWebhook(p); err != nil {
		t.Errorf("tolerance 0 should disable the check: %v", err)
	}
	p = vecParams()
	p.Now = func() time.Time { return vecNow.Add(300 * time.Second) }
	if _, err := VerifyWebhook(p); err != nil {
		t.Errorf("exactly 300s should pass: %v", err)
	}
	p.Now = func() time.Time { return vecNow.Add(-300 * time.Second) }
	if _, err := VerifyWebhook(p); err != nil {
		t.Errorf("exactly -300s should pass: %v", err)
	}
	p = vecParams()
	p.Now = nil // real clock: the 2026 vector is stale
	if _, err := VerifyWebhook(p); !errors.Is(err, ErrWebhookTimestamp) && time.Since(vecNow).Abs() > 300*time.Second {
		t.Errorf("real clock: err = %v", err)
	}
}

func TestVerifyWebhookSeveralSignatures(t *testing.T) {
	for _, sig := range []string{
		vecSigOther + " " + vecSig,
		"v2,abc " + vecSig,
		vecSig + " v1,AAAA",
		"  v1,bogus=   " + vecSig + "  ",
	} {
		p := vecParams()
		p.Signature = sig
		if _, err := VerifyWebhook(p); err != nil {
			t.Errorf("signature header %q: %v", sig, err)
		}
	}
	p := vecParams()
	p.Signature = vecSigOther + " v1,AAAA"
	if _, err := VerifyWebhook(p); !errors.Is(err, ErrWebhookVerification) {
		t.Errorf("no matching entry: %v", err)
	}
}

func TestParseWebhookV3Trigger(t *testing.T) {
	res, err := ParseWebhookPayload([]byte(vecBody))
	if err != nil {
		t.Fatal(err)
	}
	p := res.Payload
	if res.Version != "V3" || p.ID != "ti_abc" || p.UUID != "ti_abc" || p.TriggerSlug != "GITHUB_COMMIT_EVENT" || p.ToolkitSlug != "GITHUB" || p.UserID != "user-1" {
		t.Errorf("payload %+v", p)
	}
	if p.Payload["sha"] != "deadbeef" || p.OriginalPayload["sha"] != "deadbeef" {
		t.Errorf("data %+v", p.Payload)
	}
	ca := p.Metadata.ConnectedAccount
	if ca.ID != "ca_xyz" || ca.UUID != "ca_xyz" || ca.AuthConfigID != "ac_123" || ca.UserID != "user-1" || ca.Status != "ACTIVE" {
		t.Errorf("connected account %+v", ca)
	}
	if p.Metadata.ID != "ti_abc" || p.Metadata.TriggerSlug != "GITHUB_COMMIT_EVENT" || p.Metadata.ToolkitSlug != "GITHUB" || p.Metadata.TriggerConfig == nil {
		t.Errorf("metadata %+v", p.Metadata)
	}
}

func TestParseWebhookV3OtherEvent(t *testing.T) {
	res, err := ParseWebhookPayload([]byte(`{"id":"evt_9","timestamp":"2026-01-02T03:04:05Z","type":"composio.connected_account.expired","metadata":{"project_id":"p"},"data":{"id":"ca_1"}}`))
	if err != nil {
		t.Fatal(err)
	}
	p := res.Payload
	if res.Version != "V3" || p.ID != "evt_9" || p.TriggerSlug != "composio.connected_account.expired" || p.ToolkitSlug != "COMPOSIO" || p.UserID != "" || p.Payload["id"] != "ca_1" || p.OriginalPayload["type"] != "composio.connected_account.expired" {
		t.Errorf("payload %+v", p)
	}
}

func TestParseWebhookV2(t *testing.T) {
	res, err := ParseWebhookPayload([]byte(`{"type":"slack_receive_message","timestamp":"2026-01-02T03:04:05Z","log_id":"log_2","data":{"connection_id":"uuid-conn","connection_nano_id":"ca_nano","trigger_nano_id":"ti_nano","trigger_id":"uuid-trig","user_id":"u2","text":"hi","n":3}}`))
	if err != nil {
		t.Fatal(err)
	}
	p := res.Payload
	if res.Version != "V2" || p.ID != "ti_nano" || p.UUID != "uuid-trig" || p.TriggerSlug != "SLACK_RECEIVE_MESSAGE" || p.ToolkitSlug != "SLACK" || p.UserID != "u2" {
		t.Errorf("payload %+v", p)
	}
	if len(p.Payload) != 2 || p.Payload["text"] != "hi" || p.Payload["connection_id"] != nil {
		t.Errorf("payload data %+v (ids must be removed)", p.Payload)
	}
	ca := p.Metadata.ConnectedAccount
	if ca.ID != "ca_nano" || ca.UUID != "uuid-conn" || ca.AuthConfigID != "" || ca.UserID != "u2" || ca.Status != "ACTIVE" {
		t.Errorf("connected account %+v", ca)
	}
	if res.RawPayload["log_id"] != "log_2" {
		t.Errorf("raw %+v", res.RawPayload)
	}
}

func TestParseWebhookV1(t *testing.T) {
	res, err := ParseWebhookPayload([]byte(`{"trigger_name":"GITHUB_STAR_ADDED_EVENT","connection_id":"conn_1","trigger_id":"trig_1","payload":{"stars":5},"log_id":"log_3"}`))
	if err != nil {
		t.Fatal(err)
	}
	p := res.Payload
	if res.Version != "V1" || p.ID != "trig_1" || p.UUID != "trig_1" || p.TriggerSlug != "GITHUB_STAR_ADDED_EVENT" || p.ToolkitSlug != "GITHUB" || p.UserID != "" {
		t.Errorf("payload %+v", p)
	}
	ca := p.Metadata.ConnectedAccount
	if ca.ID != "conn_1" || ca.UUID != "conn_1" || ca.AuthConfigID != "" || ca.Status != "ACTIVE" {
		t.Errorf("connected account %+v", ca)
	}
	if p.Payload["stars"] == nil {
		t.Errorf("payload %+v", p.Payload)
	}
}

func TestParseWebhookDetectionOrderAndErrors(t *testing.T) {
	// Satisfies both V2 and V1 shapes: V2 wins.
	both := `{"type":"x_y","timestamp":"t","log_id":"l","data":{"connection_id":"a","connection_nano_id":"b","trigger_nano_id":"c","trigger_id":"d","user_id":"e"},"trigger_name":"X_Y","connection_id":"a","trigger_id":"d","payload":{}}`
	if res, err := ParseWebhookPayload([]byte(both)); err != nil || res.Version != "V2" {
		t.Errorf("both: %v %v", res, err)
	}
	// V3 type must start with composio.
	notV3 := `{"id":"1","timestamp":"t","type":"other.event","metadata":{},"data":{}}`
	for _, bad := range []string{notV3, `[]`, `null`, `not json`, `{}`, `{"trigger_name":"A","connection_id":"c","trigger_id":"t","log_id":"l"}`} {
		if _, err := ParseWebhookPayload([]byte(bad)); !errors.Is(err, ErrWebhookPayload) {
			t.Errorf("ParseWebhookPayload(%s) err = %v", bad, err)
		}
	}
	// A valid signature over an unknown payload is a payload error.
	body := `{"hello":"world"}`
	_, err := VerifyWebhook(VerifyWebhookParams{Payload: []byte(body), ID: "m", Timestamp: vecTimestamp, Secret: "s",
		Signature: webhooksig.Sign("s", "m", vecTimestamp, []byte(body)), Now: func() time.Time { return vecNow }})
	if !errors.Is(err, ErrWebhookPayload) {
		t.Errorf("unknown payload: %v", err)
	}
}
