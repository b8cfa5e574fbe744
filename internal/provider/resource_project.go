package provider

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
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
	"github.com/integration-service/terraform-provider-service/internal/provider/importid"
	"github.com/integration-service/terraform-provider-service/internal/provider/planmodifiers"
	"github.com/integration-service/terraform-provider-service/internal/provider/validators"
)

const projectType = "service_project"

var _ managedResource = (*projectResource)(nil)

// NewProjectResource returns the service_project resource.
func NewProjectResource() resource.Resource {
	return &projectResource{resourceBase{orgTypeNamed("project")}}
}

type projectResource struct{ resourceBase }

type projectModel struct {
	ID                 types.String `tfsdk:"id"`
	Name               types.String `tfsdk:"name"`
	Config             types.Object `tfsdk:"config"`
	OrgID              types.String `tfsdk:"org_id"`
	CreatedAt          types.String `tfsdk:"created_at"`
	APIKey             types.String `tfsdk:"api_key"`
	APIKeyRotation     types.String `tfsdk:"api_key_rotation"`
	DeletionProtection types.Bool   `tfsdk:"deletion_protection"`
	RevokeOnDelete     types.Bool   `tfsdk:"revoke_on_delete"`
}

// projectConfigModel is the `config` block: the service's create-time
// settings (client.ProjectConfig).
type projectConfigModel struct {
	Is2FAEnabled                     types.Bool   `tfsdk:"is_2fa_enabled"`
	MaskSecretKeysInConnectedAccount types.Bool   `tfsdk:"mask_secret_keys_in_connected_account"`
	LogVisibilitySetting             types.String `tfsdk:"log_visibility_setting"`
	LogoURL                          types.String `tfsdk:"logo_url"`
	DisplayName                      types.String `tfsdk:"display_name"`
	RequireMCPAPIKey                 types.Bool   `tfsdk:"require_mcp_api_key"`
	HostedLinkForManagedAuth         types.Bool   `tfsdk:"hosted_link_enabled_for_managed_auth"`
	SignedURLFileExpiryInSeconds     types.Int64  `tfsdk:"signed_url_file_expiry_in_seconds"`
	ZDREnabled                       types.Bool   `tfsdk:"zdr_enabled"`
	OAuthCallbackVerifierURL         types.String `tfsdk:"oauth_callback_verifier_url"`
}

