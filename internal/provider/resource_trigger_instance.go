package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/provider/codec"
	"github.com/integration-service/terraform-provider-service/internal/provider/destroyrun"
	"github.com/integration-service/terraform-provider-service/internal/provider/diagnostics"
	"github.com/integration-service/terraform-provider-service/internal/provider/identity"
	"github.com/integration-service/terraform-provider-service/internal/provider/importid"
	"github.com/integration-service/terraform-provider-service/internal/provider/jsonschema"
	"github.com/integration-service/terraform-provider-service/internal/provider/jsonvalue"
	"github.com/integration-service/terraform-provider-service/internal/provider/planmodifiers"
	"github.com/integration-service/terraform-provider-service/internal/provider/validators"
)

const triggerInstanceType = "service_trigger_instance"

var _ managedResource = (*triggerInstanceResource)(nil)

// triggerSlugRe matches trigger type slugs: upper snake case, prefixed by the
// toolkit (e.g. GITHUB_COMMIT_EVENT).
var triggerSlugRe = regexp.MustCompile(`^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$`)

// NewTriggerInstanceResource returns the service_trigger_instance resource.
func NewTriggerInstanceResource() resource.Resource {
	return &triggerInstanceResource{resourceBase{typeNamed("trigger_instance")}}
}

type triggerInstanceResource struct{ resourceBase }

type triggerInstanceModel struct {
	ID                 types.String         `tfsdk:"id"`
	UserID             types.String         `tfsdk:"user_id"`
	Slug               types.String         `tfsdk:"slug"`
	ConnectedAccountID types.String         `tfsdk:"connected_account_id"`
	TriggerConfig      jsontypes.Normalized `tfsdk:"trigger_config"`
	Enabled            types.Bool           `tfsdk:"enabled"`
	Toolkit            types.String         `tfsdk:"toolkit"`
	ToolkitVersion     types.String         `tfsdk:"toolkit_version"`
	DisabledAt         types.String         `tfsdk:"disabled_at"`
	UpdatedAt          types.String         `tfsdk:"updated_at"`
	EgressURL          types.String         `tfsdk:"egress_url"`
}

// IdentitySchema: the trigger instance's identity is its id (see package identity).
func (r *triggerInstanceResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identity.Schema("trigger instance", "ti_AbC123")
}

