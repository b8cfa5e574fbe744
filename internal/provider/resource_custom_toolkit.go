package provider

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

const customToolkitType = "service_custom_toolkit"

var customAuthModes = []string{client.CustomAuthNoAuth, client.CustomAuthAPIKey, client.CustomAuthDCROAuth}

// customSlugRe: letters, digits, underscores and spaces (the service turns
// spaces into underscores).
var customSlugRe = regexp.MustCompile(`^[A-Za-z0-9_ ]{1,64}$`)

var (
	_ resource.Resource                   = (*customToolkitResource)(nil)
	_ resource.ResourceWithConfigure      = (*customToolkitResource)(nil)
	_ resource.ResourceWithImportState    = (*customToolkitResource)(nil)
	_ resource.ResourceWithIdentity       = (*customToolkitResource)(nil)
	_ resource.ResourceWithValidateConfig = (*customToolkitResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*customToolkitResource)(nil)
)

// NewCustomToolkitResource returns the service_custom_toolkit resource.
func NewCustomToolkitResource() resource.Resource { return &customToolkitResource{} }

type customToolkitResource struct {
	data *ProviderData
}

type customToolkitModel struct {
	ID          types.String           `tfsdk:"id"`
	Slug        types.String           `tfsdk:"slug"`
	Name        types.String           `tfsdk:"name"`
	Description types.String           `tfsdk:"description"`
	AppURL      types.String           `tfsdk:"app_url"`
	AuthScheme  *customToolkitAuthSpec `tfsdk:"auth_scheme"`
}

type customToolkitAuthSpec struct {
	Mode         types.String `tfsdk:"mode"`
	Headers      types.Map    `tfsdk:"headers"`
	DiscoveryURL types.String `tfsdk:"discovery_url"`
}

func (r *customToolkitResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_custom_toolkit"
}

// IdentitySchema: the custom toolkit's identity is its id (see identity.go).
func (r *customToolkitResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = idIdentitySchema("custom toolkit (its slug)", "CUSTOM_ACME")
}

func (r *customToolkitResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A custom toolkit: a remote MCP server registered with the service. Its tools become a " +
			"toolkit of the project, named `CUSTOM_` + the upper-cased `slug` (`id`), usable as the `toolkit` of a " +
			"`service_auth_config` like any toolkit. `app_url` and `auth_scheme` cannot change on the service: " +
			"changing them replaces the toolkit, and deleting a custom toolkit also deletes its auth configs and " +
			"connected accounts. The emulator reaches no MCP server, so there a custom toolkit has no tools.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The toolkit slug the service gives the toolkit: `CUSTOM_` + `slug` in upper case, " +
					"spaces turned into underscores (e.g. `CUSTOM_ACME`). Use it as a `service_auth_config`'s `toolkit`.",
				Computed:      true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"slug": schema.StringAttribute{
				MarkdownDescription: "Slug to register, without the `CUSTOM_` prefix: letters, digits, underscores " +
					"and spaces, at most 64 characters. Changing it replaces the toolkit.",
				Required: true,
				Validators: []validator.String{stringvalidator.RegexMatches(customSlugRe,
					"must be 1 to 64 letters, digits, underscores or spaces")},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplaceIf(customSlugChanged,
					"Changing the slug (other than its case or a CUSTOM_ prefix) replaces the toolkit.",
					"Changing the slug (other than its case or a `CUSTOM_` prefix) replaces the toolkit.")},
			},
			"name": schema.StringAttribute{
				MarkdownDescription: "Display name (not blank, no surrounding white space). Updated in place.",
				Required:            true,
				Validators:          []validator.String{stringvalidator.UTF8LengthBetween(1, 255), displayNameValidator()},
			},
			"description": schema.StringAttribute{
				MarkdownDescription: "Description shown for the toolkit. Updated in place; when unset the service's " +
					"value is kept.",
				Optional:      true,
				Computed:      true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"app_url": schema.StringAttribute{
				MarkdownDescription: "Public http(s) URL of the remote MCP server. Cannot change on the service: " +
					"changing it replaces the toolkit (with its auth configs and connected accounts).",
				Required:      true,
				Validators:    []validator.String{httpURLValidator()},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"auth_scheme": schema.SingleNestedAttribute{
				MarkdownDescription: "How the service authenticates to the MCP server. Cannot change on the service: " +
					"changing it replaces the toolkit. The service does not report `headers` or `discovery_url` " +
					"back, so they are not checked for drift; after an import the configured values are adopted in " +
					"place (no replacement).",
				Required: true,
				PlanModifiers: []planmodifier.Object{objectplanmodifier.RequiresReplaceIf(customAuthSchemeChanged,
					"Changing the auth scheme replaces the toolkit.", "Changing the auth scheme replaces the toolkit.")},
				Attributes: map[string]schema.Attribute{
					"mode": schema.StringAttribute{
						MarkdownDescription: "`NO_AUTH`, `API_KEY` (each connected account gives an API key, sent in " +
							"`headers`) or `DCR_OAUTH` (OAuth with dynamic client registration, from `discovery_url`).",
						Required:   true,
						Validators: []validator.String{stringvalidator.OneOf(customAuthModes...)},
					},
					"headers": schema.MapAttribute{
						MarkdownDescription: "For `API_KEY` (required): headers sent to the MCP server; at least one " +
							"value must contain `" + client.CustomAPIKeyPlaceholder + "`, replaced by the connected " +
							"account's key (e.g. `Authorization = \"Bearer " + client.CustomAPIKeyPlaceholder + "\"`).",
						Optional:    true,
						ElementType: types.StringType,
						Validators:  []validator.Map{headerFields()},
					},
					"discovery_url": schema.StringAttribute{
						MarkdownDescription: "For `DCR_OAUTH` (required): the OAuth authorization server metadata URL " +
							"(e.g. `https://mcp.example.com/.well-known/oauth-authorization-server`).",
						Optional:   true,
						Validators: []validator.String{httpURLValidator()},
					},
				},
			},
		},
	}
}

