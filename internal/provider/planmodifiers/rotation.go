// Package planmodifiers holds the plan modifiers the provider's schemas share:
// a secret kept until its rotation attribute changes, JSON kept when it means the same.
package planmodifiers

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Rotated is the plan modifier of a computed secret the service
// delivers only when it makes one (a webhook subscription's secret, a
// project's api_key): the value is kept from state unless the rotation
// attribute changes from a value to a new non-null one (then it is unknown:
// a rotation; see Rotates). The first value the rotation attribute gets,
// after a create without it or after an import (BaselineAfterImport), is
// the baseline, not a rotation. With NullStaysUnknown, a
// null in state is left unknown instead of kept.
type Rotated struct {
	Rotation         string // the rotation attribute, e.g. "secret_rotation"
	What             string // the secret, for the description, e.g. "the secret"
	NullStaysUnknown bool
}

func (m Rotated) Description(_ context.Context) string {
	return "keeps " + m.What + " unless " + m.Rotation + " changes"
}

func (m Rotated) MarkdownDescription(ctx context.Context) string {
	return m.Description(ctx)
}

func (m Rotated) PlanModifyString(ctx context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() || (m.NullStaysUnknown && req.StateValue.IsNull()) {
		return // create or destroy: unknown, or nothing
	}
	var planned, prior types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root(m.Rotation), &planned)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root(m.Rotation), &prior)...)
	if Rotates(prior, planned) && !BaselineAfterImport(ctx, req.Private, prior) {
		resp.PlanValue = types.StringUnknown()
		return
	}
	resp.PlanValue = req.StateValue
}

// PrivateKeyImported marks, in private state, an object (a webhook
// subscription, a project) imported and not updated since: the service never
// reports the rotation attribute, so the first value the configuration gives
// it is the baseline of the existing secret, not a request to rotate
// (adopting an object must not break what uses its secret). The first update
// clears the mark.
const PrivateKeyImported = "imported"

// PrivateGetter reads a key of a resource's private state (req.Private of
// the framework's requests).
type PrivateGetter interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

// BaselineAfterImport reports a rotation attribute that is being set for the
// first time on an imported object.
func BaselineAfterImport(ctx context.Context, p PrivateGetter, prior types.String) bool {
	if p == nil || !prior.IsNull() {
		return false
	}
	v, d := p.GetKey(ctx, PrivateKeyImported)
	return !d.HasError() && string(v) == "true"
}

// Rotates reports whether a rotation attribute going from prior to planned asks
// for a rotation: a change from a value to another, non-null one (unknown
// counts). Giving the attribute its first value (null before: a new block
// on an existing object, or the first value after an import) is the
// baseline of the current secret, never a rotation: what already uses the
// secret keeps working until the value changes.
func Rotates(prior, planned types.String) bool {
	return !prior.IsNull() && !planned.IsNull() && !planned.Equal(prior)
}
