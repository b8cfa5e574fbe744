package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

var (
	_ list.ListResource              = (*triggerInstanceListResource)(nil)
	_ list.ListResourceWithConfigure = (*triggerInstanceListResource)(nil)
)

// NewTriggerInstanceListResource returns the service_trigger_instance list
// resource.
func NewTriggerInstanceListResource() list.ListResource {
	return &triggerInstanceListResource{}
}

type triggerInstanceListResource struct{ listBase }

// triggerInstanceListConfig holds the filters: those of the
// service_trigger_instances data source, with the same names and meaning.
type triggerInstanceListConfig struct {
	AuthConfigIDs       types.List `tfsdk:"auth_config_ids"`
	ConnectedAccountIDs types.List `tfsdk:"connected_account_ids"`
	TriggerIDs          types.List `tfsdk:"trigger_ids"`
	TriggerNames        types.List `tfsdk:"trigger_names"`
	UserIDs             types.List `tfsdk:"user_ids"`
	ShowDisabled        types.Bool `tfsdk:"show_disabled"`
}

func (r *triggerInstanceListResource) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = triggerInstanceType
}

func (r *triggerInstanceListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the project's trigger instances (newest first; the service's `listActive`), for " +
			"`terraform query` and `-generate-config-out`, with the filters of the `service_trigger_instances` data " +
			"source. Filters combine with AND; values within one filter with OR. Disabled instances are left out " +
			"unless `show_disabled` is true. Each result is named `<trigger slug> · <user_id> (<id>)`, with " +
			"`disabled` added for a disabled instance.\n\n" +
			"One request per page. The listing holds every field of the resource's state (the service reads one " +
			"instance through the same listing), so no instance is read on its own. With `include_resource`, " +
			"`toolkit` comes from the trigger type, as in the resource's Read after an import: one trigger type " +
			"lookup per distinct trigger type in the results (cached for the run), none without `include_resource`.",
		Attributes: map[string]schema.Attribute{
			"auth_config_ids": listStringFilter("Only instances whose connected account uses one of these auth configs.",
				objectIDValidator("ac_")),
			"connected_account_ids": listStringFilter("Only instances on these connected accounts.", objectIDValidator("ca_")),
			"trigger_ids":           listStringFilter("Only these trigger instances (ids `ti_...`).", objectIDValidator("ti_")),
			"trigger_names": listStringFilter("Only instances of these trigger types (slugs such as `GITHUB_COMMIT_EVENT`).",
				stringvalidator.RegexMatches(triggerSlugRe, "must be a trigger type slug in upper snake case, e.g. GITHUB_COMMIT_EVENT")),
			"user_ids": listStringFilter("Only instances of these users (external user ids).", userIDValidator()),
			"show_disabled": schema.BoolAttribute{
				MarkdownDescription: "Also list disabled instances. Defaults to `false`.",
				Optional:            true,
			},
		},
	}
}

func (r *triggerInstanceListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var diags diag.Diagnostics
	if !requireClient(r.data, &diags) {
		stream.Results = listError(diags)
		return
	}
	var cfg triggerInstanceListConfig
	if diags.Append(req.Config.Get(ctx, &cfg)...); diags.HasError() {
		stream.Results = listError(diags)
		return
	}
	p := client.TriggerInstanceListParams{
		AuthConfigIDs:       stringsFromList(ctx, cfg.AuthConfigIDs, &diags),
		ConnectedAccountIDs: stringsFromList(ctx, cfg.ConnectedAccountIDs, &diags),
		TriggerIDs:          stringsFromList(ctx, cfg.TriggerIDs, &diags),
		TriggerNames:        stringsFromList(ctx, cfg.TriggerNames, &diags),
		UserIDs:             stringsFromList(ctx, cfg.UserIDs, &diags),
		ShowDisabled:        cfg.ShowDisabled.ValueBool(),
	}
	if diags.HasError() {
		stream.Results = listError(diags)
		return
	}
	data := r.data
	stream.Results = streamList(ctx, req, triggerInstanceType, data.Client.TriggerInstancesIter(ctx, p), func(ti client.TriggerInstance) listItem {
		disabled := ""
		if ti.IsDisabled() {
			disabled = "disabled"
		}
		return listItem{
			id:          ti.ID,
			displayName: displayName(ti.ID, ti.TriggerName, ti.UserID, disabled),
			state: func(ctx context.Context, st *tfsdk.State) diag.Diagnostics {
				var m triggerInstanceModel
				diags := getModel(ctx, *st, &m)
				if diags.HasError() {
					return diags
				}
				diags.Append(readTriggerInstanceInto(ctx, data, &m, &ti)...)
				diags.Append(setModel(ctx, st, &m)...)
				return diags
			},
		}
	})
}
