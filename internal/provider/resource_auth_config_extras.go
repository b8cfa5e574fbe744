package provider

// service_auth_config attributes beyond the credentials: proxy_config,
// shared_credentials_wo (+ version), user_scopes; their schema, checks, and
// how they go to and come back from the service; and the plan-time check of
// the tool slugs in tool_access_config.

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/provider/codec"
	"github.com/integration-service/terraform-provider-service/internal/provider/diagnostics"
	"github.com/integration-service/terraform-provider-service/internal/provider/validators"
)

type proxyConfigModel struct {
	ProxyURL              types.String `tfsdk:"proxy_url"`
	ProxyAuthKeyWO        types.String `tfsdk:"proxy_auth_key_wo"`
	ProxyAuthKeyWOVersion types.Int64  `tfsdk:"proxy_auth_key_wo_version"`
}

var proxyConfigAttrTypes = map[string]attr.Type{
	"proxy_url":                 types.StringType,
	"proxy_auth_key_wo":         types.StringType,
	"proxy_auth_key_wo_version": types.Int64Type,
}

// acExtraAttributes are the schema entries of this file.
func acExtraAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"proxy_config": schema.SingleNestedAttribute{
			MarkdownDescription: "Route the auth config's calls to the toolkit through your proxy (custom auth only). " +
				"Updated in place; removing it removes the proxy on the service.",
			Optional: true,
			Attributes: map[string]schema.Attribute{
				"proxy_url": schema.StringAttribute{
					MarkdownDescription: "URL of the proxy.",
					Required:            true,
					Validators:          []validator.String{validators.HTTPURL()},
				},
				"proxy_auth_key_wo": schema.StringAttribute{
					MarkdownDescription: "Key the service sends to the proxy, write-only (never stored). Sent on " +
						"create and whenever `proxy_url` or `proxy_auth_key_wo_version` changes.",
					Optional:  true,
					WriteOnly: true,
				},
				"proxy_auth_key_wo_version": schema.Int64Attribute{
					MarkdownDescription: "Version of `proxy_auth_key_wo`: change it to send a new key. Requires " +
						"`proxy_auth_key_wo`.",
					Optional: true,
				},
			},
		},
		"shared_credentials_wo": schema.MapAttribute{
			MarkdownDescription: "Credentials every connected account of the auth config inherits (e.g. a " +
				"`subdomain` or a shared key), write-only: sent to the service, never stored in the plan or state. " +
				"Sent on create and when `shared_credentials_wo_version` changes.",
			Optional:    true,
			WriteOnly:   true,
			ElementType: types.StringType,
			Validators:  validators.CredentialFields(),
		},
		"shared_credentials_wo_version": schema.Int64Attribute{
			MarkdownDescription: "Version of `shared_credentials_wo`: change it (e.g. increment it) to send the " +
				"current `shared_credentials_wo` (an in-place update). Requires `shared_credentials_wo`.",
			Optional: true,
		},
		"user_scopes": schema.ListAttribute{
			MarkdownDescription: "OAuth user-token scopes (e.g. Slack's user scopes), like `scopes`: updated in " +
				"place, `[]` clears them, unset keeps the service's value. For custom auth the scheme must have a " +
				"`user_scopes` field.",
			Optional:      true,
			Computed:      true,
			ElementType:   types.StringType,
			Validators:    []validator.List{listvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1)), validators.UniqueStrings()},
			PlanModifiers: []planmodifier.List{listplanmodifier.UseStateForUnknown()},
		},
	}
}

// validateAuthConfigExtras: proxy_config is custom auth only; each
// write-only value and its version come together.
func validateAuthConfigExtras(ctx context.Context, cfg authConfigResourceModel, diags *diag.Diagnostics) {
	if codec.Known(cfg.ProxyConfig) {
		if acIsManagedType(cfg.Type) {
			diags.AddAttributeError(path.Root("proxy_config"), "proxy_config not allowed for service-managed auth",
				fmt.Sprintf("Attribute proxy_config is only accepted with type = %q. Remove proxy_config, or use your "+
					"own app with type = %q.", authConfigTypeCustom, authConfigTypeCustom))
		}
		var p proxyConfigModel
		diags.Append(cfg.ProxyConfig.As(ctx, &p, acObjectAsOptions)...)
		validators.AddWriteOnlyVersionWarning(p.ProxyAuthKeyWO, p.ProxyAuthKeyWOVersion, path.Root("proxy_config").AtName("proxy_auth_key_wo"),
			path.Root("proxy_config").AtName("proxy_auth_key_wo_version"), diags)
		if p.ProxyAuthKeyWO.IsNull() && !p.ProxyAuthKeyWOVersion.IsNull() {
			diags.AddAttributeError(path.Root("proxy_config").AtName("proxy_auth_key_wo_version"), "Version without a key",
				"Attribute proxy_config.proxy_auth_key_wo_version versions proxy_config.proxy_auth_key_wo, which is not "+
					"set. Set proxy_auth_key_wo, or remove the version.")
		}
	}
	validators.CheckRequiredWriteOnlyVersion(cfg.SharedCredentialsWO, cfg.SharedCredentialsWOVersion, "shared_credentials_wo",
		"shared_credentials_wo_version", "the values", diags)
}

