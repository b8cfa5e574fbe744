package provider

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
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
	"github.com/integration-service/terraform-provider-service/internal/provider/validators"
)

const webhookEndpointType = "service_webhook_endpoint"

var (
	_ managedResource                     = (*webhookEndpointResource)(nil)
	_ resource.ResourceWithValidateConfig = (*webhookEndpointResource)(nil)
)

// NewWebhookEndpointResource returns the service_webhook_endpoint resource.
func NewWebhookEndpointResource() resource.Resource {
	return &webhookEndpointResource{resourceBase{typeNamed("webhook_endpoint")}}
}

// webhookEndpointResource manages an inbound webhook endpoint: the URL the
// service issues for a toolkit's OAuth app (toolkit, client_id), with the
// app's setup fields (data_wo, write-only). The API has no delete: destroy
// forgets the endpoint, which stays active, and a later create of the same
// toolkit and client_id adopts it (the service answers 200 with it).
type webhookEndpointResource struct{ resourceBase }

type webhookEndpointModel struct {
	ID            types.String `tfsdk:"id"`
	Toolkit       types.String `tfsdk:"toolkit"`
	ClientID      types.String `tfsdk:"client_id"`
	DataWO        types.Map    `tfsdk:"data_wo"`
	DataWOVersion types.Int64  `tfsdk:"data_wo_version"`
	WebhookURL    types.String `tfsdk:"webhook_url"`
	DataKeys      types.Set    `tfsdk:"data_keys"`
	CreatedAt     types.String `tfsdk:"created_at"`
}

// IdentitySchema: the webhook endpoint's identity is its id (see package identity).
func (r *webhookEndpointResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identity.Schema("webhook endpoint", "we_AbC123")
}

