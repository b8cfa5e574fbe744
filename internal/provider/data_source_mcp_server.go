package provider

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/provider/codec"
	"github.com/integration-service/terraform-provider-service/internal/provider/diagnostics"
	"github.com/integration-service/terraform-provider-service/internal/provider/importid"
)

const mcpServerDataSourceType = "service_mcp_server"

var (
	_ datasource.DataSourceWithConfigure        = (*mcpServerDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*mcpServerDataSource)(nil)
)

// NewMCPServerDataSource returns the service_mcp_server data source.
func NewMCPServerDataSource() datasource.DataSource {
	return &mcpServerDataSource{dataSourceBase{typeNamed("mcp_server")}}
}

type mcpServerDataSource struct{ dataSourceBase }

// mcpServerDataModel is one MCP server as the data sources expose it.
type mcpServerDataModel struct {
	ID                    types.String `tfsdk:"id"`
	Name                  types.String `tfsdk:"name"`
	AuthConfigIDs         types.Set    `tfsdk:"auth_config_ids"`
	AllowedTools          types.Set    `tfsdk:"allowed_tools"`
	Toolkits              types.Set    `tfsdk:"toolkits"`
	MCPURL                types.String `tfsdk:"mcp_url"`
	ManagedAuthViaService types.Bool   `tfsdk:"managed_auth_via_service"`
	ServerInstanceCount   types.Int64  `tfsdk:"server_instance_count"`
	CreatedAt             types.String `tfsdk:"created_at"`
	UpdatedAt             types.String `tfsdk:"updated_at"`
}

// mcpServerDataAttrTypes is the object type of mcpServerDataModel (for lists).
var mcpServerDataAttrTypes = map[string]attr.Type{
	"id":                       types.StringType,
	"name":                     types.StringType,
	"auth_config_ids":          types.SetType{ElemType: types.StringType},
	"allowed_tools":            types.SetType{ElemType: types.StringType},
	"toolkits":                 types.SetType{ElemType: types.StringType},
	"mcp_url":                  types.StringType,
	"managed_auth_via_service": types.BoolType,
	"server_instance_count":    types.Int64Type,
	"created_at":               types.StringType,
	"updated_at":               types.StringType,
}

func mcpServerDataFrom(m *client.MCPServer) mcpServerDataModel {
	return mcpServerDataModel{
		ID:                    types.StringValue(m.ID),
		Name:                  types.StringValue(m.Name),
		AuthConfigIDs:         stringSet(m.AuthConfigIDs, false),
		AllowedTools:          stringSet(m.AllowedTools, false),
		Toolkits:              stringSet(m.Toolkits, false),
		MCPURL:                types.StringValue(m.MCPURL),
		ManagedAuthViaService: types.BoolValue(m.ManagedAuthViaComposio),
		ServerInstanceCount:   types.Int64Value(int64(m.ServerInstanceCount)),
		CreatedAt:             types.StringValue(m.CreatedAt),
		UpdatedAt:             types.StringValue(m.UpdatedAt),
	}
}

// mcpServerDataAttributes are the attributes of one MCP server; with lookup,
// id and name are optional inputs (exactly one set).
func mcpServerDataAttributes(lookup bool) map[string]schema.Attribute {
	computedSet := func(desc string) schema.SetAttribute {
		return schema.SetAttribute{MarkdownDescription: desc, Computed: true, ElementType: types.StringType}
	}
	attrs := map[string]schema.Attribute{
		"id":                       schema.StringAttribute{MarkdownDescription: "The MCP server id (a UUID).", Computed: true},
		"name":                     schema.StringAttribute{MarkdownDescription: "Name of the server.", Computed: true},
		"auth_config_ids":          computedSet("Auth configs (`ac_...`) the server uses."),
		"allowed_tools":            computedSet("Tool slugs the server exposes."),
		"toolkits":                 computedSet("Slugs of the toolkits the server serves."),
		"mcp_url":                  schema.StringAttribute{MarkdownDescription: "The server's MCP URL.", Computed: true},
		"managed_auth_via_service": schema.BoolAttribute{MarkdownDescription: "Whether the service manages the users' authentication.", Computed: true},
		"server_instance_count":    schema.Int64Attribute{MarkdownDescription: "Number of per-user instances of the server.", Computed: true},
		"created_at":               schema.StringAttribute{MarkdownDescription: "When the server was created (ISO 8601).", Computed: true},
		"updated_at":               schema.StringAttribute{MarkdownDescription: "When the server was last changed (ISO 8601).", Computed: true},
	}
	if lookup {
		attrs["id"] = schema.StringAttribute{
			MarkdownDescription: "The MCP server id (a UUID). Set either `id` or `name`.",
			Optional:            true,
			Computed:            true,
			Validators: []validator.String{stringvalidator.RegexMatches(importid.UUIDRe,
				"must be an MCP server id, a UUID such as 6f1c2c9e-0000-4000-8000-000000000000")},
		}
		attrs["name"] = schema.StringAttribute{
			MarkdownDescription: "Exact name of the server (names are unique in a project). Set either `id` or `name`.",
			Optional:            true,
			Computed:            true,
			Validators:          mcpServerNameValidators(),
		}
	}
	return attrs
}

func (d *mcpServerDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads one MCP server, by `id` or by `name`.",
		Attributes:          mcpServerDataAttributes(true),
	}
}

func (d *mcpServerDataSource) ConfigValidators(_ context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{datasourcevalidator.ExactlyOneOf(path.MatchRoot("id"), path.MatchRoot("name"))}
}

func (d *mcpServerDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	if !readReady(ctx, d.data, "service_mcp_server", &resp.Diagnostics) {
		return
	}
	var cfg mcpServerDataModel
	resp.Diagnostics.Append(codec.Get(ctx, req.Config, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	var found *client.MCPServer
	if id := cfg.ID.ValueString(); id != "" {
		if found = diagnostics.GetForDataSource(ctx, &resp.Diagnostics, d.data.Client.GetMCPServer, mcpServerDataSourceType, id,
			"MCP server not found", "the project has no MCP server"); found == nil {
			return
		}
	} else {
		name := cfg.Name.ValueString()
		list, err := d.data.Client.ListMCPServers(ctx, client.MCPServerListParams{Name: name})
		if err != nil {
			diagnostics.AddAPIError(&resp.Diagnostics, "listing", "service_mcp_servers", "", err)
			return
		}
		var nearMatches []string
		for i := range list {
			switch {
			case list[i].Name == name:
				found = &list[i]
			case strings.EqualFold(list[i].Name, name):
				nearMatches = append(nearMatches, list[i].Name)
			}
		}
		if found == nil {
			diagnostics.AddNotFoundByName(&resp.Diagnostics, "MCP server not found", "the project has no MCP server", name, nearMatches)
			return
		}
	}
	m := mcpServerDataFrom(found)
	resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &m)...)
}