// acProxyFromConfig returns the proxy to send (the key from the
// configuration, where write-only values are), or nil.
func acProxyFromConfig(ctx context.Context, o types.Object) (*client.ProxyConfig, diag.Diagnostics) {
	if o.IsNull() || o.IsUnknown() {
		return nil, nil
	}
	var p proxyConfigModel
	diags := o.As(ctx, &p, acObjectAsOptions)
	return &client.ProxyConfig{ProxyURL: p.ProxyURL.ValueString(), ProxyAuthKey: p.ProxyAuthKeyWO.ValueString()}, diags
}

// acFillCreateExtras adds proxy_config and shared credentials to a create.
func acFillCreateExtras(ctx context.Context, cfg authConfigResourceModel, in *client.CreateAuthConfigRequest) diag.Diagnostics {
	var diags diag.Diagnostics
	shared, d := codec.MapAny(ctx, cfg.SharedCredentialsWO)
	diags.Append(d...)
	in.SharedCredentials = shared
	if in.Type == client.AuthConfigTypeCustom {
		proxy, d := acProxyFromConfig(ctx, cfg.ProxyConfig)
		diags.Append(d...)
		in.ProxyConfig = proxy
	}
	return diags
}

// acFillUpdateExtras adds the changed proxy_config, shared credentials and
// user scopes to an update; it reports whether anything was added.
func acFillUpdateExtras(ctx context.Context, cfg, plan, state authConfigResourceModel, in *client.UpdateAuthConfigRequest) (bool, diag.Diagnostics) {
	var diags diag.Diagnostics
	changed := false
	if !plan.SharedCredentialsWOVersion.Equal(state.SharedCredentialsWOVersion) && !cfg.SharedCredentialsWO.IsNull() {
		shared, d := codec.MapAny(ctx, cfg.SharedCredentialsWO)
		diags.Append(d...)
		in.SharedCredentials = shared
		changed = true
	}
	if !plan.UserScopes.IsUnknown() && !plan.UserScopes.IsNull() && !plan.UserScopes.Equal(state.UserScopes) {
		scopes, d := codec.ListStrings(ctx, plan.UserScopes)
		diags.Append(d...)
		in.UserScopes = scopes
		changed = true
	}
	if !acIsManagedType(plan.Type) && acProxyChanged(ctx, plan.ProxyConfig, state.ProxyConfig) {
		proxy, d := acProxyFromConfig(ctx, cfg.ProxyConfig)
		diags.Append(d...)
		in.ProxyConfig = proxy
		in.ClearProxyConfig = proxy == nil
		changed = true
	}
	return changed, diags
}

// acProxyChanged: the proxy is added, removed, or its URL or key version
// changes.
func acProxyChanged(ctx context.Context, plan, state types.Object) bool {
	if plan.IsNull() != state.IsNull() {
		return true
	}
	if plan.IsNull() || plan.IsUnknown() || state.IsUnknown() {
		return false
	}
	var p, s proxyConfigModel
	if plan.As(ctx, &p, acObjectAsOptions).HasError() || state.As(ctx, &s, acObjectAsOptions).HasError() {
		return true
	}
	return !p.ProxyURL.Equal(s.ProxyURL) || !p.ProxyAuthKeyWOVersion.Equal(s.ProxyAuthKeyWOVersion)
}

