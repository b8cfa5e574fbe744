package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dsschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

var (
	_ list.ListResource              = (*mcpServerListResource)(nil)
	_ list.ListResourceWithConfigure = (*mcpServerListResource)(nil)
)

// NewMCPServerListResource returns the service_mcp_server list resource.
func NewMCPServerListResource() list.ListResource { return &mcpServerListResource{} }

type mcpServerListResource struct{ listBase }

// mcpServerListConfig holds the filters: those of the service_mcp_servers
// data source, with the same names, meaning and validators (the schema is
// built from the data source's).
type mcpServerListConfig struct {
	Name          types.String `tfsdk:"name"`
	Toolkits      types.List   `tfsdk:"toolkits"`
	AuthConfigIDs types.List   `tfsdk:"auth_config_ids"`
}

// mcpServerListFilters names the service_mcp_servers data source's filters.
var mcpServerListFilters = []string{"name", "toolkits", "auth_config_ids"}

func (r *mcpServerListResource) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = mcpServerType
}

func (r *mcpServerListResource) ListResourceConfigSchema(ctx context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	var ds datasource.SchemaResponse
	(&mcpServersDataSource{}).Schema(ctx, datasource.SchemaRequest{}, &ds)
	attrs, err := listFilterAttributes(ds.Schema, mcpServerListFilters...)
	if err != nil {
		resp.Diagnostics.AddError("Invalid list resource schema", err.Error())
		return
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the project's MCP servers (newest first), for `terraform query` and " +
			"`-generate-config-out`, with the filters of the `service_mcp_servers` data source. Every filter is " +
			"optional: an empty `config {}` lists every server.\n\n" +
			"One request per page (a `limit` stops the paging). A list item holds every field the resource's state " +
			"does (the service's own GET only adds `deleted`, which the state does not hold), so no server is read " +
			"on its own. With `include_resource`, as after an import, the toolkit of each auth config the servers " +
			"use is read once (one GET per distinct auth config) to tell the auth configs' toolkits from " +
			"`no_auth_toolkits`.",
		Attributes: attrs,
	}
}

func (r *mcpServerListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var diags diag.Diagnostics
	if !requireClient(r.data, &diags) {
		stream.Results = listError(diags)
		return
	}
	var cfg mcpServerListConfig
	if diags.Append(req.Config.Get(ctx, &cfg)...); diags.HasError() {
		stream.Results = listError(diags)
		return
	}
	p := client.MCPServerListParams{
		Name:          cfg.Name.ValueString(),
		Toolkits:      stringsFromList(ctx, cfg.Toolkits, &diags),
		AuthConfigIDs: stringsFromList(ctx, cfg.AuthConfigIDs, &diags),
	}
	if diags.HasError() {
		stream.Results = listError(diags)
		return
	}
	cache := r.data.Cache
	stream.Results = streamList(ctx, req, mcpServerType, r.data.Client.MCPServersIter(ctx, p), func(m client.MCPServer) listItem {
		return listItem{
			id:          m.ID,
			displayName: displayName(m.ID, m.Name, strings.Join(m.Toolkits, ", ")),
			state: func(ctx context.Context, st *tfsdk.State) diag.Diagnostics {
				var s mcpServerModel
				diags := getModel(ctx, *st, &s)
				if diags.HasError() {
					return diags
				}
				if diags.Append(readMCPServer(ctx, cache, &s, &m)...); diags.HasError() {
					return diags
				}
				diags.Append(setModel(ctx, st, &s)...)
				return diags
			},
		}
	})
}

// listFilterAttributes returns the named attributes of a data source's
// schema as optional attributes of a list resource's config, with the same
// descriptions and validators, so that the list resource filters as the
// data source does.
func listFilterAttributes(ds dsschema.Schema, names ...string) (map[string]schema.Attribute, error) {
	out := make(map[string]schema.Attribute, len(names))
	for _, name := range names {
		switch a := ds.Attributes[name].(type) {
		case dsschema.StringAttribute:
			out[name] = schema.StringAttribute{MarkdownDescription: a.MarkdownDescription, Optional: true, Validators: a.Validators}
		case dsschema.BoolAttribute:
			out[name] = schema.BoolAttribute{MarkdownDescription: a.MarkdownDescription, Optional: true, Validators: a.Validators}
		case dsschema.ListAttribute:
			out[name] = schema.ListAttribute{MarkdownDescription: a.MarkdownDescription, Optional: true,
				ElementType: a.ElementType, Validators: a.Validators}
		default:
			return nil, fmt.Errorf("filter %q: the data source has no string, bool or list attribute of that name (%T)", name, a)
		}
	}
	return out, nil
}