func (r *webhookEndpointResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "An inbound webhook endpoint: the URL (`webhook_url`) the service issues for a toolkit's " +
			"OAuth app, which you register with the upstream provider (Slack Event Subscriptions, Notion integration " +
			"webhooks, Discord interactions) so that the toolkit's webhook triggers fire. Only toolkits whose trigger " +
			"types have `requires_webhook_endpoint_setup = true` (see the `service_trigger_type` data source) take " +
			"one. `data_wo` carries the app's setup fields, such as Slack's `signing_secret`, write-only.\n\n" +
			"The service keeps **one endpoint per toolkit and `client_id`**: creating one that already exists adopts " +
			"it (with a warning naming its id) instead of making a second.\n\n" +
			"**The API cannot delete an endpoint.** Destroying this resource (or replacing it after a change of " +
			"`toolkit` or `client_id`) only removes it from the Terraform state, with a warning: the endpoint and its " +
			"URL stay active on the service, and a later create with the same `toolkit` and `client_id` adopts it.",
		Attributes: map[string]schema.Attribute{
			"id": idAttribute("The endpoint id (e.g. `we_AbC123`), used for import."),
			"toolkit": schema.StringAttribute{
				MarkdownDescription: "Slug of the toolkit, e.g. `slack`. The toolkit must exist and have trigger types " +
					"that require webhook endpoint setup (`requires_webhook_endpoint_setup = true`). When the value " +
					"is known at plan, both are checked then, at the provider's toolkit version, and an unknown " +
					"toolkit or one that takes no webhook endpoint fails the plan; a value known only at apply is " +
					"checked by the service when the endpoint is created. Changing it replaces the resource (the old " +
					"endpoint stays on the service).",
				Required:      true,
				Validators:    []validator.String{validators.ToolkitSlug()},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"client_id": schema.StringAttribute{
				MarkdownDescription: "Client id of the OAuth app the endpoint serves (the same app as the auth config's " +
					"`client_id`; for Slack the app's Client ID). Not blank, without surrounding white space. Changing " +
					"it replaces the resource (the old endpoint stays on the service).",
				Required:      true,
				Validators:    []validator.String{webhookClientIDValidator()},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"data_wo": schema.MapAttribute{
				MarkdownDescription: "The toolkit's setup fields, as a write-only map (Terraform 1.11+): sent to the " +
					"service but never stored in the plan or state. For example `signing_secret` (required) and " +
					"`app_id` for Slack, `verification_token` for Notion, `public_key` (required) and `application_id` " +
					"for Discord. The whole set is sent at create and whenever `data_wo_version` changes, and replaces " +
					"the endpoint's configuration: it must hold every required field, and fields left out are cleared. " +
					"The service refuses unknown field names at apply, listing the toolkit's fields (the endpoint is " +
					"then kept in the state as tainted; fix `data_wo` and apply again). Without `data_wo` the endpoint's " +
					"configuration is left as the service has it. Requires `data_wo_version`.",
				Optional:    true,
				WriteOnly:   true,
				ElementType: types.StringType,
				Validators: []validator.Map{
					mapvalidator.SizeAtLeast(1),
					mapvalidator.KeysAre(setupFieldNameValidator()),
					mapvalidator.ValueStringsAre(setupFieldValueValidator()),
				},
			},
			"data_wo_version": schema.Int64Attribute{
				MarkdownDescription: "Version of `data_wo`. Terraform cannot see changes to a write-only value, so " +
					"change this number (for example increment it) to send the current `data_wo` to the service, an " +
					"in-place update (rotating a signing secret, say). Required with `data_wo`. After an import the " +
					"first value given sends `data_wo`.",
				Optional: true,
			},
			"webhook_url": schema.StringAttribute{
				MarkdownDescription: "The URL the service issued: register it with the upstream provider (for Slack, " +
					"the Request URL of Event Subscriptions).",
				Computed:      true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"data_keys": schema.SetAttribute{
				MarkdownDescription: "Names of the setup fields the endpoint has values for, as the service reports " +
					"them (no values); empty until configured. Shows a field set or cleared outside Terraform. Known at plan " +
					"when the apply sends `data_wo` (its keys) or sends nothing (unchanged).",
				Computed:    true,
				ElementType: types.StringType,
			},
			"created_at": schema.StringAttribute{
				MarkdownDescription: "When the endpoint was created (ISO 8601).",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
		},
	}
}

// webhookClientIDValidator: a client_id is not blank, has no white space
// around it and no control characters (the service matches it exactly: a
// stray space would make a second endpoint).
func webhookClientIDValidator() validator.String {
	return validators.StringCheck{
		Desc:    "an OAuth app client id: not blank, without surrounding white space or control characters",
		Summary: "Invalid client_id",
		Check: func(v string) error {
			switch {
			case strings.TrimSpace(v) == "":
				return fmt.Errorf("%q is blank; give the client id of the toolkit's OAuth app", v)
			case strings.TrimSpace(v) != v:
				return fmt.Errorf("%q has white space around it; remove it (the service would keep a different endpoint)", v)
			case strings.ContainsFunc(v, unicode.IsControl):
				return fmt.Errorf("%q contains a control character", v)
			}
			return nil
		},
	}
}

var setupFieldNameRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)

// setupFieldNameValidator checks a key of data_wo.
func setupFieldNameValidator() validator.String {
	return validators.StringCheck{
		Desc:    "a setup field name (letters, digits, underscore, dot, hyphen)",
		Summary: "Invalid setup field name",
		Check: func(v string) error {
			if !setupFieldNameRe.MatchString(v) {
				return fmt.Errorf("%q is not a setup field name (letters, digits, underscore, dot and hyphen, e.g. signing_secret)", v)
			}
			return nil
		},
	}
}

// setupFieldValueValidator refuses a blank value of data_wo (the service
// drops empty fields, so a blank required field would fail at apply and a
// blank optional one would silently be cleared). The value is never quoted.
func setupFieldValueValidator() validator.String {
	return validators.StringCheck{
		Desc:    "a setup field value: not blank",
		Summary: "Blank setup field value",
		Check: func(v string) error {
			if strings.TrimSpace(v) == "" {
				return fmt.Errorf("the value is blank; give the field's value or remove the field (the service " +
					"treats a blank value as not set)")
			}
			return nil
		},
	}
}

// ValidateConfig pairs data_wo with data_wo_version (no API call; it also
// runs in `terraform validate`).
func (r *webhookEndpointResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var cfg webhookEndpointModel
	resp.Diagnostics.Append(codec.GetAttributes(ctx, req.Config, &cfg, "data_wo", "data_wo_version")...)
	if resp.Diagnostics.HasError() {
		return
	}
	validators.CheckRequiredWriteOnlyVersion(cfg.DataWO, cfg.DataWOVersion, "data_wo", "data_wo_version", "the setup fields", &resp.Diagnostics)
}

// ModifyPlan checks, when the plan creates the endpoint (or replaces it) and
// toolkit is known, that the toolkit exists and takes a webhook endpoint:
// the service refuses others at create (a 404 or a 400), which would
// otherwise only show at apply. The toolkit and its trigger types are read
// through Cache (at the provider's version for the toolkit, once per
// provider run). Nothing is written.
func (r *webhookEndpointResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	planDataKeys(ctx, req, resp)
	destroyrun.RemotePlanChecks(ctx, webhookEndpointType, req, resp, func() { r.modifyPlan(ctx, req, resp) })
}

// planDataKeys fills data_keys at plan (no request) when the apply's outcome
// is known, so that a rotation of data_wo does not read as removing every
// field: the keys of data_wo when the apply sends it (a create, a
// replacement, or a new data_wo_version; write-only values are in the
// configuration during plan, and the service keeps exactly the fields sent:
// blank values are refused at validate), and the state's when the apply
// sends nothing (an in-place update without a new data_wo_version). It stays
// unknown when data_wo or data_wo_version is, and for a create without
// data_wo, which may adopt an existing endpoint with fields of its own.
func planDataKeys(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || planUnchanged(req) {
		return
	}
	var plan webhookEndpointModel
	resp.Diagnostics.Append(codec.GetAttributes(ctx, req.Plan, &plan, "toolkit", "client_id", "data_wo_version", "data_keys")...)
	if resp.Diagnostics.HasError() || !plan.DataKeys.IsUnknown() {
		return
	}
	if !req.State.Raw.IsNull() {
		var state webhookEndpointModel
		resp.Diagnostics.Append(codec.GetAttributes(ctx, req.State, &state, "toolkit", "client_id", "data_wo_version", "data_keys")...)
		if resp.Diagnostics.HasError() {
			return
		}
		inPlace := state.Toolkit.Equal(plan.Toolkit) && state.ClientID.Equal(plan.ClientID)
		switch {
		case !inPlace: // a replacement: a create, below
		case plan.DataWOVersion.IsUnknown():
			return
		case plan.DataWOVersion.IsNull() || plan.DataWOVersion.Equal(state.DataWOVersion):
			// Update sends nothing and keeps the state's keys.
			resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("data_keys"), state.DataKeys)...)
			return
		}
	}
	var cfg webhookEndpointModel
	resp.Diagnostics.Append(codec.GetAttributes(ctx, req.Config, &cfg, "data_wo")...)
	if resp.Diagnostics.HasError() || cfg.DataWO.IsNull() || cfg.DataWO.IsUnknown() {
		return
	}
	keys := slices.Sorted(maps.Keys(cfg.DataWO.Elements()))
	set, d := types.SetValueFrom(ctx, types.StringType, keys)
	resp.Diagnostics.Append(d...)
	if !d.HasError() {
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("data_keys"), set)...)
	}
}

