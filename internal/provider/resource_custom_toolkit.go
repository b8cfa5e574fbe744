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
	"github.com/integration-service/terraform-provider-service/internal/provider/codec"
	"github.com/integration-service/terraform-provider-service/internal/provider/destroyrun"
	"github.com/integration-service/terraform-provider-service/internal/provider/diagnostics"
	"github.com/integration-service/terraform-provider-service/internal/provider/identity"
	"github.com/integration-service/terraform-provider-service/internal/provider/validators"
)

const customToolkitType = "service_custom_toolkit"

var customAuthModes = []string{client.CustomAuthNoAuth, client.CustomAuthAPIKey, client.CustomAuthDCROAuth}

// customSlugRe: letters, digits, underscores and spaces (the service turns
// spaces into underscores), as long as a toolkit registered before the
// service's SDKs capped the slug (customSlugCreateMax) may be.
var customSlugRe = regexp.MustCompile(`^[A-Za-z0-9_ ]{1,64}$`)

// customSlugCreateMax is the longest slug a new toolkit may have:
// @composio/core (0.21.0) refuses longer ones before sending, since the
// service's custom toolkit changes of 2026-11-03. Whether the service itself
// still takes longer ones is not documented, so a longer slug is refused only
// for a toolkit to create: one registered earlier is still imported and
// managed under its slug.
const customSlugCreateMax = 30

var (
	_ managedResource                     = (*customToolkitResource)(nil)
	_ resource.ResourceWithValidateConfig = (*customToolkitResource)(nil)
	_ resource.ResourceWithUpgradeState   = (*customToolkitResource)(nil)
)

// NewCustomToolkitResource returns the service_custom_toolkit resource.
func NewCustomToolkitResource() resource.Resource {
	return &customToolkitResource{resourceBase{typeNamed("custom_toolkit")}}
}

type customToolkitResource struct{ resourceBase }

type customToolkitModel struct {
	ID          types.String           `tfsdk:"id"`
	Slug        types.String           `tfsdk:"slug"`
	Name        types.String           `tfsdk:"name"`
	Description types.String           `tfsdk:"description"`
	MCPURL      types.String           `tfsdk:"mcp_url"`
	AppURL      types.String           `tfsdk:"app_url"` // deprecated: the former name of mcp_url, same value
	AuthScheme  *customToolkitAuthSpec `tfsdk:"auth_scheme"`
}

type customToolkitAuthSpec struct {
	Mode         types.String `tfsdk:"mode"`
	Headers      types.Map    `tfsdk:"headers"`
	DiscoveryURL types.String `tfsdk:"discovery_url"`
}

// IdentitySchema: the custom toolkit's identity is its id (see package identity).
func (r *customToolkitResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identity.Schema("custom toolkit (its slug)", "CUSTOM_ACME")
}

// customToolkitSchemaVersion is the schema version: 1 since the MCP server
// URL is mcp_url (version 0, until then, had only app_url).
const customToolkitSchemaVersion = 1

