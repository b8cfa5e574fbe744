package contract

import (
	"context"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

// driveWebhookClient calls the Go client's webhook subscription methods the
// way service_webhook_subscription and service_webhook_event_types do.
func driveWebhookClient(ctx context.Context, c *client.Client, must func(what string, err error)) {
	_, err := c.ListWebhookEventTypes(ctx)
	must("list webhook event types", err)
	w, err := c.CreateWebhookSubscription(ctx, client.CreateWebhookSubscriptionRequest{
		WebhookURL: "https://hooks.example.com/client", EnabledEvents: []string{"composio.trigger.message"}})
	must("create webhook subscription", err)
	_, err = c.ListWebhookSubscriptions(ctx)
	must("list webhook subscriptions", err)
	_, err = c.GetWebhookSubscription(ctx, w.ID)
	must("get webhook subscription", err)
	u, v := "https://hooks.example.com/client2", "V1"
	_, err = c.UpdateWebhookSubscription(ctx, w.ID, client.UpdateWebhookSubscriptionRequest{WebhookURL: &u, Version: &v})
	must("update webhook subscription", err)
	_, err = c.UpdateWebhookSubscription(ctx, w.ID, client.UpdateWebhookSubscriptionRequest{EnabledEvents: []string{"composio.trigger.message"}})
	must("update webhook subscription events", err)
	_, err = c.RotateWebhookSecret(ctx, w.ID)
	must("rotate webhook secret", err)
	must("delete webhook subscription", c.DeleteWebhookSubscription(ctx, w.ID))
}
