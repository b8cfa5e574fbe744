package codec

import (
	"context"
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/integration-service/terraform-provider-service/internal/testutil"
)

// testSchema has one attribute of each kind the provider's models use.
func testSchema() schema.Schema {
	return schema.Schema{Attributes: map[string]schema.Attribute{
		"id":      schema.StringAttribute{Computed: true},
		"name":    schema.StringAttribute{Optional: true},
		"toolkit": schema.StringAttribute{Required: true},
		"enabled": schema.BoolAttribute{Optional: true},
		"count":   schema.Int64Attribute{Optional: true},
		"scopes":  schema.ListAttribute{ElementType: types.StringType, Optional: true},
		"labels":  schema.MapAttribute{ElementType: types.StringType, Optional: true},
		"config":  schema.StringAttribute{CustomType: jsontypes.NormalizedType{}, Optional: true},
		"access": schema.SingleNestedAttribute{Optional: true, Attributes: map[string]schema.Attribute{
			"create":  schema.ListAttribute{ElementType: types.StringType, Optional: true},
			"execute": schema.ListAttribute{ElementType: types.StringType, Optional: true},
		}},
	}}
}

type testModel struct {
	ID      types.String         `tfsdk:"id"`
	Name    types.String         `tfsdk:"name"`
	Toolkit types.String         `tfsdk:"toolkit"`
	Enabled types.Bool           `tfsdk:"enabled"`
	Count   types.Int64          `tfsdk:"count"`
	Scopes  types.List           `tfsdk:"scopes"`
	Labels  types.Map            `tfsdk:"labels"`
	Config  jsontypes.Normalized `tfsdk:"config"`
	Access  types.Object         `tfsdk:"access"`
}

// testObject returns the schema's object type and a value map with every
// attribute null.
func testObject(ctx context.Context) (schema.Schema, tftypes.Object, map[string]tftypes.Value) {
	s := testSchema()
	typ := s.Type().TerraformType(ctx).(tftypes.Object)
	vals := map[string]tftypes.Value{}
	for name, at := range typ.AttributeTypes {
		vals[name] = tftypes.NewValue(at, nil)
	}
	return s, typ, vals
}

// Get and Set give what the framework's Get and Set give, value and
// diagnostics, from and to every kind of source, with values set, null,
// unknown, mixed, and with a string that is not JSON (which
// jsontypes.Normalized rejects). The provider's TestModelCodecMatchesFramework
// checks the same for every resource's model.
func TestGetSetMatchFramework(t *testing.T) {
	ctx := context.Background()
	s := testSchema()
	typ := s.Type().TerraformType(ctx)
	null := tftypes.NewValue(typ, nil)
	if !Plain(reflect.TypeFor[testModel]()) {
		t.Fatal("testModel does not take the fast path")
	}
	for _, mode := range []string{"full", "null", "unknown", "mixed"} {
		for _, str := range []string{`{"a":1}`, "not json"} {
			raw := testutil.SampleValue(typ, mode, str)
			name := mode + "/" + str
			var want testModel
			wantDiags := tfsdk.Plan{Schema: s, Raw: raw}.Get(ctx, &want)
			for _, src := range []any{tfsdk.Plan{Schema: s, Raw: raw}, tfsdk.State{Schema: s, Raw: raw}, tfsdk.Config{Schema: s, Raw: raw},
				tfsdk.ResourceIdentity{Schema: s, Raw: raw}, tfsdk.EphemeralResultData{Schema: s, Raw: raw},
				&tfsdk.State{Schema: s, Raw: raw}, &tfsdk.ResourceIdentity{Schema: s, Raw: raw}} {
				var got testModel
				testutil.SameDiags(t, name+" get", wantDiags, Get(ctx, src, &got))
				if !wantDiags.HasError() && !reflect.DeepEqual(want, got) {
					t.Errorf("%s: Get from %T decoded\n%+v\nthe framework\n%+v", name, src, got, want)
				}
			}
			if wantDiags.HasError() {
				continue
			}
			ws := tfsdk.State{Schema: s, Raw: null}
			wantDiags = ws.Set(ctx, &want)
			for _, dst := range []any{&tfsdk.State{Schema: s, Raw: null}, &tfsdk.Plan{Schema: s, Raw: null},
				&tfsdk.ResourceIdentity{Schema: s, Raw: null}, &tfsdk.EphemeralResultData{Schema: s, Raw: null}} {
				testutil.SameDiags(t, name+" set", wantDiags, Set(ctx, dst, &want))
				got := reflect.ValueOf(dst).Elem().FieldByName("Raw").Interface().(tftypes.Value)
				if !ws.Raw.Equal(got) {
					t.Errorf("%s: Set to %T wrote\n%s\nthe framework\n%s", name, dst, got, ws.Raw)
				}
			}
		}
	}
	if d := Get(ctx, struct{}{}, &testModel{}); !d.HasError() {
		t.Error("Get from an unsupported source: want an error")
	}
	if d := Set(ctx, tfsdk.State{Schema: s, Raw: null}, &testModel{}); !d.HasError() {
		t.Error("Set to a State that is not a pointer: want an error")
	}
}

