package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/provider/codec"
	"github.com/integration-service/terraform-provider-service/internal/provider/diagnostics"
	"github.com/integration-service/terraform-provider-service/internal/provider/listfilter"
	"github.com/integration-service/terraform-provider-service/internal/provider/validators"
)

var _ datasource.DataSourceWithConfigure = (*mcpServersDataSource)(nil)

// NewMCPServersDataSource returns the service_mcp_servers data source.
func NewMCPServersDataSource() datasource.DataSource {
	return &mcpServersDataSource{dataSourceBase{typeNamed("mcp_servers")}}
}

type mcpServersDataSource struct{ dataSourceBase }

// mcpServerFilters are the filters of this data source, which the
// service_mcp_server list resource shares.
type mcpServerFilters struct {
	Name          types.String `tfsdk:"name"`
	Toolkits      types.List   `tfsdk:"toolkits"`
	AuthConfigIDs types.List   `tfsdk:"auth_config_ids"`
}

// mcpServerFilterNames names the attributes of mcpServerFilters.
var mcpServerFilterNames = []string{"name", "toolkits", "auth_config_ids"}

// filteredToolkits: toolkits names toolkits (toolkitFilter).
func (f mcpServerFilters) filteredToolkits() []filterValue {
	return listFilterValues("toolkits", f.Toolkits)
}

// params are the client's list params for the filters.
func (f mcpServerFilters) params(ctx context.Context, diags *diag.Diagnostics) client.MCPServerListParams {
	return client.MCPServerListParams{
		Name:          f.Name.ValueString(),
		Toolkits:      listfilter.Values(ctx, f.Toolkits, diags),
		AuthConfigIDs: listfilter.Values(ctx, f.AuthConfigIDs, diags),
	}
}

type mcpServersDataModel struct {
	mcpServerFilters
	IDs     types.List `tfsdk:"ids"`
	Servers types.List `tfsdk:"servers"`
}

func (d *mcpServersDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the project's MCP servers, newest first, optionally filtered (every page is read).",
		Attributes: map[string]schema.Attribute{
			"name": schema.StringAttribute{
				MarkdownDescription: "Only servers whose name contains this text (case-insensitive).",
				Optional:            true,
			},
			"toolkits": listfilter.StringList("Only servers serving at least one of these toolkit slugs.", validators.ToolkitSlug()),
			"auth_config_ids": listfilter.StringList("Only servers using at least one of these auth configs (`ac_...`).",
				validators.AuthConfigID()),
			"ids": listfilter.ComputedStringList("Ids of the servers found, in the order of `servers`."),
			"servers": schema.ListNestedAttribute{
				MarkdownDescription: "The servers found.",
				Computed:            true,
				NestedObject:        schema.NestedAttributeObject{Attributes: mcpServerDataAttributes(false)},
			},
		},
	}
}

func (d *mcpServersDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	if !readReady(ctx, d.data, "service_mcp_servers", &resp.Diagnostics) {
		return
	}
	var cfg mcpServersDataModel
	resp.Diagnostics.Append(codec.Get(ctx, req.Config, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	list, err := d.data.Client.ListMCPServers(ctx, cfg.params(ctx, &resp.Diagnostics))
	if err != nil {
		diagnostics.AddAPIError(&resp.Diagnostics, "listing", "service_mcp_servers", "", err)
		return
	}
	ids := make([]string, 0, len(list))
	servers := make([]mcpServerDataModel, 0, len(list))
	for i := range list {
		ids = append(ids, list[i].ID)
		servers = append(servers, mcpServerDataFrom(&list[i]))
	}
	idList, diags := types.ListValueFrom(ctx, types.StringType, ids)
	resp.Diagnostics.Append(diags...)
	serverList, diags := types.ListValueFrom(ctx, types.ObjectType{AttrTypes: mcpServerDataAttrTypes}, servers)
	resp.Diagnostics.Append(diags...)
	cfg.IDs, cfg.Servers = idList, serverList
	resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &cfg)...)
}
