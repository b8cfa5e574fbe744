package provider

import (
	"context"
	"net/http"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/provider/codec"
	"github.com/integration-service/terraform-provider-service/internal/provider/diagnostics"
	"github.com/integration-service/terraform-provider-service/internal/provider/listfilter"
)

const sessionConfigsDataSourceType = "service_session_configs"

var _ datasource.DataSourceWithConfigure = (*sessionConfigsDataSource)(nil)

// NewSessionConfigsDataSource returns the service_session_configs data source.
func NewSessionConfigsDataSource() datasource.DataSource {
	return &sessionConfigsDataSource{dataSourceBase{typeNamed("session_configs")}}
}

type sessionConfigsDataSource struct{ dataSourceBase }

type sessionConfigsDataModel struct {
	Search         types.String `tfsdk:"search"`
	Archived       types.Bool   `tfsdk:"archived"`
	IDs            types.List   `tfsdk:"ids"`
	SessionConfigs types.List   `tfsdk:"session_configs"`
}

func (d *sessionConfigsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the project's saved session configs (`sc_...`, written in the service's " +
			"dashboard), newest updated first, every page (the service answers up to 100 a page). Read one's policy " +
			"with `service_session_config`. Session configs are an experimental feature of the service: a project " +
			"without it is refused (403) with what to do.",
		Attributes: map[string]schema.Attribute{
			"search": schema.StringAttribute{
				MarkdownDescription: "Only configs whose name contains this text.",
				Optional:            true,
			},
			"archived": schema.BoolAttribute{
				MarkdownDescription: "`true` lists only the archived configs; otherwise only the active ones.",
				Optional:            true,
			},
			"ids": listfilter.ComputedStringList("Ids of the configs found, in the order of `session_configs`."),
			"session_configs": schema.ListNestedAttribute{
				MarkdownDescription: "The configs found.",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"id":         schema.StringAttribute{MarkdownDescription: "The config id, `sc_...`.", Computed: true},
					"name":       schema.StringAttribute{MarkdownDescription: "Its name.", Computed: true},
					"archived":   schema.BoolAttribute{MarkdownDescription: "Whether it is archived.", Computed: true},
					"created_at": schema.StringAttribute{MarkdownDescription: "When it was created (ISO 8601).", Computed: true},
					"updated_at": schema.StringAttribute{MarkdownDescription: "When it was last changed (ISO 8601).", Computed: true},
				}},
			},
		},
	}
}

func (d *sessionConfigsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	if !readReady(ctx, d.data, sessionConfigsDataSourceType, &resp.Diagnostics) {
		return
	}
	var m sessionConfigsDataModel
	resp.Diagnostics.Append(codec.Get(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	list, err := d.data.Client.ListSessionConfigs(ctx, client.SessionConfigListParams{
		Search: m.Search.ValueString(), Archived: m.Archived.ValueBool(), Limit: 100,
	})
	switch {
	case client.IsStatus(err, http.StatusForbidden):
		resp.Diagnostics.AddError("Session configs not enabled", sessionConfigsForbidden("the project's session configs", err))
		return
	case err != nil:
		diagnostics.AddAPIError(&resp.Diagnostics, "listing", sessionConfigsDataSourceType, "", err)
		return
	}
	ids := make([]attr.Value, 0, len(list))
	items := make([]attr.Value, 0, len(list))
	for _, sc := range list {
		ids = append(ids, types.StringValue(sc.ID))
		items = append(items, types.ObjectValueMust(sessionConfigSummaryAttrTypes, map[string]attr.Value{
			"id": types.StringValue(sc.ID), "name": types.StringValue(sc.Name), "archived": types.BoolValue(sc.Archived),
			"created_at": codec.StringOrNull(sc.CreatedAt), "updated_at": codec.StringOrNull(sc.UpdatedAt),
		}))
	}
	m.IDs = types.ListValueMust(types.StringType, ids)
	m.SessionConfigs = types.ListValueMust(types.ObjectType{AttrTypes: sessionConfigSummaryAttrTypes}, items)
	resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &m)...)
}
