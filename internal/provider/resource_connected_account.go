package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
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
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"
	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/provider/codec"
	"github.com/integration-service/terraform-provider-service/internal/provider/destroyrun"
	"github.com/integration-service/terraform-provider-service/internal/provider/diagnostics"
	"github.com/integration-service/terraform-provider-service/internal/provider/identity"
	"github.com/integration-service/terraform-provider-service/internal/provider/importid"
	"github.com/integration-service/terraform-provider-service/internal/provider/validators"
)

const connectedAccountType = "service_connected_account"

// statusDeleted is the status of an account deleted on the service side.
const statusDeleted = "DELETED"

var (
	_ managedResource                       = (*connectedAccountResource)(nil)
	_ resource.ResourceWithConfigValidators = (*connectedAccountResource)(nil)
)

// NewConnectedAccountResource returns the service_connected_account resource.
func NewConnectedAccountResource() resource.Resource {
	return &connectedAccountResource{resourceBase{typeNamed("connected_account")}}
}

type connectedAccountResource struct{ resourceBase }

type connectedAccountModel struct {
	ID                   types.String   `tfsdk:"id"`
	UserID               types.String   `tfsdk:"user_id"`
	AuthConfigID         types.String   `tfsdk:"auth_config_id"`
	CallbackURL          types.String   `tfsdk:"callback_url"`
	CredentialsWO        types.Map      `tfsdk:"credentials_wo"`
	CredentialsWOVersion types.Int64    `tfsdk:"credentials_wo_version"`
	Credentials          types.Map      `tfsdk:"credentials"`
	Alias                types.String   `tfsdk:"alias"`
	RevokeOnDelete       types.Bool     `tfsdk:"revoke_on_delete"`
	AllowMultiple        types.Bool     `tfsdk:"allow_multiple"`
	HostedLink           types.Bool     `tfsdk:"hosted_link"`
	WaitForConnection    types.Bool     `tfsdk:"wait_for_connection"`
	Timeouts             timeouts.Value `tfsdk:"timeouts"`
	Enabled              types.Bool     `tfsdk:"enabled"`
	DisabledReason       types.String   `tfsdk:"disabled_reason"`
	Status               types.String   `tfsdk:"status"`
	StatusReason         types.String   `tfsdk:"status_reason"`
	IsDisabled           types.Bool     `tfsdk:"is_disabled"`
	RedirectURL          types.String   `tfsdk:"redirect_url"`
	Toolkit              types.String   `tfsdk:"toolkit"`
	AuthScheme           types.String   `tfsdk:"auth_scheme"`
	CreatedAt            types.String   `tfsdk:"created_at"`
	UpdatedAt            types.String   `tfsdk:"updated_at"`
}

// IdentitySchema: the connected account's identity is its id (see package identity).
func (r *connectedAccountResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identity.Schema("connected account", "ca_AbC123")
}

