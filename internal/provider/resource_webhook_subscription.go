package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
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
	"github.com/integration-service/terraform-provider-service/internal/provider/planmodifiers"
	"github.com/integration-service/terraform-provider-service/internal/provider/validators"
	"github.com/integration-service/terraform-provider-service/internal/provider/webhookevents"
)

const webhookSubscriptionType = "service_webhook_subscription"

var _ managedResource = (*webhookSubscriptionResource)(nil)

// NewWebhookSubscriptionResource returns the service_webhook_subscription resource.
func NewWebhookSubscriptionResource() resource.Resource {
	return &webhookSubscriptionResource{resourceBase{typeNamed("webhook_subscription")}}
}

type webhookSubscriptionResource struct{ resourceBase }

type webhookSubscriptionModel struct {
	ID             types.String `tfsdk:"id"`
	WebhookURL     types.String `tfsdk:"webhook_url"`
	EnabledEvents  types.Set    `tfsdk:"enabled_events"`
	Version        types.String `tfsdk:"version"`
	SecretRotation types.String `tfsdk:"secret_rotation"`
	Secret         types.String `tfsdk:"secret"`
	CreatedAt      types.String `tfsdk:"created_at"`
	UpdatedAt      types.String `tfsdk:"updated_at"`
}

// IdentitySchema: the webhook subscription's identity is its id (see package identity).
func (r *webhookSubscriptionResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identity.Schema("webhook subscription", "whs_AbC123")
}

func (r *webhookSubscriptionResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The project's webhook subscription: where the service delivers events (trigger " +
			"messages, expired connections, disabled triggers), in which payload version, signed with `secret`.\n\n" +
			"The service allows **one subscription per project**. When the project already has one (created in the " +
			"dashboard, by another configuration, or with the emulator's `--webhook-url`), import it instead of " +
			"creating a second: `terraform import service_webhook_subscription.<name> <id>`.\n\n" +
			"Every attribute except `id` and `created_at` changes in place; `enabled_events` is checked against the " +
			"service's event types and the chosen `version` at plan when both are known, otherwise at apply before " +
			"the write.",
		Attributes: map[string]schema.Attribute{
			"id": idAttribute("The subscription id, used for import."),
			"webhook_url": schema.StringAttribute{
				MarkdownDescription: "URL the service POSTs events to. Must be `https://`; plain `http://` is accepted " +
					"only for loopback hosts (`localhost`, `*.localhost`, `127.0.0.0/8`, `[::1]`), for local receivers. " +
					"Unlike the provider's `base_url`, no setting allows plain `http://` to other hosts.",
				Required:   true,
				Validators: []validator.String{validators.WebhookURL()},
			},
			"enabled_events": schema.SetAttribute{
				MarkdownDescription: "Event types delivered to `webhook_url`, e.g. `composio.trigger.message` (the " +
					"`service_webhook_event_types` data source lists them with the versions that deliver each).",
				Required:    true,
				ElementType: types.StringType,
				Validators: []validator.Set{
					setvalidator.SizeAtLeast(1),
					setvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1)),
				},
			},
			"version": schema.StringAttribute{
				MarkdownDescription: "Payload version of the deliveries: `V1`, `V2` or `V3` (default). V1 and V2 are " +
					"legacy shapes of the trigger message; other events are delivered in V3 only.",
				Optional:   true,
				Computed:   true,
				Default:    stringdefault.StaticString(webhookevents.DefaultVersion),
				Validators: []validator.String{stringvalidator.OneOf(webhookevents.Versions...)},
			},
			"secret_rotation": schema.StringAttribute{
				MarkdownDescription: "Any string; changing it from one value to another rotates `secret` in place " +
					"(for example a date, `\"2026-01\"` then `\"2026-02\"`): the receiver must verify with the new " +
					"secret from then on. Giving it its first value does not rotate, whether when creating the " +
					"subscription, when adding it to an existing one or after an import (the value is taken as the " +
					"current secret's); removing it does not rotate. Not read from the service, so an import leaves it " +
					"unset.",
				Optional: true,
			},
			"secret": schema.StringAttribute{
				MarkdownDescription: "Signing secret of the deliveries (HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<body>`, " +
					"see the guide *Receiving trigger events*). Sensitive; stored in state.",
				Computed:  true,
				Sensitive: true,
				PlanModifiers: []planmodifier.String{
					planmodifiers.Rotated{Rotation: "secret_rotation", What: "the secret", NullStaysUnknown: true},
				},
			},
			"created_at": schema.StringAttribute{
				MarkdownDescription: "When the subscription was created (ISO 8601).",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"updated_at": schema.StringAttribute{
				MarkdownDescription: "When the subscription was last changed (ISO 8601).",
				Computed:            true,
			},
		},
	}
}

func importHint(id string) string {
	return "Manage the existing subscription instead of creating a second one, or delete it first. " +
		diagnostics.ImportHint(webhookSubscriptionType, id)
}

