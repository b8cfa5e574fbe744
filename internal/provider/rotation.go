package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// rotatedPlanModifier is the plan modifier of a computed secret the service
// delivers only when it makes one (a webhook subscription's secret, a
// project's api_key): the value is kept from state unless the rotation
// attribute changes to a new non-null value (then it is unknown: a rotation).
// The first value the rotation attribute gets after an import is the
// baseline (baselineAfterImport), not a rotation. With nullStaysUnknown, a
// null in state is left unknown instead of kept.
type rotatedPlanModifier struct {
	rotation         string // the rotation attribute, e.g. "secret_rotation"
	what             string // the secret, for the description, e.g. "the secret"
	nullStaysUnknown bool
}

func (m rotatedPlanModifier) Description(_ context.Context) string {
	return "keeps " + m.what + " unless " + m.rotation + " changes"
}

func (m rotatedPlanModifier) MarkdownDescription(ctx context.Context) string {
	return m.Description(ctx)
}

func (m rotatedPlanModifier) PlanModifyString(ctx context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() || (m.nullStaysUnknown && req.StateValue.IsNull()) {
		return // create or destroy: unknown, or nothing
	}
	var planned, prior types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root(m.rotation), &planned)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root(m.rotation), &prior)...)
	if rotates(prior, planned) && !baselineAfterImport(ctx, req.Private, prior) {
		resp.PlanValue = types.StringUnknown()
		return
	}
	resp.PlanValue = req.StateValue
}

// privateKeyImported marks, in private state, an object (a webhook
// subscription, a project) imported and not updated since: the service never
// reports the rotation attribute, so the first value the configuration gives
// it is the baseline of the existing secret, not a request to rotate
// (adopting an object must not break what uses its secret). The first update
// clears the mark.
const privateKeyImported = "imported"

// baselineAfterImport reports a rotation attribute that is being set for the
// first time on an imported object.
func baselineAfterImport(ctx context.Context, p privateGetter, prior types.String) bool {
	if p == nil || !prior.IsNull() {
		return false
	}
	v, d := p.GetKey(ctx, privateKeyImported)
	return !d.HasError() && string(v) == "true"
}

// rotates reports whether a rotation attribute going from prior to planned asks
// for a rotation: a change to a new, non-null value (unknown counts).
func rotates(prior, planned types.String) bool {
	return !planned.IsNull() && !planned.Equal(prior)
}
