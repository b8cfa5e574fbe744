package provider

import (
	"context"
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// authConfigNullObject returns the auth config schema, its object type and
// a value map with every attribute null.
func authConfigNullObject(ctx context.Context) (resource.SchemaResponse, tftypes.Object, map[string]tftypes.Value) {
	var sr resource.SchemaResponse
	NewAuthConfigResource().Schema(ctx, resource.SchemaRequest{}, &sr)
	typ := sr.Schema.Type().TerraformType(ctx).(tftypes.Object)
	vals := map[string]tftypes.Value{}
	for name, at := range typ.AttributeTypes {
		vals[name] = tftypes.NewValue(at, nil)
	}
	return sr, typ, vals
}

func TestGetAttributes(t *testing.T) {
	ctx := context.Background()
	sr, typ, vals := authConfigNullObject(ctx)
	vals["toolkit"] = tftypes.NewValue(tftypes.String, "github")
	vals["enabled"] = tftypes.NewValue(tftypes.Bool, false)
	vals["name"] = tftypes.NewValue(tftypes.String, "not read")
	plan := tfsdk.Plan{Schema: sr.Schema, Raw: tftypes.NewValue(typ, vals)}

	var m authConfigResourceModel
	if d := getAttributes(ctx, plan, &m, "toolkit", "enabled"); d.HasError() {
		t.Fatal(d)
	}
	if m.Toolkit.ValueString() != "github" || m.Enabled.IsNull() || m.Enabled.ValueBool() {
		t.Errorf("got toolkit %s, enabled %s", m.Toolkit, m.Enabled)
	}
	if !m.Name.IsNull() {
		t.Errorf("name was not asked for but is %s", m.Name)
	}
	if d := getAttributes(ctx, plan, &m, "no_such_attribute"); !d.HasError() {
		t.Error("want an error for an attribute the model does not have")
	}
}

// getAttributes reads the object once; its values and diagnostics are those
// of GetAttribute, attribute by attribute.
func TestGetAttributesMatchesGetAttribute(t *testing.T) {
	ctx := context.Background()
	sr, typ, vals := authConfigNullObject(ctx)
	vals["toolkit"] = tftypes.NewValue(tftypes.String, "github")
	vals["enabled"] = tftypes.NewValue(tftypes.Bool, tftypes.UnknownValue)
	vals["scopes"] = tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{tftypes.NewValue(tftypes.String, "repo")})
	tac := typ.AttributeTypes["tool_access_config"].(tftypes.Object)
	vals["tool_access_config"] = tftypes.NewValue(tac, map[string]tftypes.Value{
		"tools_for_connected_account_creation": tftypes.NewValue(tac.AttributeTypes["tools_for_connected_account_creation"], nil),
		"tools_available_for_execution":        tftypes.NewValue(tac.AttributeTypes["tools_available_for_execution"], tftypes.UnknownValue),
	})
	config := tfsdk.Config{Schema: sr.Schema, Raw: tftypes.NewValue(typ, vals)}
	names := []string{"toolkit", "enabled", "scopes", "tool_access_config", "credentials", "name"}

	var got, want authConfigResourceModel
	if d := getAttributes(ctx, config, &got, names...); d.HasError() {
		t.Fatal(d)
	}
	if _, ok := getAttributesOnce(ctx, config, &got, names); !ok {
		t.Fatal("getAttributes did not read the object once")
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
			t.Errorf("%s: getAttributes gave %v, GetAttribute %v", name, g, w)
		}
	}
}
