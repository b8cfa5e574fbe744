package provider

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

var (
	_ list.ListResource              = (*connectedAccountListResource)(nil)
	_ list.ListResourceWithConfigure = (*connectedAccountListResource)(nil)
)

// NewConnectedAccountListResource returns the service_connected_account list
// resource.
func NewConnectedAccountListResource() list.ListResource {
	return &connectedAccountListResource{}
}

type connectedAccountListResource struct{ listBase }

// connectedAccountListConfig holds the filters: those of the
// service_connected_accounts data source, with the same names and meaning.
type connectedAccountListConfig struct {
	UserIDs       types.List `tfsdk:"user_ids"`
	ToolkitSlugs  types.List `tfsdk:"toolkit_slugs"`
	AuthConfigIDs types.List `tfsdk:"auth_config_ids"`
	Statuses      types.List `tfsdk:"statuses"`
}

// listStringFilter is stringListFilter (list_filters.go) in the list
// resources' schema package: an optional list-of-string filter that, when
// set, has at least one element, no duplicates, and every element passes
// elems. The trigger instance list resource uses it too.
func listStringFilter(desc string, elems ...validator.String) schema.ListAttribute {
	return schema.ListAttribute{
		MarkdownDescription: desc,
		Optional:            true,
		ElementType:         types.StringType,
		Validators: []validator.List{
			listvalidator.SizeAtLeast(1),
			listvalidator.UniqueValues(),
			listvalidator.ValueStringsAre(elems...),
		},
	}
}

func (r *connectedAccountListResource) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = connectedAccountType
}

func (r *connectedAccountListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	filter := func(desc string, elem ...validator.String) schema.ListAttribute {
		return listStringFilter(desc+" Omit to not filter on it; several filters combine (all must match).", elem...)
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the project's connected accounts (newest first), for `terraform query` and " +
			"`-generate-config-out`, with the filters of the `service_connected_accounts` data source. Every filter " +
			"is optional: an empty `config {}` lists every account. Each result is named " +
			"`<toolkit> · <user_id> · <status> (<id>)`.\n\n" +
			"One request per page. The listing holds everything the resource's state does (an account's own GET " +
			"adds only `params`, which the state does not hold), so no field needs a GET and no account is read on " +
			"its own, even with `include_resource`. Credentials are never listed: `credentials` and " +
			"`credentials_wo` are null in the results, as after an import.",
		Attributes: map[string]schema.Attribute{
			"user_ids":        filter("Only accounts of these users (your application's user ids).", userIDValidator()),
			"toolkit_slugs":   filter("Only accounts of these toolkits (slugs such as `github`).", toolkitSlugValidator()),
			"auth_config_ids": filter("Only accounts made through these auth configs.", objectIDValidator("ac_")),
			"statuses": filter("Only accounts in these statuses: `INITIALIZING`, `INITIATED`, `ACTIVE`, `FAILED`, "+
				"`EXPIRED`, `INACTIVE` or `REVOKED`.", stringvalidator.OneOf(connectedAccountStatuses...)),
		},
	}
}

func (r *connectedAccountListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var diags diag.Diagnostics
	if !requireClient(r.data, &diags) {
		stream.Results = listError(diags)
		return
	}
	var cfg connectedAccountListConfig
	if diags.Append(req.Config.Get(ctx, &cfg)...); diags.HasError() {
		stream.Results = listError(diags)
		return
	}
	p := client.ConnectedAccountListParams{
		UserIDs:       stringsFromList(ctx, cfg.UserIDs, &diags),
		ToolkitSlugs:  stringsFromList(ctx, cfg.ToolkitSlugs, &diags),
		AuthConfigIDs: stringsFromList(ctx, cfg.AuthConfigIDs, &diags),
		Statuses:      stringsFromList(ctx, cfg.Statuses, &diags),
	}
	if diags.HasError() {
		stream.Results = listError(diags)
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
			state: func(ctx context.Context, st *tfsdk.State) diag.Diagnostics {
				var m connectedAccountModel
				diags := getModel(ctx, *st, &m)
				if diags.HasError() {
					return diags
				}
				readConnectedAccountInto(&m, &a)
				diags.Append(setModel(ctx, st, &m)...)
				return diags
			},
		}
	})
}
