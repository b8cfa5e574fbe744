package webhookevents

import (
	"strings"
	"testing"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

func TestEventProblems(t *testing.T) {
	catalog := []client.WebhookEventType{
		{EventType: "composio.trigger.message", SupportedVersions: []string{"V1", "V2", "V3"}},
		{EventType: "composio.connected_account.expired", SupportedVersions: []string{"V3"}},
	}
	if p := Problems(catalog, []string{"composio.trigger.message", "composio.connected_account.expired"}, "V3"); len(p) != 0 {
		t.Fatalf("valid events reported: %v", p)
	}
	p := Problems(catalog, []string{"composio.nope", "composio.connected_account.expired"}, "V2")
	if len(p) != 2 || !strings.Contains(p[0], `unknown event type "composio.nope"`) ||
		!strings.Contains(p[0], "composio.connected_account.expired, composio.trigger.message") ||
		!strings.Contains(p[1], "not delivered in version V2 (supported: V3)") {
		t.Fatalf("problems: %q", p)
	}
}