func (r *connectedAccountResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A connected account: one end user's authenticated link to a toolkit, made through an auth config.\n\n" +
			"* **API_KEY, BASIC and BEARER_TOKEN** auth configs: give the user's credentials in `credentials_wo` " +
			"(write-only, never stored) or `credentials` (stored in state, marked sensitive). The account is `ACTIVE` " +
			"as soon as it is created. The fields are checked against the toolkit's connected account initiation " +
			"fields for the auth config's scheme (for example `api_key`, or `username` and `password`) at plan when " +
			"`auth_config_id` is known (an existing auth config); otherwise (an auth config created in the same " +
			"apply) at apply, once the auth config exists and before the account is written.\n" +
			"* **OAuth** auth configs: the account starts `INITIATED` and `redirect_url` is the address the user opens " +
			"to approve the connection. After approval the next refresh shows `ACTIVE` without any change to the " +
			"arguments. Set `wait_for_connection` to make `apply` wait (up to `timeouts.create`, default 60 s) until " +
			"the user has approved.\n\n" +
			"Unless `allow_multiple` is true, creating a second `ACTIVE` account for the same user and auth config is " +
			"refused at apply, before the account is written, with instructions to import the existing one. Two such " +
			"resources in one apply are refused the same way, whichever Terraform creates second: the provider makes " +
			"the check and the create one step per user and auth config across its parallel creates. Changing `credentials_wo_version` or `credentials` " +
			"replaces the stored credentials in place. An account deleted outside Terraform is removed from state " +
			"with a warning and created again by the next apply.\n\n" +
			"**Revocation.** Deleting the account (`terraform destroy`, or the delete half of a replacement) " +
			"leaves the user's tokens valid at the upstream provider unless `revoke_on_delete` is true. To revoke " +
			"an account's tokens and keep the account, use the `service_connected_account_revoke` action " +
			"(Terraform 1.14 or later). A revoked account reads `status = \"REVOKED\"` and its credentials no " +
			"longer work; like an `EXPIRED` or `FAILED` account it stays in the state and plans no change " +
			"(`status` is read-only and never forces a replacement). To connect the user again, replace it: " +
			"`terraform apply -replace=service_connected_account.<name>`.",
		Attributes: map[string]schema.Attribute{
			"id": idAttribute("Identifier of the connected account (e.g. `ca_...`). Use it to import: " +
				"`terraform import service_connected_account.<name> <id>`."),
			"user_id": userIDAttribute("Your application's identifier of the end user who owns the account. " +
				"Changing it creates a new account."),
			"auth_config_id": schema.StringAttribute{
				MarkdownDescription: "Identifier of the auth config the account authenticates through (e.g. " +
					"`service_auth_config.example.id`). It decides the toolkit and the auth scheme. Changing it " +
					"creates a new account.",
				Required:      true,
				Validators:    []validator.String{validators.ObjectID("ac_")},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"callback_url": schema.StringAttribute{
				MarkdownDescription: "Absolute `https://` URL the user is sent back to after an OAuth approval " +
					"(`http://` only to `localhost`, `127.0.0.0/8` or `[::1]`, for a local application; the service " +
					"refuses any other URL). Changing it creates a new account.",
				Optional:      true,
				Validators:    []validator.String{validators.CallbackURL()},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"credentials_wo": schema.MapAttribute{
				MarkdownDescription: "Pre-filled credentials for API_KEY, BASIC and BEARER_TOKEN auth configs, as " +
					"field name to value (for example `{ api_key = var.stripe_key }`). Write-only: the values are sent " +
					"to the service but never stored in the plan or state (Terraform 1.11 or later). The field names " +
					"are checked against the toolkit's connected account initiation fields for the scheme (at plan when " +
					"`auth_config_id` is known, otherwise at apply before the write). " +
					"Refused for OAuth auth configs. Because Terraform cannot see a change of a write-only value, " +
					"change `credentials_wo_version` to send new credentials. Conflicts with `credentials`.",
				Optional:    true,
				WriteOnly:   true,
				ElementType: types.StringType,
				Validators: append([]validator.Map{
					mapvalidator.ConflictsWith(path.MatchRoot("credentials")),
					mapvalidator.SizeAtLeast(1),
				}, validators.CredentialFields()...),
			},
			"credentials_wo_version": schema.Int64Attribute{
				MarkdownDescription: "Version of `credentials_wo`. Changing it sends the current `credentials_wo` to " +
					"the service, replacing the account's credentials in place (rotation). Requires `credentials_wo`.",
				Optional: true,
				Validators: []validator.Int64{
					int64validator.AlsoRequires(path.MatchRoot("credentials_wo")),
				},
			},
			"credentials": schema.MapAttribute{
				MarkdownDescription: "Pre-filled credentials like `credentials_wo`, for users who accept that the " +
					"values are stored in the Terraform state (marked sensitive). Changing them replaces the account's " +
					"credentials in place. Prefer `credentials_wo`. Conflicts with `credentials_wo`.",
				Optional:    true,
				Sensitive:   true,
				ElementType: types.StringType,
				Validators: append([]validator.Map{
					mapvalidator.SizeAtLeast(1),
				}, validators.CredentialFields()...),
			},
			"alias": schema.StringAttribute{
				MarkdownDescription: "A name for the account that your application uses to pick one of a user's " +
					"several accounts on the same toolkit (for example `work` and `personal`), unique per user and " +
					"toolkit. Set at creation and changed in place; removing it clears the alias on the service. " +
					"An alias another account of the same user on the same toolkit already has is refused: at plan " +
					"when the user's accounts can be listed (`user_id` known), otherwise at apply before the account " +
					"is written, naming the account that has it. When this plan creates the account and the other " +
					"account is on the same auth config, the plan only warns (it may be the tainted account this " +
					"plan replaces) and the apply refuses it before the write if it is still there.",
				Optional:   true,
				Validators: []validator.String{validators.FreeText()},
			},
			"revoke_on_delete": schema.BoolAttribute{
				MarkdownDescription: "Whether deleting the account also revokes its tokens at the upstream provider " +
					"(the service's `revoke_on_delete`, a background job): every delete of this account, " +
					"`terraform destroy` as well as the delete half of a replacement, sends it. Defaults to `false`, " +
					"as the service: the tokens then stay valid at GitHub, Slack or Google after the account is " +
					"gone. The service never reports it, so an import sets it to `false`; the value in the state " +
					"is the one a delete uses (set it to `true` and apply before destroying).",
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(false),
			},
			"allow_multiple": schema.BoolAttribute{
				MarkdownDescription: "Allow more than one `ACTIVE` account for the same user and auth config. When " +
					"false (the default), creation first checks the user's `ACTIVE` accounts for the auth config and " +
					"refuses to create another one, explaining how to import the existing account instead. When " +
					"many accounts of one auth config are created at once, the check is answered for every user by " +
					"one listing of the auth config's `ACTIVE` accounts, at most 2 seconds old (an account another " +
					"client makes `ACTIVE` within those seconds is not seen); a refusal is always made from a fresh " +
					"answer. Only used at creation.",
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(false),
			},
			"hosted_link": schema.BoolAttribute{
				MarkdownDescription: "Create the account through a hosted connect link instead of a direct " +
					"initiation: `redirect_url` is then a hosted page where the user completes the connection " +
					"(OAuth approval or entering their own credentials). Conflicts with `credentials` and " +
					"`credentials_wo`. Only used at creation.",
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(false),
			},
			"wait_for_connection": schema.BoolAttribute{
				MarkdownDescription: "Make `apply` wait until the account is `ACTIVE` (polling every second, up to " +
					"`timeouts.create`, default 60 s). If the account does not become `ACTIVE` in time, or fails, the " +
					"apply reports an error; the account is kept in the state (marked tainted) so it is not orphaned. " +
					"While it waits, the provider logs at WARN (shown with `TF_LOG_PROVIDER=WARN`), at once and every " +
					"15 s, which account it waits for and its `redirect_url`, where the user approves. Needed to read " +
					"a new OAuth account's token (`service_connected_account_credentials`) in the apply that creates " +
					"it. Only used at creation.",
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(false),
			},
			"timeouts": connectedAccountTimeouts(ctx),
			"enabled": schema.BoolAttribute{
				MarkdownDescription: "Whether the account is enabled (default `true`). Setting it to `false` disables " +
					"the account in place (with `disabled_reason`); `true` enables it again.",
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(true),
			},
			"disabled_reason": schema.StringAttribute{
				MarkdownDescription: "Free-text reason sent to the service when the account is disabled " +
					"(`enabled = false`). Changing it while the account is disabled sends the new reason.",
				Optional:   true,
				Validators: []validator.String{stringvalidator.UTF8LengthBetween(1, 1024), validators.FreeText()},
			},
			"status": schema.StringAttribute{
				MarkdownDescription: "Connection status: `INITIALIZING`, `INITIATED` (waiting for the user), `ACTIVE`, " +
					"`FAILED`, `EXPIRED`, `INACTIVE` or `REVOKED`. It changes outside Terraform (for example when " +
					"the user approves) and never forces replacement.",
				Computed: true,
			},
			"status_reason": schema.StringAttribute{
				MarkdownDescription: "Why the account is in its status (for example why it failed or was disabled), " +
					"when the service gives a reason.",
				Computed: true,
			},
			"is_disabled": schema.BoolAttribute{
				MarkdownDescription: "Whether the service reports the account as disabled.",
				Computed:            true,
			},
			"redirect_url": schema.StringAttribute{
				MarkdownDescription: "Address to send the user to in order to approve an OAuth connection (or the " +
					"hosted connect page with `hosted_link`), as returned at creation. Null when no user step is " +
					"needed (accounts created with credentials).",
				Computed:      true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"toolkit": schema.StringAttribute{
				MarkdownDescription: "Slug of the toolkit the account connects to (from the auth config).",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"auth_scheme": schema.StringAttribute{
				MarkdownDescription: "Auth scheme of the account's auth config, e.g. `OAUTH2` or `API_KEY`.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"created_at": schema.StringAttribute{
				MarkdownDescription: "Creation time (ISO 8601).",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"updated_at": schema.StringAttribute{
				MarkdownDescription: "Time of the last change (ISO 8601).",
				Computed:            true,
			},
		},
	}
}

// connectedAccountTimeouts is the timeouts attribute (create only: how long
// wait_for_connection waits).
func connectedAccountTimeouts(ctx context.Context) schema.Attribute {
	attr := timeouts.Attributes(ctx, timeouts.Opts{
		Create: true,
		CreateDescription: "How long `wait_for_connection` waits for the account to become `ACTIVE`, as a " +
			"duration such as `\"90s\"` or `\"5m\"`. Default `60s`.",
	})
	if a, ok := attr.(schema.SingleNestedAttribute); ok {
		a.MarkdownDescription = "Timeouts. `create` bounds how long `wait_for_connection` waits for the account to " +
			"become `ACTIVE`, and the create request itself, including finding the account when the service's " +
			"answer was lost (default `60s`)."
		// Our duration check names the attribute (timeouts.create) in its
		// error, unlike the library's.
		if c, ok := a.Attributes["create"].(schema.StringAttribute); ok {
			c.Validators = []validator.String{validators.Duration()}
			a.Attributes["create"] = c
		}
		return a
	}
	return attr
}

func (r *connectedAccountResource) ConfigValidators(_ context.Context) []resource.ConfigValidator {
	return []resource.ConfigValidator{
		hostedLinkWithoutCredentials{},
		validators.WriteOnlyWithoutVersion{WriteOnly: path.Root("credentials_wo"), Version: path.Root("credentials_wo_version")},
	}
}

// hostedLinkWithoutCredentials refuses hosted_link = true with credentials
// or credentials_wo: the user enters them on the hosted page. An explicit
// hosted_link = false (as `terraform query -generate-config-out` writes it)
// goes with credentials.
type hostedLinkWithoutCredentials struct{}

func (hostedLinkWithoutCredentials) Description(context.Context) string {
	return "hosted_link = true conflicts with credentials and credentials_wo"
}

func (v hostedLinkWithoutCredentials) MarkdownDescription(ctx context.Context) string {
	return "`hosted_link = true` conflicts with `credentials` and `credentials_wo`"
}

func (hostedLinkWithoutCredentials) ValidateResource(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var cfg connectedAccountModel // a check of three attributes
	resp.Diagnostics.Append(codec.GetAttributes(ctx, req.Config, &cfg, "hosted_link", "credentials", "credentials_wo")...)
	if resp.Diagnostics.HasError() || !cfg.HostedLink.ValueBool() {
		return
	}
	for _, c := range []struct {
		name  string
		creds types.Map
	}{{"credentials", cfg.Credentials}, {"credentials_wo", cfg.CredentialsWO}} {
		if name := c.name; !c.creds.IsNull() {
			resp.Diagnostics.AddAttributeError(path.Root(name), "Credentials with hosted_link",
				fmt.Sprintf("Attribute %s cannot be set with hosted_link = true: the user enters the credentials on the "+
					"hosted connect page. Remove %s, or set hosted_link = false to send them directly.", name, name))
		}
	}
}

// isOAuthScheme reports schemes whose accounts are connected by a user's
// approval rather than pre-filled credentials (CIMD_OAUTH: OAuth whose
// client_id is a client ID metadata document URL, in the service's v3
// document).
func isOAuthScheme(scheme string) bool {
	switch strings.ToUpper(scheme) {
	case "OAUTH2", "OAUTH1", "DCR_OAUTH", "CIMD_OAUTH", "S2S_OAUTH2":
		return true
	}
	return false
}

// givenCredentials returns the credentials the configuration gives (from
// credentials_wo in config, else credentials), the attribute they came from,
// and whether their keys are known. A nil map means none were given.
func givenCredentials(ctx context.Context, config, plan connectedAccountModel, diags *diag.Diagnostics) (map[string]string, []string, path.Path, bool) {
	src, attr := plan.Credentials, path.Root("credentials")
	if !config.CredentialsWO.IsNull() {
		src, attr = config.CredentialsWO, path.Root("credentials_wo")
	}
	keys, known := validators.MapKeys(src)
	if !known || src.IsNull() {
		return nil, keys, attr, known
	}
	vals := map[string]types.String{}
	diags.Append(src.ElementsAs(ctx, &vals, false)...)
	out := make(map[string]string, len(vals))
	for k, v := range vals {
		out[k] = v.ValueString()
	}
	return out, keys, attr, true
}

// checkAccountCredentials applies the plan-time rules for credentials given
// the toolkit and the auth config's scheme. keys are the given field names (nil
// when none were given); creating reports whether the account is being
// created (credentials are only required then); inherited names the fields
// of the auth config's shared_credentials, which the account inherits (they
// need not be given).
func (r *connectedAccountResource) checkAccountCredentials(ctx context.Context, toolkit, scheme string, keys []string, attr path.Path, hostedLink, creating bool, diags *diag.Diagnostics, inherited ...string) {
	given := keys != nil
	if isOAuthScheme(scheme) {
		if given {
			diags.AddAttributeError(attr, "Credentials not accepted for OAuth",
				fmt.Sprintf("Attribute %s: the auth config uses the %s scheme (toolkit %q), whose accounts are connected "+
					"by the user approving access at redirect_url, not with pre-filled credentials. Remove "+
					"credentials_wo and credentials; pre-filled credentials work with API_KEY, BASIC and BEARER_TOKEN "+
					"auth configs.", attr, strings.ToUpper(scheme), toolkit))
		}
		return
	}
	if !given && (!creating || hostedLink) {
		return
	}
	tk, err := r.data.Cache.Toolkit(ctx, toolkit)
	if err != nil {
		if !r.data.addVersionNotFound(ctx, diags, toolkit, err) {
			diagnostics.AddLookupError(diags, path.Root("auth_config_id"), "toolkit", toolkit, r.data.VersionFor(toolkit), err)
		}
		return
	}
	if !given {
		if missing := validators.MissingRequiredFields(tk, scheme, validators.PurposeConnectedAccountInitiation, inherited...); len(missing) > 0 {
			diags.AddAttributeError(path.Root("credentials_wo"), "Missing credentials",
				fmt.Sprintf("The auth config uses the %s scheme of toolkit %q, whose accounts need the field(s) %s. Set "+
					"credentials_wo (write-only, with credentials_wo_version) or credentials, for example "+
					"credentials_wo = { %s = var.secret }, set them in the auth config's shared_credentials_wo, "+
					"or set hosted_link = true to let the user enter them.",
					strings.ToUpper(scheme), tk.Slug, validators.QuoteList(missing), missing[0]))
		}
		return
	}
	diags.Append(validators.CheckCredentialFields(tk, scheme, validators.PurposeConnectedAccountInitiation, keys, attr, inherited...)...)
}

// privateKeyReplacing marks, in the private plan data, a plan that replaces an
// existing account. Terraform plans the creation half of a replacement with no
// prior state but passes the private data of the first plan along, so the
// creation half can tell it replaces an account. privateKeyReplacedAccount
// holds the replaced account's id.
const (
	privateKeyReplacing       = "replacing_account"
	privateKeyReplacedAccount = "replaced_account_id"
)

// A delete (no planned object) and a destroy run need no check (the gate,
// destroyrun.RemotePlanChecks): in particular they must not depend on the auth config
// still existing.
func (r *connectedAccountResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	destroyrun.RemotePlanChecks(ctx, connectedAccountType, req, resp, func() { r.modifyPlan(ctx, req, resp) })
}

func (r *connectedAccountResource) modifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if planUnchanged(req) {
		return // nothing to check or fill in
	}
	// Only the attributes this function and its helpers read (codec.GetAttributes:
	// add any attribute a new check needs).
	var plan, config connectedAccountModel
	resp.Diagnostics.Append(codec.GetAttributes(ctx, req.Plan, &plan, "user_id", "auth_config_id", "callback_url", "credentials",
		"credentials_wo_version", "hosted_link", "enabled", "disabled_reason", "alias")...)
	resp.Diagnostics.Append(codec.GetAttributes(ctx, req.Config, &config, "credentials_wo")...)
	if resp.Diagnostics.HasError() {
		return
	}
	creating := req.State.Raw.IsNull()
	var state connectedAccountModel
	if !creating {
		resp.Diagnostics.Append(codec.GetAttributes(ctx, req.State, &state, "id", "user_id", "auth_config_id", "callback_url", "credentials",
			"credentials_wo_version", "enabled", "disabled_reason", "status", "status_reason", "updated_at", "toolkit", "auth_scheme",
			"alias")...)
		if resp.Diagnostics.HasError() {
			return
		}
	}
	_, keys, attr, known := givenCredentials(ctx, config, plan, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	credsChanged := !plan.Credentials.Equal(state.Credentials) || !plan.CredentialsWOVersion.Equal(state.CredentialsWOVersion)
	if !creating {
		replacing := !plan.UserID.Equal(state.UserID) || !plan.AuthConfigID.Equal(state.AuthConfigID) ||
			!plan.CallbackURL.Equal(state.CallbackURL)
		if replacing {
			resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateKeyReplacing, []byte("true"))...)
			// The creation half (planned next, without prior state) checks the
			// alias against the user's other accounts, this one excepted.
			replaced, _ := json.Marshal(state.ID.ValueString()) // private values are JSON
			resp.Diagnostics.Append(resp.Private.SetKey(ctx, privateKeyReplacedAccount, replaced)...)
		} else {
			sendsCredentials := credsChanged && (!known || keys != nil)
			resp.Diagnostics.Append(planAccountUpdate(ctx, plan, state, sendsCredentials, &resp.Plan)...)
			if !plan.Alias.Equal(state.Alias) {
				r.checkAliasAtPlan(ctx, req, plan, state.Toolkit.ValueString(), state.ID.ValueString(), &resp.Diagnostics)
			}
		}
	}
	if !known || !r.data.Configured() {
		return
	}
	hostedLink := plan.HostedLink.ValueBool()

	if !creating {
		if !credsChanged || keys == nil || state.Toolkit.ValueString() == "" || state.AuthScheme.ValueString() == "" {
			return
		}
		r.checkAccountCredentials(ctx, state.Toolkit.ValueString(), state.AuthScheme.ValueString(), keys, attr, hostedLink, false, &resp.Diagnostics)
		return
	}

	// Creating: learn the toolkit and scheme from the auth config (through
	// Cache: one GET per auth config per provider process, however many
	// accounts use it) and check the credentials. When auth_config_id is unknown (the auth
	// config is created in the same apply), this runs again in the final plan
	// Terraform makes during apply, with the id known, before Create writes
	// anything; Create itself never reads the auth config (see Create).
	if plan.AuthConfigID.IsUnknown() || plan.AuthConfigID.IsNull() {
		return
	}
	acID := plan.AuthConfigID.ValueString()
	ac, err := r.data.Cache.AuthConfig(ctx, acID)
	if err != nil {
		if client.IsNotFound(err) {
			r.addAuthConfigNotFound(ctx, req, plan, acID, &resp.Diagnostics)
			return
		}
		diagnostics.AddAPIErrorAt(&resp.Diagnostics, path.Root("auth_config_id"), "reading auth config", connectedAccountType, acID, err)
		return
	}
	r.checkAccountCredentials(ctx, ac.Toolkit.Slug, ac.AuthScheme, keys, attr, hostedLink, true, &resp.Diagnostics, validators.SharedCredentialNames(ac)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(planAccountAuthConfig(ctx, ac.Toolkit.Slug, ac.AuthScheme, &resp.Plan)...)
	r.checkAliasAtPlan(ctx, req, plan, ac.Toolkit.Slug, "", &resp.Diagnostics)
}

// planAccountUpdate plans the computed attributes of an in-place update
// exactly where the operation decides them, instead of "(known after apply)":
//   - is_disabled is the opposite of enabled;
//   - enabling or disabling, and changing the alias, leave status unchanged,
//     and an update that calls nothing (only creation-time options or
//     revoke_on_delete changed) leaves status, status_reason and updated_at
//     unchanged;
//   - sending credentials (rotation) leaves an ACTIVE account ACTIVE, but may
//     reactivate an EXPIRED, FAILED or INACTIVE one, so status stays unknown
//     for those.
//
// status_reason and updated_at stay unknown whenever the service is called
// (enabling clears the reason, disabling may set it, rotation clears it).
func planAccountUpdate(ctx context.Context, plan, state connectedAccountModel, sendsCredentials bool, out *tfsdk.Plan) diag.Diagnostics {
	planned := plannedAccountUpdate(plan, state, sendsCredentials)
	if len(planned) == 0 {
		return nil
	}
	return codec.Replace(ctx, connectedAccountAttrTypes(), &out.Raw, planned)
}

// planAccountAuthConfig plans toolkit and auth_scheme as the auth config's
// (either left as planned when the auth config does not give it).
func planAccountAuthConfig(ctx context.Context, toolkit, authScheme string, out *tfsdk.Plan) diag.Diagnostics {
	planned := map[string]attr.Value{}
	if toolkit != "" {
		planned["toolkit"] = types.StringValue(toolkit)
	}
	if authScheme != "" {
		planned["auth_scheme"] = types.StringValue(authScheme)
	}
	if len(planned) == 0 {
		return nil
	}
	return codec.Replace(ctx, connectedAccountAttrTypes(), &out.Raw, planned)
}

// plannedAccountUpdate is what planAccountUpdate writes into the plan.
func plannedAccountUpdate(plan, state connectedAccountModel, sendsCredentials bool) map[string]attr.Value {
	planned := map[string]attr.Value{}
	if !plan.Enabled.IsUnknown() && !plan.Enabled.IsNull() {
		planned["is_disabled"] = types.BoolValue(!plan.Enabled.ValueBool())
	}
	if plan.Enabled.IsUnknown() || plan.DisabledReason.IsUnknown() {
		return planned
	}
	enabled := plan.Enabled.ValueBool()
	callsStatus := !plan.Enabled.Equal(state.Enabled) || (!enabled && !plan.DisabledReason.Equal(state.DisabledReason))
	patchesAlias := !plan.Alias.Equal(state.Alias)
	if !sendsCredentials && !callsStatus && !patchesAlias {
		planned["status_reason"] = state.StatusReason
		planned["updated_at"] = state.UpdatedAt
	}
	if state.Status.IsNull() || state.Status.IsUnknown() {
		return planned
	}
	if !sendsCredentials || strings.EqualFold(state.Status.ValueString(), client.StatusActive) {
		planned["status"] = state.Status
	}
	return planned
}

// connectedAccountAttrTypes are the framework types of the top-level
// attributes, for codec.Replace (planAccountUpdate writes several at once).
var connectedAccountAttrTypes = sync.OnceValue(func() codec.Types {
	var resp resource.SchemaResponse
	(&connectedAccountResource{}).Schema(context.Background(), resource.SchemaRequest{}, &resp)
	return codec.TypesOf(connectedAccountType, resp.Schema)
})

// addAuthConfigNotFound reports an auth_config_id the service does not know
// when creating an account. For a new account it is a plan-time error. When
// the plan replaces an existing account (a tainted one, or one whose
// replace-forcing arguments changed) that still refers to the deleted auth
// config, it is a warning: the error would otherwise also block `terraform
// destroy`, whose preliminary plan plans that replacement. Creating the new
// account, if applied, fails with the service's error.
func (r *connectedAccountResource) addAuthConfigNotFound(ctx context.Context, req resource.ModifyPlanRequest, plan connectedAccountModel, acID string, diags *diag.Diagnostics) {
	replaced := ""
	if v, d := req.Private.GetKey(ctx, privateKeyReplacing); !d.HasError() && string(v) == "true" {
		replaced = "This plan replaces an existing connected account."
	} else if !plan.UserID.IsUnknown() && !plan.UserID.IsNull() {
		// Terraform plans a tainted account's replacement with no prior
		// state. An account of this user that still uses the auth config
		// (the service keeps them, INACTIVE) shows this is a replacement.
		// One request: the first page of one account is enough.
		for a, err := range r.data.Client.ConnectedAccountsIter(ctx, client.ConnectedAccountListParams{
			UserIDs: []string{plan.UserID.ValueString()}, AuthConfigIDs: []string{acID}, Limit: 1,
		}) {
			if err == nil {
				replaced = fmt.Sprintf("User %q still has connected account %s using it, which this plan "+
					"replaces (for example a tainted account).", plan.UserID.ValueString(), a.ID)
			}
			break
		}
	}
	if replaced == "" {
		diags.AddAttributeError(path.Root("auth_config_id"), "Unknown auth config",
			fmt.Sprintf("Attribute auth_config_id: the service has no auth config %q. Check the id (the "+
				"service_auth_configs data source lists them).", acID))
		return
	}
	diags.AddAttributeWarning(path.Root("auth_config_id"), "Unknown auth config",
		fmt.Sprintf("Attribute auth_config_id: the service has no auth config %q (it was probably deleted outside "+
			"Terraform). %s Applying this plan will fail to create the new account unless auth_config_id names an "+
			"existing auth config; `terraform destroy` is not affected.", acID, replaced))
}

func (r *connectedAccountResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	if destroyrun.Refused(ctx, connectedAccountType, req.Config, &resp.Diagnostics) {
		return // refused at plan under a test command (destroyrun.InTest): nothing written
	}
	defer identity.FromState(ctx, &resp.State, resp.Identity, &resp.Diagnostics)
	if !requireClient(r.data, &resp.Diagnostics) {
		return
	}
	var plan, config connectedAccountModel
	resp.Diagnostics.Append(codec.Get(ctx, req.Plan, &plan)...)
	resp.Diagnostics.Append(codec.GetAttributes(ctx, req.Config, &config, "credentials_wo")...) // all Create reads of the configuration
	if resp.Diagnostics.HasError() {
		return
	}
	c := r.data.Client
	userID, acID := plan.UserID.ValueString(), plan.AuthConfigID.ValueString()
	creds, _, attr, _ := givenCredentials(ctx, config, plan, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}

	// Cost rule (see "Request budget" in provider_data.go): Create makes one
	// write and one read (the read-back), plus the duplicate-account list
	// below unless allow_multiple (the official SDK makes the same list);
	// both reads are coalesced with those of the concurrent creates. It
	// never reads the auth config: ModifyPlan reads it (through Cache, once per
	// auth config per provider process) whenever auth_config_id is known,
	// checks the credentials against the toolkit's initiation fields and plans
	// toolkit and auth_scheme: during `terraform plan`, and again in the final
	// plan Terraform makes during apply right before calling Create, when
	// every argument is known (so an auth config created in the same apply is
	// checked there, before this account is written). Bad credentials therefore
	// never reach Create. If the scheme is still unknown here with
	// credentials to send, the auth config is read for it (one GET, only
	// then): the documents require connection.state.authScheme, one of the
	// schemes, beside val, so an initiate without it is never sent. The
	// service's own validation then decides on the fields; it rejects bad ones
	// before storing anything and its error is reported on the credentials
	// attribute (addCredentialsAPIError).
	scheme := ""
	if !plan.AuthScheme.IsUnknown() {
		scheme = plan.AuthScheme.ValueString()
	}
	if scheme == "" && creds != nil && !plan.HostedLink.ValueBool() {
		ac, err := c.GetAuthConfig(ctx, acID)
		if err != nil {
			diagnostics.AddAPIError(&resp.Diagnostics, "reading the auth scheme (auth config "+acID+") of", connectedAccountType, "", err)
			return
		}
		if scheme = ac.AuthScheme; scheme == "" {
			resp.Diagnostics.AddAttributeError(attr, "Auth scheme unknown",
				fmt.Sprintf("Auth config %s reports no auth_scheme, and credentials are sent with their scheme "+
					"(connection.state.authScheme). Check the auth config, or create the account without %s "+
					"(an OAuth flow or hosted_link).", acID, attr))
			return
		}
	}

	// The check for an existing account and the write are one step across
	// the provider's concurrent creates of this user and auth config:
	// Terraform creates two such resources in parallel, and both would
	// otherwise list no account and both write one. Held until the service
	// answered the write, so the next create of the pair lists this account.
	unlock, locked := r.data.CreateLocks.lock(ctx, "connected_account\x00"+userID+"\x00"+acID)
	if !locked {
		resp.Diagnostics.AddError("Error creating "+connectedAccountType, fmt.Sprintf("Cancelled while waiting for "+
			"another create of a connected account for user %q and auth config %s to finish: nothing was created.", userID, acID))
		return
	}
	defer func() { unlock() }() // unlock is replaced once the account exists
	if !checkBeforeCreate(ctx, r.data, plan, &resp.Diagnostics) {
		return
	}

	// timeouts.create also bounds the create itself: after an ambiguous
	// failure the client reconciles (lists by user_id + auth_config_id) and
	// keeps trying while the service restarts, up to this deadline.
	createTimeout, td := plan.Timeouts.Create(ctx, client.DefaultWaitTimeout)
	resp.Diagnostics.Append(td...)
	createCtx, cancelCreate := context.WithTimeout(ctx, createTimeout)
	defer cancelCreate()

	var id, redirect string
	callback := plan.CallbackURL.ValueString()
	if plan.HostedLink.ValueBool() {
		link, err := c.CreateConnectedAccountLink(createCtx, client.LinkRequest{AuthConfigID: acID, UserID: userID, CallbackURL: callback,
			Alias: plan.Alias.ValueString()})
		if err != nil {
			if !r.addAliasRefused(ctx, plan, err, &resp.Diagnostics) {
				diagnostics.AddAPIError(&resp.Diagnostics, "creating (hosted link)", connectedAccountType, "", err)
			}
			return
		}
		id, redirect = link.ConnectedAccountID, link.RedirectURL
	} else {
		ireq := client.InitiateConnectedAccountRequest{AuthConfigID: acID, UserID: userID, CallbackURL: callback,
			Alias: plan.Alias.ValueString()}
		if creds != nil {
			val := map[string]any{"status": client.StatusActive}
			for k, v := range creds {
				val[k] = v
			}
			ireq.State = &client.ConnectionState{AuthScheme: strings.ToUpper(scheme), Val: val}
		}
		cr, err := c.InitiateConnectedAccount(createCtx, ireq)
		if err != nil {
			if !r.addAliasRefused(ctx, plan, err, &resp.Diagnostics) {
				addCredentialsAPIError(&resp.Diagnostics, creds != nil, attr, "creating", "", err)
			}
			return
		}
		id, redirect = cr.ID, cr.RedirectURL
	}
	if id == "" {
		resp.Diagnostics.AddError("Error creating "+connectedAccountType,
			"The service accepted the request but returned no connected account id. This is a bug in the service or the provider.")
		return
	}

	r.data.Created.claim(id)
	unlock() // the account is on the service: the next create of the pair sees it
	unlock = func() {}
	plan.ID = types.StringValue(id)
	plan.RedirectURL = codec.StringOrNull(redirect)
	// From here on the account exists: every exit path saves it in the state.
	var errs diag.Diagnostics
	if !plan.Enabled.ValueBool() {
		if err := c.UpdateConnectedAccountStatus(ctx, id, false, plan.DisabledReason.ValueString()); err != nil {
			diagnostics.AddAPIError(&errs, "disabling", connectedAccountType, id, err)
		}
	}

	var acct *client.ConnectedAccount
	if plan.WaitForConnection.ValueBool() && !errs.HasError() {
		timeout, d := plan.Timeouts.Create(ctx, client.DefaultWaitTimeout)
		resp.Diagnostics.Append(d...)
		stop := announceConnectionWait(ctx, id, redirect, timeout, connectionWaitNoticeEvery)
		a, err := c.WaitForConnection(ctx, id, timeout)
		stop()
		if err != nil {
			addWaitError(&errs, id, redirect, timeout.String(), err)
		}
		acct = a
	}
	if acct == nil {
		a, err := c.ConnectedAccountAfterWrite(ctx, id, acID) // coalesced with the concurrent creates' read-backs
		if err != nil {
			diagnostics.AddAPIError(&errs, "reading the new", connectedAccountType, id, err)
		}
		acct = a
	}
	if acct != nil {
		resp.Diagnostics.Append(plan.fill(ctx, acct)...) // user_id is required: never an import
	}
	r.fillUnknown(&plan)
	resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &plan)...)
	resp.Diagnostics.Append(errs...)
}

// addAliasRefused reports a create the service refused for its alias (an
// account created meanwhile has it) and returns true; false for any other
// error.
func (r *connectedAccountResource) addAliasRefused(ctx context.Context, plan connectedAccountModel, err error, diags *diag.Diagnostics) bool {
	if plan.Alias.ValueString() == "" || !isAliasConflict(err) {
		return false
	}
	toolkit := ""
	if !plan.Toolkit.IsUnknown() {
		toolkit = plan.Toolkit.ValueString()
	}
	addAliasConflictAtApply(ctx, r.data.Client, plan.UserID.ValueString(), toolkit, plan.Alias.ValueString(), "", err, diags)
	return true
}

// fillUnknown replaces computed values still unknown (when the account could
// not be read back) with nulls so the state can be saved.
func (r *connectedAccountResource) fillUnknown(m *connectedAccountModel) {
	for _, s := range []*types.String{&m.Status, &m.StatusReason, &m.RedirectURL, &m.Toolkit, &m.AuthScheme, &m.CreatedAt, &m.UpdatedAt} {
		if s.IsUnknown() {
			*s = types.StringNull()
		}
	}
	if m.IsDisabled.IsUnknown() {
		m.IsDisabled = types.BoolValue(!m.Enabled.ValueBool())
	}
}

// stateFieldRe finds the credential field a service validation error names,
// e.g. "connection.state.val.api_key is required".
var stateFieldRe = regexp.MustCompile(`connection\.state\.val\.([A-Za-z0-9_-]+)`)

// addCredentialsAPIError reports a failed initiate or credentials update. When
// credentials were sent and the service refused them (400 naming a field of
// connection.state), the error is attached to the credentials attribute attr
// and names the field; otherwise it is a plain API error.
func addCredentialsAPIError(diags *diag.Diagnostics, sentCredentials bool, attr path.Path, operation, id string, err error) {
	var apiErr *client.APIError
	if !sentCredentials || !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusBadRequest {
		diagnostics.AddAPIError(diags, operation, connectedAccountType, id, err)
		return
	}
	text := apiErr.Message + "\n" + strings.Join(apiErr.Errors, "\n")
	if !strings.Contains(text, "connection.state") {
		diagnostics.AddAPIError(diags, operation, connectedAccountType, id, err)
		return
	}
	summary, detail := diagnostics.APIErrorText(operation, connectedAccountType, id, err)
	lead := fmt.Sprintf("Attribute %s: the service refused the credentials.", attr)
	if m := stateFieldRe.FindStringSubmatch(text); m != nil {
		lead = fmt.Sprintf("Attribute %s: the service refused the credential field %q (connection.state.val.%s is "+
			"the key %q of %s).", attr, m[1], m[1], m[1], attr)
	}
	if id == "" {
		lead += " No connected account was created."
	}
	diags.AddAttributeError(attr, summary, lead+"\n\n"+detail)
}

// connectionWaitNoticeEvery is how often a wait_for_connection wait says
// again that it is still waiting.
const connectionWaitNoticeEvery = 15 * time.Second

// announceConnectionWait logs at WARN (shown with TF_LOG_PROVIDER=WARN or any
// more verbose level) that the create waits for the account to become
// ACTIVE and where the user approves it (redirect_url, which the state holds
// too; never a credential), then again every `every` until stop is called.
func announceConnectionWait(ctx context.Context, id, redirect string, timeout, every time.Duration) (stop func()) {
	where := "redirect_url is empty: the account is connected outside this apply"
	if redirect != "" {
		where = "the user approves the connection at " + redirect
	}
	fields := map[string]any{"connected_account_id": id, "redirect_url": redirect, "timeout": timeout.String()}
	tflog.Warn(ctx, fmt.Sprintf("wait_for_connection: waiting up to %s for connected account %s to become ACTIVE; %s",
		timeout, id, where), fields)
	done := make(chan struct{})
	finished := make(chan struct{})
	start := time.Now()
	go func() {
		defer close(finished)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				tflog.Warn(ctx, fmt.Sprintf("wait_for_connection: still waiting (%s of %s) for connected account %s to become ACTIVE; %s",
					time.Since(start).Round(time.Second), timeout, id, where), fields)
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}

// addWaitError reports a wait_for_connection failure; the account stays in state.
func addWaitError(diags *diag.Diagnostics, id, redirect, timeout string, err error) {
	approve := ""
	if redirect != "" {
		approve = fmt.Sprintf(" The user can still approve it at redirect_url:\n\n  %s\n", redirect)
	}
	keep := "\nThe account was created and is kept in the Terraform state, marked tainted: the next apply replaces it " +
		"with a new account. To keep this account instead (for example after the user approved it), run " +
		"`terraform untaint` on this resource's address."
	switch {
	case errors.Is(err, client.ErrWaitTimeout):
		diags.AddError("Connected account "+id+" is not connected yet",
			fmt.Sprintf("The account did not become ACTIVE within %s (timeouts.create): %s.%s%s\n"+
				"To wait longer, raise timeouts.create; to not wait at all, set wait_for_connection = false and read "+
				"redirect_url from an output.", timeout, err, approve, keep))
	case errors.Is(err, client.ErrConnectionFailed):
		diags.AddError("Connected account "+id+" failed to connect",
			fmt.Sprintf("The connection did not succeed: %s.%s", err, keep))
	default:
		summary, detail := diagnostics.APIErrorText("waiting for", connectedAccountType, id, err)
		diags.AddError(summary, detail+"\n"+keep)
	}
}

// aliasValue is an account's alias: null when it has none ("" included).
func aliasValue(alias *string) types.String {
	if alias == nil {
		return types.StringNull()
	}
	return codec.StringOrNull(*alias)
}

// fill copies the service's view of the account into m. A model without
// user_id is the state an import just made (only the id), whose arguments
// are read back as well.
func (m *connectedAccountModel) fill(_ context.Context, a *client.ConnectedAccount) diag.Diagnostics {
	imported := m.UserID.IsNull()
	m.ID = types.StringValue(a.ID)
	if a.UserID != "" {
		m.UserID = types.StringValue(a.UserID)
	}
	if a.AuthConfig.ID != "" {
		m.AuthConfigID = types.StringValue(a.AuthConfig.ID)
	}
	m.Status = types.StringValue(a.Status)
	m.StatusReason = codec.StringOrNull(a.StatusReason)
	m.IsDisabled = types.BoolValue(a.IsDisabled)
	m.Enabled = types.BoolValue(!a.IsDisabled)
	m.Toolkit = types.StringValue(a.Toolkit.Slug)
	m.AuthScheme = codec.StringOrNull(a.AuthConfig.AuthScheme)
	if m.AuthScheme.IsNull() && a.State != nil {
		m.AuthScheme = codec.StringOrNull(a.State.AuthScheme)
	}
	m.CreatedAt = types.StringValue(a.CreatedAt)
	m.UpdatedAt = types.StringValue(a.UpdatedAt)
	m.Alias = aliasValue(a.Alias)
	// The service never reports revoke_on_delete: an import (and a state
	// written before the attribute existed) takes the default.
	if m.RevokeOnDelete.IsNull() || m.RevokeOnDelete.IsUnknown() {
		m.RevokeOnDelete = types.BoolValue(false)
	}
	if !imported {
		return nil
	}
	var val map[string]any
	if a.State != nil {
		val = a.State.Val
	}
	if s, ok := val["callback_url"].(string); ok && s != "" {
		m.CallbackURL = types.StringValue(s)
	}
	if s, ok := val["redirectUrl"].(string); ok && s != "" && strings.EqualFold(a.Status, client.StatusInitiated) {
		m.RedirectURL = types.StringValue(s)
	} else {
		m.RedirectURL = types.StringNull()
	}
	if a.IsDisabled && a.StatusReason != "" {
		m.DisabledReason = types.StringValue(a.StatusReason)
	}
	m.AllowMultiple = types.BoolValue(false)
	m.HostedLink = types.BoolValue(false)
	m.WaitForConnection = types.BoolValue(false)
	return nil
}

func (r *connectedAccountResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state connectedAccountModel
	if !r.readState(ctx, req, resp, &state) {
		return
	}
	id := state.ID.ValueString()
	a, err := r.data.readConnectedAccount(ctx, id)
	if diagnostics.ReadFailed(ctx, resp, connectedAccountType, id, err) {
		return
	}
	if strings.EqualFold(a.Status, statusDeleted) {
		diagnostics.RemoveFromState(ctx, resp, connectedAccountType, id)
		return
	}
	resp.Diagnostics.Append(state.fill(ctx, a)...)
	resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &state)...)
}

