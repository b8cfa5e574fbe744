package provider

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

var _ list.ListResourceWithConfigure = (*connectedAccountListResource)(nil)

// NewConnectedAccountListResource returns the service_connected_account list
// resource.
func NewConnectedAccountListResource() list.ListResource {
	return &connectedAccountListResource{resourceBase{typeNamed("connected_account")}}
}

type connectedAccountListResource struct{ resourceBase }

func (r *connectedAccountListResource) ListResourceConfigSchema(ctx context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	listFilterSchema(ctx, &connectedAccountsDataSource{}, "Lists the project's connected accounts (newest first), for `terraform query` and "+
		"`-generate-config-out`, with the filters of the `service_connected_accounts` data source. Every filter "+
		"is optional: an empty `config {}` lists every account. A toolkit of `toolkit_slugs` the service does not have "+
		"fails the query, naming the closest toolkit (one read per toolkit first, as a resource's plan makes). Each result is named "+
		"`<toolkit> · <user_id> · <status> (<id>)`.\n\n"+
		"One request per page. The listing holds everything the resource's state does (an account's own GET "+
		"adds only `params`, which the state does not hold), so no field needs a GET and no account is read on "+
		"its own, even with `include_resource`. Credentials are never listed: `credentials` and "+
		"`credentials_wo` are null in the results, as after an import.",
		connectedAccountFilterNames, resp)
}

func (r *connectedAccountListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	p, ok := listParams(ctx, r.data, req, stream, &connectedAccountFilters{})
	if !ok {
		return
	}
	all := r.data.Client.ConnectedAccountsIter(ctx, p)
	// An account the service reports DELETED is one the resource's Read
	// removes from the state: not something to import, so not listed.
	accounts := func(yield func(client.ConnectedAccount, error) bool) {
		for a, err := range all {
			if err == nil && strings.EqualFold(a.Status, statusDeleted) {
				continue
			}
			if !yield(a, err) {
				return
			}
		}
	}
	stream.Results = streamList(ctx, req, connectedAccountType, accounts, func(a client.ConnectedAccount) listItem {
		return listItem{
			id:          a.ID,
			displayName: displayName(a.ID, a.Toolkit.Slug, a.UserID, a.Status),
			state: readVia(func(ctx context.Context, m *connectedAccountModel) diag.Diagnostics {
				return m.fill(ctx, &a)
			}),
		}
	})
}