func (r *triggerInstanceResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A trigger instance: the service watches a connected account for events of one trigger " +
			"type (for example `GITHUB_COMMIT_EVENT`) and delivers them to the project's webhook or subscribers.\n\n" +
			"Checks, none of which writes anything. At plan when `slug` and `trigger_config` are known: the trigger " +
			"type exists and `trigger_config` fits its configuration schema at the toolkit version the provider is " +
			"configured with (`toolkit_versions`, `toolkit_version`, `SERVICE_TOOLKIT_VERSION_<NAME>`), so pinning " +
			"an older toolkit version changes what is valid. `connected_account_id`, at plan when it is known: the " +
			"account exists, belongs to `user_id` and is on the trigger's toolkit (an account that is not `ACTIVE` " +
			"is only a warning then); when it is not known at plan (an account created in the same apply), at " +
			"apply, before the trigger is written, where an account that is not `ACTIVE` and enabled is an error. " +
			"Without `connected_account_id`, the user's first `ACTIVE` account is looked up at apply.\n\n" +
			"The service creates triggers with an *upsert*: creating an instance whose trigger type, connected account " +
			"and configuration equal those of an existing instance returns that existing instance, which two resources " +
			"would then share (and deleting either would delete it for both). So a create is refused, on " +
			"`trigger_config` and before anything is written, when such an instance exists: held by another resource " +
			"of this or another configuration, or by none (made outside Terraform). At plan when `connected_account_id` " +
			"is known (the account's instances are listed once per provider run), else at apply before the upsert " +
			"(without `connected_account_id`, or an account created in the same apply); two such resources in one " +
			"plan are refused too. The error names the instance and the `import` block that manages it with this " +
			"resource.",
		Attributes: map[string]schema.Attribute{
			"id": idAttribute("The trigger id (`ti_...`), used for import."),
			"user_id": userIDAttribute("External id of the user whose connected account the trigger watches. Changing it " +
				"creates a new trigger instance."),
			"slug": schema.StringAttribute{
				MarkdownDescription: "Trigger type slug in upper snake case, prefixed by the toolkit, e.g. " +
					"`GITHUB_COMMIT_EVENT` (see the `service_trigger_types` data source). Changing it creates a new " +
					"trigger instance. A trigger type with `requires_webhook_endpoint_setup` on an account of your own " +
					"OAuth app (a custom auth config) fires only once that app's webhook endpoint is registered upstream: " +
					"the plan warns and names `service_webhook_endpoint`.",
				Required: true,
				Validators: []validator.String{stringvalidator.RegexMatches(triggerSlugRe,
					"must be a trigger type slug in upper snake case, e.g. GITHUB_COMMIT_EVENT")},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"connected_account_id": schema.StringAttribute{
				MarkdownDescription: "Connected account (`ca_...`) the trigger watches; it must belong to `user_id`, be on " +
					"the trigger's toolkit and be `ACTIVE`. When omitted, the first `ACTIVE` connected account of " +
					"`user_id` on the trigger's toolkit is used (chosen once, at create). Changing a configured value " +
					"creates a new trigger instance; removing it from the configuration keeps the current account.",
				Optional:   true,
				Computed:   true,
				Validators: []validator.String{validators.ObjectID("ca_")},
				PlanModifiers: []planmodifier.String{
					stringplanmodifier.UseStateForUnknown(),
					stringplanmodifier.RequiresReplaceIfConfigured(),
				},
			},
			"trigger_config": schema.StringAttribute{
				MarkdownDescription: "Configuration of the trigger as a JSON object (use `jsonencode({...})`), checked " +
					"against the trigger type's configuration schema for the configured toolkit version at plan when it " +
					"is known, otherwise at apply before the write. " +
					"Defaults to `{}`. Key order and whitespace never cause a diff. Changing the configuration creates " +
					"a new trigger instance.",
				Optional:   true,
				Computed:   true,
				CustomType: jsontypes.NormalizedType{},
				Default:    stringdefault.StaticString("{}"),
				Validators: []validator.String{validators.JSONObject()},
				PlanModifiers: []planmodifier.String{
					planmodifiers.NormalizedJSONUseState{},
					stringplanmodifier.RequiresReplace(),
				},
			},
			"enabled": schema.BoolAttribute{
				MarkdownDescription: "Whether the trigger delivers events. Defaults to `true`. Changing it enables or " +
					"disables the trigger in place.",
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(true),
			},
			"toolkit": schema.StringAttribute{
				MarkdownDescription: "Slug of the toolkit the trigger type belongs to, e.g. `github`.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"toolkit_version": schema.StringAttribute{
				MarkdownDescription: "Toolkit version the trigger instance was created with, e.g. `20251015_00`.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"disabled_at": schema.StringAttribute{
				MarkdownDescription: "When the trigger was disabled (ISO 8601); null while it is enabled.",
				Computed:            true,
			},
			"updated_at": schema.StringAttribute{
				MarkdownDescription: "When the trigger instance was last changed (ISO 8601).",
				Computed:            true,
			},
			"egress_url": schema.StringAttribute{
				MarkdownDescription: "An `https` URL this trigger instance's events are delivered to **instead of** the " +
					"project's webhook URL. The project's webhook subscription (`service_webhook_subscription`) is " +
					"still required and still decides the signing secret, the payload version and which events are " +
					"enabled; only the destination of this instance's events changes. Set, changed and removed in " +
					"place (removing it sends `null`, and events go to the project's webhook URL again). The service " +
					"does not return it when the instance is read, so the provider keeps the value it last set: a " +
					"change made outside Terraform is not detected, and an imported instance has it null (the first " +
					"apply after an import sets the configured value).",
				Optional:   true,
				Validators: []validator.String{validators.HTTPSURL()},
			},
		},
	}
}

// ModifyPlan checks trigger_config against the trigger type's configuration
// schema (read at the provider's toolkit version, once per provider run) and
// fills in the toolkit. Nothing is written.
func (r *triggerInstanceResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	destroyrun.RemotePlanChecks(ctx, triggerInstanceType, req, resp, func() { r.modifyPlan(ctx, req, resp) })
}