func (r *connectedAccountResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer identity.FromState(ctx, &resp.State, resp.Identity, &resp.Diagnostics)
	var plan, config, state connectedAccountModel
	if !r.planStateAndConfig(ctx, req, resp, &plan, &state, &config) {
		return
	}
	c := r.data.Client
	id := state.ID.ValueString()
	plan.ID = state.ID
	called := false

	// One PATCH /connected_accounts/{id} carries what changed of the
	// credentials and the alias.
	var upd client.ConnectedAccountUpdate
	credAttr := path.Root("credentials")
	credsChanged := !plan.Credentials.Equal(state.Credentials) || !plan.CredentialsWOVersion.Equal(state.CredentialsWOVersion)
	if credsChanged {
		creds, _, attr, _ := givenCredentials(ctx, config, plan, &resp.Diagnostics)
		if resp.Diagnostics.HasError() {
			return
		}
		if creds != nil {
			// The credential keys alone: the documents declare val of this
			// PATCH as a closed object of credential keys (the service's v3
			// document: additionalProperties false; @composio/client rc.6
			// alike), with no status in it, unlike the initiate's val.
			val := make(map[string]any, len(creds))
			for k, v := range creds {
				val[k] = v
			}
			upd.State = &client.ConnectionState{AuthScheme: strings.ToUpper(state.AuthScheme.ValueString()), Val: val}
			credAttr = attr
		}
	}
	if !plan.Alias.Equal(state.Alias) {
		alias := plan.Alias.ValueString() // "" (alias removed from the configuration) clears it
		upd.Alias = &alias
	}
	if upd.State != nil || upd.Alias != nil {
		if err := c.UpdateConnectedAccount(ctx, id, upd); err != nil {
			switch {
			case upd.Alias != nil && isAliasConflict(err):
				addAliasConflictAtApply(ctx, c, state.UserID.ValueString(), state.Toolkit.ValueString(), *upd.Alias, id, err, &resp.Diagnostics)
			case upd.State != nil:
				addCredentialsAPIError(&resp.Diagnostics, true, credAttr, "updating the credentials of", id, err)
			default:
				diagnostics.AddAPIError(&resp.Diagnostics, "updating the alias of", connectedAccountType, id, err)
			}
			return
		}
		called = true
	}

	enabled := plan.Enabled.ValueBool()
	if !plan.Enabled.Equal(state.Enabled) || (!enabled && !plan.DisabledReason.Equal(state.DisabledReason)) {
		reason := ""
		if !enabled {
			reason = plan.DisabledReason.ValueString()
		}
		if err := c.UpdateConnectedAccountStatus(ctx, id, enabled, reason); err != nil {
			op := "enabling"
			if !enabled {
				op = "disabling"
			}
			diagnostics.AddAPIError(&resp.Diagnostics, op, connectedAccountType, id, err)
			return
		}
		called = true
	}

	if called {
		a, err := c.ConnectedAccountAfterWrite(ctx, id, state.AuthConfigID.ValueString())
		if err != nil {
			diagnostics.AddAPIError(&resp.Diagnostics, "reading", connectedAccountType, id, err)
			return
		}
		planned := plan.Status
		resp.Diagnostics.Append(plan.fill(ctx, a)...) // user_id is required: never an import
		// ModifyPlan planned the status only where this update leaves it
		// unchanged (planAccountUpdate). If it changed meanwhile outside
		// Terraform (say the user approved an OAuth account between plan and
		// apply), the planned value is kept: the next refresh shows the new
		// status, instead of this apply failing as inconsistent.
		if !planned.IsUnknown() && !planned.IsNull() {
			plan.Status = planned
		}
	} else {
		plan.Status, plan.StatusReason, plan.IsDisabled = state.Status, state.StatusReason, state.IsDisabled
		plan.UpdatedAt = state.UpdatedAt
	}
	r.fillUnknown(&plan)
	resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &plan)...)
}

