package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/provider/codec"
	"github.com/integration-service/terraform-provider-service/internal/provider/diagnostics"
	"github.com/integration-service/terraform-provider-service/internal/provider/jsonvalue"
)

var _ datasource.DataSourceWithConfigure = (*triggerTypeDataSource)(nil)

// NewTriggerTypeDataSource returns the service_trigger_type data source.
func NewTriggerTypeDataSource() datasource.DataSource {
	return &triggerTypeDataSource{dataSourceBase{typeNamed("trigger_type")}}
}

type triggerTypeDataSource struct{ dataSourceBase }

// triggerTypeModel is one trigger type; the data source adds nothing to it.
type triggerTypeModel struct {
	Slug          types.String         `tfsdk:"slug"`
	Name          types.String         `tfsdk:"name"`
	Description   types.String         `tfsdk:"description"`
	Instructions  types.String         `tfsdk:"instructions"`
	Type          types.String         `tfsdk:"type"`
	Toolkit       types.String         `tfsdk:"toolkit"`
	Version       types.String         `tfsdk:"version"`
	InputSchema   jsontypes.Normalized `tfsdk:"input_schema"`
	PayloadSchema jsontypes.Normalized `tfsdk:"payload_schema"`
	// RequiresWebhookEndpointSetup: the trigger needs a service_webhook_endpoint.
	RequiresWebhookEndpointSetup types.Bool `tfsdk:"requires_webhook_endpoint_setup"`
}

// triggerTypeComputedAttributes are the attributes every trigger type
// exposes (shared by service_trigger_type and service_trigger_types).
func triggerTypeComputedAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"name": schema.StringAttribute{
			MarkdownDescription: "Display name of the trigger type.",
			Computed:            true,
		},
		"description": schema.StringAttribute{
			MarkdownDescription: "What the trigger reports.",
			Computed:            true,
		},
		"instructions": schema.StringAttribute{
			MarkdownDescription: "How to configure the trigger.",
			Computed:            true,
		},
		"type": schema.StringAttribute{
			MarkdownDescription: "How the service receives events: `webhook` or `poll`.",
			Computed:            true,
		},
		"toolkit": schema.StringAttribute{
			MarkdownDescription: "Slug of the toolkit the trigger type belongs to, e.g. `github`.",
			Computed:            true,
		},
		"version": schema.StringAttribute{
			MarkdownDescription: "Toolkit version the trigger type was read at (the provider's configured version " +
				"for the toolkit, or the service's latest), e.g. `20251015_00`.",
			Computed: true,
		},
		"input_schema": schema.StringAttribute{
			MarkdownDescription: "JSON Schema of the trigger's configuration (the `trigger_config` of a " +
				"`service_trigger_instance`), as a JSON string; use `jsondecode()` to inspect it. The service's " +
				"trigger type (and the emulator's catalog file) calls this schema `config`.",
			Computed:   true,
			CustomType: jsontypes.NormalizedType{},
		},
		"payload_schema": schema.StringAttribute{
			MarkdownDescription: "JSON Schema of the event payload the trigger delivers, as a JSON string (the " +
				"service's and the emulator catalog's `payload`).",
			Computed:   true,
			CustomType: jsontypes.NormalizedType{},
		},
		"requires_webhook_endpoint_setup": schema.BoolAttribute{
			MarkdownDescription: "Whether the trigger fires only once a webhook endpoint is set up for the toolkit's " +
				"OAuth app: create a `service_webhook_endpoint` (toolkit and the app's `client_id`, with its setup " +
				"fields) and register its `webhook_url` with the upstream provider (e.g. Slack Event Subscriptions).",
			Computed: true,
		},
	}
}

func (d *triggerTypeDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := triggerTypeComputedAttributes()
	attrs["slug"] = schema.StringAttribute{
		MarkdownDescription: "Slug of the trigger type in upper snake case, e.g. `GITHUB_COMMIT_EVENT`.",
		Required:            true,
		Validators: []validator.String{stringvalidator.RegexMatches(triggerSlugRe,
			"must be a trigger type slug in upper snake case, e.g. GITHUB_COMMIT_EVENT")},
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads one trigger type at the toolkit version the provider is configured with " +
			"(`toolkit_versions`, `toolkit_version`, `SERVICE_TOOLKIT_VERSION_<NAME>`), including the JSON Schema a " +
			"`service_trigger_instance`'s `trigger_config` must follow.",
		Attributes: attrs,
	}
}

func (d *triggerTypeDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	if !readReady(ctx, d.data, "service_trigger_type", &resp.Diagnostics) {
		return
	}
	var cfg triggerTypeModel
	resp.Diagnostics.Append(codec.Get(ctx, req.Config, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	slug := cfg.Slug.ValueString()
	tt, err := d.data.Cache.TriggerType(ctx, slug)
	if err != nil {
		if !d.data.addVersionNotFound(ctx, &resp.Diagnostics, client.ToolkitPrefix(slug), err) {
			diagnostics.AddLookupError(&resp.Diagnostics, path.Root("slug"), "trigger type", slug, d.data.VersionFor(client.ToolkitPrefix(slug)), err)
		}
		return
	}
	model, diags := triggerTypeToModel(tt)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &model)...)
}

// triggerTypeToModel converts a trigger type read from the service.
func triggerTypeToModel(tt *client.TriggerType) (triggerTypeModel, diag.Diagnostics) {
	var diags diag.Diagnostics
	input, err := jsonvalue.FromValue(tt.Config)
	if err != nil {
		diags.AddError("Unreadable trigger type", "The config schema of trigger type "+tt.Slug+" cannot be encoded as JSON: "+err.Error())
	}
	payload, err := jsonvalue.FromValue(tt.Payload)
	if err != nil {
		diags.AddError("Unreadable trigger type", "The payload schema of trigger type "+tt.Slug+" cannot be encoded as JSON: "+err.Error())
	}
	toolkit := tt.Toolkit.Slug
	if toolkit == "" {
		toolkit = client.ToolkitPrefix(tt.Slug)
	}
	return triggerTypeModel{
		Slug:                         types.StringValue(tt.Slug),
		Name:                         types.StringValue(tt.Name),
		Description:                  types.StringValue(tt.Description),
		Instructions:                 types.StringValue(tt.Instructions),
		Type:                         types.StringValue(tt.Type),
		Toolkit:                      types.StringValue(toolkit),
		Version:                      types.StringValue(tt.Version),
		InputSchema:                  input,
		PayloadSchema:                payload,
		RequiresWebhookEndpointSetup: types.BoolValue(tt.RequiresWebhookEndpointSetup),
	}, diags
}
