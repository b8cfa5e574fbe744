package leanrpc

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// PlanResourceChange follows the framework's plan: defaults, write-only
// attributes nulled, computed attributes without configuration marked
// unknown when anything changes, attribute plan modifiers, then the
// resource's ModifyPlan.
func (s *Server) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	c := s.lookup(req.TypeName)
	if c == nil || len(req.PriorPrivate) > 0 {
		return s.ProviderServer.PlanResourceChange(ctx, req)
	}
	var diags diag.Diagnostics
	resp := &tfprotov6.PlanResourceChangeResponse{}
	done := func() (*tfprotov6.PlanResourceChangeResponse, error) {
		resp.Diagnostics = protoDiags(ctx, diags)
		return resp, nil
	}
	vals, r, fallback := s.begin(ctx, c, "Plan", &diags, req.Config, req.PriorState, req.ProposedNewState)
	if fallback {
		return s.ProviderServer.PlanResourceChange(ctx, req)
	}
	if r == nil {
		return done()
	}
	cfg, prior, proposed := vals[0], vals[1], vals[2]
	planned := proposed
	setPlanned := func() { resp.PlannedState = c.encode(planned, &diags) }
	var err error
	if !planned.IsNull() {
		planned, err = walkConfig(planned, cfg, c.tfType, c.attrs, path.Empty(), func(n *node, v, cv tftypes.Value, p path.Path) (tftypes.Value, error) {
			if n.deflt == nil || !cv.IsNull() {
				return v, nil
			}
			dv, d := n.deflt(ctx, p)
			diags.Append(d...)
			if d.HasError() {
				return v, nil
			}
			return dv.ToTerraformValue(ctx)
		})
		if err == nil && diags.HasError() {
			setPlanned()
			return done()
		}
	}
	if err == nil {
		planned, err = c.nullifyWriteOnly(planned)
	}
	if err == nil && !planned.IsNull() && !planned.Equal(prior) {
		planned, err = walk(planned, cfg, c.tfType, c.attrs, path.Empty(), func(n *node, v, cv tftypes.Value, _ path.Path) (tftypes.Value, error) {
			if !cv.IsNull() || !n.computed || n.deflt != nil {
				return v, nil
			}
			return tftypes.NewValue(v.Type(), tftypes.UnknownValue), nil
		})
	}
	if err != nil {
		diags.AddError("Error modifying plan", "There was an unexpected error updating the plan. This is always a problem with the provider. "+
			"Please report the following to the provider developer:\n\n"+err.Error())
		return done()
	}
	var replace path.Paths
	config := tfsdk.Config{Schema: c.schema, Raw: cfg}
	state := tfsdk.State{Schema: c.schema, Raw: prior}
	if !planned.IsNull() {
		planned, replace = c.modifyPlan(ctx, config, planned, state, &diags)
		if diags.HasError() {
			setPlanned()
			return done()
		}
	}
	if rm, ok := r.(resource.ResourceWithModifyPlan); ok {
		caps := resource.ModifyPlanClientCapabilities{}
		if req.ClientCapabilities != nil {
			caps.DeferralAllowed = req.ClientCapabilities.DeferralAllowed
		}
		mreq := resource.ModifyPlanRequest{ClientCapabilities: caps, Config: config, Plan: tfsdk.Plan{Schema: c.schema, Raw: planned}, State: state}
		mresp := resource.ModifyPlanResponse{Diagnostics: diags, Plan: mreq.Plan, RequiresReplace: path.Paths{}}
		rm.ModifyPlan(ctx, mreq, &mresp)
		diags = mresp.Diagnostics
		planned = mresp.Plan.Raw
		replace = append(replace, mresp.RequiresReplace...)
		if mresp.Deferred != nil {
			resp.Deferred = &tfprotov6.Deferred{Reason: tfprotov6.DeferredReason(mresp.Deferred.Reason)}
		}
	}
	resp.RequiresReplace = requiresReplace(ctx, replace, &diags)
	if proposed.IsNull() && !planned.IsNull() {
		diags.AddError("Unexpected Planned Resource State on Destroy",
			"The Terraform Provider unexpectedly returned resource state data when the resource was planned for destruction. "+
				"This is always an issue in the Terraform Provider and should be reported to the provider developers.\n\n"+
				"Ensure all resource plan modifiers do not attempt to change resource plan data from being a null value if the request plan is a null value.")
	}
	setPlanned()
	return done()
}