// projectNameRe is the service's rule for project names (the emulator
// enforces the same): 1 to 64 letters, digits, spaces, hyphens and
// underscores, starting with a letter or digit.
var projectNameRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9 _-]{0,63}$`)

// checkProjectName is the validate-time check of a project name.
func checkProjectName(name string) error {
	switch {
	case strings.TrimSpace(name) == "":
		return fmt.Errorf("a project name must not be blank")
	case len(name) > 64:
		return fmt.Errorf("%q is %d characters long; a project name has at most 64", name, len(name))
	case !projectNameRe.MatchString(name):
		return fmt.Errorf("%q is not a valid project name: use 1 to 64 letters, digits, spaces, hyphens and "+
			"underscores, starting with a letter or digit", name)
	}
	return nil
}

func projectNameValidator() validator.String {
	return validators.StringCheck{
		Desc:    "value must be 1 to 64 letters, digits, spaces, hyphens and underscores, starting with a letter or digit",
		Summary: "Invalid project name",
		Check:   checkProjectName,
	}
}

// IdentitySchema: the project's identity is its id (see package identity).
func (r *projectResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identity.Schema("project", "pr_AbC123xyz")
}

// projectConfigAttributes are the attributes of `config`.
func projectConfigAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"is_2fa_enabled": schema.BoolAttribute{
			MarkdownDescription: "Whether the project requires two-factor authentication (`is_2FA_enabled`). Required in `config`.",
			Required:            true,
		},
		"mask_secret_keys_in_connected_account": schema.BoolAttribute{
			MarkdownDescription: "Whether the service masks the secret fields (API keys, tokens) of the project's " +
				"connected accounts in its answers. Required in `config`.",
			Required: true,
		},
		"log_visibility_setting": schema.StringAttribute{
			MarkdownDescription: "What the service keeps of the project's request logs: `show_all` (everything) or " +
				"`dont_store_data` (no request or response data). The service's older setting, kept for existing " +
				"clients; the newer one is `zdr_enabled`, and the two are never sent together: set one of them, not " +
				"both (setting both is an error at validate). When neither is set the service's default applies.",
			Optional:   true,
			Validators: []validator.String{stringvalidator.OneOf(client.LogVisibilityShowAll, client.LogVisibilityDontStoreData)},
		},
		"zdr_enabled": schema.BoolAttribute{
			MarkdownDescription: "Zero Data Retention for the new project: when `true` the service keeps no request " +
				"arguments, response data or error text of the project's tool calls in its logs (metadata only). " +
				"When unset the plan's default applies (on for Enterprise, off for other paid plans); the Hobby plan " +
				"cannot enable it. Replaces `log_visibility_setting`, which must then be left out (setting both is an " +
				"error at validate).",
			Optional: true,
		},
		"oauth_callback_verifier_url": schema.StringAttribute{
			MarkdownDescription: "An `https` URL you host that the service calls to verify the identity of the user " +
				"completing an OAuth connection (per-user callback identity verification). When unset, no verification.",
			Optional:   true,
			Validators: []validator.String{validators.HTTPSURL()},
		},
		"logo_url": schema.StringAttribute{
			MarkdownDescription: "URL of the logo shown to the project's users (for example on the hosted connection page).",
			Optional:            true,
		},
		"display_name": schema.StringAttribute{
			MarkdownDescription: "Name shown to the project's users, when it should differ from `name`.",
			Optional:            true,
		},
		"require_mcp_api_key": schema.BoolAttribute{
			MarkdownDescription: "Whether the project's MCP server URLs require the project's API key. The service's default when unset.",
			Optional:            true,
		},
		"hosted_link_enabled_for_managed_auth": schema.BoolAttribute{
			MarkdownDescription: "Whether the service's hosted link (the connection page) is used for auth configs " +
				"with service-managed credentials (`is_composio_link_enabled_for_managed_auth`). The service's " +
				"default when unset.",
			Optional: true,
		},
		"signed_url_file_expiry_in_seconds": schema.Int64Attribute{
			MarkdownDescription: "Lifetime, in seconds, of the signed URLs of files the project's tools return. The " +
				"service's default when unset.",
			Optional: true,
		},
	}
}

func (r *projectResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A project of the organization: the container of auth configs, connected accounts, " +
			"triggers, webhooks, MCP servers and custom toolkits, with its own API key. Managed with the " +
			"organization's key (`org_api_key` in the provider block, or `" + EnvOrgAPIKey + "`); the project key " +
			"(`api_key`) cannot manage projects.\n\n" +
			"**Deleting a project deletes everything in it.** `deletion_protection` (on by default) makes a plan that " +
			"would destroy or replace the project fail; set it to `false` and apply before destroying.\n\n" +
			"Names are unique in the organization: a new project whose name is taken fails at plan, before any write. " +
			"The service cannot rename a project: changing `name` replaces it (which `deletion_protection` refuses).\n\n" +
			"`config` is taken when the project is created and can be neither read back nor changed: changing it on " +
			"an existing project is a plan error, never a silent replacement. An imported project has no `config` in " +
			"state, and its `api_key` stays null until the key is rotated with `api_key_rotation` (the first value given " +
			"after an import is a baseline and does not rotate).",
		Attributes: map[string]schema.Attribute{
			"id": idAttribute("The project id, used for import."),
			"name": schema.StringAttribute{
				MarkdownDescription: "Name of the project, unique in the organization: 1 to 64 letters, digits, spaces, " +
					"hyphens and underscores, starting with a letter or digit. The service cannot rename a project, " +
					"so changing it replaces the project (deleting everything in it), which `deletion_protection` " +
					"refuses while it is `true`. A name already taken in the organization fails at plan.",
				Required:      true,
				Validators:    []validator.String{projectNameValidator()},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"config": schema.SingleNestedAttribute{
				MarkdownDescription: "Settings the service takes **only when it creates the project**: it neither " +
					"returns them nor lets them be changed. Changing, adding or removing `config` on an existing " +
					"project is therefore a plan error (the provider never replaces a project silently): restore the " +
					"previous value. An imported project has no `config` in state: leave the block out, or add " +
					"`lifecycle { ignore_changes = [config] }`. To get a project with other settings, create a new " +
					"project (another resource, or another `name`). When the block is omitted the service's defaults apply.",
				Optional:   true,
				Attributes: projectConfigAttributes(),
				Validators: []validator.Object{projectConfigExclusive{}},
			},
			"org_id": schema.StringAttribute{
				MarkdownDescription: "Id of the organization the project belongs to.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"created_at": schema.StringAttribute{
				MarkdownDescription: "When the project was created (ISO 8601).",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"api_key": schema.StringAttribute{
				MarkdownDescription: "The project's API key: use it as the `api_key` of a provider configuration that " +
					"manages the project's objects. Sensitive; stored in state. The service shows a key's value only " +
					"when the project is created and when the key is regenerated, so after an import it is null until " +
					"the key is rotated: give `api_key_rotation` a value, apply, then change that value and apply again.",
				Computed:      true,
				Sensitive:     true,
				PlanModifiers: []planmodifier.String{projectKeyPlanModifier},
			},
			"api_key_rotation": schema.StringAttribute{
				MarkdownDescription: "Any string; changing it to a new value on an existing project regenerates the " +
					"project's API key in place and stores the new one in `api_key` (for example a date, `\"2026-01\"` then " +
					"`\"2026-02\"`). " +
					"**Every key of the project stops working at once**, including keys held by other tools and " +
					"services, so roll the new key out right after the apply. Giving it its first value does not rotate, " +
					"whether when creating the project, when adding it to an existing one or after an import (the value " +
					"is taken as the current key's: adopting a project never breaks the keys in use); removing it does " +
					"not rotate. Not read from the service, so an import leaves it unset, and the next change rotates, " +
					"which is how an imported project gets its `api_key` in state.",
				Optional: true,
			},
			"deletion_protection": schema.BoolAttribute{
				MarkdownDescription: "Whether Terraform may delete the project. Deleting a project deletes everything " +
					"in it (auth configs, connected accounts, triggers, MCP servers, ...), so while this is `true` " +
					"(the default) a plan that would destroy the project or replace it (a `name` change) fails, " +
					"before any change, including a plan whose resource block was removed. To delete the project, set it to " +
					"`false`, apply, then destroy (or remove the resource block). To stop managing it and keep it on the " +
					"service, replace the resource block with a `removed` block with `lifecycle { destroy = false }`.",
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(true),
			},
			"revoke_on_delete": schema.BoolAttribute{
				MarkdownDescription: "Whether deleting the project also revokes, at the upstream providers, the " +
					"credentials of every connected account in it (a background job of the service). Defaults to `false`.",
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(false),
			},
		},
	}
}