func (r *triggerInstanceResource) modifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if planUnchanged(req) {
		return // nothing to check or fill in
	}
	// Only the attributes this function reads (codec.GetAttributes: add any
	// attribute a new check needs).
	checked := []string{"user_id", "slug", "connected_account_id", "trigger_config", "enabled", "egress_url"}
	var plan triggerInstanceModel
	resp.Diagnostics.Append(codec.GetAttributes(ctx, req.Plan, &plan, checked...)...)
	if resp.Diagnostics.HasError() {
		return
	}
	var state *triggerInstanceModel
	if !req.State.Raw.IsNull() {
		state = &triggerInstanceModel{}
		resp.Diagnostics.Append(codec.GetAttributes(ctx, req.State, state, checked...)...)
		if resp.Diagnostics.HasError() {
			return
		}
	}
	if state != nil && state.UserID.Equal(plan.UserID) && state.Slug.Equal(plan.Slug) &&
		state.ConnectedAccountID.Equal(plan.ConnectedAccountID) && state.TriggerConfig.Equal(plan.TriggerConfig) &&
		state.Enabled.Equal(plan.Enabled) && state.EgressURL.Equal(plan.EgressURL) {
		// Nothing to change (trigger_config may differ from the configuration
		// only in formatting): the framework marked the computed attributes
		// unknown because the raw configuration differed; keep them, i.e.
		// plan the prior state as it is.
		resp.Plan.Raw = req.State.Raw.Copy()
		return
	}
	// An enabled trigger has no disabled_at: say so in the plan rather than
	// "(known after apply)".
	if !plan.Enabled.IsUnknown() && !plan.Enabled.IsNull() && plan.Enabled.ValueBool() {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("disabled_at"), types.StringNull())...)
	}
	if plan.Slug.IsUnknown() || plan.TriggerConfig.IsUnknown() || !r.data.Configured() {
		return
	}
	// Only a create (or a replacement) sends the configuration and the
	// account to the service; an in-place update (enabled, egress_url)
	// needs no check.
	if state != nil && state.UserID.Equal(plan.UserID) && state.Slug.Equal(plan.Slug) &&
		state.TriggerConfig.Equal(plan.TriggerConfig) && state.ConnectedAccountID.Equal(plan.ConnectedAccountID) {
		return
	}

	slug := plan.Slug.ValueString()
	r.data.checkToolkitVersionKeys(ctx, &resp.Diagnostics)
	tt, err := r.data.Cache.TriggerType(ctx, slug)
	if err != nil {
		if !r.data.addVersionNotFound(ctx, &resp.Diagnostics, client.ToolkitPrefix(slug), err) {
			diagnostics.AddLookupErrorSuggest(&resp.Diagnostics, path.Root("slug"), "trigger type", slug, r.data.VersionFor(client.ToolkitPrefix(slug)), err,
				func() string { return r.data.suggestTriggerType(ctx, slug) })
		}
		return
	}
	toolkit := tt.Toolkit.Slug
	if toolkit == "" {
		toolkit = client.ToolkitPrefix(slug)
	}
	version := tt.Version
	if version == "" {
		version = r.data.VersionFor(toolkit)
	}
	resp.Diagnostics.Append(jsonschema.CheckTriggerConfig(tt.Config, plan.TriggerConfig.ValueString(), slug, version, path.Root("trigger_config"))...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("toolkit"), types.StringValue(toolkit))...)
	if !plan.ConnectedAccountID.IsUnknown() && !plan.ConnectedAccountID.IsNull() && !plan.UserID.IsUnknown() {
		r.checkAccountAtPlan(ctx, plan.ConnectedAccountID.ValueString(), plan.UserID.ValueString(), toolkit, slug,
			tt.RequiresWebhookEndpointSetup, &resp.Diagnostics)
	}
	if state == nil {
		var cfg triggerInstanceModel
		resp.Diagnostics.Append(codec.GetAttributes(ctx, req.Config, &cfg, "connected_account_id")...)
		r.claimTriggerCreate(plan, cfg.ConnectedAccountID, slug, &resp.Diagnostics)
	}
	// The create is an upsert: refuse one that would answer an instance the
	// service already has (held by another resource, or by nothing in this
	// state). Known at plan when the account is.
	if !resp.Diagnostics.HasError() && !plan.ConnectedAccountID.IsUnknown() && !plan.ConnectedAccountID.IsNull() &&
		plan.ConnectedAccountID.ValueString() != "" {
		except := ""
		if state != nil {
			except = state.ID.ValueString() // -replace of this very instance
		}
		r.refuseExistingTrigger(ctx, plan.ConnectedAccountID.ValueString(), slug, plan.TriggerConfig, except, "The plan stops here: nothing was created.", &resp.Diagnostics)
	}
}

// triggerInstances are a provider process's listings of trigger instances
// by connected account, and the instances it upserted by key
// (triggerKey), for refuseExistingTrigger.
type triggerInstances struct {
	mu       sync.Mutex
	listings map[string][]client.TriggerInstance
	upserted map[string]string
}

// triggerKey is what the service's upsert matches on: the trigger type,
// the account and the configuration (canonical JSON).
func triggerKey(slug, accountID, canonicalConfig string) string {
	return strings.Join([]string{slug, accountID, canonicalConfig}, "\x00")
}

