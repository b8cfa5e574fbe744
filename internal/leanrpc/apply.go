package leanrpc

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// ApplyResourceChange calls Create, Update or Delete as the framework does,
// and keeps write-only values out of the new state.
func (s *Server) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	c := s.lookup(req.TypeName)
	if c == nil || len(req.PlannedPrivate) > 0 {
		return s.ProviderServer.ApplyResourceChange(ctx, req)
	}
	var diags diag.Diagnostics
	resp := &tfprotov6.ApplyResourceChangeResponse{}
	vals, r, fallback := s.begin(ctx, c, "Apply", &diags, req.Config, req.PlannedState, req.PriorState)
	if fallback {
		return s.ProviderServer.ApplyResourceChange(ctx, req)
	}
	if r == nil {
		resp.Diagnostics = protoDiags(ctx, diags)
		return resp, nil
	}
	cfg, planned, prior := vals[0], vals[1], vals[2]
	null := tftypes.NewValue(c.tfType, nil)
	config := tfsdk.Config{Schema: c.schema, Raw: cfg}
	plan := tfsdk.Plan{Schema: c.schema, Raw: planned}
	var newState tftypes.Value
	switch {
	case prior.IsNull():
		cresp := resource.CreateResponse{State: tfsdk.State{Schema: c.schema, Raw: null}}
		r.Create(ctx, resource.CreateRequest{Config: config, Plan: plan}, &cresp)
		diags, newState = cresp.Diagnostics, cresp.State.Raw
		if !diags.HasError() && newState.Equal(null) {
			detail := "The Terraform Provider unexpectedly returned no resource state after having no errors in the resource creation. " +
				"This is always an issue in the Terraform Provider and should be reported to the provider developers.\n\n" +
				"The resource may have been successfully created, but Terraform is not tracking it. " +
				"Applying the configuration again with no other action may result in duplicate resource errors."
			if c.importHint {
				detail += " Import the resource if the resource was actually created and Terraform should be tracking it."
			}
			diags.AddError("Missing Resource State After Create", detail)
		}
	case planned.IsNull():
		dresp := resource.DeleteResponse{State: tfsdk.State{Schema: c.schema, Raw: prior}}
		r.Delete(ctx, resource.DeleteRequest{State: tfsdk.State{Schema: c.schema, Raw: prior}}, &dresp)
		diags, newState = dresp.Diagnostics, dresp.State.Raw
		if !diags.HasError() {
			newState = null
		}
	default:
		uresp := resource.UpdateResponse{State: tfsdk.State{Schema: c.schema, Raw: prior}}
		r.Update(ctx, resource.UpdateRequest{Config: config, Plan: plan, State: tfsdk.State{Schema: c.schema, Raw: prior}}, &uresp)
		diags, newState = uresp.Diagnostics, uresp.State.Raw
		if !diags.HasError() && newState.Equal(null) {
			diags.AddError("Missing Resource State After Update",
				"The Terraform Provider unexpectedly returned no resource state after having no errors in the resource update. "+
					"This is always an issue in the Terraform Provider and should be reported to the provider developers.")
		}
	}
	if !diags.HasError() && !planned.IsNull() {
		newState = c.newStateWithoutWriteOnly(newState, &diags)
	}
	resp.NewState = c.encode(newState, &diags)
	resp.Diagnostics = protoDiags(ctx, diags)
	return resp, nil
}

// ReadResource calls Read and keeps write-only values out of the state.
func (s *Server) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	c := s.lookup(req.TypeName)
	if c == nil || len(req.Private) > 0 || req.CurrentState == nil {
		return s.ProviderServer.ReadResource(ctx, req)
	}
	var diags diag.Diagnostics
	resp := &tfprotov6.ReadResourceResponse{}
	vals, r, fallback := s.begin(ctx, c, "State", &diags, req.CurrentState)
	if fallback {
		return s.ProviderServer.ReadResource(ctx, req)
	}
	if r == nil {
		resp.Diagnostics = protoDiags(ctx, diags)
		return resp, nil
	}
	current := vals[0]
	caps := resource.ReadClientCapabilities{}
	if req.ClientCapabilities != nil {
		caps.DeferralAllowed = req.ClientCapabilities.DeferralAllowed
	}
	rresp := resource.ReadResponse{State: tfsdk.State{Schema: c.schema, Raw: current.Copy()}}
	r.Read(ctx, resource.ReadRequest{ClientCapabilities: caps, State: tfsdk.State{Schema: c.schema, Raw: current.Copy()}}, &rresp)
	diags = rresp.Diagnostics
	newState := rresp.State.Raw
	if rresp.Deferred != nil {
		resp.Deferred = &tfprotov6.Deferred{Reason: tfprotov6.DeferredReason(rresp.Deferred.Reason)}
	}
	if !diags.HasError() {
		newState = c.newStateWithoutWriteOnly(newState, &diags)
	}
	resp.NewState = c.encode(newState, &diags)
	resp.Diagnostics = protoDiags(ctx, diags)
	return resp, nil
}

// UpgradeResourceState: state written by this schema version is read as it
// is; other versions go to the framework (and the resource's upgraders).
func (s *Server) UpgradeResourceState(ctx context.Context, req *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	c := s.lookup(req.TypeName)
	if c == nil || req.RawState == nil || req.Version != c.schema.Version {
		return s.ProviderServer.UpgradeResourceState(ctx, req)
	}
	var diags diag.Diagnostics
	resp := &tfprotov6.UpgradeResourceStateResponse{}
	v, err := req.RawState.UnmarshalWithOpts(c.tfType, tfprotov6.UnmarshalOpts{ValueFromJSONOpts: tftypes.ValueFromJSONOpts{IgnoreUndefinedAttributes: true}})
	if err != nil {
		diags.AddError("Unable to Read Previously Saved State for UpgradeResourceState",
			"There was an error reading the saved resource state using the current resource schema.\n\n"+
				"If this resource state was last refreshed with Terraform CLI 0.11 and earlier, it must be refreshed or applied with an older provider version first. "+
				"If you manually modified the resource state, you will need to manually modify it to match the current resource schema. "+
				"Otherwise, please report this to the provider developer:\n\n"+err.Error())
	} else {
		resp.UpgradedState = c.encode(v, &diags)
	}
	resp.Diagnostics = protoDiags(ctx, diags)
	return resp, nil
}

// newStateWithoutWriteOnly is a new state from Create, Update or Read with
// its write-only attributes nulled, as the framework returns it.
func (c *compiled) newStateWithoutWriteOnly(v tftypes.Value, diags *diag.Diagnostics) tftypes.Value {
	out, err := c.nullifyWriteOnly(v)
	if err != nil {
		diags.AddError("Error Modifying State", "There was an unexpected error modifying the NewState. This is always a problem with the provider. "+
			"Please report the following to the provider developer:\n\n"+err.Error())
		return v
	}
	return out
}
