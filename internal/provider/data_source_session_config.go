package provider

import (
	"context"
	"fmt"
	"net/http"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/provider/codec"
	"github.com/integration-service/terraform-provider-service/internal/provider/diagnostics"
	"github.com/integration-service/terraform-provider-service/internal/provider/validators"
)

const sessionConfigDataSourceType = "service_session_config"

var _ datasource.DataSourceWithConfigure = (*sessionConfigDataSource)(nil)

// NewSessionConfigDataSource returns the service_session_config data source.
func NewSessionConfigDataSource() datasource.DataSource {
	return &sessionConfigDataSource{dataSourceBase{typeNamed("session_config")}}
}

type sessionConfigDataSource struct{ dataSourceBase }

type sessionConfigDataModel struct {
	ID               types.String `tfsdk:"id"`
	Name             types.String `tfsdk:"name"`
	Description      types.String `tfsdk:"description"`
	Archived         types.Bool   `tfsdk:"archived"`
	Toolkits         types.Set    `tfsdk:"toolkits"`
	DisabledToolkits types.Set    `tfsdk:"disabled_toolkits"`
	Tools            types.Map    `tfsdk:"tools"`
	Tags             types.Set    `tfsdk:"tags"`
	DisabledTags     types.Set    `tfsdk:"disabled_tags"`
	ConfigJSON       types.String `tfsdk:"config_json"`
	CreatedAt        types.String `tfsdk:"created_at"`
	UpdatedAt        types.String `tfsdk:"updated_at"`
}

func (d *sessionConfigDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	set := func(desc string) schema.SetAttribute {
		return schema.SetAttribute{MarkdownDescription: desc, Computed: true, ElementType: types.StringType}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "A saved session config (`sc_...`): a named access policy (toolkits, tools, tags) " +
			"written in the service's dashboard, which a `service_tool_router_session` follows with " +
			"`session_config_id`. One request. Session configs are an experimental feature of the service: a " +
			"project without it is refused (403) with what to do.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The session config id, `sc_...`.",
				Required:            true,
				Validators:          []validator.String{validators.ObjectID("sc_")},
			},
			"name":        schema.StringAttribute{MarkdownDescription: "The config's name.", Computed: true},
			"description": schema.StringAttribute{MarkdownDescription: "Its description (null when it has none).", Computed: true},
			"archived": schema.BoolAttribute{
				MarkdownDescription: "Whether it is archived: still readable, but it can no longer create sessions.",
				Computed:            true,
			},
			"toolkits":          set("The only toolkits the policy allows (null: no allow list)."),
			"disabled_toolkits": set("The toolkits the policy excludes (null: none)."),
			"tools": schema.MapNestedAttribute{
				MarkdownDescription: "The policy's tool rules per toolkit, as in `service_tool_router_session`.",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"enabled":       set("Only these tools of the toolkit."),
					"disabled":      set("Every tool of the toolkit but these."),
					"tags":          set("Only tools carrying one of these tags."),
					"disabled_tags": set("No tool carrying one of these tags."),
				}},
			},
			"tags":          set("Only tools carrying one of these MCP annotation hints (null: no tag filter)."),
			"disabled_tags": set("No tool carrying one of these hints."),
			"config_json": schema.StringAttribute{
				MarkdownDescription: "The policy as the service sent it (JSON), including members this provider does not read.",
				Computed:            true,
			},
			"created_at": schema.StringAttribute{MarkdownDescription: "When it was created (ISO 8601).", Computed: true},
			"updated_at": schema.StringAttribute{MarkdownDescription: "When it was last changed (ISO 8601).", Computed: true},
		},
	}
}

func (d *sessionConfigDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	if !readReady(ctx, d.data, sessionConfigDataSourceType, &resp.Diagnostics) {
		return
	}
	var m sessionConfigDataModel
	resp.Diagnostics.Append(codec.Get(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	id := m.ID.ValueString()
	sc, err := d.data.Client.GetSessionConfig(ctx, id)
	switch {
	case err == nil:
	case client.IsStatus(err, http.StatusForbidden):
		resp.Diagnostics.AddAttributeError(path.Root("id"), "Session configs not enabled", sessionConfigsForbidden("session config "+id, err))
		return
	case client.IsNotFound(err):
		resp.Diagnostics.AddAttributeError(path.Root("id"), "Session config not found",
			fmt.Sprintf("The project has no session config %q (the service_session_configs data source lists them; "+
				"archived ones with archived = true).", id))
		return
	default:
		diagnostics.AddAPIError(&resp.Diagnostics, "reading", sessionConfigDataSourceType, id, err)
		return
	}
	resp.Diagnostics.Append(m.fill(ctx, sc)...)
	resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &m)...)
}

// fill copies a session config into m.
func (m *sessionConfigDataModel) fill(_ context.Context, sc *client.SavedSessionConfig) diag.Diagnostics {
	var diags diag.Diagnostics
	p, err := sc.Policy()
	if err != nil {
		diags.AddError("Unreadable session config", err.Error())
		return diags
	}
	null := types.SetNull(types.StringType)
	m.ID, m.Name = types.StringValue(sc.ID), types.StringValue(sc.Name)
	m.Description = types.StringPointerValue(sc.Description)
	m.Archived = types.BoolValue(sc.Archived)
	m.CreatedAt, m.UpdatedAt = codec.StringOrNull(sc.CreatedAt), codec.StringOrNull(sc.UpdatedAt)
	m.ConfigJSON = codec.StringOrNull(string(sc.Config))
	m.Toolkits, m.DisabledToolkits, m.Tags, m.DisabledTags = null, null, null, null
	if f := p.Toolkits; f != nil {
		m.Toolkits = filterSet(null, f.Enabled, f.HasEnabled)
		m.DisabledToolkits = filterSet(null, f.Disabled, f.HasDisabled)
	}
	if f := p.Tags; f != nil {
		m.Tags = filterSet(null, f.Enabled, f.HasEnabled)
		m.DisabledTags = filterSet(null, f.Disabled, f.HasDisabled)
	}
	m.Tools = sessionToolsValue(types.MapNull(types.ObjectType{AttrTypes: sessionToolRuleAttrTypes}), p.Tools)
	return diags
}

// sessionConfigSummaryAttrTypes are the attributes of a listed session config.
var sessionConfigSummaryAttrTypes = map[string]attr.Type{
	"id": types.StringType, "name": types.StringType, "archived": types.BoolType, "created_at": types.StringType, "updated_at": types.StringType,
}
