package provider

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/boolplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"
	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/provider/codec"
	"github.com/integration-service/terraform-provider-service/internal/provider/destroyrun"
	"github.com/integration-service/terraform-provider-service/internal/provider/diagnostics"
	"github.com/integration-service/terraform-provider-service/internal/provider/identity"
	"github.com/integration-service/terraform-provider-service/internal/provider/importid"
	"github.com/integration-service/terraform-provider-service/internal/provider/validators"
)

const authConfigResourceType = "service_auth_config"

// Provider-schema values of `type` (the wire uses composio names).
const (
	authConfigTypeManaged = "use_service_managed_auth"
	authConfigTypeCustom  = "use_custom_auth"
)

// authSchemes are the auth schemes accepted by `auth_scheme`: the 14 of the
// contract (rc.6) and CIMD_OAUTH, which the service's own v3 document adds
// (OAuth whose client_id is the URL of a client ID metadata document).
var authSchemes = []string{"OAUTH2", "OAUTH1", "API_KEY", "BASIC", "BILLCOM_AUTH", "BEARER_TOKEN", "GOOGLE_SERVICE_ACCOUNT",
	"NO_AUTH", "BASIC_WITH_JWT", "CALCOM_AUTH", "SERVICE_ACCOUNT", "SAML", "DCR_OAUTH", "CIMD_OAUTH", "S2S_OAUTH2"}

var acObjectAsOptions = basetypes.ObjectAsOptions{}

var (
	_ managedResource                     = (*authConfigResource)(nil)
	_ resource.ResourceWithValidateConfig = (*authConfigResource)(nil)
)

// NewAuthConfigResource returns the service_auth_config resource.
func NewAuthConfigResource() resource.Resource {
	return &authConfigResource{resourceBase{typeNamed("auth_config")}}
}

type authConfigResource struct{ resourceBase }

type authConfigResourceModel struct {
	ID                     types.String `tfsdk:"id"`
	Toolkit                types.String `tfsdk:"toolkit"`
	Type                   types.String `tfsdk:"type"`
	Name                   types.String `tfsdk:"name"`
	AuthScheme             types.String `tfsdk:"auth_scheme"`
	CredentialsWO          types.Map    `tfsdk:"credentials_wo"`
	CredentialsWOVersion   types.Int64  `tfsdk:"credentials_wo_version"`
	Credentials            types.Map    `tfsdk:"credentials"`
	Scopes                 types.List   `tfsdk:"scopes"`
	IsEnabledForToolRouter types.Bool   `tfsdk:"is_enabled_for_tool_router"`
	ToolAccessConfig       types.Object `tfsdk:"tool_access_config"`
	Enabled                types.Bool   `tfsdk:"enabled"`
	RevokeOnDelete         types.Bool   `tfsdk:"revoke_on_delete"`
	Status                 types.String `tfsdk:"status"`
	IsServiceManaged       types.Bool   `tfsdk:"is_service_managed"`
	CreatedAt              types.String `tfsdk:"created_at"`
	UpdatedAt              types.String `tfsdk:"updated_at"`
	// the proxy, the shared credentials and the user scopes
	ProxyConfig                types.Object `tfsdk:"proxy_config"`
	SharedCredentialsWO        types.Map    `tfsdk:"shared_credentials_wo"`
	SharedCredentialsWOVersion types.Int64  `tfsdk:"shared_credentials_wo_version"`
	UserScopes                 types.List   `tfsdk:"user_scopes"`
}

type toolAccessConfigModel struct {
	ToolsForConnectedAccountCreation types.List `tfsdk:"tools_for_connected_account_creation"`
	ToolsAvailableForExecution       types.Set  `tfsdk:"tools_available_for_execution"`
}

var toolAccessConfigAttrTypes = map[string]attr.Type{
	"tools_for_connected_account_creation": types.ListType{ElemType: types.StringType},
	"tools_available_for_execution":        types.SetType{ElemType: types.StringType},
}

// IdentitySchema: the auth config's identity is its id (see package identity).
func (r *authConfigResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identity.Schema("auth config", "ac_AbC123")
}