// ModifyPlan checks enabled_events against the service's event types for
// the planned version and, for a create, that the project has no
// subscription yet. Nothing is written.
func (r *webhookSubscriptionResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	destroyrun.RemotePlanChecks(ctx, webhookSubscriptionType, req, resp, func() { r.modifyPlan(ctx, req, resp) })
}

func (r *webhookSubscriptionResource) modifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if !r.data.Configured() {
		return
	}
	var plan webhookSubscriptionModel
	resp.Diagnostics.Append(codec.Get(ctx, req.Plan, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	var state *webhookSubscriptionModel
	if !req.State.Raw.IsNull() {
		state = &webhookSubscriptionModel{}
		resp.Diagnostics.Append(codec.Get(ctx, req.State, state)...)
		if resp.Diagnostics.HasError() {
			return
		}
	}
	// Events and version are checked when they are sent: at create, or when
	// either changes (a plan with nothing to change reads nothing).
	unchanged := state != nil && state.EnabledEvents.Equal(plan.EnabledEvents) && state.Version.Equal(plan.Version)
	if !unchanged && !plan.EnabledEvents.IsUnknown() && !plan.Version.IsUnknown() {
		var events []string
		resp.Diagnostics.Append(plan.EnabledEvents.ElementsAs(ctx, &events, true)...)
		if resp.Diagnostics.HasError() {
			return
		}
		catalog, err := webhookevents.Catalog(ctx, r.data.Client)
		if err != nil {
			diagnostics.AddAPIErrorAt(&resp.Diagnostics, path.Root("enabled_events"), "reading webhook event types", "", "", err)
			return
		}
		for _, p := range webhookevents.Problems(catalog, events, plan.Version.ValueString()) {
			resp.Diagnostics.AddAttributeError(path.Root("enabled_events"), "Unsupported webhook event",
				fmt.Sprintf("Attribute enabled_events: %s. The service_webhook_event_types data source lists the event "+
					"types and the versions that deliver each.", p))
		}
		if resp.Diagnostics.HasError() {
			return
		}
	}
	if state != nil {
		return
	}
	subs, err := r.data.Client.ListWebhookSubscriptions(ctx)
	if err != nil {
		tflog.Debug(ctx, "existing webhook subscriptions not checked at plan time", map[string]any{"error": err.Error()})
		return
	}
	if len(subs) > 0 {
		resp.Diagnostics.AddAttributeError(path.Root("webhook_url"), "The project already has a webhook subscription",
			fmt.Sprintf("The service allows one webhook subscription per project, and this project has %s (delivering to %s).\n\n%s",
				subs[0].ID, subs[0].WebhookURL, importHint(subs[0].ID)))
	}
}

func (r *webhookSubscriptionResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	defer identity.FromState(ctx, &resp.State, resp.Identity, &resp.Diagnostics)
	var plan webhookSubscriptionModel
	if !r.planForCreate(ctx, req, resp, &plan) {
		return
	}
	var events []string
	resp.Diagnostics.Append(plan.EnabledEvents.ElementsAs(ctx, &events, false)...)
	if resp.Diagnostics.HasError() {
		return
	}
	w, err := r.data.Client.CreateWebhookSubscription(ctx, client.CreateWebhookSubscriptionRequest{
		WebhookURL: plan.WebhookURL.ValueString(), EnabledEvents: events, Version: plan.Version.ValueString(),
	})
	if err != nil {
		diagnostics.AddAPIError(&resp.Diagnostics, "creating", webhookSubscriptionType, "", err)
		if client.IsConflict(err) {
			resp.Diagnostics.AddError("The project already has a webhook subscription", r.conflictDetail(ctx))
		}
		return
	}
	tflog.Debug(ctx, "created webhook subscription", map[string]any{"id": w.ID})
	resp.Diagnostics.Append(plan.fill(ctx, w)...)
	resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &plan)...)
}

// conflictDetail names the existing subscription after a 409 on create.
func (r *webhookSubscriptionResource) conflictDetail(ctx context.Context) string {
	subs, err := r.data.Client.ListWebhookSubscriptions(ctx)
	if err != nil || len(subs) == 0 {
		return "The service allows one webhook subscription per project. " + importHint("<id>")
	}
	return "The service allows one webhook subscription per project. " + importHint(subs[0].ID)
}

func (r *webhookSubscriptionResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state webhookSubscriptionModel
	if !r.readState(ctx, req, resp, &state) {
		return
	}
	id := state.ID.ValueString()
	w, err := r.data.Client.GetWebhookSubscription(ctx, id)
	if diagnostics.ReadFailed(ctx, resp, webhookSubscriptionType, id, err) {
		return
	}
	resp.Diagnostics.Append(state.fill(ctx, w)...)
	resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &state)...)
}