// canonicalJSON is v as JSON with sorted keys and one spelling per number,
// so that two configurations that mean the same compare equal.
func canonicalJSON(v any) (string, bool) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", false
	}
	var x any
	if err := json.Unmarshal(b, &x); err != nil {
		return "", false
	}
	if b, err = json.Marshal(x); err != nil {
		return "", false
	}
	return string(b), true
}

// existingTrigger returns the id of the instance the upsert of (slug,
// accountID, config) would answer, other than except: one this process
// upserted, else one of the account's listing (read once per account per
// provider process, disabled instances included); "" when there is none.
func (r *triggerInstanceResource) existingTrigger(ctx context.Context, accountID, slug, config, except string) (string, error) {
	t := &r.data.Triggers
	t.mu.Lock()
	defer t.mu.Unlock()
	if id := t.upserted[triggerKey(slug, accountID, config)]; id != "" && id != except {
		return id, nil
	}
	list, ok := t.listings[accountID]
	if !ok {
		var err error
		list, err = r.data.Client.ListActiveTriggers(ctx, client.TriggerInstanceListParams{
			ConnectedAccountIDs: []string{accountID}, ShowDisabled: true})
		if err != nil {
			return "", err
		}
		if t.listings == nil {
			t.listings = map[string][]client.TriggerInstance{}
		}
		t.listings[accountID] = list
	}
	for _, ti := range list {
		if ti.ID == except || ti.ConnectedAccountID != accountID || ti.TriggerName != slug {
			continue
		}
		if c, ok := canonicalJSON(ti.TriggerConfig); ok && c == config {
			return ti.ID, nil
		}
	}
	return "", nil
}

// upserted records that this process's upsert of (slug, accountID, config)
// answered id.
func (t *triggerInstances) record(slug, accountID, config, id string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.upserted == nil {
		t.upserted = map[string]string{}
	}
	t.upserted[triggerKey(slug, accountID, config)] = id
}

// refuseExistingTrigger adds the error for a create whose upsert would answer
// an instance the service already has (existingTrigger), with the import to
// use; outcome says what was not done. A failed listing is left to the
// service (the check is best effort at plan) and logged.
func (r *triggerInstanceResource) refuseExistingTrigger(ctx context.Context, accountID, slug string, config jsontypes.Normalized, except, outcome string, diags *diag.Diagnostics) bool {
	cfg, d := jsonvalue.ObjectFromNormalized(config, path.Root("trigger_config"))
	canonical, ok := canonicalJSON(cfg)
	if d.HasError() || !ok {
		return false
	}
	id, err := r.existingTrigger(ctx, accountID, slug, canonical, except)
	if err != nil {
		tflog.Debug(ctx, "existing trigger instances not checked", map[string]any{"connected_account_id": accountID, "error": err.Error()})
		return false
	}
	if id == "" {
		return false
	}
	diags.AddAttributeError(path.Root("trigger_config"), "Trigger instance already exists",
		fmt.Sprintf("Attribute trigger_config: the service already has trigger instance %s for connected account %s, "+
			"trigger type %s and this trigger_config. Its create is an upsert: it would answer %s, and this resource "+
			"would then share that instance with whatever holds it (another resource of this or another "+
			"configuration), and deleting either would delete it for both. %s\n\n"+
			"If another resource manages %s, remove this one or give it another trigger_config. Otherwise manage the "+
			"existing instance with this resource. %s", id, accountID, slug, id, outcome, id,
			diagnostics.ImportHint(triggerInstanceType, id)))
	return true
}

// claimTriggerCreate refuses a second trigger instance in this plan with the
// same account, type and trigger_config as another: the service creates
// triggers by upsert and would hand both resources the same instance, which
// they would then fight over (enabled) and delete for each other. The account
// is the explicit connected_account_id, else the user's (the service then
// picks the user's first ACTIVE account on the toolkit for both).
func (r *triggerInstanceResource) claimTriggerCreate(plan triggerInstanceModel, configuredAccount types.String, slug string, diags *diag.Diagnostics) {
	if plan.UserID.IsUnknown() || configuredAccount.IsUnknown() || plan.TriggerConfig.IsUnknown() {
		return
	}
	cfg, d := jsonvalue.ObjectFromNormalized(plan.TriggerConfig, path.Root("trigger_config"))
	canonical, err := json.Marshal(cfg) // sorted keys, one spelling per number
	if d.HasError() || err != nil {
		return
	}
	account := "account " + configuredAccount.ValueString()
	if configuredAccount.IsNull() || configuredAccount.ValueString() == "" {
		account = "user " + plan.UserID.ValueString()
	}
	if r.data.TriggerCreates.claim(strings.Join([]string{slug, account, string(canonical)}, "\x00")) {
		return
	}
	diags.AddAttributeError(path.Root("trigger_config"), "Same trigger instance as another resource",
		fmt.Sprintf("Attribute trigger_config: another service_trigger_instance in this plan creates trigger %s for the "+
			"same %s with the same trigger_config. The service keeps one instance per account, trigger type and "+
			"configuration, so both resources would manage the same instance. Remove one of them, or make their "+
			"trigger_config differ.", slug, account))
}