func (r *authConfigResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Manages an auth config: how the users of a toolkit authenticate. A **service-managed** auth " +
			"config (`type = \"use_service_managed_auth\"`, the default) uses the service's own OAuth app; a **custom** one " +
			"(`use_custom_auth`) uses your app's credentials for the chosen `auth_scheme`.\n\n" +
			"Credentials are checked against the toolkit's auth config creation fields for the scheme (see the " +
			"`service_toolkit` data source) at plan when `toolkit` is known; otherwise (a toolkit that comes from " +
			"another resource of the same apply) at apply, before the auth config is written. Prefer `credentials_wo` (write-only, never stored in the state or plan; Terraform 1.11+) with " +
			"`credentials_wo_version`; bump the version to send changed credentials.",
		Attributes: map[string]schema.Attribute{
			"id": idAttribute("Identifier of the auth config (`ac_...`)."),
			"toolkit": schema.StringAttribute{
				MarkdownDescription: "Slug of the toolkit the auth config belongs to, e.g. `github`. Changing it replaces the auth config.",
				Required:            true,
				Validators:          []validator.String{validators.CanonicalToolkitSlug()},
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"type": schema.StringAttribute{
				MarkdownDescription: "`use_service_managed_auth` (default): the service's own app and credentials; only for toolkits " +
					"with a service-managed scheme. `use_custom_auth`: your own credentials for `auth_scheme`. Changing it " +
					"replaces the auth config.",
				Optional:      true,
				Computed:      true,
				Default:       stringdefault.StaticString(authConfigTypeManaged),
				Validators:    []validator.String{stringvalidator.OneOf(authConfigTypeManaged, authConfigTypeCustom)},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"name": schema.StringAttribute{
				MarkdownDescription: "Display name (not blank, no surrounding white space). When unset the service picks one " +
					"(e.g. `GitHub Auth Config`). Updated in place.",
				Optional:      true,
				Computed:      true,
				Validators:    []validator.String{stringvalidator.UTF8LengthBetween(1, 255), validators.DisplayName()},
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"auth_scheme": schema.StringAttribute{
				MarkdownDescription: "Authentication scheme: one of `" + strings.Join(authSchemes, "`, `") + "`. Required when " +
					"`type` is `use_custom_auth`, and must be a scheme the toolkit offers. For service-managed auth it is " +
					"read from the service; it may be set only to the scheme the service manages for the toolkit. " +
					"Changing it replaces the auth config.",
				Optional:   true,
				Computed:   true,
				Validators: []validator.String{stringvalidator.OneOf(authSchemes...)},
				PlanModifiers: []planmodifier.String{
					stringplanmodifier.UseStateForUnknown(),
					stringplanmodifier.RequiresReplace(),
				},
			},
			"credentials_wo": schema.MapAttribute{
				MarkdownDescription: "Credentials of a custom auth config (for example `client_id` and `client_secret` for " +
					"`OAUTH2`), as a write-only map: sent to the service but never stored in the plan or state. The field " +
					"names must be the toolkit's auth config creation fields for the scheme. Changes are only sent when " +
					"`credentials_wo_version` changes. Conflicts with `credentials`; refused for service-managed auth.",
				Optional:    true,
				WriteOnly:   true,
				ElementType: types.StringType,
				Validators: append([]validator.Map{
					mapvalidator.ConflictsWith(path.MatchRoot("credentials")),
				}, validators.CredentialFields()...),
			},
			"credentials_wo_version": schema.Int64Attribute{
				MarkdownDescription: "Version of `credentials_wo`. Terraform cannot see changes to a write-only value, so " +
					"change this number (for example increment it) to send the current `credentials_wo` to the service " +
					"(an in-place update). Requires `credentials_wo`.",
				Optional: true,
				// Pairing with credentials_wo is checked in ValidateConfig, where
				// a service-managed auth config can refuse both at once instead
				// of asking for the other half.
			},
			"credentials": schema.MapAttribute{
				MarkdownDescription: "Credentials of a custom auth config, like `credentials_wo` but stored (marked " +
					"sensitive) in the state: changes are detected and sent in place. Prefer `credentials_wo`. Conflicts " +
					"with `credentials_wo`; refused for service-managed auth.",
				Optional:    true,
				Sensitive:   true,
				ElementType: types.StringType,
				Validators: append([]validator.Map{
					mapvalidator.ConflictsWith(path.MatchRoot("credentials_wo")),
				}, validators.CredentialFields()...),
			},
			"scopes": schema.ListAttribute{
				MarkdownDescription: "OAuth scopes to request. For service-managed auth they are set through the service's " +
					"scope update; for custom auth they are sent as the `scopes` credential field (the scheme must have " +
					"one, e.g. `OAUTH2`). Updated in place; `scopes = []` clears the scopes on the service. When unset " +
					"(removed from the configuration), the service's current scopes are kept and read back.",
				Optional:    true,
				Computed:    true,
				ElementType: types.StringType,
				Validators: []validator.List{
					listvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1)),
					listvalidator.UniqueValues(),
				},
				PlanModifiers: []planmodifier.List{listplanmodifier.UseStateForUnknown()},
			},
			"is_enabled_for_tool_router": schema.BoolAttribute{
				MarkdownDescription: "Whether tool-router sessions may use this auth config. When unset the service's value " +
					"is kept. Updated in place.",
				Optional:      true,
				Computed:      true,
				PlanModifiers: []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()},
			},
			"tool_access_config": schema.SingleNestedAttribute{
				MarkdownDescription: "Tool access restrictions. Updated in place. When unset (removed from the " +
					"configuration) the service's value is kept and read back.",
				Optional:      true,
				Computed:      true,
				PlanModifiers: []planmodifier.Object{objectplanmodifier.UseStateForUnknown()},
				Attributes: map[string]schema.Attribute{
					"tools_for_connected_account_creation": schema.ListAttribute{
						MarkdownDescription: "Tool slugs whose scopes are requested when a connected account is created with " +
							"this auth config; each must be a tool of the toolkit (checked at plan when `toolkit` is known, " +
							"otherwise at apply before the write). `[]` clears the list " +
							"on the service; when unset the service's list is kept.",
						Optional:      true,
						Computed:      true,
						ElementType:   types.StringType,
						PlanModifiers: []planmodifier.List{listplanmodifier.UseStateForUnknown()},
						Validators: []validator.List{
							listvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1)),
							listvalidator.UniqueValues(),
						},
					},
					"tools_available_for_execution": schema.SetAttribute{
						MarkdownDescription: "Tool slugs the auth config's connected accounts may execute; the service " +
							"refuses other tools of the toolkit; each must be a tool of the toolkit (checked at plan when `toolkit` " +
							"is known, otherwise at apply before the write). " +
							"`[]` removes the restriction on the service; when unset the service's list is kept.",
						Optional:      true,
						Computed:      true,
						ElementType:   types.StringType,
						PlanModifiers: []planmodifier.Set{setplanmodifier.UseStateForUnknown()},
						Validators: []validator.Set{
							setvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1)),
						},
					},
				},
			},
			"enabled": schema.BoolAttribute{
				MarkdownDescription: "Whether the auth config is enabled (status `ENABLED`). Defaults to `true`; setting it " +
					"to `false` disables the auth config in place.",
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(true),
			},
			"revoke_on_delete": schema.BoolAttribute{
				MarkdownDescription: "Whether deleting the auth config also revokes, at the upstream provider, the tokens " +
					"of every connected account made through it (the service's `revoke_on_delete`, a background job; " +
					"the accounts then read `REVOKED`): every delete, `terraform destroy` as well as the delete half of " +
					"a replacement, sends it. Defaults to `false`, as the service: the accounts' tokens then stay valid " +
					"at the provider. The service never reports it, so an import sets it to `false`; the value in the " +
					"state is the one a delete uses (set it to `true` and apply before destroying).",
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(false),
			},
			"status": schema.StringAttribute{
				MarkdownDescription: "Status reported by the service: `ENABLED` or `DISABLED`. Known at plan time: it " +
					"follows `enabled` when that changes, and other in-place updates keep it.",
				Computed: true,
			},
			"is_service_managed": schema.BoolAttribute{
				MarkdownDescription: "Whether the service manages the credentials (true for `use_service_managed_auth`).",
				Computed:            true,
				PlanModifiers:       []planmodifier.Bool{boolplanmodifier.UseStateForUnknown()},
			},
			"created_at": schema.StringAttribute{
				MarkdownDescription: "Creation time (ISO 8601).",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"updated_at": schema.StringAttribute{
				MarkdownDescription: "Time of the last update (ISO 8601).",
				Computed:            true,
			},
		},
	}
	maps.Copy(resp.Schema.Attributes, acExtraAttributes())
}

