package client

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflogtest"
)

func TestLogsMaskSecrets(t *testing.T) {
	const (
		clientSecret = "cs-TOP-SECRET-4711"
		acctAPIKey   = "acct-api-key-0815"
		password     = "hunter2-pass"
		accessToken  = "at-ACCESS-TOKEN-777"
		customCred   = "custom-credential-value-55"
	)
	h := func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == http.MethodPost && r.URL.Path == "/api/v3.1/auth_configs":
			writeJSON(w, 201, map[string]any{"toolkit": map[string]any{"slug": "linear"}, "auth_config": map[string]any{"id": "ac_1", "auth_scheme": "OAUTH2"}})
		case r.Method == http.MethodPost:
			writeJSON(w, 201, map[string]any{"id": "ca_1", "connectionData": map[string]any{"authScheme": "API_KEY", "val": map[string]any{"status": "ACTIVE", "api_key": acctAPIKey}}, "status": "ACTIVE"})
		default:
			writeJSON(w, 200, map[string]any{"id": "ca_1", "status": "ACTIVE", "state": map[string]any{"authScheme": "OAUTH2", "val": map[string]any{"status": "ACTIVE", "access_token": accessToken, "refresh_token": "rt-1", "weird_field": customCred}}})
		}
	}
	c, _ := newTestClient(t, h)
	var buf bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &buf)
	if _, err := c.CreateAuthConfig(ctx, CreateAuthConfigRequest{ToolkitSlug: "linear", Type: AuthConfigTypeCustom, AuthScheme: "OAUTH2", Credentials: map[string]any{"client_id": "cid-visible", "client_secret": clientSecret, "weird": customCred}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.InitiateConnectedAccount(ctx, InitiateConnectedAccountRequest{AuthConfigID: "ac_1", UserID: "u1", State: &ConnectionState{AuthScheme: "BASIC", Val: map[string]any{"status": "ACTIVE", "username": "bob", "password": password}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetConnectedAccount(ctx, "ca_1"); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.Contains(out, "service API request detail") || !strings.Contains(out, "service API response") {
		t.Fatalf("expected request/response logs, got:\n%s", out)
	}
	for _, secret := range []string{testAPIKey, clientSecret, acctAPIKey, password, accessToken, "rt-1", customCred} {
		if strings.Contains(out, secret) {
			t.Errorf("log output contains secret %q", secret)
		}
	}
	for _, visible := range []string{"cid-visible", "/api/v3.1/auth_configs", "terraform-provider-service/9.9.9", `\"status\":\"ACTIVE\"`} {
		if !strings.Contains(out, visible) {
			t.Errorf("log output lacks %q", visible)
		}
	}
	// Every line is valid JSON with the masked header.
	sawHeader := false
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var entry map[string]any
		if err := json.Unmarshal([]byte(line), &entry); err != nil {
			t.Fatalf("bad log line %q: %v", line, err)
		}
		if h, ok := entry["http_request_headers"].(map[string]any); ok {
			sawHeader = true
			if h["X-Api-Key"] != masked {
				t.Errorf("x-api-key header logged as %v", h["X-Api-Key"])
			}
		}
	}
	if !sawHeader {
		t.Error("no request headers logged at trace level")
	}
}

func TestLogsOnErrorAndRetryMaskKey(t *testing.T) {
	c, _ := newTestClient(t, statusSequence([]int{503}, nil))
	var buf bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &buf)
	if _, err := c.GetAuthConfig(ctx, "ac_1"); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.Contains(out, "will be retried") {
		t.Errorf("no retry log:\n%s", out)
	}
	if strings.Contains(out, testAPIKey) {
		t.Error("API key in logs")
	}
}

func TestMaskBody(t *testing.T) {
	cases := map[string]string{
		``:         ``,
		`not json`: `[non-JSON body, 8 bytes]`,
		`{"a":1}`:  `{"a":1}`,
		`{"token":"t","nested":{"client_secret":"s","ok":"v"},"list":[{"password":"p"}]}`: `{"list":[{"password":"***"}],"nested":{"client_secret":"***","ok":"v"},"token":"***"}`,
		`{"credentials":{"client_id":"c","scopes":["a"],"x":"y","n":{"deep":"z"}}}`:       `{"credentials":{"client_id":"c","n":{"deep":"***"},"scopes":["a"],"x":"***"}}`,
		`{"state":{"authScheme":"API_KEY","val":{"status":"ACTIVE","generic":"g"}}}`:      `{"state":{"authScheme":"API_KEY","val":{"generic":"***","status":"ACTIVE"}}}`,
		`{"access_token":null,"refresh_token":""}`:                                        `{"access_token":null,"refresh_token":"***"}`,
	}
	for in, want := range cases {
		if got := maskBody([]byte(in)); got != want {
			t.Errorf("maskBody(%s) = %s, want %s", in, got, want)
		}
	}
}

// TestThrottlingIsLoggedAtInfo: a 429 that makes the client wait is logged
// at INFO ("throttled by the service, waiting N s"), once for the wait, as is
// pacing to a limit; neither carries a secret.
func TestThrottlingIsLoggedAtInfo(t *testing.T) {
	c, _ := newTestClient(t, statusSequence([]int{429}, map[string]string{"Retry-After": "1"}))
	var buf bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &buf)
	if _, err := c.GetAuthConfig(ctx, "ac_"+testAPIKey); err != nil {
		t.Fatal(err)
	}
	c.logPacing(ctx, pacerWait{wait: 42 * time.Second, limit: 120, window: time.Minute})
	out := buf.String()
	if strings.Contains(out, testAPIKey) {
		t.Errorf("log output contains the API key:\n%s", out)
	}
	want := map[string]int{
		"throttled by the service, waiting 1.0 s":                                  0,
		"pacing requests to the service's rate limit (120 per 1m0s), waiting 42 s": 0,
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var e map[string]any
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("bad log line %q: %v", line, err)
		}
		if m, _ := e["@message"].(string); e["@level"] == "info" {
			if _, ok := want[m]; ok {
				want[m]++
			}
		}
	}
	for m, n := range want {
		if n != 1 {
			t.Errorf("%d INFO logs %q, want 1:\n%s", n, m, out)
		}
	}
}
