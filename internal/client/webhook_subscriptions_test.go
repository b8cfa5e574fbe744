package client

import (
	"context"
	"net/http"
	"strings"
	"testing"
)

const subJSON = `{"id":"whs_1","webhook_url":"https://h.example/x","version":"V2","enabled_events":["composio.trigger.message"],` +
	`"secret":"whsec_abc","created_at":"2026-01-01T00:00:00.000Z","updated_at":"2026-01-02T00:00:00.000Z"}`

func checkSub(t *testing.T, got any) {
	t.Helper()
	w := got.(*WebhookSubscription)
	if w.ID != "whs_1" || w.WebhookURL != "https://h.example/x" || w.Version != "V2" || len(w.EnabledEvents) != 1 ||
		w.Secret != "whsec_abc" || w.CreatedAt == "" || w.UpdatedAt == "" {
		t.Errorf("decoded %+v", w)
	}
}

func TestWebhookSubscriptionOps(t *testing.T) {
	url := "https://h.example/y"
	v1 := "V1"
	runOpCases(t, []opCase{
		{
			name: "create",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.CreateWebhookSubscription(ctx, CreateWebhookSubscriptionRequest{
					WebhookURL: "https://h.example/x", EnabledEvents: []string{"composio.trigger.message"}, Version: "V2"})
			},
			status: 201, reply: subJSON, method: "POST", path: "/api/v3.1/webhook_subscriptions",
			body:      `{"webhook_url":"https://h.example/x","enabled_events":["composio.trigger.message"],"version":"V2"}`,
			checkResp: checkSub,
		},
		{
			name: "create default version",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.CreateWebhookSubscription(ctx, CreateWebhookSubscriptionRequest{
					WebhookURL: "https://h.example/x", EnabledEvents: []string{"composio.trigger.message"}})
			},
			status: 201, reply: subJSON, method: "POST", path: "/api/v3.1/webhook_subscriptions",
			body: `{"webhook_url":"https://h.example/x","enabled_events":["composio.trigger.message"]}`,
		},
		{
			name:   "get",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.GetWebhookSubscription(ctx, "whs_1") },
			reply:  subJSON,
			method: "GET", path: "/api/v3.1/webhook_subscriptions/whs_1", checkResp: checkSub,
		},
		{
			name: "update only what is set",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.UpdateWebhookSubscription(ctx, "whs_1", UpdateWebhookSubscriptionRequest{WebhookURL: &url, Version: &v1})
			},
			reply: subJSON, method: "PATCH", path: "/api/v3.1/webhook_subscriptions/whs_1",
			body: `{"webhook_url":"https://h.example/y","version":"V1"}`, checkResp: checkSub,
		},
		{
			name: "update events",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.UpdateWebhookSubscription(ctx, "whs_1", UpdateWebhookSubscriptionRequest{EnabledEvents: []string{"a", "b"}})
			},
			reply: subJSON, method: "PATCH", path: "/api/v3.1/webhook_subscriptions/whs_1", body: `{"enabled_events":["a","b"]}`,
		},
		{
			name: "delete",
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.DeleteWebhookSubscription(ctx, "whs_1")
			},
			reply:  `{"success":true}`,
			method: "DELETE", path: "/api/v3.1/webhook_subscriptions/whs_1",
		},
		{
			name:   "rotate",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.RotateWebhookSecret(ctx, "whs_1") },
			reply:  `{"id":"whs_1","secret":"whsec_new"}`,
			method: "POST", path: "/api/v3.1/webhook_subscriptions/whs_1/rotate_secret",
			checkResp: func(t *testing.T, got any) {
				if got.(string) != "whsec_new" {
					t.Errorf("secret %v", got)
				}
			},
		},
		{
			name:   "event types",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.ListWebhookEventTypes(ctx) },
			reply:  `{"items":[{"event_type":"composio.trigger.message","description":"d","supported_versions":["V1","V2","V3"]}]}`,
			method: "GET", path: "/api/v3.1/webhook_subscriptions/event_types",
			checkResp: func(t *testing.T, got any) {
				ets := got.([]WebhookEventType)
				if len(ets) != 1 || ets[0].EventType != "composio.trigger.message" || len(ets[0].SupportedVersions) != 3 {
					t.Errorf("%+v", ets)
				}
			},
		},
		{
			name:   "list",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.ListWebhookSubscriptions(ctx) },
			reply:  `{"items":[` + subJSON + `],"next_cursor":null,"total_pages":1,"current_page":1,"total_items":1}`,
			method: "GET", path: "/api/v3.1/webhook_subscriptions",
			checkResp: func(t *testing.T, got any) {
				if l := got.([]WebhookSubscription); len(l) != 1 || l[0].Secret != "whsec_abc" {
					t.Errorf("%+v", l)
				}
			},
		},
	})
}

// A create answered 502 may have been applied: the client lists once and
// adopts the subscription matching the request instead of failing.
func TestCreateWebhookSubscriptionReconcilesAmbiguousFailure(t *testing.T) {
	c, rec := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			writeJSON(w, http.StatusBadGateway, map[string]any{"error": map[string]any{"message": "bad gateway"}})
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"items":[` + subJSON + `],"next_cursor":null,"total_pages":1,"current_page":1,"total_items":1}`))
	})
	got, err := c.CreateWebhookSubscription(context.Background(), CreateWebhookSubscriptionRequest{
		WebhookURL: "https://h.example/x", EnabledEvents: []string{"composio.trigger.message"}, Version: "V2"})
	if err != nil || got.ID != "whs_1" {
		t.Fatalf("got %+v, %v", got, err)
	}
	if reqs := rec.all(); len(reqs) != 2 || reqs[0].Method != "POST" || reqs[1].Method != "GET" {
		t.Fatalf("requests %+v", reqs)
	}
	// a different existing subscription is not adopted; the original error stays
	_, err = c.CreateWebhookSubscription(context.Background(), CreateWebhookSubscriptionRequest{
		WebhookURL: "https://other.example/x", EnabledEvents: []string{"composio.trigger.message"}, Version: "V2"})
	if !IsStatus(err, http.StatusBadGateway) {
		t.Fatalf("err %v", err)
	}
}

// A definite refusal (409: the project already has one) is returned as is,
// without a reconciling list.
func TestCreateWebhookSubscriptionConflict(t *testing.T) {
	c, rec := newTestClient(t, replyJSON(409, `{"error":{"message":"this project already has a webhook subscription (whs_1)","code":2101,"status":409}}`))
	_, err := c.CreateWebhookSubscription(context.Background(), CreateWebhookSubscriptionRequest{WebhookURL: "https://x", EnabledEvents: []string{"e"}})
	if !IsConflict(err) || !strings.Contains(err.Error(), "already has") || rec.count() != 1 {
		t.Fatalf("err %v, requests %d", err, rec.count())
	}
}