// ValidateConfig holds the checks that need no API call (they also run in
// `terraform validate`).
func (r *authConfigResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var cfg authConfigResourceModel
	resp.Diagnostics.Append(codec.GetAttributes(ctx, req.Config, &cfg, "type", "credentials_wo", "credentials_wo_version", "credentials", "auth_scheme", "scopes",
		"proxy_config", "shared_credentials_wo", "shared_credentials_wo_version")...)
	if resp.Diagnostics.HasError() || cfg.Type.IsUnknown() || !acIsValidType(cfg.Type) {
		// An invalid type gets the type validator's error only: the checks
		// below depend on the type and would add misleading errors.
		return
	}
	validateAuthConfigExtras(ctx, cfg, &resp.Diagnostics)
	if acIsManagedType(cfg.Type) {
		for _, a := range []struct {
			name string
			v    attr.Value
		}{{"credentials_wo", cfg.CredentialsWO}, {"credentials_wo_version", cfg.CredentialsWOVersion}, {"credentials", cfg.Credentials}} {
			if !a.v.IsNull() {
				resp.Diagnostics.AddAttributeError(path.Root(a.name), "Credentials not allowed for service-managed auth",
					fmt.Sprintf("Attribute %s is only accepted with type = %q: a service-managed auth config uses the "+
						"service's own app. Remove %s, or set type = %q and auth_scheme.", a.name, authConfigTypeCustom,
						a.name, authConfigTypeCustom))
			}
		}
		return
	}
	validators.CheckRequiredWriteOnlyVersion(cfg.CredentialsWO, cfg.CredentialsWOVersion, "credentials_wo", "credentials_wo_version",
		"the credentials", &resp.Diagnostics)
	if cfg.AuthScheme.IsNull() {
		resp.Diagnostics.AddAttributeError(path.Root("auth_scheme"), "Missing auth_scheme",
			fmt.Sprintf("Attribute auth_scheme is required when type is %q: one of %s.", authConfigTypeCustom,
				strings.Join(authSchemes, ", ")))
	}
	if !cfg.Scopes.IsNull() {
		for _, m := range []struct {
			name string
			v    types.Map
		}{{"credentials_wo", cfg.CredentialsWO}, {"credentials", cfg.Credentials}} {
			if keys, ok := validators.MapKeys(m.v); ok && slices.Contains(keys, "scopes") {
				resp.Diagnostics.AddAttributeError(path.Root(m.name).AtMapKey("scopes"), "Scopes given twice",
					fmt.Sprintf("Attribute %s has a \"scopes\" field and the scopes attribute is set too. Give the "+
						"scopes in one place only (preferably the scopes attribute).", m.name))
			}
		}
	}
}

// acStateIsManaged reports a prior state of a service-managed auth config,
// reading only the type attribute.
func acStateIsManaged(ctx context.Context, req resource.ModifyPlanRequest) bool {
	var state authConfigResourceModel
	return !codec.GetAttributes(ctx, req.State, &state, "type").HasError() && acIsManagedType(state.Type)
}

