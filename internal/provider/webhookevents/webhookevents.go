// Package webhookevents is the service's catalog of webhook event types,
// read once per provider run, and the check of a subscription's events
// against it.
package webhookevents

import (
	"context"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

// Versions are the webhook payload versions, oldest first.
var Versions = []string{"V1", "V2", "V3"}

// DefaultVersion is the payload version of a subscription that sets none.
const DefaultVersion = "V3"

// catalogs holds the event types per client (one client per provider run),
// so plan-time checks read them at most once per run.
var catalogs sync.Map // *client.Client -> *catalogEntry

type catalogEntry struct {
	mu    sync.Mutex
	types []client.WebhookEventType
}

// Catalog returns the service's webhook event types, read once per provider
// run (failures are not remembered).
func Catalog(ctx context.Context, c *client.Client) ([]client.WebhookEventType, error) {
	v, _ := catalogs.LoadOrStore(c, &catalogEntry{})
	e, ok := v.(*catalogEntry) // only entries are stored
	if !ok {
		return c.ListWebhookEventTypes(ctx)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.types != nil {
		return e.types, nil
	}
	types, err := c.ListWebhookEventTypes(ctx)
	if err != nil {
		return nil, err
	}
	if types == nil {
		types = []client.WebhookEventType{}
	}
	e.types = types
	return types, nil
}

// Problems checks events against the catalog for the given version and
// returns one message per unknown event or event the version does not deliver.
func Problems(catalog []client.WebhookEventType, events []string, version string) []string {
	known := make([]string, 0, len(catalog))
	for _, et := range catalog {
		known = append(known, et.EventType)
	}
	sort.Strings(known)
	var out []string
	for _, ev := range events {
		i := slices.IndexFunc(catalog, func(et client.WebhookEventType) bool { return et.EventType == ev })
		switch {
		case i < 0:
			out = append(out, "unknown event type "+quote(ev)+"; the service knows "+strings.Join(known, ", "))
		case version != "" && !slices.Contains(catalog[i].SupportedVersions, version):
			out = append(out, "event type "+quote(ev)+" is not delivered in version "+version+
				" (supported: "+strings.Join(catalog[i].SupportedVersions, ", ")+")")
		}
	}
	return out
}

func quote(s string) string { return `"` + s + `"` }