// checkAccountAtPlan reports, during plan, a connected_account_id that can
// never work for this trigger: one the service does not have, an account of
// another user or on another toolkit (both fixed for the account's life); the
// id's kind is checked at validate. What may change before apply (status,
// enabled) is only warned about, and read failures other than 404 are left to
// the check at create.
// It runs only for a create or a replacement (ModifyPlan returns earlier for
// an unchanged trigger in the state) and never during `terraform destroy`
// (destroyrun.RemotePlanChecks), so a deleted account does not block a destroy.
//
// needsEndpoint is the trigger type's requires_webhook_endpoint_setup: on an
// account of the developer's own OAuth app (an auth config that is not
// service-managed), such a trigger fires only once the app's webhook endpoint
// is registered with the upstream provider, which this plan warns about.
func (r *triggerInstanceResource) checkAccountAtPlan(ctx context.Context, id, userID, toolkit, slug string, needsEndpoint bool, diags *diag.Diagnostics) {
	if id == "" {
		return
	}
	a, err := r.data.Cache.ConnectedAccount(ctx, id)
	if client.IsNotFound(err) {
		diags.AddAttributeError(path.Root("connected_account_id"), "Connected account not found",
			fmt.Sprintf("Attribute connected_account_id: the service has no connected account %q. Use the id of an "+
				"existing account of user_id (for example service_connected_account.<name>.id), or omit "+
				"connected_account_id to use the user's first ACTIVE account on the trigger's toolkit.", id))
		return
	}
	if err != nil {
		tflog.Debug(ctx, "connected account not checked at plan time", map[string]any{"connected_account_id": id, "error": err.Error()})
		return
	}
	if needsEndpoint && !a.AuthConfig.IsComposioManaged && a.Toolkit.Slug == toolkit {
		diags.AddAttributeWarning(path.Root("slug"), "Trigger needs a webhook endpoint",
			fmt.Sprintf("Trigger type %s requires webhook endpoint setup, and connected account %s uses your own OAuth "+
				"app (auth config %s is not service-managed): the upstream provider sends this trigger's events only "+
				"to the URL the service issues for that app. Manage it with a service_webhook_endpoint (toolkit = %q, "+
				"client_id = your app's client id) and register its webhook_url with the provider (for Slack: Event "+
				"Subscriptions); until then the trigger is created but never fires.", slug, id, a.AuthConfig.ID, toolkit))
	}
	var checked diag.Diagnostics
	r.checkAccountFields(a, id, userID, toolkit, slug, &checked)
	for _, d := range checked {
		if d.Summary() != accountNotUsableSummary {
			diags.Append(d)
			continue
		}
		// Not ACTIVE or disabled now: the same apply may still enable it, or
		// the user may approve it first, so a warning, not an error.
		diags.AddAttributeWarning(path.Root("connected_account_id"), accountNotUsableSummary,
			d.Detail()+" The create will fail unless the account is ACTIVE and enabled when the trigger is created.")
	}
}

