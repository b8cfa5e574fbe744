package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/provider/codec"
	"github.com/integration-service/terraform-provider-service/internal/provider/diagnostics"
	"github.com/integration-service/terraform-provider-service/internal/provider/jsonvalue"
	"github.com/integration-service/terraform-provider-service/internal/provider/listfilter"
	"github.com/integration-service/terraform-provider-service/internal/provider/validators"
)

var _ datasource.DataSourceWithConfigure = (*triggerInstancesDataSource)(nil)

// NewTriggerInstancesDataSource returns the service_trigger_instances data source.
func NewTriggerInstancesDataSource() datasource.DataSource {
	return &triggerInstancesDataSource{dataSourceBase{typeNamed("trigger_instances")}}
}

type triggerInstancesDataSource struct{ dataSourceBase }

// triggerInstanceFilters are the filters of this data source, which the
// service_trigger_instance list resource shares.
type triggerInstanceFilters struct {
	AuthConfigIDs       types.List `tfsdk:"auth_config_ids"`
	ConnectedAccountIDs types.List `tfsdk:"connected_account_ids"`
	TriggerIDs          types.List `tfsdk:"trigger_ids"`
	TriggerNames        types.List `tfsdk:"trigger_names"`
	UserIDs             types.List `tfsdk:"user_ids"`
	ShowDisabled        types.Bool `tfsdk:"show_disabled"`
}

// triggerInstanceFilterNames names the attributes of triggerInstanceFilters.
var triggerInstanceFilterNames = []string{
	"auth_config_ids", "connected_account_ids", "trigger_ids", "trigger_names", "user_ids", "show_disabled",
}

// params are the client's list params for the filters.
func (f triggerInstanceFilters) params(ctx context.Context, diags *diag.Diagnostics) client.TriggerInstanceListParams {
	return client.TriggerInstanceListParams{
		AuthConfigIDs:       listfilter.Values(ctx, f.AuthConfigIDs, diags),
		ConnectedAccountIDs: listfilter.Values(ctx, f.ConnectedAccountIDs, diags),
		TriggerIDs:          listfilter.Values(ctx, f.TriggerIDs, diags),
		TriggerNames:        listfilter.Values(ctx, f.TriggerNames, diags),
		UserIDs:             listfilter.Values(ctx, f.UserIDs, diags),
		ShowDisabled:        f.ShowDisabled.ValueBool(),
	}
}

type triggerInstancesModel struct {
	triggerInstanceFilters
	IDs              []string              `tfsdk:"ids"`
	TriggerInstances []triggerInstanceItem `tfsdk:"trigger_instances"`
}

type triggerInstanceItem struct {
	ID                 types.String         `tfsdk:"id"`
	UUID               types.String         `tfsdk:"uuid"`
	Slug               types.String         `tfsdk:"slug"`
	ConnectedAccountID types.String         `tfsdk:"connected_account_id"`
	UserID             types.String         `tfsdk:"user_id"`
	TriggerConfig      jsontypes.Normalized `tfsdk:"trigger_config"`
	Enabled            types.Bool           `tfsdk:"enabled"`
	DisabledAt         types.String         `tfsdk:"disabled_at"`
	UpdatedAt          types.String         `tfsdk:"updated_at"`
	ToolkitVersion     types.String         `tfsdk:"toolkit_version"`
}

