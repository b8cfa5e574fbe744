package provider

import (
	"context"

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
	_ list.ListResource              = (*authConfigListResource)(nil)
	_ list.ListResourceWithConfigure = (*authConfigListResource)(nil)
)

// NewAuthConfigListResource returns the service_auth_config list resource.
func NewAuthConfigListResource() list.ListResource { return &authConfigListResource{} }

type authConfigListResource struct{ listBase }

// authConfigListConfig holds the filters: those of the service_auth_configs
// data source, with the same names and meaning.
type authConfigListConfig struct {
	Toolkit          types.String `tfsdk:"toolkit"`
	IsServiceManaged types.Bool   `tfsdk:"is_service_managed"`
	ShowDisabled     types.Bool   `tfsdk:"show_disabled"`
}

func (r *authConfigListResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = authConfigResourceType
}

func (r *authConfigListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the project's auth configs (newest first), for `terraform query` and " +
			"`-generate-config-out`. Every filter is optional: an empty `config {}` lists every enabled auth config. " +
			"One request per page; the listing holds everything the resource's state does.",
		Attributes: map[string]schema.Attribute{
			"toolkit": schema.StringAttribute{
				MarkdownDescription: "Only auth configs of this toolkit slug.",
				Optional:            true,
				Validators:          []validator.String{toolkitSlugValidator()},
			},
			"is_service_managed": schema.BoolAttribute{
				MarkdownDescription: "Only service-managed (`true`) or only custom (`false`) auth configs. Unset: both.",
				Optional:            true,
			},
			"show_disabled": schema.BoolAttribute{
				MarkdownDescription: "Include disabled auth configs. Defaults to `false` (as the service).",
				Optional:            true,
			},
		},
	}
}

func (r *authConfigListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var diags diag.Diagnostics
	if !requireClient(r.data, &diags) {
		stream.Results = listError(diags)
		return
	}
	var cfg authConfigListConfig
	if diags.Append(req.Config.Get(ctx, &cfg)...); diags.HasError() {
		stream.Results = listError(diags)
		return
	}
	p := client.AuthConfigListParams{ToolkitSlug: cfg.Toolkit.ValueString(), ShowDisabled: cfg.ShowDisabled.ValueBool()}
	if !cfg.IsServiceManaged.IsNull() {
		v := cfg.IsServiceManaged.ValueBool()
		p.IsComposioManaged = &v
	}
	stream.Results = streamList(ctx, req, authConfigResourceType, r.data.Client.AuthConfigsIter(ctx, p), func(ac client.AuthConfig) listItem {
		return listItem{
			id:          ac.ID,
			displayName: displayName(ac.ID, ac.Toolkit.Slug, ac.Name),
			state: func(ctx context.Context, st *tfsdk.State) diag.Diagnostics {
				return authConfigReadInto(ctx, st, &ac)
			},
		}
	})
}

// authConfigReadInto fills st from the service's auth config as the
// resource's Read does (credentials_wo, write-only, stays null).
func authConfigReadInto(ctx context.Context, st *tfsdk.State, ac *client.AuthConfig) diag.Diagnostics {
	var m authConfigResourceModel
	diags := getModel(ctx, *st, &m)
	if diags.HasError() {
		return diags
	}
	diags.Append(applyAuthConfig(ctx, &m, ac)...)
	m.CredentialsWO = types.MapNull(types.StringType)
	diags.Append(setModel(ctx, st, &m)...)
	return diags
}
