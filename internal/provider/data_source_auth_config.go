package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/provider/codec"
	"github.com/integration-service/terraform-provider-service/internal/provider/diagnostics"
	"github.com/integration-service/terraform-provider-service/internal/provider/validators"
)

const authConfigDataSourceType = "service_auth_config"

var (
	_ datasource.DataSourceWithConfigure        = (*authConfigDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*authConfigDataSource)(nil)
)

// NewAuthConfigDataSource returns the service_auth_config data source.
func NewAuthConfigDataSource() datasource.DataSource {
	return &authConfigDataSource{dataSourceBase{typeNamed("auth_config")}}
}

type authConfigDataSource struct{ dataSourceBase }

// authConfigDataModel is one auth config as data sources expose it (the
// singular data source adds nothing; the plural one lists these).
type authConfigDataModel struct {
	ID                     types.String `tfsdk:"id"`
	Toolkit                types.String `tfsdk:"toolkit"`
	Name                   types.String `tfsdk:"name"`
	Type                   types.String `tfsdk:"type"`
	AuthScheme             types.String `tfsdk:"auth_scheme"`
	IsServiceManaged       types.Bool   `tfsdk:"is_service_managed"`
	IsEnabledForToolRouter types.Bool   `tfsdk:"is_enabled_for_tool_router"`
	Status                 types.String `tfsdk:"status"`
	Enabled                types.Bool   `tfsdk:"enabled"`
	Scopes                 types.List   `tfsdk:"scopes"`
	ToolAccessConfig       types.Object `tfsdk:"tool_access_config"`
	NoOfConnections        types.Int64  `tfsdk:"no_of_connections"`
	CreatedAt              types.String `tfsdk:"created_at"`
	UpdatedAt              types.String `tfsdk:"updated_at"`
}

var authConfigDataToolAccessAttrTypes = map[string]attr.Type{
	"tools_for_connected_account_creation": types.ListType{ElemType: types.StringType},
	"tools_available_for_execution":        types.ListType{ElemType: types.StringType},
}

// authConfigDataAttrTypes is the object type of authConfigDataModel (for lists).
var authConfigDataAttrTypes = map[string]attr.Type{
	"id":                         types.StringType,
	"toolkit":                    types.StringType,
	"name":                       types.StringType,
	"type":                       types.StringType,
	"auth_scheme":                types.StringType,
	"is_service_managed":         types.BoolType,
	"is_enabled_for_tool_router": types.BoolType,
	"status":                     types.StringType,
	"enabled":                    types.BoolType,
	"scopes":                     types.ListType{ElemType: types.StringType},
	"tool_access_config":         types.ObjectType{AttrTypes: authConfigDataToolAccessAttrTypes},
	"no_of_connections":          types.Int64Type,
	"created_at":                 types.StringType,
	"updated_at":                 types.StringType,
}

// authConfigDataFrom converts a service auth config.
func authConfigDataFrom(ctx context.Context, ac *client.AuthConfig) (authConfigDataModel, diag.Diagnostics) {
	var diags diag.Diagnostics
	typ := authConfigTypeCustom
	if ac.IsComposioManaged {
		typ = authConfigTypeManaged
	}
	scopes, d := types.ListValueFrom(ctx, types.StringType, codec.NonNil(ac.Scopes))
	diags.Append(d...)
	forCreation, d := types.ListValueFrom(ctx, types.StringType, codec.NonNil(ac.ToolAccessConfig.ToolsForConnectedAccountCreation))
	diags.Append(d...)
	forExecution, d := types.ListValueFrom(ctx, types.StringType, codec.NonNil(ac.ToolAccessConfig.ToolsAvailableForExecution))
	diags.Append(d...)
	tac, d := types.ObjectValue(authConfigDataToolAccessAttrTypes, map[string]attr.Value{
		"tools_for_connected_account_creation": forCreation,
		"tools_available_for_execution":        forExecution,
	})
	diags.Append(d...)
	return authConfigDataModel{
		ID:                     types.StringValue(ac.ID),
		Toolkit:                types.StringValue(ac.Toolkit.Slug),
		Name:                   types.StringValue(ac.Name),
		Type:                   types.StringValue(typ),
		AuthScheme:             types.StringValue(strings.ToUpper(ac.AuthScheme)),
		IsServiceManaged:       types.BoolValue(ac.IsComposioManaged),
		IsEnabledForToolRouter: types.BoolValue(ac.IsEnabledForToolRouter),
		Status:                 types.StringValue(ac.Status),
		Enabled:                types.BoolValue(!strings.EqualFold(ac.Status, client.AuthConfigStatusDisabled)),
		Scopes:                 scopes,
		ToolAccessConfig:       tac,
		NoOfConnections:        types.Int64Value(int64(ac.NoOfConnections)),
		CreatedAt:              types.StringValue(ac.CreatedAt),
		UpdatedAt:              types.StringValue(ac.LastUpdatedAt),
	}, diags
}