// projectKeyPlanModifier keeps api_key from state (null after an import)
// unless api_key_rotation asks for a rotation (then it is unknown). As with a
// webhook subscription's secret_rotation, the first value given after an
// import is the baseline (planmodifiers.PrivateKeyImported), not a rotation: adopting a
// project must not break the keys in use.
var projectKeyPlanModifier = planmodifiers.Rotated{Rotation: "api_key_rotation", What: "the API key"}

// ModifyPlan refuses, at plan and before any write, to destroy or replace a
// project under deletion_protection and to change `config` on an existing
// project; for a new project it checks through the organization's listing
// that the name is free and the organization key works.
func (r *projectResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		// A destroy (terraform destroy, or the resource removed from the
		// configuration): no request, the state alone decides.
		if req.State.Raw.IsNull() {
			return
		}
		var state projectModel
		resp.Diagnostics.Append(codec.Get(ctx, req.State, &state)...)
		if !resp.Diagnostics.HasError() && state.DeletionProtection.ValueBool() {
			addDeletionProtectionError(ctx, &resp.Diagnostics, state, "destroy")
		}
		return
	}
	destroyrun.RemotePlanChecks(ctx, projectType, req, resp, func() { r.modifyPlan(ctx, req, resp) })
}

// addDeletionProtectionError is the error of a plan (or a Delete) that would
// delete a protected project; what is "destroy" or "replace". The way out
// depends on why the plan destroys it: `terraform destroy` keeps the
// resource block, where deletion_protection can be set to false; a plan
// that destroys it because its resource block is gone (or a `removed` block
// asks to) has no block to set it in, so the error names a `removed` block
// that forgets the project, or putting the block back. When the provider
// cannot tell a destroy command from a plan (destroyrun.Detect), it says
// both.
func addDeletionProtectionError(ctx context.Context, diags *diag.Diagnostics, state projectModel, what string) {
	detail := fmt.Sprintf("This plan would %s the project %q (%s), and deleting a project deletes everything in it: "+
		"its auth configs, connected accounts, triggers, webhooks, MCP servers and custom toolkits, and its API keys "+
		"stop working. deletion_protection is true, so the provider refuses.\n\n",
		what, state.Name.ValueString(), state.ID.ValueString())
	inBlock := fmt.Sprintf("If this is intended, set deletion_protection = false in the resource block, run terraform "+
		"apply (it changes nothing on the service), then run the %s again.", what)
	switch {
	case what == "replace":
		detail += inBlock + " The project is replaced because its name changed: the service cannot rename a project."
	case destroyrun.Detect(ctx) == destroyrun.Destroying:
		detail += inBlock
	case destroyrun.Detect(ctx) == destroyrun.NotDestroying:
		detail += projectRemovedAdvice
	default:
		detail += "With terraform destroy: " + inBlock + "\n\nWhen the plan destroys it because its resource block " +
			"is no longer in the configuration: " + projectRemovedAdvice
	}
	diags.AddAttributeError(path.Root("deletion_protection"), "Project is protected against deletion", detail)
}

