package planmodifiers

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"

	"github.com/integration-service/terraform-provider-service/internal/provider/jsonvalue"
)

// NormalizedJSONUseState plans the prior state value of a JSON
// attribute when the configured value means the same (only key order or
// whitespace differ). The framework applies semantic equality to values read
// back from the service but not to plans, so without it a reformatted
// configuration shows a diff (and a replacement with RequiresReplace, which
// must come after it in the list).
type NormalizedJSONUseState struct{}

var _ planmodifier.String = NormalizedJSONUseState{}

func (NormalizedJSONUseState) Description(_ context.Context) string {
	return "JSON that differs from the state only in key order or whitespace keeps the state value."
}

func (m NormalizedJSONUseState) MarkdownDescription(ctx context.Context) string {
	return m.Description(ctx)
}

func (NormalizedJSONUseState) PlanModifyString(_ context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if req.StateValue.IsNull() || req.StateValue.IsUnknown() || req.PlanValue.IsNull() || req.PlanValue.IsUnknown() {
		return
	}
	if jsonvalue.Same(req.StateValue.ValueString(), req.PlanValue.ValueString()) {
		resp.PlanValue = req.StateValue
	}
}