func (r *connectedAccountResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state connectedAccountModel // all Delete needs from the state
	if !r.deleteState(ctx, req, resp, &state, "id", "revoke_on_delete") {
		return
	}
	id := state.ID.ValueString()
	jobID, err := r.data.Client.DeleteConnectedAccountWith(ctx, id, client.DeleteOptions{RevokeOnDelete: state.RevokeOnDelete.ValueBool()})
	diagnostics.LogRevokeJob(ctx, connectedAccountType, id, jobID)
	diagnostics.AddDeleteError(&resp.Diagnostics, connectedAccountType, id, err)
}

func (r *connectedAccountResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	// Only ca_... ids: the API addresses accounts by nanoid, not by UUID. A
	// malformed id, or an auth config or trigger id, fails without an API call.
	importid.ImportState(ctx, importid.ConnectedAccount, req, resp)
}

// The checks of service_connected_account that span a user's accounts: the
// alias, unique per user and toolkit (at plan through the cached listing of
// the user's accounts, at apply before the write), and the duplicate ACTIVE
// account refused unless allow_multiple (at apply).

// aliasHolder returns the account of accounts, other than except, that has
// alias among userID's accounts on toolkit, or nil.
func aliasHolder(accounts []client.ConnectedAccount, userID, toolkit, alias, except string) *client.ConnectedAccount {
	for i, a := range accounts {
		if a.ID != except && a.UserID == userID && strings.EqualFold(a.Toolkit.Slug, toolkit) &&
			a.Alias != nil && *a.Alias == alias && !strings.EqualFold(a.Status, statusDeleted) {
			return &accounts[i]
		}
	}
	return nil
}

