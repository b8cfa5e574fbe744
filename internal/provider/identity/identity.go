// Package identity is the resource identity of the provider's resources and
// the id an import names.
//
// Every resource's identity is its id: the same value `terraform import`
// takes, so `import { identity = { id = "ac_..." } }` and
// `import { id = "ac_..." }` name the same object. The object's project is
// the provider's (its API key), not part of the identity, as the id is
// unique across projects.
package identity

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/integration-service/terraform-provider-service/internal/provider/codec"
)

// model is the identity data of every resource.
type model struct {
	ID types.String `tfsdk:"id"`
}

// Schema returns the identity schema of a resource whose objects are named
// by an id such as example.
func Schema(noun, example string) identityschema.Schema {
	return identityschema.Schema{
		Attributes: map[string]identityschema.Attribute{
			"id": identityschema.StringAttribute{
				RequiredForImport: true,
				Description:       "The id of the " + noun + ", e.g. `" + example + "`: the same value `terraform import` takes.",
			},
		},
	}
}

// Set sets the identity to id. CLIs without resource identity
// (Terraform and OpenTofu before 1.12) send none: ident is then nil and
// nothing happens. An empty id (a create that failed before the object
// existed) leaves the identity unset.
func Set(ctx context.Context, ident *tfsdk.ResourceIdentity, id string, diags *diag.Diagnostics) {
	if ident == nil || id == "" {
		return
	}
	diags.Append(codec.Set(ctx, ident, model{ID: types.StringValue(id)})...)
}

// FromState sets the identity from the id in state, once a Create or
// Update has written it: deferred at the start of both, so that every path
// that saves state (including a partial create that saves the object before
// failing) also sets the identity.
func FromState(ctx context.Context, state *tfsdk.State, ident *tfsdk.ResourceIdentity, diags *diag.Diagnostics) {
	if ident == nil || state == nil || state.Raw.IsNull() {
		return
	}
	var id types.String
	if d := state.GetAttribute(ctx, path.Root("id"), &id); d.HasError() {
		diags.Append(d...)
		return
	}
	Set(ctx, ident, id.ValueString(), diags)
}

// FromPriorState sets the identity from the prior state's id at the
// start of a Read, before anything else: a state written before identity
// existed, or an object deleted outside Terraform (the Read then removes
// it), still ends the Read with an identity, as the framework requires.
func FromPriorState(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	FromState(ctx, &req.State, resp.Identity, &resp.Diagnostics)
}

// ImportID returns the id an import names: `terraform import ID` and
// `import { id = ... }` give it as req.ID; `import { identity = { id = ...
// } }` gives an empty req.ID and the identity. Surrounding white space is
// dropped.
func ImportID(ctx context.Context, req resource.ImportStateRequest, diags *diag.Diagnostics) string {
	if req.ID != "" || req.Identity == nil || req.Identity.Raw.IsNull() {
		return strings.TrimSpace(req.ID)
	}
	var ident model
	if d := codec.Get(ctx, req.Identity, &ident); d.HasError() {
		diags.Append(d...)
		return ""
	}
	return strings.TrimSpace(ident.ID.ValueString())
}