// customAuthSchemeChanged: another mode, or headers or a discovery_url that
// differ from known ones, force replacement. Headers or a discovery_url the
// state does not know (an imported toolkit: the service never reports them)
// are taken from the configuration in place, so adopting an existing toolkit
// with its documented configuration does not replace it (and with it every
// auth config and connected account built on it).
func customAuthSchemeChanged(ctx context.Context, req planmodifier.ObjectRequest, resp *objectplanmodifier.RequiresReplaceIfFuncResponse) {
	var plan, state customToolkitAuthSpec
	if req.PlanValue.IsUnknown() || req.StateValue.IsNull() ||
		req.PlanValue.As(ctx, &plan, basetypes.ObjectAsOptions{}).HasError() ||
		req.StateValue.As(ctx, &state, basetypes.ObjectAsOptions{}).HasError() {
		resp.RequiresReplace = true
		return
	}
	resp.RequiresReplace = !strings.EqualFold(plan.Mode.ValueString(), state.Mode.ValueString()) || plan.Mode.IsUnknown() ||
		(!state.Headers.IsNull() && !plan.Headers.Equal(state.Headers)) ||
		(!state.DiscoveryURL.IsNull() && !plan.DiscoveryURL.Equal(state.DiscoveryURL))
}

// customSlugChanged: only a slug naming another toolkit forces replacement.
func customSlugChanged(_ context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
	resp.RequiresReplace = client.CustomToolkitSlug(req.PlanValue.ValueString()) != client.CustomToolkitSlug(req.StateValue.ValueString())
}