func acIsManagedType(v types.String) bool {
	return v.IsNull() || v.ValueString() == authConfigTypeManaged
}

// acIsValidType reports whether a known (or null, i.e. default) type is one
// of the accepted values; other values are reported by the type validator
// alone, so no check that assumes a valid type may run on them.
func acIsValidType(v types.String) bool {
	return acIsManagedType(v) || v.ValueString() == authConfigTypeCustom
}

// acPlannedStatus returns the status to plan: the prior status when enabled
// does not change (only the status write changes it), otherwise the status
// that enabling or disabling gives. ok is false when enabled is unknown.
func acPlannedStatus(creating bool, plan, state authConfigResourceModel) (types.String, bool) {
	if plan.Enabled.IsUnknown() || plan.Enabled.IsNull() {
		return types.StringUnknown(), false
	}
	if !creating && plan.Enabled.Equal(state.Enabled) && codec.Known(state.Status) {
		return state.Status, true
	}
	if plan.Enabled.ValueBool() {
		return types.StringValue(client.AuthConfigStatusEnabled), true
	}
	return types.StringValue(client.AuthConfigStatusDisabled), true
}

// ModifyPlan checks the configuration against the toolkit (read once per
// provider run through the lookup.ObjectCache) and fills values known at plan time.
func (r *authConfigResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	destroyrun.RemotePlanChecks(ctx, authConfigResourceType, req, resp, func() { r.modifyPlan(ctx, req, resp) })
}

func (r *authConfigResource) modifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if planUnchanged(req) && acStateIsManaged(ctx, req) {
		// Nothing to check or fill in. A custom auth config is still checked:
		// the credentials its scheme requires must be in the configuration
		// (an imported one's generated configuration has none).
		return
	}
	// Only the attributes this function and its helpers read (codec.GetAttributes:
	// add any attribute a new check needs).
	var cfg, plan authConfigResourceModel
	resp.Diagnostics.Append(codec.GetAttributes(ctx, req.Config, &cfg, "auth_scheme", "credentials_wo", "credentials", "scopes", "user_scopes",
		"shared_credentials_wo", "tool_access_config")...)
	resp.Diagnostics.Append(codec.GetAttributes(ctx, req.Plan, &plan, "type", "enabled", "toolkit", "auth_scheme")...)
	if resp.Diagnostics.HasError() {
		return
	}
	creating := req.State.Raw.IsNull()
	var state authConfigResourceModel
	if !creating {
		resp.Diagnostics.Append(codec.GetAttributes(ctx, req.State, &state, "enabled", "status", "tool_access_config")...)
		if resp.Diagnostics.HasError() {
			return
		}
	}
	if plan.Type.IsUnknown() || !acIsValidType(plan.Type) {
		return // unknown until apply, or an invalid value the type validator reports
	}

	// Values known at plan time, so that an in-place update does not show
	// them as (known after apply): is_service_managed follows type (which
	// forces replacement), status follows enabled.
	// The planned values are written once, when ModifyPlan returns.
	planned := map[string]attr.Value{"is_service_managed": types.BoolValue(acIsManagedType(plan.Type))}
	if status, ok := acPlannedStatus(creating, plan, state); ok {
		planned["status"] = status
	}
	defer func() {
		resp.Diagnostics.Append(codec.Replace(ctx, acAttrTypes(), &resp.Plan.Raw, planned)...)
	}()

	if !r.data.Configured() || plan.Toolkit.IsUnknown() {
		return
	}
	slug := plan.Toolkit.ValueString()
	r.data.checkToolkitVersionKeys(ctx, &resp.Diagnostics)
	// A custom toolkit that does not exist yet may be registered in the same
	// apply by a service_custom_toolkit named by its slug rather than its id:
	// the service checks the auth config then.
	tk := r.data.lookupToolkit(ctx, &resp.Diagnostics, path.Root("toolkit"), slug, true)
	if tk == nil {
		return
	}

	r.checkToolAccessTools(ctx, tk, cfg.ToolAccessConfig, state.ToolAccessConfig, &resp.Diagnostics)

	if acIsManagedType(plan.Type) {
		if len(tk.ComposioManagedAuthSchemes) == 0 {
			resp.Diagnostics.AddAttributeError(path.Root("type"), "Service-managed auth not available",
				fmt.Sprintf("Attribute type: toolkit %q has no service-managed auth scheme, so type = %q cannot be used. "+
					"Set type = %q with auth_scheme one of %s and your own credentials.", tk.Slug, authConfigTypeManaged,
					authConfigTypeCustom, validators.JoinOrNone(validators.ToolkitSchemes(tk))))
			return
		}
		managed := strings.ToUpper(tk.ComposioManagedAuthSchemes[0])
		switch {
		case codec.Known(cfg.AuthScheme):
			if !strings.EqualFold(cfg.AuthScheme.ValueString(), managed) {
				resp.Diagnostics.AddAttributeError(path.Root("auth_scheme"), "Auth scheme not service-managed",
					fmt.Sprintf("Attribute auth_scheme: the service manages the %s scheme of toolkit %q, not %s. Remove "+
						"auth_scheme (it is read from the service), set it to %q, or use type = %q.",
						managed, tk.Slug, cfg.AuthScheme.ValueString(), managed, authConfigTypeCustom))
			}
		case creating && cfg.AuthScheme.IsNull():
			planned["auth_scheme"] = types.StringValue(managed)
		}
		return
	}

	// Custom auth.
	if plan.AuthScheme.IsUnknown() || plan.AuthScheme.IsNull() {
		return
	}
	scheme := plan.AuthScheme.ValueString()
	detail, ok := tk.AuthDetail(scheme)
	if !ok {
		resp.Diagnostics.AddAttributeError(path.Root("auth_scheme"), "Auth scheme not offered by the toolkit",
			fmt.Sprintf("Attribute auth_scheme: toolkit %q does not offer the %s scheme. Schemes it offers: %s.",
				tk.Slug, scheme, validators.JoinOrNone(validators.ToolkitSchemes(tk))))
		return
	}

	credAttr, creds := "credentials_wo", cfg.CredentialsWO
	if creds.IsNull() && !cfg.Credentials.IsNull() {
		credAttr, creds = "credentials", cfg.Credentials
	}
	if creds.IsNull() {
		if validators.HasRequiredCredentialFields(tk, scheme, validators.PurposeAuthConfigCreation) {
			resp.Diagnostics.AddAttributeError(path.Root("credentials_wo"), "Missing credentials",
				fmt.Sprintf("A custom %s auth config of toolkit %q needs credentials with the field(s) %s: set "+
					"credentials_wo (with credentials_wo_version) or credentials.", strings.ToUpper(scheme), tk.Slug,
					validators.QuoteList(validators.FieldNames(detail.Fields.AuthConfigCreation.Required))))
		}
	} else if keys, known := validators.MapKeys(creds); known {
		resp.Diagnostics.Append(validators.CheckCredentialFields(tk, scheme, validators.PurposeAuthConfigCreation, keys, path.Root(credAttr))...)
	}

	checkSharedCredentialKeys(tk, detail, cfg.SharedCredentialsWO, &resp.Diagnostics)
	for _, a := range []struct {
		name string
		v    types.List
	}{{"scopes", cfg.Scopes}, {"user_scopes", cfg.UserScopes}} {
		g := detail.Fields.AuthConfigCreation
		if !a.v.IsNull() && !slices.Contains(validators.FieldNames(g.Required), a.name) && !slices.Contains(validators.FieldNames(g.Optional), a.name) {
			resp.Diagnostics.AddAttributeError(path.Root(a.name), "Scopes not supported by the scheme",
				fmt.Sprintf("Attribute %s: the %s scheme of toolkit %q has no %s field. Remove %s.",
					a.name, strings.ToUpper(scheme), tk.Slug, a.name, a.name))
		}
	}
}

