package validators

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// TestHTTPURLValidator: proxy_url, mcp_url, app_url and discovery_url take
// absolute http(s) URLs; the message says what is wrong and never repeats a
// password.
func TestHTTPURLValidator(t *testing.T) {
	cases := map[string]string{
		"https://app.example.com/callback":   "",
		"http://localhost:8080/cb?x=1":       "",
		"ftp://files.example.com/x":          "must start with https:// or http:// (not ftp://)",
		"javascript:alert(1)":                "not an absolute URL",
		"app.example.com/callback":           "not an absolute URL",
		"https://":                           "not an absolute URL",
		"https://app.example.com/a b":        "contains white space",
		"not a url":                          "not an absolute URL",
		"https://me:hunter2@app.example.com": "must not contain a user name or password",
		"https://me:hunter2@bad host/":       "the value is not a URL",
	}
	checkStringValidator(t, HTTPURL(), "callback_url", "hunter2", cases)
}

// TestCallbackURLValidator: a connected account's callback_url is https, or
// http to a loopback host, as the service takes it; javascript: and the
// other schemes a browser would run or render are refused at validate,
// naming the attribute.
func TestCallbackURLValidator(t *testing.T) {
	cases := map[string]string{
		"https://app.example.com/callback?x=1":  "",
		"HTTPS://APP.EXAMPLE.COM/cb":            "",
		"http://localhost:8080/cb":              "",
		"http://127.0.0.9/cb":                   "",
		"http://[::1]:3000/cb":                  "",
		"javascript:alert(1)":                   "must start with https:// (or http:// to a loopback host), not javascript:",
		"JavaScript:alert(document.cookie)":     "not javascript:",
		"data:text/html,<script>x</script>":     "not data:",
		"vbscript:msgbox(1)":                    "not vbscript:",
		"ftp://files.example.com/x":             "not ftp:",
		"http://app.example.com/cb":             `plain http to the host "app.example.com"`,
		"http://10.0.0.1/cb":                    "plain http",
		"http://dev.localhost/cb":               "plain http",
		"//app.example.com/cb":                  "not an absolute URL",
		"/cb":                                   "not an absolute URL",
		"https://me:hunter2@app.example.com/cb": "must not contain a user name or password",
		"https://app.example.com/a b":           "contains white space",
	}
	checkStringValidator(t, CallbackURL(), "callback_url", "hunter2", cases)
}

func TestWebhookURLValidator(t *testing.T) {
	cases := map[string]string{
		"https://hooks.example.com/x":  "",
		"http://localhost:8080/hook":   "",
		"http://127.0.0.1/hook":        "",
		"http://[::1]:9000/":           "",
		"http://hooks.example.com/x":   "plain http",
		"ftp://hooks.example.com/x":    "absolute https URL",
		"hooks.example.com/x":          "not an absolute URL",
		"https://":                     "not an absolute URL",
		"https://u:SECRET@example.com": "must not contain a user name or password",
		"https://example.com/h#frag":   "has a fragment",
		"http://127.0.0.1.example.com": "plain http",
	}
	checkStringValidator(t, WebhookURL(), "webhook_url", "SECRET", cases)
}

func TestHTTPSURLValidator(t *testing.T) {
	cases := map[string]string{
		"https://hooks.example.com/x":          "",
		"https://hooks.example.com:8443/x?a=1": "",
		"http://localhost:8080/hook":           "absolute https URL",
		"http://hooks.example.com/x":           "absolute https URL",
		"ftp://hooks.example.com/x":            "absolute https URL",
		"hooks.example.com/x":                  "not an absolute URL",
		"https://u:SECRET@example.com":         "must not contain a user name or password",
		"https://example.com/h#frag":           "has a fragment",
	}
	checkStringValidator(t, HTTPSURL(), "egress_url", "SECRET", cases)
}

// checkStringValidator runs v on each input of cases (input: substring its
// error detail must hold, "" for valid); the detail must name attr and never
// contain secret.
func checkStringValidator(t *testing.T, v validator.String, attr, secret string, cases map[string]string) {
	t.Helper()
	for in, want := range cases {
		var resp validator.StringResponse
		v.ValidateString(context.Background(), validator.StringRequest{Path: path.Root(attr), ConfigValue: types.StringValue(in)}, &resp)
		got := ""
		if resp.Diagnostics.HasError() {
			got = resp.Diagnostics[0].Detail()
			if !strings.HasPrefix(got, "Attribute "+attr+": ") {
				t.Errorf("%q: detail does not name the attribute: %s", in, got)
			}
		}
		if strings.Contains(got, secret) {
			t.Errorf("%q: the secret is in the message: %s", in, got)
		}
		if (want == "") != (got == "") || !strings.Contains(got, want) {
			t.Errorf("%q: got %q, want %q", in, got, want)
		}
	}
}

func TestNormalizeBaseURL(t *testing.T) {
	t.Parallel()
	ok := map[string]string{
		"https://backend.composio.dev":        "https://backend.composio.dev",
		"https://backend.composio.dev/":       "https://backend.composio.dev",
		"https://proxy.example.com/svc/":      "https://proxy.example.com/svc",
		"http://localhost:8080":               "http://localhost:8080",
		"http://[::1]:9000":                   "http://[::1]:9000",
		" https://backend.composio.dev ":      "https://backend.composio.dev",
		"HTTPS://Backend.Composio.Dev/prefix": "https://Backend.Composio.Dev/prefix",
	}
	for in, want := range ok {
		got, err := NormalizeBaseURL(in)
		if err != nil || got != want {
			t.Errorf("NormalizeBaseURL(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	bad := []string{
		"", "backend.composio.dev", "ftp://x.example.com", "https://", "https://u:p@x.example.com",
		"https://x.example.com/?a=b", "https://x.example.com/#frag", "https://x.example.com/api/v3.1",
		"https://x.example.com:99999", "/relative",
	}
	for _, in := range bad {
		if got, err := NormalizeBaseURL(in); err == nil {
			t.Errorf("NormalizeBaseURL(%q) = %q, want an error", in, got)
		}
	}
}

func TestIsLoopbackHost(t *testing.T) {
	t.Parallel()
	for _, h := range []string{"localhost", "LOCALHOST", "api.localhost", "127.0.0.1", "127.8.9.10", "::1", "[::1]"} {
		if !isLoopbackHost(h) {
			t.Errorf("%q should be loopback", h)
		}
	}
	for _, h := range []string{"example.com", "localhost.example.com", "10.0.0.1", "128.0.0.1", "::2", "mylocalhost"} {
		if isLoopbackHost(h) {
			t.Errorf("%q should not be loopback", h)
		}
	}
}