// aliasTakenText explains that holder already has alias; outcome says what
// was not done ("No connected account was created.").
func aliasTakenText(alias, userID, toolkit string, holder *client.ConnectedAccount, outcome string) string {
	return fmt.Sprintf("Attribute alias: user %q already has connected account %s on toolkit %q with the alias %q "+
		"(status %s), and an alias is unique per user and toolkit. %s\n\n"+
		"Choose another alias, or first remove the alias from %s: remove `alias` from its resource's "+
		"configuration and apply, or clear it through the service's API (PATCH /connected_accounts/%s "+
		"with \"alias\": \"\").", userID, holder.ID, toolkit, alias, holder.Status, outcome, holder.ID, holder.ID)
}

// checkAliasAtPlan refuses, at plan, an alias (being set: a create, or a
// change in place) that another account of the user on toolkit already has,
// or that another service_connected_account of this plan gives the same
// user's account on the same toolkit. The user's accounts are listed through
// Cache (once per user per provider process). except is the account this
// plan changes, or replaces (the id the first half of a replacement left in
// the private data). A create without prior state may replace a tainted
// account that Terraform does not show the provider: when the holder is on
// the same auth config it may be that account, so the plan only warns, and
// Create, which lists again after the tainted account was deleted, refuses
// it before the write if it is still there.
func (r *connectedAccountResource) checkAliasAtPlan(ctx context.Context, req resource.ModifyPlanRequest, plan connectedAccountModel, toolkit, except string, diags *diag.Diagnostics) {
	if !r.data.Configured() || plan.Alias.IsNull() || plan.Alias.IsUnknown() || plan.UserID.IsNull() ||
		plan.UserID.IsUnknown() || toolkit == "" {
		return
	}
	userID, alias := plan.UserID.ValueString(), plan.Alias.ValueString()
	creating := req.State.Raw.IsNull()
	if creating {
		if v, d := req.Private.GetKey(ctx, privateKeyReplacedAccount); !d.HasError() && len(v) > 0 {
			_ = json.Unmarshal(v, &except)
		}
	}
	if !r.data.AliasClaims.claim(strings.Join([]string{userID, strings.ToLower(toolkit), alias}, "\x00")) {
		diags.AddAttributeError(path.Root("alias"), "Same alias as another connected account",
			fmt.Sprintf("Attribute alias: another service_connected_account in this plan gives user %q's account on "+
				"toolkit %q the alias %q, and an alias is unique per user and toolkit. Give each account its own alias.",
				userID, toolkit, alias))
		return
	}
	accounts, err := r.data.Cache.UserAccounts(ctx, userID)
	if err != nil {
		diagnostics.AddAPIErrorAt(diags, path.Root("alias"), "listing the accounts of user "+userID+" to check the alias of", connectedAccountType, except, err)
		return
	}
	holder := aliasHolder(accounts, userID, toolkit, alias, except)
	if holder == nil {
		return
	}
	if creating && except == "" && holder.AuthConfig.ID == plan.AuthConfigID.ValueString() {
		diags.AddAttributeWarning(path.Root("alias"), "Alias already used",
			fmt.Sprintf("Attribute alias: user %q's connected account %s on the same auth config already has the alias %q "+
				"(aliases are unique per user and toolkit). If that is the account this plan replaces (a tainted "+
				"account), the apply goes ahead once it is deleted; otherwise the apply stops before creating this "+
				"account. To be sure, give this account another alias.", userID, holder.ID, alias))
		return
	}
	outcome := "The plan stops here: nothing was created or changed."
	diags.AddAttributeError(path.Root("alias"), "Alias already used", aliasTakenText(alias, userID, toolkit, holder, outcome))
}