// authConfigDataAttributes returns the attributes describing one auth config.
// lookup makes id, toolkit and name optional inputs (singular data source);
// otherwise every attribute is computed (items of the plural data source).
func authConfigDataAttributes(lookup bool) map[string]schema.Attribute {
	attrs := map[string]schema.Attribute{
		"id": schema.StringAttribute{
			MarkdownDescription: "Identifier of the auth config (`ac_...`).",
			Computed:            true,
		},
		"toolkit": schema.StringAttribute{
			MarkdownDescription: "Slug of the toolkit.",
			Computed:            true,
		},
		"name": schema.StringAttribute{
			MarkdownDescription: "Display name.",
			Computed:            true,
		},
		"type": schema.StringAttribute{
			MarkdownDescription: "`use_service_managed_auth` or `use_custom_auth`.",
			Computed:            true,
		},
		"auth_scheme": schema.StringAttribute{
			MarkdownDescription: "Authentication scheme, e.g. `OAUTH2` or `API_KEY`.",
			Computed:            true,
		},
		"is_service_managed": schema.BoolAttribute{
			MarkdownDescription: "Whether the service manages the credentials.",
			Computed:            true,
		},
		"is_enabled_for_tool_router": schema.BoolAttribute{
			MarkdownDescription: "Whether tool-router sessions may use the auth config.",
			Computed:            true,
		},
		"status": schema.StringAttribute{
			MarkdownDescription: "`ENABLED` or `DISABLED`.",
			Computed:            true,
		},
		"enabled": schema.BoolAttribute{
			MarkdownDescription: "Whether the status is `ENABLED`.",
			Computed:            true,
		},
		"scopes": schema.ListAttribute{
			MarkdownDescription: "OAuth scopes configured on the auth config (empty when none).",
			Computed:            true,
			ElementType:         types.StringType,
		},
		"tool_access_config": schema.SingleNestedAttribute{
			MarkdownDescription: "Tool access restrictions.",
			Computed:            true,
			Attributes: map[string]schema.Attribute{
				"tools_for_connected_account_creation": schema.ListAttribute{
					MarkdownDescription: "Tool slugs whose scopes are requested when a connected account is created.",
					Computed:            true,
					ElementType:         types.StringType,
				},
				"tools_available_for_execution": schema.ListAttribute{
					MarkdownDescription: "Tool slugs that may be executed with the auth config (empty: no restriction).",
					Computed:            true,
					ElementType:         types.StringType,
				},
			},
		},
		"no_of_connections": schema.Int64Attribute{
			MarkdownDescription: "Number of connected accounts using the auth config.",
			Computed:            true,
		},
		"created_at": schema.StringAttribute{
			MarkdownDescription: "Creation time (ISO 8601).",
			Computed:            true,
		},
		"updated_at": schema.StringAttribute{
			MarkdownDescription: "Time of the last update (ISO 8601).",
			Computed:            true,
		},
	}
	if lookup {
		attrs["id"] = schema.StringAttribute{
			MarkdownDescription: "Identifier of the auth config to read (`ac_...`). Exactly one of `id` or `name` (with `toolkit`) must be set.",
			Optional:            true,
			Computed:            true,
			Validators:          []validator.String{validators.AuthConfigID()},
		}
		attrs["toolkit"] = schema.StringAttribute{
			MarkdownDescription: "Slug of the toolkit. Required together with `name` to look an auth config up by name.",
			Optional:            true,
			Computed:            true,
			Validators:          []validator.String{validators.ToolkitSlug()},
		}
		attrs["name"] = schema.StringAttribute{
			MarkdownDescription: "Exact name of the auth config to read within `toolkit` (disabled ones included). " +
				"It is an error when no auth config or more than one has that name.",
			Optional:   true,
			Computed:   true,
			Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
		}
	}
	return attrs
}

func (d *authConfigDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads one auth config, by `id` or by `toolkit` and `name`. Credentials are not exposed.",
		Attributes:          authConfigDataAttributes(true),
	}
}

func (d *authConfigDataSource) ConfigValidators(_ context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{
		datasourcevalidator.ExactlyOneOf(path.MatchRoot("id"), path.MatchRoot("name")),
		datasourcevalidator.RequiredTogether(path.MatchRoot("toolkit"), path.MatchRoot("name")),
	}
}

func (d *authConfigDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	if !readReady(ctx, d.data, "service_auth_config", &resp.Diagnostics) {
		return
	}
	var cfg authConfigDataModel
	resp.Diagnostics.Append(codec.Get(ctx, req.Config, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}

	var ac *client.AuthConfig
	if id := cfg.ID.ValueString(); id != "" {
		if ac = diagnostics.GetForDataSource(ctx, &resp.Diagnostics, d.data.Client.GetAuthConfig, authConfigDataSourceType, id,
			"Auth config not found", "the service has no auth config"); ac == nil {
			return
		}
	} else {
		toolkit, name := cfg.Toolkit.ValueString(), cfg.Name.ValueString()
		var matches []client.AuthConfig
		for item, err := range d.data.Client.AuthConfigsIter(ctx, client.AuthConfigListParams{
			ToolkitSlug: toolkit, ShowDisabled: true, Search: name,
		}) {
			if err != nil {
				diagnostics.AddAPIError(&resp.Diagnostics, "listing", "service_auth_configs", "", err)
				return
			}
			if item.Name == name && strings.EqualFold(item.Toolkit.Slug, toolkit) {
				matches = append(matches, item)
			}
		}
		switch len(matches) {
		case 0:
			resp.Diagnostics.AddAttributeError(path.Root("name"), "Auth config not found",
				fmt.Sprintf("Attribute name: toolkit %q has no auth config named %q.", toolkit, name))
			return
		case 1:
			ac = &matches[0]
		default:
			ids := make([]string, len(matches))
			for i, m := range matches {
				ids[i] = m.ID
			}
			resp.Diagnostics.AddAttributeError(path.Root("name"), "Several auth configs match",
				fmt.Sprintf("Attribute name: toolkit %q has %d auth configs named %q (%s). Look the one you need up by id.",
					toolkit, len(matches), name, strings.Join(ids, ", ")))
			return
		}
	}

	m, diags := authConfigDataFrom(ctx, ac)
	resp.Diagnostics.Append(diags...)
	if !cfg.Toolkit.IsNull() && strings.EqualFold(cfg.Toolkit.ValueString(), m.Toolkit.ValueString()) {
		m.Toolkit = cfg.Toolkit // keep the configured spelling
	}
	resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &m)...)
}
