package provider

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

var _ list.ListResourceWithConfigure = (*mcpServerListResource)(nil)

// NewMCPServerListResource returns the service_mcp_server list resource.
func NewMCPServerListResource() list.ListResource {
	return &mcpServerListResource{resourceBase{typeNamed("mcp_server")}}
}

type mcpServerListResource struct{ resourceBase }

func (r *mcpServerListResource) ListResourceConfigSchema(ctx context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	listFilterSchema(ctx, &mcpServersDataSource{}, "Lists the project's MCP servers (newest first), for `terraform query` and "+
		"`-generate-config-out`, with the filters of the `service_mcp_servers` data source. Every filter is "+
		"optional: an empty `config {}` lists every server. A toolkit of `toolkits` the service does not have fails the "+
		"query, naming the closest toolkit (one read per toolkit first, as a resource's plan makes).\n\n"+
		"One request per page (a `limit` stops the paging). A list item holds every field the resource's state "+
		"does (the service's own GET only adds `deleted`, which the state does not hold), so no server is read "+
		"on its own. With `include_resource`, as after an import, the toolkit of each auth config the servers "+
		"use is read once (one GET per distinct auth config) to tell the auth configs' toolkits from "+
		"`no_auth_toolkits`.",
		mcpServerFilterNames, resp)
}

func (r *mcpServerListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	p, ok := listParams(ctx, r.data, req, stream, &mcpServerFilters{})
	if !ok {
		return
	}
	cache := r.data.Cache
	stream.Results = streamList(ctx, req, mcpServerType, r.data.Client.MCPServersIter(ctx, p), func(m client.MCPServer) listItem {
		return listItem{
			id:          m.ID,
			displayName: displayName(m.ID, m.Name, strings.Join(m.Toolkits, ", ")),
			state: readVia(func(ctx context.Context, s *mcpServerModel) diag.Diagnostics {
				return s.fillRead(ctx, cache, &m)
			}),
		}
	})
}
