package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/provider/codec"
	"github.com/integration-service/terraform-provider-service/internal/provider/diagnostics"
	"github.com/integration-service/terraform-provider-service/internal/provider/validators"
)

var _ datasource.DataSourceWithConfigure = (*authConfigsDataSource)(nil)

// NewAuthConfigsDataSource returns the service_auth_configs data source.
func NewAuthConfigsDataSource() datasource.DataSource {
	return &authConfigsDataSource{dataSourceBase{typeNamed("auth_configs")}}
}

type authConfigsDataSource struct{ dataSourceBase }

// authConfigFilters are the filters of this data source, which the
// service_auth_config list resource shares.
type authConfigFilters struct {
	Toolkit          types.String `tfsdk:"toolkit"`
	IsServiceManaged types.Bool   `tfsdk:"is_service_managed"`
	ShowDisabled     types.Bool   `tfsdk:"show_disabled"`
}

// authConfigFilterNames names the attributes of authConfigFilters.
var authConfigFilterNames = []string{"toolkit", "is_service_managed", "show_disabled"}

// filteredToolkits: toolkit names a toolkit (toolkitFilter).
func (f authConfigFilters) filteredToolkits() []filterValue {
	return stringFilterValues("toolkit", f.Toolkit)
}

// params are the client's list params for the filters.
func (f authConfigFilters) params(context.Context, *diag.Diagnostics) client.AuthConfigListParams {
	p := client.AuthConfigListParams{
		ToolkitSlug:  f.Toolkit.ValueString(),
		ShowDisabled: f.ShowDisabled.ValueBool(),
	}
	if !f.IsServiceManaged.IsNull() {
		v := f.IsServiceManaged.ValueBool()
		p.IsComposioManaged = &v
	}
	return p
}

type authConfigsDataSourceModel struct {
	authConfigFilters
	AuthConfigs types.List `tfsdk:"auth_configs"`
}

func (d *authConfigsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the project's auth configs, optionally filtered, following every page of results " +
			"(one request per page of up to 200 auth configs). Credentials are not exposed.",
		Attributes: map[string]schema.Attribute{
			"toolkit": schema.StringAttribute{
				MarkdownDescription: "Only auth configs of this toolkit slug.",
				Optional:            true,
				Validators:          []validator.String{validators.ToolkitSlug()},
			},
			"is_service_managed": schema.BoolAttribute{
				MarkdownDescription: "Only service-managed (`true`) or only custom (`false`) auth configs. Unset: both.",
				Optional:            true,
			},
			"show_disabled": schema.BoolAttribute{
				MarkdownDescription: "Include disabled auth configs. Defaults to `false` (as the service).",
				Optional:            true,
			},
			"auth_configs": schema.ListNestedAttribute{
				MarkdownDescription: "The matching auth configs, newest first (the service's order).",
				Computed:            true,
				NestedObject:        schema.NestedAttributeObject{Attributes: authConfigDataAttributes(false)},
			},
		},
	}
}

func (d *authConfigsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	if !readReady(ctx, d.data, "service_auth_configs", &resp.Diagnostics) {
		return
	}
	var cfg authConfigsDataSourceModel
	resp.Diagnostics.Append(codec.Get(ctx, req.Config, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	items, err := d.data.Client.ListAuthConfigs(ctx, cfg.params(ctx, &resp.Diagnostics))
	if err != nil {
		diagnostics.AddAPIError(&resp.Diagnostics, "listing", "service_auth_configs", "", err)
		return
	}
	models := make([]authConfigDataModel, 0, len(items))
	for i := range items {
		m, diags := authConfigDataFrom(ctx, &items[i])
		resp.Diagnostics.Append(diags...)
		models = append(models, m)
	}
	list, diags := types.ListValueFrom(ctx, types.ObjectType{AttrTypes: authConfigDataAttrTypes}, models)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	cfg.AuthConfigs = list
	resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &cfg)...)
}