// checkBeforeCreate makes Create's one listing before the write, when an
// alias is set or allow_multiple is false, and refuses (false, nothing
// written) an alias another account of the user on the toolkit has, and a
// second ACTIVE account of the user on the auth config unless allow_multiple.
func checkBeforeCreate(ctx context.Context, d *ProviderData, plan connectedAccountModel, diags *diag.Diagnostics) bool {
	c := d.Client
	userID, acID, alias := plan.UserID.ValueString(), plan.AuthConfigID.ValueString(), plan.Alias.ValueString()
	toolkit := ""
	if !plan.Toolkit.IsUnknown() {
		toolkit = plan.Toolkit.ValueString()
	}
	allowMultiple := plan.AllowMultiple.ValueBool()
	if (alias == "" || toolkit == "") && allowMultiple {
		return true
	}
	// One listing, coalesced with the checks of the concurrent creates of
	// other pairs: the user's ACTIVE accounts on the auth config, or, with
	// an alias, the user's accounts on the toolkit (it serves both checks).
	var accounts []client.ConnectedAccount
	var err error
	if alias != "" && toolkit != "" {
		accounts, err = c.ConnectedAccountsOnToolkit(ctx, userID, toolkit)
	} else {
		accounts, err = c.ActiveConnectedAccountsOf(ctx, userID, acID)
	}
	if err != nil {
		diagnostics.AddAPIError(diags, "checking for existing accounts before creating", connectedAccountType, "", err)
		return false
	}
	ok := true
	if alias != "" && toolkit != "" {
		if holder := aliasHolder(accounts, userID, toolkit, alias, ""); holder != nil {
			diags.AddAttributeError(path.Root("alias"), "Alias already used",
				aliasTakenText(alias, userID, toolkit, holder, "No connected account was created."))
			ok = false
		}
	}
	if !allowMultiple {
		var existing []client.ConnectedAccount
		for _, a := range accounts {
			if a.UserID == userID && a.AuthConfig.ID == acID && strings.EqualFold(a.Status, client.StatusActive) {
				existing = append(existing, a)
			}
		}
		if len(existing) > 0 {
			addExistingAccountError(diags, d, userID, acID, existing)
			ok = false
		}
	}
	return ok
}