func (r *webhookEndpointResource) modifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if planUnchanged(req) || !r.data.Configured() {
		return // nothing to check
	}
	var plan webhookEndpointModel
	resp.Diagnostics.Append(codec.GetAttributes(ctx, req.Plan, &plan, "toolkit", "client_id")...)
	if resp.Diagnostics.HasError() || plan.Toolkit.IsUnknown() || plan.Toolkit.IsNull() {
		return
	}
	if !req.State.Raw.IsNull() {
		var state webhookEndpointModel
		resp.Diagnostics.Append(codec.GetAttributes(ctx, req.State, &state, "toolkit", "client_id")...)
		if resp.Diagnostics.HasError() || (state.Toolkit.Equal(plan.Toolkit) && state.ClientID.Equal(plan.ClientID)) {
			return // an in-place update (data_wo_version): the endpoint is not created again
		}
	}
	r.checkToolkit(ctx, plan.Toolkit.ValueString(), &resp.Diagnostics)
}

// checkToolkit reports, on toolkit, a toolkit the service does not have (with
// the closest slug of the catalog) or none of whose trigger types requires
// webhook endpoint setup.
func (r *webhookEndpointResource) checkToolkit(ctx context.Context, slug string, diags *diag.Diagnostics) {
	d := r.data
	d.checkToolkitVersionKeys(ctx, diags)
	// A custom toolkit registered in the same apply, maybe: the service checks it at create.
	tk := d.lookupToolkit(ctx, diags, path.Root("toolkit"), slug, true)
	if tk == nil {
		return
	}
	triggers, err := d.Cache.ToolkitTriggerTypes(ctx, slug)
	if err != nil {
		if !d.addVersionNotFound(ctx, diags, slug, err) {
			diagnostics.AddAPIErrorAt(diags, path.Root("toolkit"), "reading the trigger types of toolkit", "", slug, err)
		}
		return
	}
	if slices.ContainsFunc(triggers, func(t client.TriggerType) bool { return t.RequiresWebhookEndpointSetup }) {
		return
	}
	name := tk.Slug
	if name == "" {
		name = strings.ToLower(slug)
	}
	has := fmt.Sprintf("none of its %d trigger types requires webhook endpoint setup", len(triggers))
	if len(triggers) == 0 {
		has = "it has no trigger types"
	}
	diags.AddAttributeError(path.Root("toolkit"), "Toolkit takes no webhook endpoint",
		fmt.Sprintf("Attribute toolkit: toolkit %q does not need a webhook endpoint at toolkit version %s: %s, "+
			"and the service refuses an endpoint for it. Only toolkits with trigger "+
			"types whose requires_webhook_endpoint_setup is true take one: their webhook triggers fire only once the "+
			"service-issued URL is registered with the upstream provider for your own OAuth app (Slack, Notion and "+
			"Discord, for example). The other toolkits' triggers need no endpoint; the service_trigger_types data "+
			"source shows the flag for each trigger type.", name, d.VersionFor(slug), has))
}