// projectRemovedAdvice is the way out of a deletion_protection error when
// the project's resource block is gone: the provider sees only the state,
// whatever the configuration says now.
const projectRemovedAdvice = "The plan destroys it because its resource block (or its count or for_each instance) " +
	"is no longer in the configuration, or a removed block asks to destroy it; the provider sees only the state, " +
	"where deletion_protection is still true.\n\n" +
	"To stop managing the project and keep it (and everything in it) on the service, forget it with a removed block " +
	"in place of the resource block (write destroy = false: without it Terraform destroys and OpenTofu forgets):\n\n" +
	"  removed {\n" +
	"    from = " + projectType + ".<name>\n" +
	"    lifecycle {\n" +
	"      destroy = false\n" +
	"    }\n" +
	"  }\n\n" +
	"(a removed block takes a whole resource: for one instance of count or for_each, terraform state rm forgets it).\n\n" +
	"To delete the project, put its resource block back with deletion_protection = false, run terraform apply (it " +
	"changes nothing on the service), then remove the block and apply again."

func (r *projectResource) modifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	var plan projectModel
	resp.Diagnostics.Append(codec.Get(ctx, req.Plan, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !req.State.Raw.IsNull() {
		var state projectModel
		resp.Diagnostics.Append(codec.Get(ctx, req.State, &state)...)
		if resp.Diagnostics.HasError() {
			return
		}
		if r.data.Configured() && state.ID.ValueString() != "" {
			projectListingFor(r.data).markManaged(state.ID.ValueString())
		}
		checkProjectUpdate(ctx, state, plan, &resp.Diagnostics)
		return
	}
	if !r.data.Configured() || plan.Name.IsUnknown() {
		return
	}
	name := plan.Name.ValueString()
	l := projectListingFor(r.data)
	id, err := l.lookup(ctx, r.data.Client, name)
	if err != nil {
		addProjectListingError(&resp.Diagnostics, err)
		return
	}
	if id != "" && !l.isManaged(id) {
		resp.Diagnostics.AddAttributeError(path.Root("name"), "Project name already taken",
			fmt.Sprintf("Attribute name: the organization already has a project named %q (%s), and project names are "+
				"unique in an organization. Choose another name, or manage the existing project.\n\n%s",
				name, id, diagnostics.ImportHint(projectType, id)))
	}
}

// checkProjectUpdate reports what an existing project cannot do: a change
// of `config` (create-time only) and, under deletion_protection, a
// replacement (a `name` change).
func checkProjectUpdate(ctx context.Context, state, plan projectModel, diags *diag.Diagnostics) {
	if !plan.Config.IsUnknown() && !plan.Config.Equal(state.Config) {
		diags.AddAttributeError(path.Root("config"), "Project config cannot be changed", projectConfigChangeDetail(state))
	}
	if !plan.Name.Equal(state.Name) && state.DeletionProtection.ValueBool() {
		addDeletionProtectionError(ctx, diags, state, "replace")
	}
}

func projectConfigChangeDetail(state projectModel) string {
	was := "the configuration set when the project was created"
	if state.Config.IsNull() {
		was = "no config (the project was created without one, or imported: the service never returns it)"
	}
	return fmt.Sprintf("Attribute config: the service takes a project's config only when it creates the project, and "+
		"can neither return nor change it, so the provider cannot apply this change to the existing project %q (%s). "+
		"Its state holds %s.\n\n"+
		"Restore the previous config, or add `lifecycle { ignore_changes = [config] }` to stop managing it (the usual "+
		"choice for an imported project). A project with other settings has to be a new project: the provider never "+
		"replaces a project for this, since that would delete everything in it.",
		state.Name.ValueString(), state.ID.ValueString(), was)
}

// addProjectListingError reports the failure of the plan-time listing of the
// organization's projects: a refused organization key names org_api_key.
func addProjectListingError(diags *diag.Diagnostics, err error) {
	if client.IsStatus(err, http.StatusUnauthorized) || client.IsStatus(err, http.StatusForbidden) {
		summary, detail := diagnostics.APIErrorText("listing the organization's projects for", projectType, "", err)
		diags.AddError("Invalid organization API key",
			"The service refused the organization API key (org_api_key in the provider block, or the "+EnvOrgAPIKey+
				" environment variable): check that it is an organization key, not a project key, and that it has "+
				"not been revoked.\n\n"+summary+":\n"+detail)
		return
	}
	diagnostics.AddAPIErrorAt(diags, path.Root("name"), "listing the organization's projects for", projectType, "", err)
}

// projectConfigRequest converts `config` (known, possibly null) into the
// create request's config.
func projectConfigRequest(ctx context.Context, o types.Object, diags *diag.Diagnostics) *client.ProjectConfig {
	if o.IsNull() || o.IsUnknown() {
		return nil
	}
	var m projectConfigModel
	diags.Append(o.As(ctx, &m, basetypes.ObjectAsOptions{})...)
	if diags.HasError() {
		return nil
	}
	return &client.ProjectConfig{
		Is2FAEnabled:                        m.Is2FAEnabled.ValueBool(),
		MaskSecretKeysInConnectedAccount:    m.MaskSecretKeysInConnectedAccount.ValueBool(),
		LogVisibilitySetting:                m.LogVisibilitySetting.ValueString(),
		LogoURL:                             m.LogoURL.ValueStringPointer(),
		DisplayName:                         m.DisplayName.ValueStringPointer(),
		RequireMCPAPIKey:                    m.RequireMCPAPIKey.ValueBoolPointer(),
		IsComposioLinkEnabledForManagedAuth: m.HostedLinkForManagedAuth.ValueBoolPointer(),
		SignedURLFileExpiryInSeconds:        m.SignedURLFileExpiryInSeconds.ValueInt64Pointer(),
		ZDREnabled:                          m.ZDREnabled.ValueBoolPointer(),
		OAuthCallbackVerifierURL:            m.OAuthCallbackVerifierURL.ValueStringPointer(),
	}
}

// projectConfigExclusive refuses, at validate, a `config` that sets both
// zdr_enabled and log_visibility_setting: the service's document says not to
// send both ("Use zdr_enabled for Zero Data Retention; log_visibility_setting
// remains supported for existing clients. Do not send both fields.").
type projectConfigExclusive struct{}

func (projectConfigExclusive) Description(context.Context) string {
	return "zdr_enabled and log_visibility_setting are not set together"
}

func (v projectConfigExclusive) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (projectConfigExclusive) ValidateObject(_ context.Context, req validator.ObjectRequest, resp *validator.ObjectResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	attrs := req.ConfigValue.Attributes()
	zdr, lvs := attrs["zdr_enabled"], attrs["log_visibility_setting"]
	if zdr == nil || lvs == nil || zdr.IsNull() || lvs.IsNull() {
		return
	}
	resp.Diagnostics.AddAttributeError(req.Path.AtName("zdr_enabled"), "zdr_enabled with log_visibility_setting",
		fmt.Sprintf("Attributes %s and %s are both set: the service takes one of them, never both "+
			"(zdr_enabled is the newer setting of the same thing: what the service keeps of the project's logs). "+
			"Remove log_visibility_setting to use zdr_enabled, or remove zdr_enabled.", req.Path.AtName("zdr_enabled"), req.Path.AtName("log_visibility_setting")))
}

func (r *projectResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer identity.FromState(ctx, &resp.State, resp.Identity, &resp.Diagnostics)
	var plan projectModel
	if !r.planForCreate(ctx, req, resp, &plan) {
		return
	}
	cfg := projectConfigRequest(ctx, plan.Config, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	c := r.data.Client
	// should_create_api_key is sent explicitly: the documents default it to
	// false (the service's v3 document; @composio/client rc.6: "If true, the
	// API key will be created and returned"), and api_key is what a project
	// is for here (the provider block of the environment it holds).
	withKey := true
	created, err := c.CreateProject(ctx, client.CreateProjectRequest{Name: plan.Name.ValueString(), ShouldCreateAPIKey: &withKey, Config: cfg})
	if err != nil {
		diagnostics.AddAPIError(&resp.Diagnostics, "creating", projectType, "", err)
		return
	}
	tflog.Debug(ctx, "created project", map[string]any{"id": created.ID, "adopted": created.Adopted})
	if created.Adopted {
		resp.Diagnostics.AddWarning("Project created after a lost answer",
			fmt.Sprintf("The service's answer to the create of project %q was lost; the project was found by name "+
				"(%s) and its API key was regenerated, because a key's value is only shown at creation and "+
				"regeneration. api_key holds the new key.", created.Name, created.ID))
	}
	plan.ID = types.StringValue(created.ID)
	plan.APIKey = types.StringPointerValue(created.APIKey)
	plan.OrgID, plan.CreatedAt = types.StringNull(), types.StringNull()
	// The create's answer has no org_id nor created_at: one read. Its
	// failure must not lose the key, shown only now: the state is saved and
	// the next refresh fills them.
	p, err := c.GetProject(ctx, created.ID)
	if err != nil {
		summary, detail := diagnostics.APIErrorText("reading back", projectType, created.ID, err)
		resp.Diagnostics.AddWarning(summary, "The project was created and saved in state (with its API key); "+
			"org_id and created_at are filled by the next refresh.\n\n"+detail)
	} else {
		resp.Diagnostics.Append(plan.fill(ctx, p)...)
	}
	resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &plan)...)
}