func (r *customToolkitResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

// ModifyPlan checks, for a toolkit to create (or to replace under another
// slug), that the project has no toolkit with that slug yet: the service
// refuses the create (409) after the rest of the apply has run. Nothing is
// written; one GET, only when a toolkit is created.
func (r *customToolkitResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	remotePlanChecks(ctx, customToolkitType, req, resp, func() { r.modifyPlan(ctx, req, resp) })
}

// privateKeyReplacingToolkit holds, in the private data of a replacement's plan,
// the id of the toolkit being replaced (see modifyPlan).
const privateKeyReplacingToolkit = "replacing_toolkit"

func (r *customToolkitResource) modifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if !r.data.Configured() {
		return
	}
	var slug, stateID types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("slug"), &slug)...)
	if !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("id"), &stateID)...)
	}
	if resp.Diagnostics.HasError() || slug.IsUnknown() || slug.IsNull() || !customSlugRe.MatchString(slug.ValueString()) {
		return
	}
	want := client.CustomToolkitSlug(slug.ValueString())
	if !stateID.IsNull() {
		if resp.Private != nil {
			// Should this plan be a replacement (app_url or the auth mode
			// changed), Terraform plans its create again with no prior
			// state and this plan's private data: remember whose slug it
			// is. (The framework shows a resource's ModifyPlan only its own
			// RequiresReplace, not its attributes'.)
			resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateKeyReplacingToolkit, []byte(strconv.Quote(stateID.ValueString())))...)
		}
		if strings.EqualFold(stateID.ValueString(), want) {
			return // the toolkit this resource manages
		}
	}
	if req.Private != nil {
		if b, d := req.Private.GetKey(ctx, privateKeyReplacingToolkit); !d.HasError() && len(b) > 0 {
			if replaced, err := strconv.Unquote(string(b)); err == nil && strings.EqualFold(replaced, want) {
				return // the create half of this resource's replacement: the toolkit is deleted first
			}
		}
	}
	tk, err := r.data.Client.GetToolkit(ctx, want, "")
	if err != nil {
		if !client.IsNotFound(err) {
			tflog.Debug(ctx, "custom toolkit slug not checked at plan time", map[string]any{"slug": want, "error": err.Error()})
		}
		return
	}
	resp.Diagnostics.AddAttributeError(path.Root("slug"), "Toolkit already exists",
		fmt.Sprintf("Attribute slug: the project already has a toolkit %s, so the service would refuse to register "+
			"another. Manage the existing one instead: import it with\n\n  terraform import %s.<name> %s\n\n(or an "+
			"`import { to = %s.<name>, id = %q }` block), delete it first, or choose another slug.",
			tk.Slug, customToolkitType, tk.Slug, customToolkitType, tk.Slug))
}

// ValidateConfig checks that auth_scheme carries what its mode needs.
func (r *customToolkitResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var as *customToolkitAuthSpec
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("auth_scheme"), &as)...)
	if resp.Diagnostics.HasError() || as == nil || as.Mode.IsUnknown() || as.Mode.IsNull() {
		return
	}
	mode := as.Mode.ValueString()
	headersPath := path.Root("auth_scheme").AtName("headers")
	discoveryPath := path.Root("auth_scheme").AtName("discovery_url")
	if mode != client.CustomAuthAPIKey && !as.Headers.IsNull() {
		resp.Diagnostics.AddAttributeError(headersPath, "headers only for API_KEY",
			fmt.Sprintf("Attribute auth_scheme.headers is only used with mode %q; mode is %q. Remove headers.", client.CustomAuthAPIKey, mode))
	}
	if mode != client.CustomAuthDCROAuth && !as.DiscoveryURL.IsNull() {
		resp.Diagnostics.AddAttributeError(discoveryPath, "discovery_url only for DCR_OAUTH",
			fmt.Sprintf("Attribute auth_scheme.discovery_url is only used with mode %q; mode is %q. Remove discovery_url.", client.CustomAuthDCROAuth, mode))
	}
	switch mode {
	case client.CustomAuthAPIKey:
		if as.Headers.IsNull() {
			resp.Diagnostics.AddAttributeError(headersPath, "Missing headers",
				fmt.Sprintf("Attribute auth_scheme.headers is required with mode API_KEY: give the header(s) that carry "+
					"the key, with %s where the key goes, e.g. { Authorization = \"Bearer %s\" }.",
					client.CustomAPIKeyPlaceholder, client.CustomAPIKeyPlaceholder))
			return
		}
		if as.Headers.IsUnknown() {
			return
		}
		found, known := false, true
		for _, v := range as.Headers.Elements() {
			s, ok := v.(types.String)
			if !ok || s.IsUnknown() {
				known = false
				continue
			}
			found = found || strings.Contains(s.ValueString(), client.CustomAPIKeyPlaceholder)
		}
		if known && !found {
			resp.Diagnostics.AddAttributeError(headersPath, "API key placeholder missing",
				fmt.Sprintf("Attribute auth_scheme.headers: at least one header value must contain %s, which the "+
					"service replaces with the connected account's API key (e.g. \"Bearer %s\").",
					client.CustomAPIKeyPlaceholder, client.CustomAPIKeyPlaceholder))
		}
	case client.CustomAuthDCROAuth:
		if as.DiscoveryURL.IsNull() {
			resp.Diagnostics.AddAttributeError(discoveryPath, "Missing discovery_url",
				"Attribute auth_scheme.discovery_url is required with mode DCR_OAUTH: the MCP server's OAuth "+
					"authorization server metadata URL (e.g. https://mcp.example.com/.well-known/oauth-authorization-server).")
		}
	}
}

