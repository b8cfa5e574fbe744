package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

var _ list.ListResourceWithConfigure = (*triggerInstanceListResource)(nil)

// NewTriggerInstanceListResource returns the service_trigger_instance list
// resource.
func NewTriggerInstanceListResource() list.ListResource {
	return &triggerInstanceListResource{resourceBase{typeNamed("trigger_instance")}}
}

type triggerInstanceListResource struct{ resourceBase }

func (r *triggerInstanceListResource) ListResourceConfigSchema(ctx context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	listFilterSchema(ctx, &triggerInstancesDataSource{}, "Lists the project's trigger instances (newest first; the service's `listActive`), for "+
		"`terraform query` and `-generate-config-out`, with the filters of the `service_trigger_instances` data "+
		"source. Filters combine with AND; values within one filter with OR. Disabled instances are left out "+
		"unless `show_disabled` is true. Each result is named `<trigger slug> · <user_id> (<id>)`, with "+
		"`disabled` added for a disabled instance.\n\n"+
		"One request per page. The listing holds every field of the resource's state (the service reads one "+
		"instance through the same listing), so no instance is read on its own. With `include_resource`, "+
		"`toolkit` comes from the trigger type, as in the resource's Read after an import: one trigger type "+
		"lookup per distinct trigger type in the results (cached for the run), none without `include_resource`.",
		triggerInstanceFilterNames, resp)
}

func (r *triggerInstanceListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	p, ok := listParams(ctx, r.data, req, stream, &triggerInstanceFilters{})
	if !ok {
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
			state: readVia(func(ctx context.Context, m *triggerInstanceModel) diag.Diagnostics {
				return m.fillRead(ctx, data, &ti)
			}),
		}
	})
}