func (r *customToolkitResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Version: customToolkitSchemaVersion,
		MarkdownDescription: "A custom toolkit: a remote MCP server registered with the service, shared with every " +
			"user of the project (the service's `user_id = \"all\"`; a toolkit private to one user, and the " +
			"`connect_link` the service may answer for one, are not managed here). Its tools become a toolkit of " +
			"the project, named `CUSTOM_` + the upper-cased `slug` (`id`), usable as the `toolkit` of a " +
			"`service_auth_config` like any toolkit. Only `name` changes in place: the service's update changes " +
			"only a toolkit's name, logo and API key field texts, so a change of `mcp_url`, `auth_scheme` or " +
			"`description` replaces the toolkit, and deleting a custom toolkit also deletes its auth configs and " +
			"connected accounts. The emulator reaches no MCP server, so there a custom toolkit has no tools.",
		Attributes: map[string]schema.Attribute{
			"id": idAttribute("The toolkit slug the service gives the toolkit: `CUSTOM_` + `slug` in upper case, " +
				"spaces turned into underscores (e.g. `CUSTOM_ACME`). Use it as a `service_auth_config`'s `toolkit`."),
			"slug": schema.StringAttribute{
				MarkdownDescription: "Slug to register, without the `CUSTOM_` prefix: letters, digits, underscores " +
					"and spaces, at most 30 characters for a toolkit to create (the service's SDKs refuse longer " +
					"ones); a toolkit registered earlier with a longer slug, up to 64 characters, can still be " +
					"imported and managed. Changing it replaces the toolkit.",
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
				Validators:          []validator.String{stringvalidator.UTF8LengthBetween(1, 255), validators.DisplayName()},
			},
			"description": schema.StringAttribute{
				MarkdownDescription: "Description shown for the toolkit, sent when it is registered. The service " +
					"cannot change it afterwards (its update takes only the name, logo and API key field texts), " +
					"so changing it replaces the toolkit (with its auth configs and connected accounts); when " +
					"unset the service's value is kept.",
				Optional: true,
				Computed: true,
				PlanModifiers: []planmodifier.String{
					stringplanmodifier.UseStateForUnknown(),
					stringplanmodifier.RequiresReplaceIf(func(_ context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
						resp.RequiresReplace = !req.ConfigValue.IsNull()
					}, "The service cannot change a custom toolkit's description: changing it replaces the toolkit.",
						"The service cannot change a custom toolkit's description: changing it replaces the toolkit."),
				},
			},
			"mcp_url": schema.StringAttribute{
				MarkdownDescription: "Public http(s) URL of the remote MCP server, sent to the service as " +
					"`toolkit_config.mcp_url` (its name since the service's change of 2026-11-09). Set exactly one " +
					"of `mcp_url` and the deprecated `app_url`; `mcp_url` holds the URL in state either way. Cannot change " +
					"on the service: changing it replaces the toolkit (with its auth configs and connected " +
					"accounts). Read back from whichever field the service reports, `meta.mcp_url` or " +
					"`meta.app_url` (how the service reports it since the change is not documented).",
				Optional:      true,
				Computed:      true,
				Validators:    []validator.String{validators.HTTPURL()},
				PlanModifiers: []planmodifier.String{mcpURLPlan(), stringplanmodifier.RequiresReplace()},
			},
			"app_url": schema.StringAttribute{
				MarkdownDescription: "Deprecated: the former name of `mcp_url`, kept for this minor version (set " +
					"one of the two). Where it is used (configured, or in a state written before `mcp_url` " +
					"existed) it holds the same URL as `mcp_url`, so references to it keep working; otherwise, " +
					"as after an import, it is null. Renaming `app_url` to `mcp_url` in a configuration plans no " +
					"change.",
				DeprecationMessage: "Use mcp_url: app_url is the former name of the MCP server URL, which the service " +
					"calls mcp_url since 2026-11-09. Rename the argument (the value stays the same, nothing is " +
					"replaced); app_url will be removed in the next major version.",
				Optional:      true,
				Computed:      true,
				Validators:    []validator.String{validators.HTTPURL()},
				PlanModifiers: []planmodifier.String{appURLPlan(), stringplanmodifier.RequiresReplace()},
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
						Validators:  []validator.Map{validators.HeaderFields()},
					},
					"discovery_url": schema.StringAttribute{
						MarkdownDescription: "For `DCR_OAUTH` (required): the OAuth authorization server metadata URL " +
							"(e.g. `https://mcp.example.com/.well-known/oauth-authorization-server`).",
						Optional:   true,
						Validators: []validator.String{validators.HTTPURL()},
					},
				},
			},
		},
	}
}

// mcpURLPlan and appURLPlan plan mcp_url and app_url as one URL under two
// names. mcp_url always holds it: left out of the configuration, it takes
// app_url's configured value. app_url holds it only where it is used: when
// configured, or when the state already holds it (states written before
// mcp_url existed, moved by UpgradeState); otherwise it stays null (a toolkit
// created or imported with mcp_url, so that `-generate-config-out` writes a
// valid block). Renaming app_url to mcp_url in a configuration therefore
// plans no change. ValidateConfig refuses both or neither.
func mcpURLPlan() planmodifier.String { return urlPlan{other: "app_url"} }

func appURLPlan() planmodifier.String { return urlPlan{other: "mcp_url", onlyWhereUsed: true} }

type urlPlan struct {
	other         string
	onlyWhereUsed bool
}