// fill copies the service's view into m; api_key, config and the
// Terraform-only attributes are kept (an import's null ones get their
// defaults).
func (m *projectModel) fill(_ context.Context, p *client.Project) diag.Diagnostics {
	m.ID = types.StringValue(p.ID)
	m.Name = types.StringValue(p.Name)
	m.OrgID = types.StringValue(p.OrgID)
	m.CreatedAt = types.StringValue(p.CreatedAt)
	if p.CreatedAt == "" {
		m.CreatedAt = types.StringNull()
	}
	if m.DeletionProtection.IsNull() || m.DeletionProtection.IsUnknown() {
		m.DeletionProtection = types.BoolValue(true)
	}
	if m.RevokeOnDelete.IsNull() || m.RevokeOnDelete.IsUnknown() {
		m.RevokeOnDelete = types.BoolValue(false)
	}
	if m.Config.IsUnknown() {
		m.Config = types.ObjectNull(projectConfigAttrTypes)
	}
	if m.APIKey.IsUnknown() {
		m.APIKey = types.StringNull()
	}
	return nil
}

// projectConfigAttrTypes is the object type of `config`.
var projectConfigAttrTypes = map[string]attr.Type{
	"is_2fa_enabled":                        types.BoolType,
	"mask_secret_keys_in_connected_account": types.BoolType,
	"log_visibility_setting":                types.StringType,
	"logo_url":                              types.StringType,
	"display_name":                          types.StringType,
	"require_mcp_api_key":                   types.BoolType,
	"hosted_link_enabled_for_managed_auth":  types.BoolType,
	"signed_url_file_expiry_in_seconds":     types.Int64Type,
	"zdr_enabled":                           types.BoolType,
	"oauth_callback_verifier_url":           types.StringType,
}