// customToolkitConfig builds the registration body from the plan.
func customToolkitConfig(ctx context.Context, m customToolkitModel) (client.CustomToolkitConfig, error) {
	scheme := client.CustomAuthScheme{Mode: m.AuthScheme.Mode.ValueString(), DiscoveryURL: m.AuthScheme.DiscoveryURL.ValueString()}
	if !m.AuthScheme.Headers.IsNull() {
		if d := m.AuthScheme.Headers.ElementsAs(ctx, &scheme.Headers, false); d.HasError() {
			return client.CustomToolkitConfig{}, errors.New("auth_scheme.headers: not a map of strings")
		}
	}
	cfg := client.CustomToolkitConfig{Name: m.Name.ValueString(), AppURL: m.AppURL.ValueString(),
		AuthSchemes: []client.CustomAuthScheme{scheme}}
	if acKnownString(m.Description) {
		cfg.Description = m.Description.ValueString()
	}
	return cfg, nil
}

func (r *customToolkitResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer identityFromState(ctx, &resp.State, resp.Identity, &resp.Diagnostics)
	if resp.Private != nil {
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateKeyReplacingToolkit, nil)...) // a plan's note, not state
	}
	if !requireClient(r.data, &resp.Diagnostics) {
		return
	}
	var plan customToolkitModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	cfg, err := customToolkitConfig(ctx, plan)
	if err != nil {
		resp.Diagnostics.AddError("Invalid auth_scheme", err.Error())
		return
	}
	slug, err := r.data.Client.CreateCustomToolkit(ctx, plan.Slug.ValueString(), cfg)
	if err != nil {
		addAPIError(&resp.Diagnostics, "creating", customToolkitType, client.CustomToolkitSlug(plan.Slug.ValueString()), err)
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), types.StringValue(slug))...)
	if r.readInto(ctx, slug, &plan, &resp.Diagnostics) {
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	}
}

// readInto reads the toolkit into m; false (with the error reported) when
// the read failed.
func (r *customToolkitResource) readInto(ctx context.Context, slug string, m *customToolkitModel, diags *diag.Diagnostics) bool {
	tk, err := r.data.Client.GetToolkit(ctx, slug, "")
	if err != nil {
		addAPIError(diags, "reading", customToolkitType, slug, err)
		return false
	}
	applyCustomToolkit(m, tk)
	return true
}

// applyCustomToolkit copies the service's view of the toolkit into m,
// keeping the configured spelling of slug and the auth scheme details the
// service does not report.
func applyCustomToolkit(m *customToolkitModel, tk *client.Toolkit) {
	m.ID = types.StringValue(tk.Slug)
	if m.Slug.IsNull() || m.Slug.IsUnknown() || client.CustomToolkitSlug(m.Slug.ValueString()) != strings.ToUpper(tk.Slug) {
		m.Slug = types.StringValue(strings.TrimPrefix(tk.Slug, client.CustomToolkitPrefix))
	}
	m.Name = types.StringValue(tk.Name)
	m.Description = types.StringValue(tk.Meta.Description)
	m.AppURL = types.StringValue(tk.Meta.AppURL)
	mode := ""
	if len(tk.AuthConfigDetails) > 0 {
		mode = strings.ToUpper(tk.AuthConfigDetails[0].Mode)
	}
	switch {
	case m.AuthScheme == nil:
		m.AuthScheme = &customToolkitAuthSpec{Mode: types.StringValue(mode), Headers: types.MapNull(types.StringType),
			DiscoveryURL: types.StringNull()}
	case mode != "" && !strings.EqualFold(m.AuthScheme.Mode.ValueString(), mode):
		// Changed outside Terraform (delete + register again): the next
		// plan shows the replacement back to the configured scheme.
		m.AuthScheme = &customToolkitAuthSpec{Mode: types.StringValue(mode), Headers: types.MapNull(types.StringType),
			DiscoveryURL: types.StringNull()}
	}
}