func (m urlPlan) Description(context.Context) string {
	if m.onlyWhereUsed {
		return "the value of " + m.other + " when not configured and already in state, else null"
	}
	return "the value of " + m.other + " when not configured"
}

func (m urlPlan) MarkdownDescription(ctx context.Context) string { return m.Description(ctx) }

func (m urlPlan) PlanModifyString(ctx context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if !req.ConfigValue.IsNull() {
		return // configured: its own value
	}
	if m.onlyWhereUsed && req.StateValue.IsNull() {
		resp.PlanValue = types.StringNull()
		return
	}
	var other types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root(m.other), &other)...)
	if resp.Diagnostics.HasError() || other.IsNull() {
		return // neither is configured: ValidateConfig reports it
	}
	resp.PlanValue = other
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

// ModifyPlan checks, for a toolkit to create (or to replace under another
// slug), that the project has no toolkit with that slug yet: the service
// refuses the create (409) after the rest of the apply has run. Nothing is
// written; one GET, only when a toolkit is created.
func (r *customToolkitResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	destroyrun.RemotePlanChecks(ctx, customToolkitType, req, resp, func() { r.modifyPlan(ctx, req, resp) })
}

// privateKeyReplacingToolkit holds, in the private data of a replacement's plan,
// the id of the toolkit being replaced (see modifyPlan).
const privateKeyReplacingToolkit = "replacing_toolkit"

func (r *customToolkitResource) modifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if !r.data.Configured() {
		return
	}
	var plan, state customToolkitModel // all modifyPlan reads
	resp.Diagnostics.Append(codec.GetAttributes(ctx, req.Plan, &plan, "slug")...)
	if !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(codec.GetAttributes(ctx, req.State, &state, "id")...)
	}
	slug, stateID := plan.Slug, state.ID
	if resp.Diagnostics.HasError() || slug.IsUnknown() || slug.IsNull() || !customSlugRe.MatchString(slug.ValueString()) {
		return
	}
	if req.State.Raw.IsNull() && len(slug.ValueString()) > customSlugCreateMax {
		resp.Diagnostics.AddAttributeError(path.Root("slug"), "Slug too long",
			fmt.Sprintf("Attribute slug: a new custom toolkit's slug is at most %d characters (the service's SDKs "+
				"refuse longer ones), got %d. Choose a shorter slug; a toolkit registered earlier with a longer "+
				"slug can be imported.", customSlugCreateMax, len(slug.ValueString())))
		return
	}
	want := client.CustomToolkitSlug(slug.ValueString())
	if !stateID.IsNull() {
		if resp.Private != nil {
			// Should this plan be a replacement (mcp_url, description or
			// the auth mode changed), Terraform plans its create again with no prior
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
			"another. Choose another slug, delete the existing toolkit first, or manage it instead.\n\n%s",
			tk.Slug, diagnostics.ImportHint(customToolkitType, tk.Slug)))
}

// ValidateConfig checks that the MCP server URL is given once (mcp_url, or
// the deprecated app_url) and that auth_scheme carries what its mode needs.
func (r *customToolkitResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var cfg customToolkitModel // ValidateConfig reads three attributes
	resp.Diagnostics.Append(codec.GetAttributes(ctx, req.Config, &cfg, "mcp_url", "app_url")...)
	mcpURL, appURL := cfg.MCPURL, cfg.AppURL
	switch {
	case resp.Diagnostics.HasError():
		return
	case !mcpURL.IsNull() && !appURL.IsNull():
		resp.Diagnostics.AddAttributeError(path.Root("app_url"), "mcp_url and app_url both set",
			"Attribute app_url is the deprecated former name of mcp_url: give the MCP server URL once, as mcp_url, "+
				"and remove app_url.")
	case mcpURL.IsNull() && appURL.IsNull():
		resp.Diagnostics.AddAttributeError(path.Root("mcp_url"), "Missing mcp_url",
			"Attribute mcp_url is required: the public http(s) URL of the remote MCP server (app_url, its "+
				"deprecated former name, is accepted instead).")
	}
	resp.Diagnostics.Append(codec.GetAttributes(ctx, req.Config, &cfg, "auth_scheme")...)
	as := cfg.AuthScheme
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
	mcpURL := m.MCPURL
	if mcpURL.IsNull() || mcpURL.IsUnknown() {
		mcpURL = m.AppURL // both hold the URL once planned; this covers a plan built otherwise
	}
	cfg := client.CustomToolkitConfig{Name: m.Name.ValueString(), MCPURL: mcpURL.ValueString(),
		AuthSchemes: []client.CustomAuthScheme{scheme}}
	if codec.Known(m.Description) {
		cfg.Description = m.Description.ValueString()
	}
	return cfg, nil
}