// isAliasConflict reports the service's refusal of an alias another account
// of the user on the toolkit has. The service documents the rule but not its
// answer: a 409, or a 400 naming the alias, after a request that sent one.
func isAliasConflict(err error) bool {
	var apiErr *client.APIError
	if !errors.As(err, &apiErr) {
		return false
	}
	switch apiErr.StatusCode {
	case http.StatusConflict:
		return true
	case http.StatusBadRequest:
		return strings.Contains(strings.ToLower(apiErr.Slug+" "+apiErr.Message+" "+strings.Join(apiErr.Errors, " ")), "alias")
	}
	return false
}

// addAliasConflictAtApply reports the service's refusal of alias (the
// operation wrote nothing), naming the account that has it: one listing of
// the user's accounts on the toolkit finds it. id is the account whose alias
// was being set ("" on create).
func addAliasConflictAtApply(ctx context.Context, c *client.Client, userID, toolkit, alias, id string, err error, diags *diag.Diagnostics) {
	op, outcome := "updating the alias of", "The alias was not changed."
	if id == "" {
		op, outcome = "creating", "No connected account was created."
	}
	summary, detail := diagnostics.APIErrorText(op, connectedAccountType, id, err)
	lead := fmt.Sprintf("Attribute alias: the service refused the alias %q: another connected account of user %q on "+
		"toolkit %q has it (an alias is unique per user and toolkit). %s", alias, userID, toolkit, outcome)
	p := client.ConnectedAccountListParams{UserIDs: []string{userID}}
	if toolkit != "" {
		p.ToolkitSlugs = []string{toolkit}
	}
	if accounts, lerr := c.ListConnectedAccounts(ctx, p); lerr == nil {
		if holder := aliasHolder(accounts, userID, toolkit, alias, id); holder != nil {
			lead = aliasTakenText(alias, userID, toolkit, holder, outcome)
		}
	}
	diags.AddAttributeError(path.Root("alias"), summary, lead+"\n\n"+detail)
}

