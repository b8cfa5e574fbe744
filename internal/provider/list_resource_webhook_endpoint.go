package provider

import (
	"context"
	"iter"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/provider/diagnostics"
)

var _ list.ListResourceWithConfigure = (*webhookEndpointListResource)(nil)

// NewWebhookEndpointListResource returns the service_webhook_endpoint list
// resource.
func NewWebhookEndpointListResource() list.ListResource {
	return &webhookEndpointListResource{resourceBase{typeNamed("webhook_endpoint")}}
}

type webhookEndpointListResource struct{ resourceBase }

func (r *webhookEndpointListResource) ListResourceConfigSchema(ctx context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	listFilterSchema(ctx, NewWebhookEndpointsDataSource(),
		"Lists the project's inbound webhook endpoints, oldest first, for `terraform query` and "+
			"`-generate-config-out`; filter `toolkit` as the `service_webhook_endpoints` data source does. One list "+
			"request, plus one read per endpoint with `include_resource`; a `toolkit` the service does not have fails the query, "+
			"naming the closest toolkit (one read of the toolkit first, as a resource's plan makes). The generated blocks have no `data_wo`: "+
			"the setup fields are write-only and never read back, so an imported endpoint keeps its configuration "+
			"until you set `data_wo` and `data_wo_version`.",
		webhookEndpointFilterNames, resp)
}

func (r *webhookEndpointListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var f webhookEndpointFilters
	toolkit, ok := listParams(ctx, r.data, req, stream, &f)
	if !ok {
		return
	}
	c := r.data.Client
	endpoints := func(yield func(client.WebhookEndpointSummary, error) bool) {
		all, err := c.ListWebhookEndpoints(ctx, toolkit)
		if err != nil {
			yield(client.WebhookEndpointSummary{}, err)
			return
		}
		for _, e := range all {
			if !yield(e, nil) {
				return
			}
		}
	}
	stream.Results = streamList(ctx, req, webhookEndpointType, iter.Seq2[client.WebhookEndpointSummary, error](endpoints), func(e client.WebhookEndpointSummary) listItem {
		clientID := ""
		if e.ClientID != nil {
			clientID = *e.ClientID
		}
		return listItem{
			id:          e.ID,
			displayName: displayName(e.ID, e.ToolkitSlug, clientID),
			// include_resource: the resource's Read (one GET: the list has no URL nor fields).
			state: readVia(func(ctx context.Context, m *webhookEndpointModel) diag.Diagnostics {
				we, err := c.GetWebhookEndpoint(ctx, e.ID)
				if err != nil {
					var diags diag.Diagnostics
					diagnostics.AddAPIError(&diags, "reading", webhookEndpointType, e.ID, err)
					return diags
				}
				return m.fill(ctx, we)
			}),
		}
	})
}
