package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/provider/codec"
	"github.com/integration-service/terraform-provider-service/internal/provider/diagnostics"
	"github.com/integration-service/terraform-provider-service/internal/provider/listfilter"
	"github.com/integration-service/terraform-provider-service/internal/provider/validators"
)

const webhookEndpointsDataSourceType = "service_webhook_endpoints"

var _ datasource.DataSourceWithConfigure = (*webhookEndpointsDataSource)(nil)

// NewWebhookEndpointsDataSource returns the service_webhook_endpoints data source.
func NewWebhookEndpointsDataSource() datasource.DataSource {
	return &webhookEndpointsDataSource{dataSourceBase{typeNamed("webhook_endpoints")}}
}

type webhookEndpointsDataSource struct{ dataSourceBase }

// webhookEndpointFilters are the filters of this data source, which the
// service_webhook_endpoint list resource shares.
type webhookEndpointFilters struct {
	Toolkit types.String `tfsdk:"toolkit"`
}

// webhookEndpointFilterNames names the attributes of webhookEndpointFilters.
var webhookEndpointFilterNames = []string{"toolkit"}

// filteredToolkits: toolkit names a toolkit (toolkitFilter).
func (f webhookEndpointFilters) filteredToolkits() []filterValue {
	return stringFilterValues("toolkit", f.Toolkit)
}

// params is the toolkit of the client's list ("" for every toolkit).
func (f webhookEndpointFilters) params(context.Context, *diag.Diagnostics) string {
	return f.Toolkit.ValueString()
}

type webhookEndpointsDataModel struct {
	webhookEndpointFilters
	IDs       types.List `tfsdk:"ids"`
	Endpoints types.List `tfsdk:"endpoints"`
}

type webhookEndpointSummaryModel struct {
	ID       types.String `tfsdk:"id"`
	Toolkit  types.String `tfsdk:"toolkit"`
	ClientID types.String `tfsdk:"client_id"`
}

var webhookEndpointSummaryAttrTypes = map[string]attr.Type{
	"id": types.StringType, "toolkit": types.StringType, "client_id": types.StringType,
}

func (d *webhookEndpointsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the project's inbound webhook endpoints (one per toolkit and OAuth app " +
			"`client_id`, see `service_webhook_endpoint`), oldest first, optionally of one toolkit. One request. " +
			"Read one with the `service_webhook_endpoint` resource (import) for its URL and configured fields.",
		Attributes: map[string]schema.Attribute{
			"toolkit": schema.StringAttribute{
				MarkdownDescription: "Only the endpoints of this toolkit slug, e.g. `slack` (matched without regard to case).",
				Optional:            true,
				Validators:          []validator.String{validators.ToolkitSlug()},
			},
			"ids": listfilter.ComputedStringList("Ids of the endpoints found, in the order of `endpoints`."),
			"endpoints": schema.ListNestedAttribute{
				MarkdownDescription: "The endpoints found.",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"id": schema.StringAttribute{
						MarkdownDescription: "The endpoint id, e.g. `we_AbC123`.",
						Computed:            true,
					},
					"toolkit": schema.StringAttribute{
						MarkdownDescription: "Slug of the endpoint's toolkit.",
						Computed:            true,
					},
					"client_id": schema.StringAttribute{
						MarkdownDescription: "Client id of the OAuth app the endpoint serves (null when the service has none).",
						Computed:            true,
					},
				}},
			},
		},
	}
}

func (d *webhookEndpointsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	if !readReady(ctx, d.data, "service_webhook_endpoints", &resp.Diagnostics) {
		return
	}
	var cfg webhookEndpointsDataModel
	resp.Diagnostics.Append(codec.Get(ctx, req.Config, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	list, err := d.data.Client.ListWebhookEndpoints(ctx, cfg.params(ctx, &resp.Diagnostics))
	if err != nil {
		diagnostics.AddAPIError(&resp.Diagnostics, "listing", webhookEndpointsDataSourceType, "", err)
		return
	}
	ids := make([]string, 0, len(list))
	items := make([]webhookEndpointSummaryModel, 0, len(list))
	for _, e := range list {
		ids = append(ids, e.ID)
		items = append(items, webhookEndpointSummaryFrom(e))
	}
	idList, diags := types.ListValueFrom(ctx, types.StringType, ids)
	resp.Diagnostics.Append(diags...)
	itemList, diags := types.ListValueFrom(ctx, types.ObjectType{AttrTypes: webhookEndpointSummaryAttrTypes}, items)
	resp.Diagnostics.Append(diags...)
	cfg.IDs, cfg.Endpoints = idList, itemList
	resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &cfg)...)
}

func webhookEndpointSummaryFrom(e client.WebhookEndpointSummary) webhookEndpointSummaryModel {
	return webhookEndpointSummaryModel{
		ID: types.StringValue(e.ID), Toolkit: types.StringValue(e.ToolkitSlug), ClientID: types.StringPointerValue(e.ClientID),
	}
}