func (r *customToolkitResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	identityFromPriorState(ctx, req, resp)
	var state customToolkitModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() || !r.data.Configured() {
		return
	}
	id := state.ID.ValueString()
	tk, err := r.data.Client.GetToolkit(ctx, id, "")
	if readFailed(ctx, resp, customToolkitType, id, err) {
		return
	}
	resp.Diagnostics.Append(readCustomToolkit(&state, tk)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// readCustomToolkit is the Read after its GET: it updates state (the prior
// state; after an import only its id) from the service's toolkit tk, which
// must be a custom one. The service_custom_toolkit list resource applies it
// to each listed toolkit.
func readCustomToolkit(state *customToolkitModel, tk *client.Toolkit) diag.Diagnostics {
	var diags diag.Diagnostics
	if tk.Type != "" && tk.Type != "custom" {
		diags.AddError("Not a custom toolkit",
			fmt.Sprintf("Toolkit %q is a %s toolkit of the service, not a custom toolkit of the project; only custom "+
				"toolkits (%s...) can be managed with %s.", tk.Slug, tk.Type, client.CustomToolkitPrefix, customToolkitType))
		return diags
	}
	applyCustomToolkit(state, tk)
	return diags
}

func (r *customToolkitResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer identityFromState(ctx, &resp.State, resp.Identity, &resp.Diagnostics)
	if resp.Private != nil {
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateKeyReplacingToolkit, nil)...) // a plan's note, not state
	}
	if !requireClient(r.data, &resp.Diagnostics) {
		return
	}
	var plan, state customToolkitModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	id := state.ID.ValueString()
	in := client.UpdateCustomToolkitRequest{}
	if !plan.Name.Equal(state.Name) {
		v := plan.Name.ValueString()
		in.Name = &v
	}
	if acKnownString(plan.Description) && !plan.Description.Equal(state.Description) {
		v := plan.Description.ValueString()
		in.Description = &v
	}
	if in.Name != nil || in.Description != nil {
		if err := r.data.Client.UpdateCustomToolkit(ctx, id, in); err != nil {
			addAPIError(&resp.Diagnostics, "updating", customToolkitType, id, err)
			return
		}
	}
	plan.ID = state.ID
	if r.readInto(ctx, id, &plan, &resp.Diagnostics) {
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	}
}

func (r *customToolkitResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	if !requireClient(r.data, &resp.Diagnostics) {
		return
	}
	var state customToolkitModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	id := state.ID.ValueString()
	addDeleteError(&resp.Diagnostics, customToolkitType, id, r.data.Client.DeleteCustomToolkit(ctx, id))
}

// ImportState imports by the toolkit slug (CUSTOM_...); a slug without the
// prefix is accepted and completed.
func (r *customToolkitResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	id := importIDOf(ctx, req, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if !customSlugRe.MatchString(strings.TrimPrefix(strings.ToUpper(id), client.CustomToolkitPrefix)) {
		resp.Diagnostics.AddError("Invalid import id",
			fmt.Sprintf("Expected a custom toolkit slug such as CUSTOM_ACME (the service_toolkits data source with "+
				"type = \"custom\" lists them), got %q.", id))
		return
	}
	slug := client.CustomToolkitSlug(id)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), slug)...)
	setIdentity(ctx, resp.Identity, slug, &resp.Diagnostics)
}