func (r *triggerInstanceResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer identity.FromState(ctx, &resp.State, resp.Identity, &resp.Diagnostics)
	var plan triggerInstanceModel
	if !r.planForCreate(ctx, req, resp, &plan) {
		return
	}
	c := r.data.Client
	slug := plan.Slug.ValueString()
	userID := plan.UserID.ValueString()
	toolkit := plan.Toolkit.ValueString()
	if plan.Toolkit.IsUnknown() || toolkit == "" {
		toolkit = client.ToolkitPrefix(slug)
	}

	cfg, d := jsonvalue.ObjectFromNormalized(plan.TriggerConfig, path.Root("trigger_config"))
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}

	// Resolve and check the connected account. Cost rule (see "Request
	// budget" in provider_data.go): an explicit account is read through Cache,
	// so the read the final plan made in this process (checkAccountAtPlan) is
	// reused; without one, the first ACTIVE account is listed, as the official
	// SDK does. With the upsert and the read-back GET below, Create makes one
	// write and one read of its own.
	accountID := plan.ConnectedAccountID.ValueString()
	if plan.ConnectedAccountID.IsUnknown() || plan.ConnectedAccountID.IsNull() || accountID == "" {
		accountID = r.firstActiveAccount(ctx, userID, toolkit, slug, &resp.Diagnostics)
	} else {
		r.checkAccount(ctx, accountID, userID, toolkit, slug, &resp.Diagnostics)
	}
	if resp.Diagnostics.HasError() {
		return
	}

	// The check for an instance the upsert would answer and the upsert are
	// one step across the provider's concurrent creates of one key: a
	// second resource of this apply then finds the first's instance.
	canonical, _ := canonicalJSON(cfg)
	unlock, locked := r.data.CreateLocks.lock(ctx, "trigger_instance\x00"+triggerKey(slug, accountID, canonical))
	if !locked {
		resp.Diagnostics.AddError("Error creating "+triggerInstanceType, fmt.Sprintf("Cancelled while waiting for "+
			"another create of trigger %s on connected account %s to finish: nothing was created.", slug, accountID))
		return
	}
	defer unlock()
	if r.refuseExistingTrigger(ctx, accountID, slug, plan.TriggerConfig, "", "No trigger instance was created or changed.", &resp.Diagnostics) {
		return
	}

	versions := r.data.ToolkitVersions
	var vp *client.ToolkitVersions
	if !versions.IsZero() {
		vp = &versions
	}
	id, err := c.UpsertTrigger(ctx, slug, client.UpsertTriggerRequest{
		ConnectedAccountID: accountID,
		UserID:             userID,
		TriggerConfig:      cfg,
		ToolkitVersions:    vp,
		EgressURL:          plan.EgressURL.ValueStringPointer(), // null: none (omitted)
	})
	if err != nil {
		diagnostics.AddAPIError(&resp.Diagnostics, "creating", triggerInstanceType, slug, err)
		return
	}
	r.data.Triggers.record(slug, accountID, canonical, id)
	tflog.Debug(ctx, "created trigger instance", map[string]any{"id": id, "slug": slug, "connected_account_id": accountID})

	if !plan.Enabled.IsNull() && !plan.Enabled.ValueBool() {
		if err := c.DisableTrigger(ctx, id); err != nil && !client.IsConflict(err) {
			// Save what exists so that Terraform manages (and can destroy) it.
			plan.ID = types.StringValue(id)
			resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), plan.ID)...)
			diagnostics.AddAPIError(&resp.Diagnostics, "disabling", triggerInstanceType, id, err)
			return
		}
	}

	ti, err := c.TriggerInstanceAfterWrite(ctx, id) // coalesced with the concurrent creates' read-backs
	if err != nil {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), types.StringValue(id))...)
		diagnostics.AddAPIError(&resp.Diagnostics, "reading", triggerInstanceType, id, err)
		return
	}
	plan.Toolkit = types.StringValue(toolkit)
	resp.Diagnostics.Append(plan.fill(ctx, ti)...)
	resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &plan)...)
}

// firstActiveAccount returns the first ACTIVE, enabled connected account of
// userID on toolkit (one list request), as the service's SDK does.
func (r *triggerInstanceResource) firstActiveAccount(ctx context.Context, userID, toolkit, slug string, diags *diag.Diagnostics) string {
	for a, err := range r.data.Client.ConnectedAccountsIter(ctx, client.ConnectedAccountListParams{
		UserIDs: []string{userID}, ToolkitSlugs: []string{toolkit}, Statuses: []string{"ACTIVE"},
	}) {
		if err != nil {
			diagnostics.AddAPIErrorAt(diags, path.Root("connected_account_id"), "listing connected accounts for", triggerInstanceType, slug, err)
			return ""
		}
		if strings.EqualFold(a.Status, "ACTIVE") && !a.IsDisabled && a.UserID == userID {
			return a.ID
		}
	}
	diags.AddAttributeError(path.Root("connected_account_id"), "No ACTIVE connected account",
		fmt.Sprintf("Attribute connected_account_id is not set and user %q has no ACTIVE, enabled connected account on "+
			"toolkit %q for trigger %s. Connect an account for this user first (for example with a "+
			"service_connected_account resource), or set connected_account_id.", userID, toolkit, slug))
	return ""
}

// checkAccount verifies an explicit connected account (read through Cache:
// at most one GET per account per provider process) so that a mismatch is
// reported on connected_account_id before anything is written.
func (r *triggerInstanceResource) checkAccount(ctx context.Context, id, userID, toolkit, slug string, diags *diag.Diagnostics) {
	attr := path.Root("connected_account_id")
	a, err := r.data.Cache.ConnectedAccount(ctx, id)
	if err != nil {
		if client.IsNotFound(err) {
			diags.AddAttributeError(attr, "Connected account not found",
				fmt.Sprintf("Attribute connected_account_id: the service has no connected account %q.", id))
			return
		}
		diagnostics.AddAPIErrorAt(diags, attr, "reading connected account for", triggerInstanceType, slug, err)
		return
	}
	r.checkAccountFields(a, id, userID, toolkit, slug, diags)
}