func (d *triggerInstancesDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists trigger instances of the project (the service's `listActive`). Filters combine " +
			"with AND; values within one filter with OR. Disabled instances are left out unless `show_disabled` is " +
			"true. Follows all pages.",
		Attributes: map[string]schema.Attribute{
			"auth_config_ids": listfilter.StringList("Only instances whose connected account uses one of these auth configs.",
				validators.ObjectID("ac_")),
			"connected_account_ids": listfilter.StringList("Only instances on these connected accounts.", validators.ObjectID("ca_")),
			"trigger_ids":           listfilter.StringList("Only these trigger instances (ids `ti_...`).", validators.ObjectID("ti_")),
			"trigger_names": listfilter.StringList("Only instances of these trigger types (slugs such as `GITHUB_COMMIT_EVENT`).",
				stringvalidator.RegexMatches(triggerSlugRe, "must be a trigger type slug in upper snake case, e.g. GITHUB_COMMIT_EVENT")),
			"user_ids": listfilter.StringList("Only instances of these users (external user ids).", validators.UserID()),
			"show_disabled": schema.BoolAttribute{
				MarkdownDescription: "Also list disabled instances. Defaults to `false`.",
				Optional:            true,
			},
			"ids": listfilter.ComputedStringList("Ids of the instances found, in the order of `trigger_instances`."),
			"trigger_instances": schema.ListNestedAttribute{
				MarkdownDescription: "The trigger instances found, newest first (the service's order).",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{
					Attributes: map[string]schema.Attribute{
						"id": schema.StringAttribute{
							MarkdownDescription: "Trigger id (`ti_...`).",
							Computed:            true,
						},
						"uuid": schema.StringAttribute{
							MarkdownDescription: "UUID of the trigger instance.",
							Computed:            true,
						},
						"slug": schema.StringAttribute{
							MarkdownDescription: "Trigger type slug (the service's `trigger_name`), e.g. `GITHUB_COMMIT_EVENT`.",
							Computed:            true,
						},
						"connected_account_id": schema.StringAttribute{
							MarkdownDescription: "Connected account the trigger watches.",
							Computed:            true,
						},
						"user_id": schema.StringAttribute{
							MarkdownDescription: "External id of the user owning the connected account.",
							Computed:            true,
						},
						"trigger_config": schema.StringAttribute{
							MarkdownDescription: "Configuration of the trigger as a JSON object string.",
							Computed:            true,
							CustomType:          jsontypes.NormalizedType{},
						},
						"enabled": schema.BoolAttribute{
							MarkdownDescription: "Whether the trigger delivers events (false when `disabled_at` is set).",
							Computed:            true,
						},
						"disabled_at": schema.StringAttribute{
							MarkdownDescription: "When the trigger was disabled (ISO 8601); null while it is enabled.",
							Computed:            true,
						},
						"updated_at": schema.StringAttribute{
							MarkdownDescription: "When the trigger instance was last changed (ISO 8601).",
							Computed:            true,
						},
						"toolkit_version": schema.StringAttribute{
							MarkdownDescription: "Toolkit version the instance was created with.",
							Computed:            true,
						},
					},
				},
			},
		},
	}
}

func (d *triggerInstancesDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	if !readReady(ctx, d.data, "service_trigger_instances", &resp.Diagnostics) {
		return
	}
	var model triggerInstancesModel
	resp.Diagnostics.Append(codec.Get(ctx, req.Config, &model)...)
	if resp.Diagnostics.HasError() {
		return
	}
	params := model.params(ctx, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	list, err := d.data.Client.ListActiveTriggers(ctx, params)
	if err != nil {
		diagnostics.AddAPIError(&resp.Diagnostics, "reading", "service_trigger_instances", "", err)
		return
	}
	model.IDs = make([]string, 0, len(list))
	model.TriggerInstances = make([]triggerInstanceItem, 0, len(list))
	for _, ti := range list {
		cfg, err := jsonvalue.FromValue(ti.TriggerConfig)
		if err != nil {
			resp.Diagnostics.AddError("Unreadable trigger instance",
				"The trigger_config of trigger instance "+ti.ID+" cannot be encoded as JSON: "+err.Error())
			return
		}
		item := triggerInstanceItem{
			ID:                 types.StringValue(ti.ID),
			UUID:               types.StringValue(ti.UUID),
			Slug:               types.StringValue(ti.TriggerName),
			ConnectedAccountID: types.StringValue(ti.ConnectedAccountID),
			UserID:             types.StringValue(ti.UserID),
			TriggerConfig:      cfg,
			Enabled:            types.BoolValue(!ti.IsDisabled()),
			DisabledAt:         types.StringNull(),
			UpdatedAt:          types.StringValue(ti.UpdatedAt),
			ToolkitVersion:     types.StringValue(ti.Version),
		}
		if ti.IsDisabled() {
			item.DisabledAt = types.StringValue(*ti.DisabledAt)
		}
		model.IDs = append(model.IDs, ti.ID)
		model.TriggerInstances = append(model.TriggerInstances, item)
	}
	resp.Diagnostics.Append(codec.Set(ctx, &resp.State, &model)...)
}