// configuredData returns data_wo from the configuration (write-only values
// are only there), nil when it is not set.
func configuredData(ctx context.Context, config codec.AttributeGetter, diags *diag.Diagnostics) map[string]string {
	var cfg webhookEndpointModel
	diags.Append(codec.GetAttributes(ctx, config, &cfg, "data_wo")...)
	if diags.HasError() || cfg.DataWO.IsNull() || cfg.DataWO.IsUnknown() {
		return nil
	}
	data := map[string]string{}
	diags.Append(cfg.DataWO.ElementsAs(ctx, &data, false)...)
	return data
}

func (r *webhookEndpointResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	if destroyrun.Refused(ctx, webhookEndpointType, req.Config, &resp.Diagnostics) {
		return // refused at plan under a test command (destroyrun.InTest): nothing written
	}
	defer identity.FromState(ctx, &resp.State, resp.Identity, &resp.Diagnostics)
	if !requireClient(r.data, &resp.Diagnostics) {
		return
	}
	var plan webhookEndpointModel
	resp.Diagnostics.Append(codec.Get(ctx, req.Plan, &plan)...)
	data := configuredData(ctx, req.Config, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	c := r.data.Client
	toolkit, clientID := plan.Toolkit.ValueString(), plan.ClientID.ValueString()
	we, err := c.CreateWebhookEndpoint(ctx, toolkit, clientID)
	if err != nil {
		addCreateEndpointError(&resp.Diagnostics, toolkit, err)
		return
	}
	tflog.Debug(ctx, "created webhook endpoint", map[string]any{"id": we.ID, "existing": we.Existing})
	if we.Existing {
		kept := "Its setup fields are replaced by data_wo."
		if data == nil {
			kept = "Its setup fields are kept as they are (data_wo is not set)."
		}
		resp.Diagnostics.AddWarning(fmt.Sprintf("Adopted the existing webhook endpoint %s", we.ID),
			fmt.Sprintf("An endpoint for this toolkit and client_id already existed and is now managed by this "+
				"resource: %s (toolkit %s, client_id %q). The service keeps one webhook endpoint per toolkit and "+
				"client_id, so the create returned it instead of making a second; its webhook_url (%s) is unchanged. "+
				"%s If another Terraform configuration manages it too, remove it from one of them "+
				"(terraform state rm).", we.ID, we.ToolkitSlug, clientID, we.WebhookURL, kept))
	}
	if data != nil {
		configured, err := c.ReplaceWebhookEndpoint(ctx, we.ID, data)
		if err != nil {
			// The endpoint exists (and cannot be deleted): keep it in the
			// state, where Terraform marks it tainted; the next apply
			// replaces it, which adopts it again and sends data_wo again.
			resp.Diagnostics.Append(plan.fill(ctx, we)...)
			resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &plan)...)
			addDataRefused(&resp.Diagnostics, we.ID, err)
			return
		}
		we = configured
	}
	resp.Diagnostics.Append(plan.fill(ctx, we)...)
	resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &plan)...)
}