// accountNotUsableSummary is the summary of the error for an account that is
// not ACTIVE or is disabled.
const accountNotUsableSummary = "Connected account is not usable"

// checkAccountFields reports an account a (with id) that belongs to another
// user, is on another toolkit, or is not ACTIVE and enabled.
func (r *triggerInstanceResource) checkAccountFields(a *client.ConnectedAccount, id, userID, toolkit, slug string, diags *diag.Diagnostics) {
	attr := path.Root("connected_account_id")
	switch {
	case a.UserID != "" && a.UserID != userID:
		diags.AddAttributeError(attr, "Connected account belongs to another user",
			fmt.Sprintf("Attribute connected_account_id: connected account %q belongs to user %q, not to user_id %q.",
				id, a.UserID, userID))
	case a.Toolkit.Slug != "" && !strings.EqualFold(a.Toolkit.Slug, toolkit):
		diags.AddAttributeError(attr, "Connected account is on another toolkit",
			fmt.Sprintf("Attribute connected_account_id: connected account %q is on toolkit %q, but trigger %s belongs "+
				"to toolkit %q.", id, a.Toolkit.Slug, slug, toolkit))
	case !strings.EqualFold(a.Status, "ACTIVE") || a.IsDisabled:
		diags.AddAttributeError(attr, accountNotUsableSummary,
			fmt.Sprintf("Attribute connected_account_id: connected account %q has status %s (disabled: %t); triggers "+
				"need an ACTIVE, enabled account.", id, a.Status, a.IsDisabled))
	}
}

func (r *triggerInstanceResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state triggerInstanceModel
	if !r.readState(ctx, req, resp, &state) {
		return
	}
	id := state.ID.ValueString()
	ti, err := r.data.readTriggerInstance(ctx, id)
	if diagnostics.ReadFailed(ctx, resp, triggerInstanceType, id, err) {
		return
	}
	resp.Diagnostics.Append(state.fillRead(ctx, r.data, ti)...)
	resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &state)...)
}

// fillRead is how Read fills the state m from the service's instance ti,
// shared with the list resource (include_resource): fill, and after an
// import the toolkit, which the instance does not name, from data's schema
// cache.
func (m *triggerInstanceModel) fillRead(ctx context.Context, data *ProviderData, ti *client.TriggerInstance) diag.Diagnostics {
	if m.Toolkit.IsNull() || m.Toolkit.IsUnknown() || m.Toolkit.ValueString() == "" {
		// After import only: the instance does not name its toolkit.
		m.Toolkit = types.StringValue(toolkitOf(ctx, data, ti.TriggerName))
	}
	return m.fill(ctx, ti)
}

// toolkitOf returns the toolkit of a trigger type from the object cache,
// falling back to the slug's prefix.
func toolkitOf(ctx context.Context, data *ProviderData, slug string) string {
	if tt, err := data.Cache.TriggerType(ctx, slug); err == nil && tt.Toolkit.Slug != "" {
		return tt.Toolkit.Slug
	}
	return client.ToolkitPrefix(slug)
}

func (r *triggerInstanceResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer identity.FromState(ctx, &resp.State, resp.Identity, &resp.Diagnostics)
	var plan, state triggerInstanceModel
	if !r.planAndState(ctx, req, resp, &plan, &state) {
		return
	}
	id := state.ID.ValueString()
	c := r.data.Client
	if !plan.EgressURL.Equal(state.EgressURL) && !r.updateEgressURL(ctx, state, plan.EgressURL, &resp.Diagnostics) {
		return
	}
	if !plan.Enabled.IsUnknown() && !plan.Enabled.Equal(state.Enabled) {
		var err error
		op := "enabling"
		if plan.Enabled.ValueBool() {
			err = c.EnableTrigger(ctx, id)
		} else {
			op = "disabling"
			err = c.DisableTrigger(ctx, id)
		}
		// 409: already in the wanted state.
		if err != nil && !client.IsConflict(err) {
			diagnostics.AddAPIError(&resp.Diagnostics, op, triggerInstanceType, id, err)
			return
		}
	}
	ti, err := c.TriggerInstanceAfterWrite(ctx, id)
	if err != nil {
		diagnostics.AddAPIError(&resp.Diagnostics, "reading", triggerInstanceType, id, err)
		return
	}
	plan.ID = state.ID
	if plan.Toolkit.IsUnknown() {
		plan.Toolkit = state.Toolkit
	}
	resp.Diagnostics.Append(plan.fill(ctx, ti)...)
	resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &plan)...)
}