// fillExtras (part of fill) copies the proxy URL and the user scopes the service
// reports into m, keeping the key version; write-only values stay null.
func (m *authConfigResourceModel) fillExtras(ctx context.Context, ac *client.AuthConfig) diag.Diagnostics {
	var diags diag.Diagnostics
	m.SharedCredentialsWO = types.MapNull(types.StringType)
	if ac.UserScopes != nil || codec.Known(m.UserScopes) {
		v, d := types.ListValueFrom(ctx, types.StringType, codec.NonNil(ac.UserScopes))
		diags.Append(d...)
		m.UserScopes = v
	} else {
		m.UserScopes = types.ListNull(types.StringType)
	}
	if ac.ProxyConfig == nil || strings.TrimSpace(ac.ProxyConfig.ProxyURL) == "" {
		m.ProxyConfig = types.ObjectNull(proxyConfigAttrTypes)
		return diags
	}
	version := types.Int64Null()
	if codec.Known(m.ProxyConfig) {
		var prior proxyConfigModel
		diags.Append(m.ProxyConfig.As(ctx, &prior, acObjectAsOptions)...)
		version = prior.ProxyAuthKeyWOVersion
	}
	obj, d := types.ObjectValue(proxyConfigAttrTypes, map[string]attr.Value{
		"proxy_url": types.StringValue(ac.ProxyConfig.ProxyURL), "proxy_auth_key_wo": types.StringNull(),
		"proxy_auth_key_wo_version": version,
	})
	diags.Append(d...)
	m.ProxyConfig = obj
	return diags
}

// checkSharedCredentialKeys: shared credentials are inherited by the
// connected accounts, so their keys must be fields of the scheme's connected
// account initiation.
func checkSharedCredentialKeys(tk *client.Toolkit, detail *client.AuthConfigDetail, shared types.Map, diags *diag.Diagnostics) {
	keys, known := validators.MapKeys(shared)
	if !known || detail == nil {
		return
	}
	g := detail.Fields.ConnectedAccountInitiation
	allowed := append(validators.FieldNames(g.Required), validators.FieldNames(g.Optional)...)
	var unknown []string
	for _, k := range keys {
		if !slices.Contains(allowed, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		diags.AddAttributeError(path.Root("shared_credentials_wo"), "Unknown shared credential fields",
			fmt.Sprintf("Attribute shared_credentials_wo: %s: not connected account field(s) of the %s scheme of toolkit %q, "+
				"which the auth config's accounts could inherit. Fields: %s.", validators.QuoteList(unknown),
				strings.ToUpper(detail.Mode), tk.Slug, validators.JoinOrNone(allowed)))
	}
}

// checkToolAccessTools reports each tool slug of the configured
// tool_access_config lists that the toolkit does not have at the provider's
// version for it: the service stores any slug, and a typo would only show
// when a connected account is refused the tool at execution. The toolkit's
// tools are read once per provider process, and only when a list changes
// (a plan that keeps the lists sends nothing). Custom toolkits, whose tools
// come from their MCP server, and toolkits that list no tools are not
// checked.
func (r *authConfigResource) checkToolAccessTools(ctx context.Context, tk *client.Toolkit, cfg, state types.Object, diags *diag.Diagnostics) {
	if cfg.IsNull() || cfg.IsUnknown() || strings.EqualFold(tk.Type, "custom") {
		return
	}
	var c, s toolAccessConfigModel
	diags.Append(cfg.As(ctx, &c, basetypes.ObjectAsOptions{})...)
	if codec.Known(state) {
		diags.Append(state.As(ctx, &s, basetypes.ObjectAsOptions{})...)
	}
	if diags.HasError() {
		return
	}
	lists := []struct {
		name       string
		cfg, prior codec.StringElements
	}{
		{"tools_for_connected_account_creation", c.ToolsForConnectedAccountCreation, s.ToolsForConnectedAccountCreation},
		{"tools_available_for_execution", c.ToolsAvailableForExecution, s.ToolsAvailableForExecution},
	}
	var tools map[string]bool
	for _, l := range lists {
		slugs, known := codec.KnownStrings(l.cfg)
		if !known || len(slugs) == 0 || l.cfg.Equal(l.prior) {
			continue
		}
		if tools == nil {
			list, err := r.data.Cache.ToolkitTools(ctx, tk.Slug)
			if err != nil {
				diagnostics.AddAPIErrorAt(diags, path.Root("tool_access_config").AtName(l.name), "listing the tools of toolkit "+tk.Slug+" for",
					authConfigResourceType, "", err)
				return
			}
			if len(list) == 0 {
				return
			}
			tools = make(map[string]bool, len(list))
			for _, t := range list {
				tools[t.Slug] = true
			}
		}
		for _, slug := range slugs {
			if !tools[slug] {
				diags.AddAttributeError(path.Root("tool_access_config").AtName(l.name), "Unknown tool",
					fmt.Sprintf("Attribute tool_access_config.%s: toolkit %q has no tool %q at version %s (the "+
						"service_tools data source lists a toolkit's tools).", l.name, tk.Slug, slug, r.data.VersionFor(tk.Slug)))
			}
		}
	}
}
