package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

var _ list.ListResourceWithConfigure = (*authConfigListResource)(nil)

// NewAuthConfigListResource returns the service_auth_config list resource.
func NewAuthConfigListResource() list.ListResource {
	return &authConfigListResource{resourceBase{typeNamed("auth_config")}}
}

type authConfigListResource struct{ resourceBase }

func (r *authConfigListResource) ListResourceConfigSchema(ctx context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	listFilterSchema(ctx, &authConfigsDataSource{}, "Lists the project's auth configs (newest first), for `terraform query` and "+
		"`-generate-config-out`. Every filter is optional: an empty `config {}` lists every enabled auth config. "+
		"One request per page of up to 200 auth configs; the listing holds everything the resource's state does. A `toolkit` the service does "+
		"not have fails the query, naming the closest toolkit (one read of the toolkit first, as a resource's plan makes).",
		authConfigFilterNames, resp)
}

func (r *authConfigListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	p, ok := listParams(ctx, r.data, req, stream, &authConfigFilters{})
	if !ok {
		return
	}
	stream.Results = streamList(ctx, req, authConfigResourceType, r.data.Client.AuthConfigsIter(ctx, p), func(ac client.AuthConfig) listItem {
		return listItem{
			id:          ac.ID,
			displayName: displayName(ac.ID, ac.Toolkit.Slug, ac.Name),
			state: readVia(func(ctx context.Context, m *authConfigResourceModel) diag.Diagnostics {
				diags := m.fill(ctx, &ac)
				// credentials_wo, write-only, stays null (as the resource's Read leaves it).
				m.CredentialsWO = types.MapNull(types.StringType)
				return diags
			}),
		}
	})
}
