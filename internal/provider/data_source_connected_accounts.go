package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/provider/codec"
	"github.com/integration-service/terraform-provider-service/internal/provider/diagnostics"
	"github.com/integration-service/terraform-provider-service/internal/provider/listfilter"
	"github.com/integration-service/terraform-provider-service/internal/provider/validators"
)

var _ datasource.DataSourceWithConfigure = (*connectedAccountsDataSource)(nil)

// connectedAccountStatuses are the statuses the list filter accepts.
var connectedAccountStatuses = []string{
	client.StatusInitializing, client.StatusInitiated, client.StatusActive, client.StatusFailed,
	client.StatusExpired, client.StatusInactive, client.StatusRevoked,
}

// NewConnectedAccountsDataSource returns the service_connected_accounts data source.
func NewConnectedAccountsDataSource() datasource.DataSource {
	return &connectedAccountsDataSource{dataSourceBase{typeNamed("connected_accounts")}}
}

type connectedAccountsDataSource struct{ dataSourceBase }

// connectedAccountFilters are the filters of this data source, which the
// service_connected_account list resource shares.
type connectedAccountFilters struct {
	UserIDs       types.List `tfsdk:"user_ids"`
	ToolkitSlugs  types.List `tfsdk:"toolkit_slugs"`
	AuthConfigIDs types.List `tfsdk:"auth_config_ids"`
	Statuses      types.List `tfsdk:"statuses"`
}

// connectedAccountFilterNames names the attributes of connectedAccountFilters.
var connectedAccountFilterNames = []string{"user_ids", "toolkit_slugs", "auth_config_ids", "statuses"}

// filteredToolkits: toolkit_slugs names toolkits (toolkitFilter).
func (f connectedAccountFilters) filteredToolkits() []filterValue {
	return listFilterValues("toolkit_slugs", f.ToolkitSlugs)
}

// params are the client's list params for the filters.
func (f connectedAccountFilters) params(ctx context.Context, diags *diag.Diagnostics) client.ConnectedAccountListParams {
	return client.ConnectedAccountListParams{
		UserIDs:       listfilter.Values(ctx, f.UserIDs, diags),
		ToolkitSlugs:  listfilter.Values(ctx, f.ToolkitSlugs, diags),
		AuthConfigIDs: listfilter.Values(ctx, f.AuthConfigIDs, diags),
		Statuses:      listfilter.Values(ctx, f.Statuses, diags),
	}
}

type connectedAccountsModel struct {
	connectedAccountFilters
	Accounts []connectedAccountsItemModel `tfsdk:"accounts"`
}

type connectedAccountsItemModel struct {
	ID           types.String `tfsdk:"id"`
	UserID       types.String `tfsdk:"user_id"`
	Alias        types.String `tfsdk:"alias"`
	Status       types.String `tfsdk:"status"`
	StatusReason types.String `tfsdk:"status_reason"`
	IsDisabled   types.Bool   `tfsdk:"is_disabled"`
	Toolkit      types.String `tfsdk:"toolkit"`
	AuthConfigID types.String `tfsdk:"auth_config_id"`
	AuthScheme   types.String `tfsdk:"auth_scheme"`
	CreatedAt    types.String `tfsdk:"created_at"`
	UpdatedAt    types.String `tfsdk:"updated_at"`
}

func (d *connectedAccountsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	filter := func(desc string, elem ...validator.String) schema.ListAttribute {
		// Each element validator refuses "" itself (one error per bad value).
		return listfilter.StringList(desc+" Omit to not filter on it; several filters combine (all must match).", elem...)
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists connected accounts, optionally filtered by users, toolkits, auth configs and " +
			"statuses. All pages are read. Credentials are never exposed.",
		Attributes: map[string]schema.Attribute{
			"user_ids":        filter("Only accounts of these users (your application's user ids).", validators.UserID()),
			"toolkit_slugs":   filter("Only accounts of these toolkits (slugs such as `github`).", validators.ToolkitSlug()),
			"auth_config_ids": filter("Only accounts made through these auth configs.", validators.ObjectID("ac_")),
			"statuses": filter("Only accounts in these statuses: `INITIALIZING`, `INITIATED`, `ACTIVE`, `FAILED`, "+
				"`EXPIRED`, `INACTIVE` or `REVOKED`.", stringvalidator.OneOf(connectedAccountStatuses...)),
			"accounts": schema.ListNestedAttribute{
				MarkdownDescription: "The matching accounts, newest first.",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{
					Attributes: map[string]schema.Attribute{
						"id":             schema.StringAttribute{Computed: true, MarkdownDescription: "Identifier of the account."},
						"user_id":        schema.StringAttribute{Computed: true, MarkdownDescription: "User the account belongs to."},
						"alias":          schema.StringAttribute{Computed: true, MarkdownDescription: "The account's alias (unique per user and toolkit), null when it has none."},
						"status":         schema.StringAttribute{Computed: true, MarkdownDescription: "Connection status, e.g. `ACTIVE` or `INITIATED`."},
						"status_reason":  schema.StringAttribute{Computed: true, MarkdownDescription: "Reason for the status, when the service gives one."},
						"is_disabled":    schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether the account is disabled."},
						"toolkit":        schema.StringAttribute{Computed: true, MarkdownDescription: "Slug of the account's toolkit."},
						"auth_config_id": schema.StringAttribute{Computed: true, MarkdownDescription: "Auth config the account was made through."},
						"auth_scheme":    schema.StringAttribute{Computed: true, MarkdownDescription: "Auth scheme of that auth config, e.g. `OAUTH2`."},
						"created_at":     schema.StringAttribute{Computed: true, MarkdownDescription: "Creation time (ISO 8601)."},
						"updated_at":     schema.StringAttribute{Computed: true, MarkdownDescription: "Time of the last change (ISO 8601)."},
					},
				},
			},
		},
	}
}

func (d *connectedAccountsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	if !readReady(ctx, d.data, "service_connected_accounts", &resp.Diagnostics) {
		return
	}
	var m connectedAccountsModel
	resp.Diagnostics.Append(codec.Get(ctx, req.Config, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	p := m.params(ctx, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	accounts, err := d.data.Client.ListConnectedAccounts(ctx, p)
	if err != nil {
		diagnostics.AddAPIError(&resp.Diagnostics, "listing", "service_connected_accounts", "", err)
		return
	}
	m.Accounts = make([]connectedAccountsItemModel, 0, len(accounts))
	for _, a := range accounts {
		scheme := a.AuthConfig.AuthScheme
		if scheme == "" && a.State != nil {
			scheme = a.State.AuthScheme
		}
		m.Accounts = append(m.Accounts, connectedAccountsItemModel{
			ID:           types.StringValue(a.ID),
			UserID:       types.StringValue(a.UserID),
			Alias:        aliasValue(a.Alias),
			Status:       types.StringValue(a.Status),
			StatusReason: codec.StringOrNull(a.StatusReason),
			IsDisabled:   types.BoolValue(a.IsDisabled),
			Toolkit:      types.StringValue(a.Toolkit.Slug),
			AuthConfigID: types.StringValue(a.AuthConfig.ID),
			AuthScheme:   types.StringValue(scheme),
			CreatedAt:    types.StringValue(a.CreatedAt),
			UpdatedAt:    types.StringValue(a.UpdatedAt),
		})
	}
	resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &m)...)
}
