package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/integration-service/terraform-provider-service/internal/provider/codec"
	"github.com/integration-service/terraform-provider-service/internal/provider/diagnostics"
	"github.com/integration-service/terraform-provider-service/internal/provider/webhookevents"
)

var _ datasource.DataSourceWithConfigure = (*webhookEventTypesDataSource)(nil)

// NewWebhookEventTypesDataSource returns the service_webhook_event_types data source.
func NewWebhookEventTypesDataSource() datasource.DataSource {
	return &webhookEventTypesDataSource{dataSourceBase{typeNamed("webhook_event_types")}}
}

type webhookEventTypesDataSource struct{ dataSourceBase }

type webhookEventTypesModel struct {
	EventTypes []webhookEventTypeModel `tfsdk:"event_types"`
	Names      types.Set               `tfsdk:"names"`
}

type webhookEventTypeModel struct {
	EventType         types.String `tfsdk:"event_type"`
	Description       types.String `tfsdk:"description"`
	SupportedVersions types.Set    `tfsdk:"supported_versions"`
}

func (d *webhookEventTypesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the event types a `service_webhook_subscription` can enable, with the payload " +
			"versions that deliver each (for example `composio.trigger.message` in `V1`, `V2` and `V3`).",
		Attributes: map[string]schema.Attribute{
			"event_types": schema.ListNestedAttribute{
				MarkdownDescription: "The event types, in the order the service returns them.",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{
					Attributes: map[string]schema.Attribute{
						"event_type": schema.StringAttribute{
							MarkdownDescription: "Event type identifier, e.g. `composio.trigger.message`.",
							Computed:            true,
						},
						"description": schema.StringAttribute{
							MarkdownDescription: "What the event reports.",
							Computed:            true,
						},
						"supported_versions": schema.SetAttribute{
							MarkdownDescription: "Payload versions (`V1`, `V2`, `V3`) that deliver this event.",
							Computed:            true,
							ElementType:         types.StringType,
						},
					},
				},
			},
			"names": schema.SetAttribute{
				MarkdownDescription: "All event type identifiers, convenient for `enabled_events`.",
				Computed:            true,
				ElementType:         types.StringType,
			},
		},
	}
}

func (d *webhookEventTypesDataSource) Read(ctx context.Context, _ datasource.ReadRequest, resp *datasource.ReadResponse) {
	if !readReady(ctx, d.data, "service_webhook_event_types", &resp.Diagnostics) {
		return
	}
	ets, err := webhookevents.Catalog(ctx, d.data.Client)
	if err != nil {
		diagnostics.AddAPIError(&resp.Diagnostics, "reading", "service_webhook_event_types", "", err)
		return
	}
	m := webhookEventTypesModel{EventTypes: make([]webhookEventTypeModel, 0, len(ets))}
	names := make([]string, 0, len(ets))
	for _, et := range ets {
		versions, diags := types.SetValueFrom(ctx, types.StringType, et.SupportedVersions)
		resp.Diagnostics.Append(diags...)
		m.EventTypes = append(m.EventTypes, webhookEventTypeModel{
			EventType: types.StringValue(et.EventType), Description: types.StringValue(et.Description), SupportedVersions: versions,
		})
		names = append(names, et.EventType)
	}
	namesSet, diags := types.SetValueFrom(ctx, types.StringType, names)
	resp.Diagnostics.Append(diags...)
	m.Names = namesSet
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &m)...)
}