// addCreateEndpointError reports a failed create. A 400 or 404 answers the
// body (toolkit and client_id, whose shape is checked at validate): an
// unknown toolkit, or one that takes no webhook endpoint; it goes on
// toolkit. Other errors (credentials, the service down) name no attribute.
func addCreateEndpointError(diags *diag.Diagnostics, toolkit string, err error) {
	var apiErr *client.APIError
	if !errors.As(err, &apiErr) || (apiErr.StatusCode != http.StatusBadRequest && apiErr.StatusCode != http.StatusNotFound) {
		diagnostics.AddAPIError(diags, "creating", webhookEndpointType, "", err)
		return
	}
	summary, detail := diagnostics.APIErrorText("creating", webhookEndpointType, "", err)
	diags.AddAttributeError(path.Root("toolkit"), summary, fmt.Sprintf("Attribute toolkit: the service refused a "+
		"webhook endpoint for toolkit %q. Only toolkits whose trigger types have requires_webhook_endpoint_setup = "+
		"true take one (the service_trigger_types data source shows it).\n\n%s", toolkit, detail))
}

// addDataRefused reports a refused data_wo (the replace of the endpoint's
// setup fields), on data_wo.
func addDataRefused(diags *diag.Diagnostics, id string, err error) {
	diagnostics.AddAPIErrorAt(diags, path.Root("data_wo"), "setting the setup fields (data_wo) of", webhookEndpointType, id, err)
	if client.IsNotFound(err) {
		return
	}
	diags.AddAttributeError(path.Root("data_wo"), "Webhook endpoint not configured",
		fmt.Sprintf("Attribute data_wo: the webhook endpoint %s exists on the service, but the service refused its "+
			"setup fields (the error above names the field and lists the toolkit's fields; data_wo must hold every "+
			"required one). The endpoint cannot be deleted: it stays in the state (tainted on a create), and applying "+
			"again with a corrected data_wo (and a new data_wo_version on an update) sends the fields again.", id))
}

func (r *webhookEndpointResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state webhookEndpointModel
	if !r.readState(ctx, req, resp, &state) {
		return
	}
	id := state.ID.ValueString()
	we, err := r.data.Client.GetWebhookEndpoint(ctx, id)
	if diagnostics.ReadFailed(ctx, resp, webhookEndpointType, id, err) {
		return
	}
	resp.Diagnostics.Append(state.fill(ctx, we)...)
	resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &state)...)
}