func (r *customToolkitResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	if destroyrun.Refused(ctx, customToolkitType, req.Config, &resp.Diagnostics) {
		return // refused at plan under a test command (destroyrun.InTest): nothing written
	}
	defer identity.FromState(ctx, &resp.State, resp.Identity, &resp.Diagnostics)
	if resp.Private != nil {
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateKeyReplacingToolkit, nil)...) // a plan's note, not state
	}
	if !requireClient(r.data, &resp.Diagnostics) {
		return
	}
	var plan customToolkitModel
	resp.Diagnostics.Append(codec.Get(ctx, req.Plan, &plan)...)
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
		diagnostics.AddAPIError(&resp.Diagnostics, "creating", customToolkitType, client.CustomToolkitSlug(plan.Slug.ValueString()), err)
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), types.StringValue(slug))...)
	if r.readInto(ctx, slug, &plan, &resp.Diagnostics) {
		resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &plan)...)
	}
}

// readInto reads the toolkit into m; false (with the error reported) when
// the read failed.
func (r *customToolkitResource) readInto(ctx context.Context, slug string, m *customToolkitModel, diags *diag.Diagnostics) bool {
	tk, err := r.data.Client.GetToolkit(ctx, slug, "")
	if err != nil {
		diagnostics.AddAPIError(diags, "reading", customToolkitType, slug, err)
		return false
	}
	diags.Append(m.fill(ctx, tk)...)
	return true
}

// fill copies the service's view of the toolkit into m,
// keeping the configured spelling of slug and the auth scheme details the
// service does not report.
func (m *customToolkitModel) fill(_ context.Context, tk *client.Toolkit) diag.Diagnostics {
	m.ID = types.StringValue(tk.Slug)
	if m.Slug.IsNull() || m.Slug.IsUnknown() || client.CustomToolkitSlug(m.Slug.ValueString()) != strings.ToUpper(tk.Slug) {
		m.Slug = types.StringValue(strings.TrimPrefix(tk.Slug, client.CustomToolkitPrefix))
	}
	m.Name = types.StringValue(tk.Name)
	m.Description = types.StringValue(tk.Meta.Description)
	// The MCP server URL from whichever field the service reports it in
	// (mcp_url, or app_url); the deprecated app_url holds it where it is
	// used (see appURLPlan), and stays null after an import.
	m.MCPURL = types.StringValue(tk.Meta.URL())
	if !m.AppURL.IsNull() {
		m.AppURL = m.MCPURL
	}
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
	return nil
}

func (r *customToolkitResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state customToolkitModel
	if !r.readState(ctx, req, resp, &state) {
		return
	}
	id := state.ID.ValueString()
	tk, err := r.data.Client.GetToolkit(ctx, id, "")
	if diagnostics.ReadFailed(ctx, resp, customToolkitType, id, err) {
		return
	}
	resp.Diagnostics.Append(state.fillRead(ctx, tk)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &state)...)
}

// fillRead is the Read after its GET: it updates m (the prior state; after
// an import only its id) from the service's toolkit tk, which
// must be a custom one. The service_custom_toolkit list resource applies it
// to each listed toolkit.
func (m *customToolkitModel) fillRead(ctx context.Context, tk *client.Toolkit) diag.Diagnostics {
	var diags diag.Diagnostics
	if tk.Type != "" && tk.Type != "custom" {
		diags.AddError("Not a custom toolkit",
			fmt.Sprintf("Toolkit %q is a %s toolkit of the service, not a custom toolkit of the project; only custom "+
				"toolkits (%s...) can be managed with %s.", tk.Slug, tk.Type, client.CustomToolkitPrefix, customToolkitType))
		return diags
	}
	return m.fill(ctx, tk)
}