// A model that does not match the schema gets the framework's own error.
func TestMismatchFallsBack(t *testing.T) {
	ctx := context.Background()
	s := testSchema()
	raw := testutil.SampleValue(s.Type().TerraformType(ctx), "full", `{}`)
	var short struct {
		ID types.String `tfsdk:"id"`
	}
	want := tfsdk.State{Schema: s, Raw: raw}.Get(ctx, &short)
	got := Get(ctx, tfsdk.State{Schema: s, Raw: raw}, &short)
	if !want.HasError() {
		t.Fatal("the framework accepted a model without most attributes")
	}
	testutil.SameDiags(t, "get", want, got)
	st := tfsdk.State{Schema: s, Raw: raw}
	testutil.SameDiags(t, "set", st.Set(ctx, &short), Set(ctx, &st, &short))
}

func TestGetAttributes(t *testing.T) {
	ctx := context.Background()
	s, typ, vals := testObject(ctx)
	vals["toolkit"] = tftypes.NewValue(tftypes.String, "github")
	vals["enabled"] = tftypes.NewValue(tftypes.Bool, false)
	vals["name"] = tftypes.NewValue(tftypes.String, "not read")
	plan := tfsdk.Plan{Schema: s, Raw: tftypes.NewValue(typ, vals)}

	var m testModel
	if d := GetAttributes(ctx, plan, &m, "toolkit", "enabled"); d.HasError() {
		t.Fatal(d)
	}
	if m.Toolkit.ValueString() != "github" || m.Enabled.IsNull() || m.Enabled.ValueBool() {
		t.Errorf("got toolkit %s, enabled %s", m.Toolkit, m.Enabled)
	}
	if !m.Name.IsNull() {
		t.Errorf("name was not asked for but is %s", m.Name)
	}
	if d := GetAttributes(ctx, plan, &m, "no_such_attribute"); !d.HasError() {
		t.Error("want an error for an attribute the model does not have")
	}
}

// GetAttributes reads the object once; its values and diagnostics are
// those of GetAttribute, attribute by attribute.
func TestGetAttributesMatchesGetAttribute(t *testing.T) {
	ctx := context.Background()
	s, typ, vals := testObject(ctx)
	vals["toolkit"] = tftypes.NewValue(tftypes.String, "github")
	vals["enabled"] = tftypes.NewValue(tftypes.Bool, tftypes.UnknownValue)
	vals["scopes"] = tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{tftypes.NewValue(tftypes.String, "repo")})
	acc := typ.AttributeTypes["access"].(tftypes.Object)
	vals["access"] = tftypes.NewValue(acc, map[string]tftypes.Value{
		"create":  tftypes.NewValue(acc.AttributeTypes["create"], nil),
		"execute": tftypes.NewValue(acc.AttributeTypes["execute"], tftypes.UnknownValue),
	})
	config := tfsdk.Config{Schema: s, Raw: tftypes.NewValue(typ, vals)}
	names := []string{"toolkit", "enabled", "scopes", "access", "labels", "name"}

	var got, want testModel
	if d := GetAttributes(ctx, config, &got, names...); d.HasError() {
		t.Fatal(d)
	}
	if _, ok := getAttributesOnce(ctx, config, &got, names); !ok {
		t.Fatal("GetAttributes did not read the object once")
	}
	for _, name := range names {
		i := layoutOf(reflect.TypeOf(want)).index[name]
		if d := config.GetAttribute(ctx, path.Root(name), reflect.ValueOf(&want).Elem().Field(i).Addr().Interface()); d.HasError() {
			t.Fatal(d)
		}
	}
	for _, name := range names {
		i := layoutOf(reflect.TypeOf(want)).index[name]
		g, w := reflect.ValueOf(got).Field(i).Interface().(attr.Value), reflect.ValueOf(want).Field(i).Interface().(attr.Value)
		if !g.Equal(w) {
			t.Errorf("%s: GetAttributes gave %v, GetAttribute %v", name, g, w)
		}
	}
}