// addExistingAccountError refuses a duplicate account: when another resource
// of this apply created the existing one (d.Created), two resources of the
// configuration manage one user and auth config; otherwise it says how to
// import the existing account instead.
func addExistingAccountError(diags *diag.Diagnostics, d *ProviderData, userID, acID string, existing []client.ConnectedAccount) {
	ids := make([]string, 0, len(existing))
	sameApply := ""
	for _, a := range existing {
		ids = append(ids, a.ID)
		if d.Created.has(a.ID) {
			sameApply = a.ID
		}
	}
	sort.Strings(ids)
	lead := fmt.Sprintf("Attribute user_id: user %q already has an ACTIVE connected account for auth config %s: %s. A "+
		"second account was not created (allow_multiple is false).\n\n", userID, acID, strings.Join(ids, ", "))
	if sameApply != "" {
		diags.AddAttributeError(path.Root("user_id"), "Connected account already exists", lead+fmt.Sprintf(
			"Account %s was created a moment ago by this apply, for another %s of this configuration with the same "+
				"user_id and auth_config_id: two resources would manage connections of one user to one auth config. "+
				"Remove one of them, or set allow_multiple = true on both to keep two accounts.",
			sameApply, connectedAccountType))
		return
	}
	diags.AddAttributeError(path.Root("user_id"), "Connected account already exists", lead+
		diagnostics.ImportHint(connectedAccountType, ids[0])+"\n\n"+
		"To create another account for the same user and auth config anyway, set allow_multiple = true.")
}