// updateEgressURL sets (or, when egress null, removes) the delivery
// override of the instance in state, in place: the service changes it only
// through the upsert, which, given the instance's own account, trigger type
// and configuration, returns that same instance and leaves everything else
// as it is. toolkit_versions names the instance's own version, so that the
// upsert does not move it to the provider's. It reports whether it
// succeeded.
func (r *triggerInstanceResource) updateEgressURL(ctx context.Context, state triggerInstanceModel, egress types.String, diags *diag.Diagnostics) bool {
	id := state.ID.ValueString()
	cfg, d := jsonvalue.ObjectFromNormalized(state.TriggerConfig, path.Root("trigger_config"))
	diags.Append(d...)
	if diags.HasError() {
		return false
	}
	var vp *client.ToolkitVersions
	if v := state.ToolkitVersion.ValueString(); v != "" && state.Toolkit.ValueString() != "" {
		vp = &client.ToolkitVersions{PerToolkit: map[string]string{state.Toolkit.ValueString(): v}}
	} else if versions := r.data.ToolkitVersions; !versions.IsZero() {
		vp = &versions
	}
	u := egress.ValueString() // "" (null in the plan) removes it
	got, err := r.data.Client.UpsertTrigger(ctx, state.Slug.ValueString(), client.UpsertTriggerRequest{
		ConnectedAccountID: state.ConnectedAccountID.ValueString(),
		UserID:             state.UserID.ValueString(),
		TriggerConfig:      cfg,
		ToolkitVersions:    vp,
		EgressURL:          &u,
	})
	if err != nil {
		diagnostics.AddAPIErrorAt(diags, path.Root("egress_url"), "setting egress_url of", triggerInstanceType, id, err)
		return false
	}
	if got != id {
		diags.AddAttributeError(path.Root("egress_url"), "egress_url set on another trigger instance",
			fmt.Sprintf("Attribute egress_url: the service changes a trigger instance's egress_url through its upsert, "+
				"which answered with trigger instance %s instead of %s (its account, trigger type or configuration "+
				"changed outside Terraform). Run terraform apply -refresh-only, or replace the resource "+
				"(terraform apply -replace).", got, id))
		return false
	}
	tflog.Debug(ctx, "set trigger instance egress_url", map[string]any{"id": id, "removed": egress.IsNull()})
	return true
}

func (r *triggerInstanceResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state triggerInstanceModel // all Delete needs from the state
	if !r.deleteState(ctx, req, resp, &state, "id") {
		return
	}
	id := state.ID.ValueString()
	// 404 and 410 (client.IsNotFound): already gone; 409: already deleted.
	diagnostics.AddDeleteError(&resp.Diagnostics, triggerInstanceType, id, r.data.Client.DeleteTrigger(ctx, id), client.IsConflict)
}

func (r *triggerInstanceResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	// ti_... or the instance's UUID; an id of another kind is named as such.
	importid.ImportState(ctx, importid.TriggerInstance, req, resp)
}

// fill copies what the service reports into m, keeping the
// user's JSON formatting when it means the same.
func (m *triggerInstanceModel) fill(_ context.Context, ti *client.TriggerInstance) diag.Diagnostics {
	var diags diag.Diagnostics
	m.ID = types.StringValue(ti.ID)
	m.UserID = types.StringValue(ti.UserID)
	m.Slug = types.StringValue(ti.TriggerName)
	m.ConnectedAccountID = types.StringValue(ti.ConnectedAccountID)
	cfg, err := jsonvalue.FromValue(ti.TriggerConfig)
	if err != nil {
		diags.AddAttributeError(path.Root("trigger_config"), "Unreadable trigger_config",
			fmt.Sprintf("The service returned a trigger_config that cannot be encoded as JSON: %s.", err))
		return diags
	}
	m.TriggerConfig = jsonvalue.KeepConfigured(m.TriggerConfig, cfg)
	m.Enabled = types.BoolValue(!ti.IsDisabled())
	if ti.IsDisabled() {
		m.DisabledAt = types.StringValue(*ti.DisabledAt)
	} else {
		m.DisabledAt = types.StringNull()
	}
	m.UpdatedAt = types.StringValue(ti.UpdatedAt)
	if ti.Version != "" {
		m.ToolkitVersion = types.StringValue(ti.Version)
	} else if m.ToolkitVersion.IsUnknown() {
		m.ToolkitVersion = types.StringNull()
	}
	if m.Toolkit.IsUnknown() {
		m.Toolkit = types.StringValue(client.ToolkitPrefix(ti.TriggerName))
	}
	return diags
}