// Update sends data_wo when data_wo_version changed to a new value; the
// other attributes replace the resource, so nothing else changes in place.
func (r *webhookEndpointResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer identity.FromState(ctx, &resp.State, resp.Identity, &resp.Diagnostics)
	var plan, state webhookEndpointModel
	if !r.planAndState(ctx, req, resp, &plan, &state) {
		return
	}
	id := state.ID.ValueString()
	// What the state holds, for whatever is not sent.
	plan.ID, plan.WebhookURL, plan.CreatedAt, plan.DataKeys = state.ID, state.WebhookURL, state.CreatedAt, state.DataKeys
	if !plan.DataWOVersion.IsNull() && !plan.DataWOVersion.Equal(state.DataWOVersion) {
		data := configuredData(ctx, req.Config, &resp.Diagnostics)
		if resp.Diagnostics.HasError() {
			return
		}
		if data != nil {
			we, err := r.data.Client.ReplaceWebhookEndpoint(ctx, id, data)
			if err != nil {
				addDataRefused(&resp.Diagnostics, id, err)
				// The prior state stays, with the prior version: the next apply sends again.
				resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &state)...)
				return
			}
			resp.Diagnostics.Append(plan.fill(ctx, we)...)
		}
	}
	resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &plan)...)
}

// Delete removes the endpoint from the state only: the API has no delete.
func (r *webhookEndpointResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state webhookEndpointModel // all Delete needs from the state
	if !r.deleteState(ctx, req, resp, &state, "id", "toolkit", "client_id", "webhook_url") {
		return
	}
	id := state.ID.ValueString()
	resp.Diagnostics.AddWarning(fmt.Sprintf("Webhook endpoint %s stays active on the service", id),
		fmt.Sprintf("The service has no API to delete webhook endpoints, so %s %s was only removed from the "+
			"Terraform state. The endpoint (toolkit %s, client_id %q) and its URL %s stay active on the service, "+
			"with their setup fields; unregister the URL at the upstream provider if it should stop receiving events. "+
			"A later create with the same toolkit and client_id adopts this endpoint.",
			webhookEndpointType, id, state.Toolkit.ValueString(), state.ClientID.ValueString(), state.WebhookURL.ValueString()))
	tflog.Debug(ctx, "webhook endpoint removed from the state (the API has no delete)", map[string]any{"id": id})
}

func (r *webhookEndpointResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	id := identity.ImportID(ctx, req, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if !importid.ObjectIDRe.MatchString(id) {
		resp.Diagnostics.AddError("Invalid import id",
			fmt.Sprintf("Expected a webhook endpoint id such as we_AbC123 (the service_webhook_endpoints data source "+
				"lists them), got %q.", id))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id)...)
	identity.Set(ctx, resp.Identity, id, &resp.Diagnostics)
}

// fill copies the service's view into m. toolkit keeps the
// configuration's spelling when it differs in case only (the service
// matches slugs case-insensitively); data_wo_version is Terraform's own.
func (m *webhookEndpointModel) fill(ctx context.Context, we *client.WebhookEndpoint) diag.Diagnostics {
	m.ID = types.StringValue(we.ID)
	if !strings.EqualFold(m.Toolkit.ValueString(), we.ToolkitSlug) || m.Toolkit.IsNull() || m.Toolkit.IsUnknown() {
		m.Toolkit = types.StringValue(we.ToolkitSlug)
	}
	if we.ClientID != nil {
		m.ClientID = types.StringValue(*we.ClientID)
	}
	m.WebhookURL = types.StringValue(we.WebhookURL)
	m.CreatedAt = types.StringValue(we.CreatedAt)
	keys := make([]string, 0, len(we.Data))
	for k := range we.Data {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	set, diags := types.SetValueFrom(ctx, types.StringType, keys)
	m.DataKeys = set
	m.DataWO = types.MapNull(types.StringType)
	return diags
}