func (r *authConfigResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	if destroyrun.Refused(ctx, authConfigResourceType, req.Config, &resp.Diagnostics) {
		return // refused at plan under a test command (destroyrun.InTest): nothing written
	}
	defer identity.FromState(ctx, &resp.State, resp.Identity, &resp.Diagnostics)
	if !requireClient(r.data, &resp.Diagnostics) {
		return
	}
	var cfg, plan authConfigResourceModel
	resp.Diagnostics.Append(codec.GetAttributes(ctx, req.Config, &cfg, "credentials_wo", "proxy_config", "shared_credentials_wo")...) // all Create reads of the configuration
	resp.Diagnostics.Append(codec.Get(ctx, req.Plan, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}

	in := client.CreateAuthConfigRequest{ToolkitSlug: plan.Toolkit.ValueString()}
	if codec.Known(plan.Name) {
		in.Name = plan.Name.ValueString()
	}
	scopes, d := codec.ListStrings(ctx, plan.Scopes)
	resp.Diagnostics.Append(d...)
	userScopes, d := codec.ListStrings(ctx, plan.UserScopes)
	resp.Diagnostics.Append(d...)
	if acIsManagedType(plan.Type) {
		in.Type = client.AuthConfigTypeManaged
		if scopes != nil || userScopes != nil {
			in.Credentials = map[string]any{}
		}
		if scopes != nil {
			in.Credentials["scopes"] = scopes
		}
		if userScopes != nil {
			in.Credentials["user_scopes"] = userScopes
		}
	} else {
		in.Type = client.AuthConfigTypeCustom
		in.AuthScheme = plan.AuthScheme.ValueString()
		creds, d := acCredentialsToSend(ctx, cfg, plan)
		resp.Diagnostics.Append(d...)
		if creds == nil {
			creds = map[string]any{}
		}
		if scopes != nil {
			creds["scopes"] = scopes
		}
		if userScopes != nil {
			creds["user_scopes"] = userScopes
		}
		in.Credentials = creds
	}
	resp.Diagnostics.Append(acFillCreateExtras(ctx, cfg, &in)...)
	if codec.Known(plan.IsEnabledForToolRouter) {
		v := plan.IsEnabledForToolRouter.ValueBool()
		in.IsEnabledForToolRouter = &v
	}
	tac, d := acToolAccessFromObject(ctx, plan.ToolAccessConfig)
	resp.Diagnostics.Append(d...)
	if tac != nil {
		// The create body carries the execution list as restrict_to_following_tools.
		in.ToolsAvailableForExecution = tac.ToolsAvailableForExecution
		tac.ToolsAvailableForExecution = nil
		if tac.ToolsForConnectedAccountCreation != nil {
			in.ToolAccessConfig = tac
		}
	}
	if resp.Diagnostics.HasError() {
		return
	}

	tflog.Debug(ctx, "creating auth config", map[string]any{"toolkit": in.ToolkitSlug, "type": in.Type, "auth_scheme": in.AuthScheme})
	created, err := r.data.Client.CreateAuthConfig(ctx, in)
	if err != nil {
		diagnostics.AddAPIError(&resp.Diagnostics, "creating", authConfigResourceType, "", err)
		return
	}
	id := created.ID
	// Record the id at once so that a failure below leaves a tracked (tainted) object.
	resp.Diagnostics.Append(codec.Replace(ctx, acAttrTypes(), &resp.State.Raw,
		map[string]attr.Value{"id": types.StringValue(id), "toolkit": plan.Toolkit, "type": plan.Type})...)
	if resp.Diagnostics.HasError() {
		return
	}

	if codec.Known(plan.Enabled) && !plan.Enabled.ValueBool() {
		if err := r.data.Client.DisableAuthConfig(ctx, id); err != nil {
			diagnostics.AddAPIError(&resp.Diagnostics, "disabling", authConfigResourceType, id, err)
			return
		}
	}

	// Coalesced with the concurrent creates' read-backs of the toolkit.
	ac, err := r.data.Client.AuthConfigAfterWrite(ctx, id, in.ToolkitSlug)
	if err != nil {
		diagnostics.AddAPIError(&resp.Diagnostics, "reading", authConfigResourceType, id, err)
		return
	}
	plan.ID = types.StringValue(id)
	resp.Diagnostics.Append(plan.fill(ctx, ac)...)
	plan.CredentialsWO = types.MapNull(types.StringType)
	resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &plan)...)
}