func (r *projectResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state projectModel
	if !r.readState(ctx, req, resp, &state) {
		return
	}
	id := state.ID.ValueString()
	p, err := r.data.Client.GetProject(ctx, id)
	if diagnostics.ReadFailed(ctx, resp, projectType, id, err) {
		return
	}
	resp.Diagnostics.Append(state.fill(ctx, p)...)
	resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &state)...)
}

func (r *projectResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer identity.FromState(ctx, &resp.State, resp.Identity, &resp.Diagnostics)
	var plan, state projectModel
	if !r.planAndState(ctx, req, resp, &plan, &state) {
		return
	}
	// The plan check covers known values; a config unknown at plan arrives here.
	if !plan.Config.Equal(state.Config) {
		resp.Diagnostics.AddAttributeError(path.Root("config"), "Project config cannot be changed", projectConfigChangeDetail(state))
		return
	}
	if req.Private != nil {
		imported := planmodifiers.BaselineAfterImport(ctx, req.Private, state.APIKeyRotation)
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, planmodifiers.PrivateKeyImported, nil)...)
		if imported {
			state.APIKeyRotation = plan.APIKeyRotation // the baseline: nothing to rotate
		}
	}
	id := state.ID.ValueString()
	plan.ID, plan.OrgID, plan.CreatedAt, plan.APIKey = state.ID, state.OrgID, state.CreatedAt, state.APIKey
	if planmodifiers.Rotates(state.APIKeyRotation, plan.APIKeyRotation) {
		key, err := r.data.Client.RegenerateProjectAPIKey(ctx, id)
		if err != nil {
			// Keep the rest of the update; the rotation is retried on the next apply.
			plan.APIKeyRotation = state.APIKeyRotation
			resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &plan)...)
			diagnostics.AddAPIError(&resp.Diagnostics, "regenerating the API key of", projectType, id, err)
			return
		}
		plan.APIKey = types.StringValue(key.APIKey.Key)
	}
	resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &plan)...)
}

func (r *projectResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state projectModel // all Delete needs from the state
	if !r.deleteState(ctx, req, resp, &state, "id", "name", "deletion_protection", "revoke_on_delete") {
		return
	}
	if state.DeletionProtection.ValueBool() {
		// The plan refuses first; this covers a plan made without the check.
		addDeletionProtectionError(ctx, &resp.Diagnostics, state, "destroy")
		return
	}
	id := state.ID.ValueString()
	jobID, err := r.data.Client.DeleteProject(ctx, id, state.RevokeOnDelete.ValueBool())
	diagnostics.LogRevokeJob(ctx, projectType, id, jobID)
	diagnostics.AddDeleteError(&resp.Diagnostics, projectType, id, err)
}

func (r *projectResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	id := identity.ImportID(ctx, req, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if !importid.ObjectIDRe.MatchString(id) {
		resp.Diagnostics.AddError("Invalid import id",
			fmt.Sprintf("Expected a project id such as pr_AbC123xyz (the service_projects data source lists them), got %q.", id))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id)...)
	identity.Set(ctx, resp.Identity, id, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, planmodifiers.PrivateKeyImported, []byte("true"))...)
}
