package provider

import (
	"context"
	"net/url"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/provider/diagnostics"
)

var _ list.ListResourceWithConfigure = (*customToolkitListResource)(nil)

// NewCustomToolkitListResource returns the service_custom_toolkit list
// resource.
func NewCustomToolkitListResource() list.ListResource {
	return &customToolkitListResource{resourceBase{typeNamed("custom_toolkit")}}
}

type customToolkitListResource struct{ resourceBase }

func (r *customToolkitListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the project's custom toolkits (the toolkit list with `type = custom`), for " +
			"`terraform query` and `-generate-config-out`. No filters: `config {}`.\n\n" +
			"One request per page (a `limit` stops the paging). A list item holds everything the resource's state " +
			"does (name, description, `mcp_url`, the auth scheme's mode), so no toolkit is read on its own; only a " +
			"toolkit whose item lacks `auth_schemes` or the MCP server URL (`meta.mcp_url` or `meta.app_url`, " +
			"optional in the service's contract) would be read with its own GET, for `include_resource`. As " +
			"after an import, the deprecated `app_url` is null in the results (`mcp_url` holds the URL).\n\n" +
			"The service never returns `auth_scheme.headers` or `auth_scheme.discovery_url`: they are null in the " +
			"results, and the block `-generate-config-out` writes has `headers = null` and `discovery_url = null`. " +
			"Replace them with the values the toolkit was registered with before planning: `headers` for mode " +
			"`API_KEY` (a value holds `" + client.CustomAPIKeyPlaceholder + "`, e.g. `{ Authorization = \"Bearer " +
			client.CustomAPIKeyPlaceholder + "\" }`), `discovery_url` for `DCR_OAUTH`; leave the other one null. The " +
			"generated block fails validation until then; the plan then imports the toolkit and adopts them in " +
			"place (no replacement).",
	}
}

func (r *customToolkitListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	if !listReady(ctx, r.data, stream) {
		return
	}
	c := r.data.Client
	toolkits := func(yield func(client.ToolkitSummary, error) bool) {
		for s, err := range c.ToolkitsIter(ctx, client.ToolkitListParams{Type: "custom"}) {
			// A service that ignored the filter would list its catalog:
			// only custom toolkits are results.
			if err == nil && s.Type != "" && s.Type != "custom" {
				continue
			}
			if !yield(s, err) {
				return
			}
		}
	}
	stream.Results = streamList(ctx, req, customToolkitType, toolkits, func(s client.ToolkitSummary) listItem {
		return listItem{
			id:          s.Slug,
			displayName: customToolkitDisplayName(s),
			state: readVia(func(ctx context.Context, m *customToolkitModel) diag.Diagnostics {
				tk, complete := toolkitFromSummary(s)
				if !complete {
					got, err := c.GetToolkit(ctx, s.Slug, "")
					if err != nil {
						var diags diag.Diagnostics
						diagnostics.AddAPIError(&diags, "reading", customToolkitType, s.Slug, err)
						return diags
					}
					tk = got
				}
				return m.fillRead(ctx, tk)
			}),
		}
	})
}

// toolkitFromSummary returns a toolkit list item as the get-toolkit answer
// the resource's Read takes: the fields the state holds (slug, name, type,
// description, the MCP server URL, the auth schemes' modes). complete is
// false when the item lacks the auth schemes or the URL (meta.mcp_url or
// meta.app_url, optional in the list's contract): the toolkit must then be
// read with its own GET.
func toolkitFromSummary(s client.ToolkitSummary) (tk *client.Toolkit, complete bool) {
	tk = &client.Toolkit{
		Slug: s.Slug, Name: s.Name, Type: s.Type, IsLocalToolkit: s.IsLocalToolkit,
		ComposioManagedAuthSchemes: s.ComposioManagedAuthSchemes, Meta: s.Meta,
	}
	for _, mode := range s.AuthSchemes {
		tk.AuthConfigDetails = append(tk.AuthConfigDetails, client.AuthConfigDetail{Mode: mode})
	}
	return tk, len(s.AuthSchemes) > 0 && s.Meta.URL() != ""
}

// customToolkitDisplayName reads "Acme MCP · mcp.acme.dev · API_KEY
// (CUSTOM_ACME)": the name, the MCP server's host and the auth mode, then
// the whole slug (the id, and the toolkit slug auth configs use).
func customToolkitDisplayName(s client.ToolkitSummary) string {
	var parts []string
	if s.Name != "" {
		parts = append(parts, s.Name)
	}
	if u, err := url.Parse(s.Meta.URL()); err == nil && u.Host != "" {
		parts = append(parts, u.Host)
	}
	if len(s.AuthSchemes) > 0 {
		parts = append(parts, strings.ToUpper(s.AuthSchemes[0]))
	}
	if len(parts) == 0 {
		return s.Slug
	}
	return strings.Join(parts, " · ") + " (" + s.Slug + ")"
}