func (r *webhookSubscriptionResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer identity.FromState(ctx, &resp.State, resp.Identity, &resp.Diagnostics)
	var plan, state webhookSubscriptionModel
	if !r.planAndState(ctx, req, resp, &plan, &state) {
		return
	}
	id := state.ID.ValueString()
	c := r.data.Client
	var body client.UpdateWebhookSubscriptionRequest
	changed := false
	if !plan.WebhookURL.Equal(state.WebhookURL) {
		body.WebhookURL, changed = plan.WebhookURL.ValueStringPointer(), true
	}
	if !plan.Version.Equal(state.Version) {
		body.Version, changed = plan.Version.ValueStringPointer(), true
	}
	if !plan.EnabledEvents.Equal(state.EnabledEvents) {
		resp.Diagnostics.Append(plan.EnabledEvents.ElementsAs(ctx, &body.EnabledEvents, false)...)
		if resp.Diagnostics.HasError() {
			return
		}
		changed = true
	}
	current := webhookSubscriptionFromState(ctx, state, &resp.Diagnostics)
	if changed {
		w, err := c.UpdateWebhookSubscription(ctx, id, body)
		if err != nil {
			diagnostics.AddAPIError(&resp.Diagnostics, "updating", webhookSubscriptionType, id, err)
			return
		}
		current = w
	}
	if req.Private != nil {
		imported := planmodifiers.BaselineAfterImport(ctx, req.Private, state.SecretRotation)
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, planmodifiers.PrivateKeyImported, nil)...)
		if imported {
			state.SecretRotation = plan.SecretRotation // the baseline: nothing to rotate
		}
	}
	if planmodifiers.Rotates(state.SecretRotation, plan.SecretRotation) {
		secret, err := c.RotateWebhookSecret(ctx, id)
		if err != nil {
			// Keep what the update applied; the rotation is retried on the next apply.
			plan.SecretRotation = state.SecretRotation
			resp.Diagnostics.Append(plan.fill(ctx, current)...)
			resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &plan)...)
			diagnostics.AddAPIError(&resp.Diagnostics, "rotating the secret of", webhookSubscriptionType, id, err)
			return
		}
		current.Secret = secret
		if !changed {
			// rotate_secret answers only {id, secret}; updated_at moved: one read.
			if w, err := c.GetWebhookSubscription(ctx, id); err == nil {
				current = w
			} else {
				current.UpdatedAt = ""
			}
		}
	}
	resp.Diagnostics.Append(plan.fill(ctx, current)...)
	resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &plan)...)
}

// webhookSubscriptionFromState rebuilds the service object from state (for
// an update that only rotates the secret).
func webhookSubscriptionFromState(ctx context.Context, s webhookSubscriptionModel, diags *diag.Diagnostics) *client.WebhookSubscription {
	w := &client.WebhookSubscription{
		ID: s.ID.ValueString(), WebhookURL: s.WebhookURL.ValueString(), Version: s.Version.ValueString(),
		Secret: s.Secret.ValueString(), CreatedAt: s.CreatedAt.ValueString(), UpdatedAt: s.UpdatedAt.ValueString(),
	}
	diags.Append(s.EnabledEvents.ElementsAs(ctx, &w.EnabledEvents, false)...)
	return w
}

func (r *webhookSubscriptionResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state webhookSubscriptionModel // all Delete needs from the state
	if !r.deleteState(ctx, req, resp, &state, "id") {
		return
	}
	id := state.ID.ValueString()
	diagnostics.AddDeleteError(&resp.Diagnostics, webhookSubscriptionType, id, r.data.Client.DeleteWebhookSubscription(ctx, id))
}

func (r *webhookSubscriptionResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	id := identity.ImportID(ctx, req, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if !importid.ObjectIDRe.MatchString(id) {
		resp.Diagnostics.AddError("Invalid import id",
			fmt.Sprintf("Expected a webhook subscription id such as whs_AbC123 (GET /api/v3.1/webhook_subscriptions lists it), got %q.", id))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id)...)
	identity.Set(ctx, resp.Identity, id, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, planmodifiers.PrivateKeyImported, []byte("true"))...)
}

// fill copies the service's view into m (secret_rotation
// is Terraform's own and kept).
func (m *webhookSubscriptionModel) fill(ctx context.Context, w *client.WebhookSubscription) diag.Diagnostics {
	events, diags := types.SetValueFrom(ctx, types.StringType, w.EnabledEvents)
	m.ID = types.StringValue(w.ID)
	m.WebhookURL = types.StringValue(w.WebhookURL)
	m.EnabledEvents = events
	m.Version = types.StringValue(w.Version)
	m.Secret = types.StringValue(w.Secret)
	m.CreatedAt = types.StringValue(w.CreatedAt)
	m.UpdatedAt = types.StringValue(w.UpdatedAt)
	if w.UpdatedAt == "" {
		m.UpdatedAt = types.StringNull()
	}
	return diags
}
