package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/integration-service/terraform-provider-service/internal/emulator"
)

func TestAPIErrorEnvelope(t *testing.T) {
	c, _ := newTestClient(t, replyJSON(404, `{"error":{"message":"Auth config not found","code":201,"status":404,"request_id":"req_123","suggested_fix":"Check the id.","errors":["id: unknown"],"slug":"AuthConfig_NotFound"}}`))
	_, err := c.GetAuthConfig(context.Background(), "ac_x")
	var ae *APIError
	if !errors.As(err, &ae) {
		t.Fatalf("err %T %v is not *APIError", err, err)
	}
	want := APIError{StatusCode: 404, Code: 201, Slug: "AuthConfig_NotFound", Message: "Auth config not found", RequestID: "req_123", SuggestedFix: "Check the id.", Errors: []string{"id: unknown"}, Method: "GET", Path: "/api/v3.1/auth_configs/ac_x"}
	if fmt.Sprint(*ae) != fmt.Sprint(want) {
		t.Errorf("got  %+v\nwant %+v", *ae, want)
	}
	wantMsg := "GET /api/v3.1/auth_configs/ac_x: 404 Not Found: Auth config not found (code 201, AuthConfig_NotFound, request id req_123). Details: id: unknown. Suggested fix: Check the id."
	if ae.Error() != wantMsg {
		t.Errorf("Error() = %q\nwant      %q", ae.Error(), wantMsg)
	}
	if !IsNotFound(err) || IsConflict(err) || !IsStatus(err, 404) {
		t.Error("helpers disagree with status 404")
	}
}

func TestAPIErrorFormatMinimal(t *testing.T) {
	e := &APIError{StatusCode: 404, Code: 201, Message: "Auth config not found", RequestID: "req_123", SuggestedFix: "Use an existing id.", Method: "GET", Path: "/api/v3.1/auth_configs/ac_x"}
	want := "GET /api/v3.1/auth_configs/ac_x: 404 Not Found: Auth config not found (code 201, request id req_123). Suggested fix: Use an existing id."
	if e.Error() != want {
		t.Errorf("Error() = %q, want %q", e.Error(), want)
	}
	if got := (&APIError{StatusCode: 500}).Error(); got != "500 Internal Server Error." {
		t.Errorf("bare error = %q", got)
	}
}

