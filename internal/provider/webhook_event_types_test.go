package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

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
	checkStringValidator(t, webhookURLValidator(), "webhook_url", "SECRET", cases)
}

func TestRotates(t *testing.T) {
	s := types.StringValue
	cases := []struct {
		prior, planned types.String
		want           bool
	}{
		{types.StringNull(), types.StringNull(), false},
		{types.StringNull(), s("a"), true},
		{s("a"), s("a"), false},
		{s("a"), s("b"), true},
		{s("a"), types.StringNull(), false},
		{s("a"), types.StringUnknown(), true},
	}
	for _, c := range cases {
		if got := rotates(c.prior, c.planned); got != c.want {
			t.Errorf("rotates(%v, %v) = %v, want %v", c.prior, c.planned, got, c.want)
		}
	}
}