func (r *authConfigResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state authConfigResourceModel
	if !r.readState(ctx, req, resp, &state) {
		return
	}
	id := state.ID.ValueString()
	ac, err := r.data.readAuthConfig(ctx, id)
	if diagnostics.ReadFailed(ctx, resp, authConfigResourceType, id, err) {
		return
	}
	prior := state
	resp.Diagnostics.Append(state.fill(ctx, ac)...)
	state.CredentialsWO = types.MapNull(types.StringType)
	if !resp.Diagnostics.HasError() && codec.Equal(prior, state) {
		return // resp.State already holds the prior state, which is current
	}
	resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &state)...)
}

func (r *authConfigResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer identity.FromState(ctx, &resp.State, resp.Identity, &resp.Diagnostics)
	var cfg, plan, state authConfigResourceModel
	if !r.planStateAndConfig(ctx, req, resp, &plan, &state, &cfg) {
		return
	}
	id := state.ID.ValueString()
	plan.ID = state.ID

	in, changed, d := buildAuthConfigUpdate(ctx, cfg, plan, state)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	if changed {
		tflog.Debug(ctx, "updating auth config", map[string]any{"id": id, "type": in.Type, "credentials_sent": in.Credentials != nil})
		if err := r.data.Client.UpdateAuthConfig(ctx, id, in); err != nil {
			diagnostics.AddAPIError(&resp.Diagnostics, "updating", authConfigResourceType, id, err)
			return
		}
	}
	if codec.Known(plan.Enabled) && !plan.Enabled.Equal(state.Enabled) {
		if !r.setAuthConfigEnabled(ctx, id, plan.Enabled.ValueBool(), &resp.Diagnostics) {
			return
		}
	}

	ac, err := r.data.Client.AuthConfigAfterWrite(ctx, id, state.Toolkit.ValueString())
	if err != nil {
		diagnostics.AddAPIError(&resp.Diagnostics, "reading", authConfigResourceType, id, err)
		return
	}
	if want := plan.Enabled.ValueBool(); codec.Known(plan.Enabled) && acStatusEnabled(ac.Status) != want {
		// The status changed behind a stale state (e.g. plan -refresh=false):
		// the planned status follows enabled, so make the service match it.
		if !r.setAuthConfigEnabled(ctx, id, want, &resp.Diagnostics) {
			return
		}
		if ac, err = r.data.Client.GetAuthConfig(ctx, id); err != nil {
			diagnostics.AddAPIError(&resp.Diagnostics, "reading", authConfigResourceType, id, err)
			return
		}
	}
	resp.Diagnostics.Append(plan.fill(ctx, ac)...)
	plan.CredentialsWO = types.MapNull(types.StringType)
	resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &plan)...)
}

// setAuthConfigEnabled writes the status ENABLED or DISABLED.
func (r *authConfigResource) setAuthConfigEnabled(ctx context.Context, id string, enabled bool, diags *diag.Diagnostics) bool {
	op, status := "enabling", client.AuthConfigStatusEnabled
	if !enabled {
		op, status = "disabling", client.AuthConfigStatusDisabled
	}
	if err := r.data.Client.UpdateAuthConfigStatus(ctx, status, id); err != nil {
		diagnostics.AddAPIError(diags, op, authConfigResourceType, id, err)
		return false
	}
	return true
}