// testState returns a state of testSchema: every attribute null except the
// given ones.
func testState(t *testing.T, set map[string]attr.Value) tfsdk.State {
	t.Helper()
	s := testSchema()
	null := tftypes.NewValue(s.Type().TerraformType(context.Background()), nil)
	v, diags := with(context.Background(), TypesOf("test", s), null, set)
	if diags.HasError() {
		t.Fatalf("With: %v", diags)
	}
	return tfsdk.State{Schema: s, Raw: v}
}

func TestWithReplacesAttributes(t *testing.T) {
	ctx := context.Background()
	tt := TypesOf("test", testSchema())
	state := testState(t, map[string]attr.Value{"id": types.StringValue("ac_1"), "enabled": types.BoolValue(true)})
	diags := Replace(ctx, tt, &state.Raw, map[string]attr.Value{
		"name":   types.StringValue("ENABLED"),
		"scopes": types.ListValueMust(types.StringType, []attr.Value{types.StringValue("repo")}),
	})
	if diags.HasError() {
		t.Fatalf("With: %v", diags)
	}
	var m testModel
	if diags := Get(ctx, state, &m); diags.HasError() {
		t.Fatalf("Get: %v", diags)
	}
	if m.ID.ValueString() != "ac_1" || !m.Enabled.ValueBool() || m.Name.ValueString() != "ENABLED" || !m.Toolkit.IsNull() ||
		len(m.Scopes.Elements()) != 1 {
		t.Fatalf("after With: id=%v enabled=%v name=%v toolkit=%v scopes=%v", m.ID, m.Enabled, m.Name, m.Toolkit, m.Scopes)
	}
	for name, v := range map[string]attr.Value{
		"name":              types.BoolValue(true), // wrong type
		"scopes":            types.List{},          // untyped zero value
		"no_such_attribute": types.StringValue("x"),
	} {
		raw := state.Raw
		if diags := Replace(ctx, tt, &raw, map[string]attr.Value{name: v}); !diags.HasError() {
			t.Errorf("With of %s = %v: want an error", name, v)
		}
		if !raw.Equal(state.Raw) {
			t.Errorf("Replace of %s changed the object it refused: %v", name, raw)
		}
	}
}

func TestEqual(t *testing.T) {
	// A model as Read has it: every attribute typed (null or not), as decoded from a state.
	state := testState(t, map[string]attr.Value{
		"id":     types.StringValue("ac_1"),
		"scopes": types.ListValueMust(types.StringType, []attr.Value{types.StringValue("repo")}),
	})
	var a testModel
	if diags := Get(context.Background(), state, &a); diags.HasError() {
		t.Fatalf("Get: %v", diags)
	}
	b := a
	if !Equal(a, b) {
		t.Fatal("equal models reported different")
	}
	b.Scopes = types.ListValueMust(types.StringType, []attr.Value{types.StringValue("user")})
	if Equal(a, b) {
		t.Fatal("models with different scopes reported equal")
	}
	b = a
	b.Name = types.StringValue("2026-01-01T00:00:00Z")
	if Equal(a, b) {
		t.Fatal("models with different name reported equal")
	}
	// An untyped (zero) collection is never taken as equal: Read then writes the state.
	if Equal(testModel{}, testModel{}) {
		t.Fatal("zero models reported equal")
	}
}
