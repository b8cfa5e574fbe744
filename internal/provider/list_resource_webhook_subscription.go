package provider

import (
	"context"
	"iter"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

var _ list.ListResourceWithConfigure = (*webhookSubscriptionListResource)(nil)

// NewWebhookSubscriptionListResource returns the service_webhook_subscription
// list resource.
func NewWebhookSubscriptionListResource() list.ListResource {
	return &webhookSubscriptionListResource{resourceBase{typeNamed("webhook_subscription")}}
}

type webhookSubscriptionListResource struct{ resourceBase }

func (r *webhookSubscriptionListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the project's webhook subscription (the service allows one per project), for " +
			"`terraform query` and `-generate-config-out`. No filters: `config {}`. One request. The generated " +
			"block leaves `secret_rotation` unset: set it to any value to adopt the current secret as the baseline " +
			"(an import never rotates it).",
	}
}

func (r *webhookSubscriptionListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	if !listReady(ctx, r.data, stream) {
		return
	}
	c := r.data.Client
	subs := func(yield func(client.WebhookSubscription, error) bool) {
		ws, err := c.ListWebhookSubscriptions(ctx)
		if err != nil {
			yield(client.WebhookSubscription{}, err)
			return
		}
		for _, w := range ws {
			if !yield(w, nil) {
				return
			}
		}
	}
	stream.Results = streamList(ctx, req, webhookSubscriptionType, iter.Seq2[client.WebhookSubscription, error](subs), func(w client.WebhookSubscription) listItem {
		return listItem{
			id:          w.ID,
			displayName: displayName(w.ID, w.WebhookURL, w.Version),
			state: readVia(func(ctx context.Context, m *webhookSubscriptionModel) diag.Diagnostics {
				return m.fill(ctx, &w)
			}),
		}
	})
}