func acStatusEnabled(status string) bool {
	return !strings.EqualFold(status, client.AuthConfigStatusDisabled)
}

// buildAuthConfigUpdate returns the PATCH body for the differences between
// plan and state, and whether there is anything to send.
func buildAuthConfigUpdate(ctx context.Context, cfg, plan, state authConfigResourceModel) (client.UpdateAuthConfigRequest, bool, diag.Diagnostics) {
	var diags diag.Diagnostics
	in := client.UpdateAuthConfigRequest{Type: client.AuthConfigUpdateDefault}
	changed := false

	if codec.Known(plan.Name) && !plan.Name.Equal(state.Name) {
		v := plan.Name.ValueString()
		in.Name = &v
		changed = true
	}
	if codec.Known(plan.IsEnabledForToolRouter) && !plan.IsEnabledForToolRouter.Equal(state.IsEnabledForToolRouter) {
		v := plan.IsEnabledForToolRouter.ValueBool()
		in.IsEnabledForToolRouter = &v
		changed = true
	}
	if !plan.ToolAccessConfig.IsUnknown() && !plan.ToolAccessConfig.IsNull() && !plan.ToolAccessConfig.Equal(state.ToolAccessConfig) {
		tac, d := acToolAccessFromObject(ctx, plan.ToolAccessConfig)
		diags.Append(d...)
		in.ToolAccessConfig = tac
		changed = true
	}
	scopes, d := codec.ListStrings(ctx, plan.Scopes)
	diags.Append(d...)
	scopesChanged := !plan.Scopes.IsUnknown() && !plan.Scopes.IsNull() && !plan.Scopes.Equal(state.Scopes)

	credsChanged := !plan.CredentialsWOVersion.Equal(state.CredentialsWOVersion) || !plan.Credentials.Equal(state.Credentials)
	if acIsManagedType(plan.Type) {
		if scopesChanged {
			in.Scopes = scopes
			changed = true
		}
		extrasChanged, d := acFillUpdateExtras(ctx, cfg, plan, state, &in)
		diags.Append(d...)
		return in, changed || extrasChanged, diags
	}

	extrasChanged, d := acFillUpdateExtras(ctx, cfg, plan, state, &in)
	diags.Append(d...)
	changed = changed || extrasChanged
	if in.ProxyConfig != nil || in.ClearProxyConfig {
		in.Type = client.AuthConfigUpdateCustom // proxy_config is a field of the custom update
	}

	creds, d := acCredentialsToSend(ctx, cfg, plan)
	diags.Append(d...)
	forcedCustom := in.Type == client.AuthConfigUpdateCustom
	if creds != nil && (credsChanged || scopesChanged || forcedCustom || in.UserScopes != nil) {
		// A custom update replaces the whole credential map: send every field
		// (and the scopes and user scopes, which live among the credentials:
		// left out, the service would drop them).
		in.Type = client.AuthConfigUpdateCustom
		in.Credentials = creds
		in.Scopes = scopes
		if in.UserScopes == nil && !plan.UserScopes.IsUnknown() && !plan.UserScopes.IsNull() {
			userScopes, d := codec.ListStrings(ctx, plan.UserScopes)
			diags.Append(d...)
			in.UserScopes = userScopes
		}
		changed = true
	} else if scopesChanged {
		in.Scopes = scopes
		changed = true
	}
	return in, changed, diags
}

func (r *authConfigResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state authConfigResourceModel // all Delete needs from the state
	if !r.deleteState(ctx, req, resp, &state, "id", "revoke_on_delete") {
		return
	}
	id := state.ID.ValueString()
	jobID, err := r.data.Client.DeleteAuthConfigWith(ctx, id, client.DeleteOptions{RevokeOnDelete: state.RevokeOnDelete.ValueBool()})
	diagnostics.LogRevokeJob(ctx, authConfigResourceType, id, jobID)
	diagnostics.AddDeleteError(&resp.Diagnostics, authConfigResourceType, id, err)
}

func (r *authConfigResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	// ac_... only; a connected account or trigger id is named as such.
	importid.ImportState(ctx, importid.AuthConfig, req, resp)
}