// nullifyWriteOnly nulls every write-only attribute (nested ones too).
func (c *compiled) nullifyWriteOnly(v tftypes.Value) (tftypes.Value, error) {
	return walk(v, v, c.tfType, c.attrs, path.Empty(), func(n *node, v, _ tftypes.Value, _ path.Path) (tftypes.Value, error) {
		if n.writeOnly && !v.IsNull() {
			return tftypes.NewValue(n.tfType, nil), nil
		}
		return v, nil
	})
}

// modifyPlan is the framework's SchemaModifyPlan: each top-level attribute's
// plan modifiers, then its nested attributes'. Every modifier sees the plan
// as it was before this step (req.Plan), like the framework's.
func (c *compiled) modifyPlan(ctx context.Context, config tfsdk.Config, planned tftypes.Value, state tfsdk.State, diags *diag.Diagnostics) (tftypes.Value, path.Paths) {
	rawPlan := tfsdk.Plan{Schema: c.schema, Raw: planned}
	cv, pv, sv := fields(config.Raw, c.tfType), fields(planned, c.tfType), fields(state.Raw, c.tfType)
	var replace path.Paths
	changed := false
	for _, n := range c.attrs {
		if n.modify == nil && len(n.children) == 0 {
			continue
		}
		var in modifyIn
		var d diag.Diagnostics
		if in.config, d = n.value(ctx, cv[n.name]); !d.HasError() {
			if in.plan, d = n.value(ctx, pv[n.name]); !d.HasError() {
				in.state, d = n.value(ctx, sv[n.name])
			}
		}
		diags.Append(d...)
		if diags.HasError() {
			return planned, replace
		}
		in.path, in.rawConfig, in.rawPlan, in.rawState = path.Root(n.name), config, rawPlan, state
		out, rr := n.modifyAttribute(ctx, in)
		diags.Append(out.diags...)
		if diags.HasError() {
			return planned, replace
		}
		tv, err := out.plan.ToTerraformValue(ctx)
		if err != nil {
			diags.AddAttributeError(in.path, "Provider bug", fmt.Sprintf("Converting the planned value failed: %s.", err))
			return planned, replace
		}
		if !tv.Equal(pv[n.name]) {
			pv[n.name] = tv
			changed = true
		}
		replace = append(replace, rr...)
	}
	if changed {
		planned = tftypes.NewValue(c.tfType, pv)
	}
	return planned, replace
}

// modifyAttribute is the framework's AttributeModifyPlan for one attribute:
// its own modifiers, then (for a known, non-null single nested attribute)
// each nested attribute's.
func (n *node) modifyAttribute(ctx context.Context, in modifyIn) (modifyOut, path.Paths) {
	out := modifyOut{plan: in.plan}
	var replace path.Paths
	if n.modify != nil {
		out = n.modify(ctx, in)
		if out.requiresReplace {
			replace = append(replace, in.path)
		}
		if out.diags.HasError() {
			return out, replace
		}
	}
	if len(n.children) == 0 || out.plan.IsNull() || out.plan.IsUnknown() {
		return out, replace
	}
	planObj, ok1 := out.plan.(types.Object)
	cfgObj, ok2 := in.config.(types.Object)
	stateObj, ok3 := in.state.(types.Object)
	if !ok1 || !ok2 || !ok3 {
		out.diags.AddAttributeError(in.path, "Provider bug", "Unexpected value type in nested plan modification.")
		return out, replace
	}
	attrs := planObj.Attributes()
	for _, ch := range n.children {
		if ch.modify == nil && len(ch.children) == 0 {
			continue
		}
		cin := in
		cin.path, cin.expr = in.path.AtName(ch.name), in.expr.AtName(ch.name)
		cin.config, cin.plan, cin.state = objectAttr(ctx, cfgObj, ch), attrs[ch.name], objectAttr(ctx, stateObj, ch)
		cout, rr := ch.modifyAttribute(ctx, cin)
		attrs[ch.name] = cout.plan
		out.diags.Append(cout.diags...)
		replace = append(replace, rr...)
	}
	obj, d := types.ObjectValue(planObj.AttributeTypes(ctx), attrs)
	out.diags.Append(d...)
	out.plan = obj
	return out, replace
}

// objectAttr is a nested attribute of obj, null or unknown when obj is.
func objectAttr(ctx context.Context, obj types.Object, n *node) attr.Value {
	if obj.IsNull() || obj.IsUnknown() {
		var raw any
		if obj.IsUnknown() {
			raw = tftypes.UnknownValue
		}
		v, err := n.typ.ValueFromTerraform(ctx, tftypes.NewValue(n.tfType, raw))
		if err == nil {
			return v
		}
	}
	return obj.Attributes()[n.name]
}
