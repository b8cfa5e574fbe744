package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// acTestState returns an auth config state: every attribute null except the
// given ones.
func acTestState(t *testing.T, set map[string]attr.Value) tfsdk.State {
	t.Helper()
	var resp resource.SchemaResponse
	(&authConfigResource{}).Schema(context.Background(), resource.SchemaRequest{}, &resp)
	null := tftypes.NewValue(resp.Schema.Type().TerraformType(context.Background()), nil)
	v, diags := acWith(context.Background(), null, set)
	if diags.HasError() {
		t.Fatalf("acWith: %v", diags)
	}
	return tfsdk.State{Schema: resp.Schema, Raw: v}
}

func TestAuthConfigRawWithReplacesAttributes(t *testing.T) {
	ctx := context.Background()
	state := acTestState(t, map[string]attr.Value{"id": types.StringValue("ac_1"), "enabled": types.BoolValue(true)})
	out, diags := acWith(ctx, state.Raw, map[string]attr.Value{
		"status": types.StringValue("ENABLED"),
		"scopes": types.ListValueMust(types.StringType, []attr.Value{types.StringValue("repo")}),
	})
	if diags.HasError() {
		t.Fatalf("acWith: %v", diags)
	}
	state.Raw = out
	var m authConfigResourceModel
	if diags := getModel(ctx, state, &m); diags.HasError() {
		t.Fatalf("getModel: %v", diags)
	}
	if m.ID.ValueString() != "ac_1" || !m.Enabled.ValueBool() || m.Status.ValueString() != "ENABLED" || !m.Toolkit.IsNull() ||
		len(m.Scopes.Elements()) != 1 {
		t.Fatalf("after acWith: id=%v enabled=%v status=%v toolkit=%v scopes=%v", m.ID, m.Enabled, m.Status, m.Toolkit, m.Scopes)
	}
	for name, v := range map[string]attr.Value{
		"status":            types.BoolValue(true), // wrong type
		"scopes":            types.List{},          // untyped zero value
		"no_such_attribute": types.StringValue("x"),
	} {
		if _, diags := acWith(ctx, state.Raw, map[string]attr.Value{name: v}); !diags.HasError() {
			t.Errorf("acWith of %s = %v: want an error", name, v)
		}
	}
}

func TestAuthConfigModelsEqual(t *testing.T) {
	// A model as Read has it: every attribute typed (null or not), as decoded from a state.
	state := acTestState(t, map[string]attr.Value{
		"id":     types.StringValue("ac_1"),
		"scopes": types.ListValueMust(types.StringType, []attr.Value{types.StringValue("repo")}),
	})
	var a authConfigResourceModel
	if diags := getModel(context.Background(), state, &a); diags.HasError() {
		t.Fatalf("getModel: %v", diags)
	}
	b := a
	if !acModelsEqual(a, b) {
		t.Fatal("equal models reported different")
	}
	b.Scopes = types.ListValueMust(types.StringType, []attr.Value{types.StringValue("user")})
	if acModelsEqual(a, b) {
		t.Fatal("models with different scopes reported equal")
	}
	b = a
	b.UpdatedAt = types.StringValue("2026-01-01T00:00:00Z")
	if acModelsEqual(a, b) {
		t.Fatal("models with different updated_at reported equal")
	}
	// An untyped (zero) collection is never taken as equal: Read then writes the state.
	if acModelsEqual(authConfigResourceModel{}, authConfigResourceModel{}) {
		t.Fatal("zero models reported equal")
	}
}