func (r *customToolkitResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer identity.FromState(ctx, &resp.State, resp.Identity, &resp.Diagnostics)
	if resp.Private != nil {
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateKeyReplacingToolkit, nil)...) // a plan's note, not state
	}
	var plan, state customToolkitModel
	if !r.planAndState(ctx, req, resp, &plan, &state) {
		return
	}
	id := state.ID.ValueString()
	// Only the name changes in place (a new description, URL or auth scheme
	// replaces the toolkit: the service's update takes none of them).
	in := client.UpdateCustomToolkitRequest{}
	if !plan.Name.Equal(state.Name) {
		v := plan.Name.ValueString()
		in.Name = &v
	}
	if in.Name != nil {
		if err := r.data.Client.UpdateCustomToolkit(ctx, id, in); err != nil {
			diagnostics.AddAPIError(&resp.Diagnostics, "updating", customToolkitType, id, err)
			return
		}
	}
	plan.ID = state.ID
	if r.readInto(ctx, id, &plan, &resp.Diagnostics) {
		resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &plan)...)
	}
}

func (r *customToolkitResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state customToolkitModel // all Delete needs from the state
	if !r.deleteState(ctx, req, resp, &state, "id") {
		return
	}
	id := state.ID.ValueString()
	diagnostics.AddDeleteError(&resp.Diagnostics, customToolkitType, id, r.data.Client.DeleteCustomToolkit(ctx, id))
}

// ImportState imports by the toolkit slug (CUSTOM_...); a slug without the
// prefix is accepted and completed.
func (r *customToolkitResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	id := identity.ImportID(ctx, req, &resp.Diagnostics)
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
	identity.Set(ctx, resp.Identity, slug, &resp.Diagnostics)
}

// UpgradeState moves a state of schema version 0 (the releases before
// mcp_url, which wrote the MCP server URL as app_url) to version 1: mcp_url
// takes app_url's value and app_url keeps it (see appURLPlan), so the next
// plan is empty whichever of the two names the configuration uses (nothing
// is replaced, nothing is sent).
func (r *customToolkitResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{
		0: {
			PriorSchema: customToolkitSchemaV0(),
			StateUpgrader: func(ctx context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
				var old customToolkitModelV0
				resp.Diagnostics.Append(codec.Get(ctx, req.State, &old)...)
				if resp.Diagnostics.HasError() {
					return
				}
				resp.Diagnostics.Append(codec.Set(ctx, &resp.State, customToolkitModel{
					ID: old.ID, Slug: old.Slug, Name: old.Name, Description: old.Description,
					MCPURL: old.AppURL, AppURL: old.AppURL, AuthScheme: old.AuthScheme,
				})...)
			},
		},
	}
}

// customToolkitModelV0 is the state of schema version 0.
type customToolkitModelV0 struct {
	ID          types.String           `tfsdk:"id"`
	Slug        types.String           `tfsdk:"slug"`
	Name        types.String           `tfsdk:"name"`
	Description types.String           `tfsdk:"description"`
	AppURL      types.String           `tfsdk:"app_url"`
	AuthScheme  *customToolkitAuthSpec `tfsdk:"auth_scheme"`
}

// customToolkitSchemaV0 is the schema of version 0 as the releases before
// mcp_url declared it (types only: a prior schema only reads a state). Keep
// it as it is: it describes states already written.
func customToolkitSchemaV0() *schema.Schema {
	return &schema.Schema{
		Attributes: map[string]schema.Attribute{
			"id":          schema.StringAttribute{Computed: true},
			"slug":        schema.StringAttribute{Required: true},
			"name":        schema.StringAttribute{Required: true},
			"description": schema.StringAttribute{Optional: true, Computed: true},
			"app_url":     schema.StringAttribute{Required: true},
			"auth_scheme": schema.SingleNestedAttribute{
				Required: true,
				Attributes: map[string]schema.Attribute{
					"mode":          schema.StringAttribute{Required: true},
					"headers":       schema.MapAttribute{Optional: true, ElementType: types.StringType},
					"discovery_url": schema.StringAttribute{Optional: true},
				},
			},
		},
	}
}