func TestAPIErrorDecoding(t *testing.T) {
	cases := []struct {
		name   string
		status int
		body   string
		header map[string]string
		check  func(t *testing.T, e *APIError)
	}{
		{"string numeric code", 400, `{"error":{"message":"bad","code":"1803","request_id":"r1"}}`, nil, func(t *testing.T, e *APIError) {
			if e.Code != 1803 || e.Message != "bad" || e.RequestID != "r1" {
				t.Errorf("%+v", e)
			}
		}},
		{"string slug code", 400, `{"error":{"message":"bad","code":"VALIDATION_ERROR"}}`, nil, func(t *testing.T, e *APIError) {
			if e.Code != 0 || e.Slug != "VALIDATION_ERROR" {
				t.Errorf("%+v", e)
			}
		}},
		{"float code", 409, `{"error":{"message":"exists","code":1201.0}}`, nil, func(t *testing.T, e *APIError) {
			if e.Code != 1201 || !IsConflict(e) {
				t.Errorf("%+v", e)
			}
		}},
		{"top-level message fallback", 429, `{"message":"Rate limit exceeded. Limit: 10000 requests per 1 minutes","request_id":"top_req"}`, nil, func(t *testing.T, e *APIError) {
			if e.Message != "Rate limit exceeded. Limit: 10000 requests per 1 minutes" || e.RequestID != "top_req" {
				t.Errorf("%+v", e)
			}
		}},
		{"error as string", 400, `{"error":"plain failure"}`, nil, func(t *testing.T, e *APIError) {
			if e.Message != "plain failure" {
				t.Errorf("%+v", e)
			}
		}},
		{"request id header fallback", 500, `{"error":{"message":"boom"}}`, map[string]string{"X-Request-Id": "hdr_req"}, func(t *testing.T, e *APIError) {
			if e.RequestID != "hdr_req" || e.StatusCode != 500 {
				t.Errorf("%+v", e)
			}
		}},
		{"non-JSON body", 502, "<html><body>Bad gateway from nginx</body></html>", map[string]string{"Content-Type": "text/html"}, func(t *testing.T, e *APIError) {
			if !strings.Contains(e.Message, "Bad gateway from nginx") || e.Code != 0 {
				t.Errorf("%+v", e)
			}
			if !strings.HasPrefix(e.Error(), "DELETE /api/v3.1/auth_configs/ac_1: 502 Bad Gateway: <html>") {
				t.Errorf("Error() = %q", e.Error())
			}
		}},
		{"empty body", 403, "", nil, func(t *testing.T, e *APIError) {
			if e.Message != "" || e.Error() != "DELETE /api/v3.1/auth_configs/ac_1: 403 Forbidden." {
				t.Errorf("%q", e.Error())
			}
		}},
		{"long body truncated", 400, strings.Repeat("x", 5000), nil, func(t *testing.T, e *APIError) {
			if len(e.Message) > maxErrorSnippet+4 {
				t.Errorf("message length %d", len(e.Message))
			}
		}},
		{"key echoed by server is redacted", 401, `{"error":{"message":"invalid key ` + testAPIKey + `"}}`, nil, func(t *testing.T, e *APIError) {
			if strings.Contains(e.Error(), testAPIKey) {
				t.Errorf("error leaks the API key: %q", e.Error())
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := func(w http.ResponseWriter, _ *http.Request) {
				for k, v := range tc.header {
					w.Header().Set(k, v)
				}
				w.WriteHeader(tc.status)
				_, _ = w.Write([]byte(tc.body))
			}
			c, _ := newTestClient(t, h, func(cfg *Config) { cfg.MaxRetries = -1 })
			err := c.DeleteAuthConfig(context.Background(), "ac_1")
			var ae *APIError
			if !errors.As(err, &ae) {
				t.Fatalf("err = %v", err)
			}
			tc.check(t, ae)
		})
	}
}

func TestErrorHelpersWrapped(t *testing.T) {
	base := &APIError{StatusCode: 409}
	err := fmt.Errorf("creating: %w", base)
	if !IsConflict(err) || IsNotFound(err) || !IsStatus(err, 409) || IsStatus(err, 400) {
		t.Error("wrapped 409 misclassified")
	}
	if !IsNotFound(&APIError{StatusCode: 410}) {
		t.Error("410 Gone should count as not found")
	}
	if IsNotFound(errors.New("404")) || IsStatus(nil, 404) {
		t.Error("non-API errors must not match")
	}
}

// A configured key that is one of the documented emulator keys is no
// secret: a message naming it (the emulator's "default emulator-org-key"
// when the two keys are swapped) keeps it; any other configured key is
// masked wherever it appears.
func TestRedactKeepsDocumentedKeys(t *testing.T) {
	c, err := New(Config{BaseURL: "http://127.0.0.1:1", APIKey: "emulator-org-key", OrgAPIKey: testAPIKey})
	if err != nil {
		t.Fatal(err)
	}
	got := c.redact("invalid organization API key " + testAPIKey + " (--org-api-key ORG=KEY; default emulator-org-key)")
	if want := "invalid organization API key *** (--org-api-key ORG=KEY; default emulator-org-key)"; got != want {
		t.Errorf("redact = %q, want %q", got, want)
	}
	for key := range documentedKeys {
		if key != emulator.DefaultAPIKey && key != emulator.DefaultOrgAPIKey {
			t.Errorf("documentedKeys holds %q, which is not one of the emulator's default keys (%s, %s)", key, emulator.DefaultAPIKey, emulator.DefaultOrgAPIKey)
		}
	}
	if !documentedKeys[emulator.DefaultAPIKey] || !documentedKeys[emulator.DefaultOrgAPIKey] {
		t.Errorf("documentedKeys %v lacks one of the emulator's default keys", documentedKeys)
	}
}

// IsAmbiguous reports whether err is (or wraps) an *AmbiguousWriteError.
func IsAmbiguous(err error) bool {
	var ae *AmbiguousWriteError
	return errors.As(err, &ae)
}

// Every error form the service's answers were seen in (the emulator's
// error-form fault) decodes into an APIError that names the status and
// the message: a 404 as the envelope, with the code as a string, as a bare
// string, as a top-level message and without request_id or slug; a 429 as a
// top-level message.
func TestAPIErrorFormsOfTheService(t *testing.T) {
	const missing = "ac_000000000000"
	cases := []struct {
		form                string
		faults              string
		status, code        int
		slug, message       string
		fromHeaderRequestID bool
	}{
		{form: "envelope", status: 404, code: emulator.CodeAuthConfigNotFound, slug: "AuthConfig_NotFound", message: "not found"},
		{form: "code-string", status: 404, code: emulator.CodeAuthConfigNotFound, slug: "AuthConfig_NotFound", message: "not found"},
		{form: "bare-string", status: 404, message: "not found", fromHeaderRequestID: true},
		{form: "message", status: 404, message: "not found", fromHeaderRequestID: true},
		{form: "minimal", status: 404, code: emulator.CodeAuthConfigNotFound, message: "not found", fromHeaderRequestID: true},
		{form: "message", faults: "status=429:1,", status: 429, message: "Rate limit exceeded", fromHeaderRequestID: true},
	}
	for _, tc := range cases {
		t.Run(tc.form+"/"+strconv.Itoa(tc.status), func(t *testing.T) {
			srv, err := emulator.New(emulator.Options{Faults: tc.faults + "error-form=" + tc.form})
			if err != nil {
				t.Fatal(err)
			}
			ts := httptest.NewServer(srv.Handler())
			t.Cleanup(func() { ts.Close(); _ = srv.Close() })
			c, err := New(Config{BaseURL: ts.URL, APIKey: emulator.DefaultAPIKey, MaxRetries: -1, MaxThrottleWait: time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.GetAuthConfig(context.Background(), missing)
			var ae *APIError
			if !errors.As(err, &ae) {
				t.Fatalf("error %v (%T), want an *APIError", err, err)
			}
			if ae.StatusCode != tc.status || ae.Code != tc.code || ae.Slug != tc.slug || !strings.Contains(ae.Message, tc.message) {
				t.Errorf("decoded status %d code %d slug %q message %q; want %d, %d, %q and a message containing %q",
					ae.StatusCode, ae.Code, ae.Slug, ae.Message, tc.status, tc.code, tc.slug, tc.message)
			}
			if ae.RequestID == "" {
				t.Errorf("no request id (the body's, else the x-request-id header's: from the header %v)", tc.fromHeaderRequestID)
			}
			if msg := err.Error(); !strings.Contains(msg, strconv.Itoa(tc.status)) || !strings.Contains(msg, tc.message) {
				t.Errorf("Error() %q does not name the status and the message", msg)
			}
		})
	}
}
