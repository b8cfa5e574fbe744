package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// acTestObject returns an auth config object value: every attribute null
// except the given ones.
func acTestObject(t *testing.T, set map[string]attr.Value) tftypes.Value {
	t.Helper()
	var resp resource.SchemaResponse
	(&authConfigResource{}).Schema(context.Background(), resource.SchemaRequest{}, &resp)
	null := tftypes.NewValue(resp.Schema.Type().TerraformType(context.Background()), nil)
	v, diags := acWith(context.Background(), null, set)
	if diags.HasError() {
		t.Fatalf("acWith: %v", diags)
	}
	return v
}

func TestAuthConfigRawGetReadsOnlyNamedAttributes(t *testing.T) {
	ctx := context.Background()
	scopes := types.ListValueMust(types.StringType, []attr.Value{types.StringValue("repo")})
	raw := acTestObject(t, map[string]attr.Value{
		"toolkit": types.StringValue("github"), "name": types.StringValue("n"), "scopes": scopes,
		"enabled": types.BoolUnknown(),
	})
	m := authConfigResourceModel{Name: types.StringValue("kept")}
	if diags := acGet(ctx, raw, &m, "toolkit", "scopes", "enabled", "type"); diags.HasError() {
		t.Fatalf("acGet: %v", diags)
	}
	if m.Toolkit.ValueString() != "github" || !m.Scopes.Equal(scopes) || !m.Enabled.IsUnknown() || !m.Type.IsNull() {
		t.Fatalf("acGet read toolkit=%v scopes=%v enabled=%v type=%v", m.Toolkit, m.Scopes, m.Enabled, m.Type)
	}
	if m.Name.ValueString() != "kept" {
		t.Fatalf("acGet changed an attribute it was not asked for: name=%v", m.Name)
	}
	if diags := acGet(ctx, raw, &m, "no_such_attribute"); !diags.HasError() {
		t.Fatal("acGet of an unknown attribute name: want an error")
	}
}

func TestAuthConfigRawWithReplacesAttributes(t *testing.T) {
	ctx := context.Background()
	raw := acTestObject(t, map[string]attr.Value{"id": types.StringValue("ac_1"), "enabled": types.BoolValue(true)})
	out, diags := acWith(ctx, raw, map[string]attr.Value{"status": types.StringValue("ENABLED")})
	if diags.HasError() {
		t.Fatalf("acWith: %v", diags)
	}
	var m authConfigResourceModel
	if diags := acGet(ctx, out, &m, "id", "enabled", "status", "toolkit"); diags.HasError() {
		t.Fatalf("acGet: %v", diags)
	}
	if m.ID.ValueString() != "ac_1" || !m.Enabled.ValueBool() || m.Status.ValueString() != "ENABLED" || !m.Toolkit.IsNull() {
		t.Fatalf("after acWith: id=%v enabled=%v status=%v toolkit=%v", m.ID, m.Enabled, m.Status, m.Toolkit)
	}
	if _, diags := acWith(ctx, raw, map[string]attr.Value{"status": types.BoolValue(true)}); !diags.HasError() {
		t.Fatal("acWith with a value of the wrong type: want an error")
	}
	if _, diags := acWith(ctx, raw, map[string]attr.Value{"no_such_attribute": types.StringValue("x")}); !diags.HasError() {
		t.Fatal("acWith of an unknown attribute: want an error")
	}
}

func TestAuthConfigModelsEqual(t *testing.T) {
	// A model as Read has it: every attribute typed (null or not), as decoded from a state.
	raw := acTestObject(t, map[string]attr.Value{
		"id":     types.StringValue("ac_1"),
		"scopes": types.ListValueMust(types.StringType, []attr.Value{types.StringValue("repo")}),
	})
	var a authConfigResourceModel
	names := make([]string, 0, len(acAttrTypes()))
	for name := range acAttrTypes() {
		names = append(names, name)
	}
	if diags := acGet(context.Background(), raw, &a, names...); diags.HasError() {
		t.Fatalf("acGet: %v", diags)
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

func TestAuthConfigRawObjectRoundTrip(t *testing.T) {
	ctx := context.Background()
	raw := acTestObject(t, map[string]attr.Value{
		"id": types.StringValue("ac_1"), "toolkit": types.StringValue("github"), "enabled": types.BoolValue(false),
		"scopes": types.ListValueMust(types.StringType, []attr.Value{types.StringValue("repo")}),
	})
	var m authConfigResourceModel
	if diags := acGetAll(ctx, raw, &m); diags.HasError() {
		t.Fatalf("acGetAll: %v", diags)
	}
	out, diags := acObjectOf(ctx, raw.Type(), &m)
	if diags.HasError() {
		t.Fatalf("acObjectOf: %v", diags)
	}
	if !out.Equal(raw) {
		t.Fatalf("round trip changed the object:\n got %v\nwant %v", out, raw)
	}
	// A model with an attribute never decoded (an untyped zero value) is refused, not written.
	m.Scopes = types.List{}
	if _, diags := acObjectOf(ctx, raw.Type(), &m); !diags.HasError() {
		t.Fatal("acObjectOf of a model with an untyped attribute: want an error")
	}
}