// acCredentialsToSend returns the credentials of a custom auth config from
// credentials_wo (configuration; write-only values are only there) or
// credentials (plan), or nil when neither is set. Values are never logged.
func acCredentialsToSend(ctx context.Context, cfg, plan authConfigResourceModel) (map[string]any, diag.Diagnostics) {
	src := cfg.CredentialsWO
	if src.IsNull() || src.IsUnknown() {
		src = plan.Credentials
	}
	if src.IsNull() || src.IsUnknown() {
		return nil, nil
	}
	var m map[string]string
	diags := src.ElementsAs(ctx, &m, false)
	if diags.HasError() {
		return nil, diags
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out, diags
}

// fill copies the service's view into m, keeping the values the
// service cannot report (credentials, credentials_wo_version) and the
// configured spelling of the toolkit slug.
func (m *authConfigResourceModel) fill(ctx context.Context, ac *client.AuthConfig) diag.Diagnostics {
	var diags diag.Diagnostics
	m.ID = types.StringValue(ac.ID)
	if !strings.EqualFold(m.Toolkit.ValueString(), ac.Toolkit.Slug) || m.Toolkit.IsNull() || m.Toolkit.IsUnknown() {
		m.Toolkit = types.StringValue(ac.Toolkit.Slug)
	}
	if ac.IsComposioManaged {
		m.Type = types.StringValue(authConfigTypeManaged)
	} else {
		m.Type = types.StringValue(authConfigTypeCustom)
	}
	m.Name = types.StringValue(ac.Name)
	m.AuthScheme = types.StringValue(strings.ToUpper(ac.AuthScheme))
	m.IsServiceManaged = types.BoolValue(ac.IsComposioManaged)
	m.IsEnabledForToolRouter = types.BoolValue(ac.IsEnabledForToolRouter)
	m.Status = types.StringValue(ac.Status)
	m.Enabled = types.BoolValue(acStatusEnabled(ac.Status))
	m.CreatedAt = types.StringValue(ac.CreatedAt)
	m.UpdatedAt = types.StringValue(ac.LastUpdatedAt)
	// The service never reports revoke_on_delete: an import (and a state
	// written before the attribute existed) takes the default.
	if m.RevokeOnDelete.IsNull() || m.RevokeOnDelete.IsUnknown() {
		m.RevokeOnDelete = types.BoolValue(false)
	}

	// Scopes and the tool list: a list the service reports (even an empty one,
	// e.g. after clearing) is known; when the service reports none, the
	// value stays null unless the prior value was known (an explicit `[]` in
	// the configuration reads back as [], never null).
	if ac.Scopes != nil || codec.Known(m.Scopes) {
		v, d := types.ListValueFrom(ctx, types.StringType, codec.NonNil(ac.Scopes))
		diags.Append(d...)
		m.Scopes = v
	} else {
		m.Scopes = types.ListNull(types.StringType)
	}

	tools, execTools := ac.ToolAccessConfig.ToolsForConnectedAccountCreation, ac.ToolAccessConfig.ToolsAvailableForExecution
	if tools != nil || execTools != nil || codec.Known(m.ToolAccessConfig) {
		list, d := types.ListValueFrom(ctx, types.StringType, codec.NonNil(tools))
		diags.Append(d...)
		set, d := types.SetValueFrom(ctx, types.StringType, codec.NonNil(execTools))
		diags.Append(d...)
		obj, d := types.ObjectValue(toolAccessConfigAttrTypes, map[string]attr.Value{
			"tools_for_connected_account_creation": list, "tools_available_for_execution": set,
		})
		diags.Append(d...)
		m.ToolAccessConfig = obj
	} else {
		m.ToolAccessConfig = types.ObjectNull(toolAccessConfigAttrTypes)
	}
	diags.Append(m.fillExtras(ctx, ac)...)

	// Credentials: secrets come back masked; keep the prior values, but pick
	// up out-of-band changes of the fields the service shows in clear.
	if codec.Known(m.Credentials) && ac.Credentials != nil {
		var prior map[string]string
		diags.Append(m.Credentials.ElementsAs(ctx, &prior, false)...)
		changed := false
		for k, old := range prior {
			if s, ok := ac.Credentials[k].(string); ok && s != old && !acIsMasked(s) {
				prior[k] = s
				changed = true
			}
		}
		if changed {
			v, d := types.MapValueFrom(ctx, types.StringType, prior)
			diags.Append(d...)
			m.Credentials = v
		}
	}
	if m.Credentials.IsUnknown() {
		m.Credentials = types.MapNull(types.StringType)
	}
	return diags
}

func acIsMasked(s string) bool {
	return s != "" && strings.Trim(s, "*") == ""
}

func acToolAccessFromObject(ctx context.Context, o types.Object) (*client.ToolAccessConfig, diag.Diagnostics) {
	if o.IsNull() || o.IsUnknown() {
		return nil, nil
	}
	var m toolAccessConfigModel
	diags := o.As(ctx, &m, acObjectAsOptions)
	if diags.HasError() {
		return nil, diags
	}
	tools, d := codec.ListStrings(ctx, m.ToolsForConnectedAccountCreation)
	diags.Append(d...)
	var execTools []string
	if codec.Known(m.ToolsAvailableForExecution) {
		execTools = []string{}
		diags.Append(m.ToolsAvailableForExecution.ElementsAs(ctx, &execTools, false)...)
	}
	if tools == nil && execTools == nil {
		return nil, diags
	}
	return &client.ToolAccessConfig{ToolsForConnectedAccountCreation: tools, ToolsAvailableForExecution: execTools}, diags
}

// service_auth_config attributes beyond the credentials: proxy_config,
// shared_credentials_wo (+ version), user_scopes; their schema, checks, and
// how they go to and come back from the service; and the plan-time check of
// the tool slugs in tool_access_config.

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
			Validators:    []validator.List{listvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1)), listvalidator.UniqueValues()},
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

// acAttrTypes are the framework types of the top-level attributes, for
// codec.Replace (ModifyPlan and Create write several attributes at once).
var acAttrTypes = sync.OnceValue(func() codec.Types {
	var resp resource.SchemaResponse
	(&authConfigResource{}).Schema(context.Background(), resource.SchemaRequest{}, &resp)
	return codec.TypesOf(authConfigResourceType, resp.Schema)
})
