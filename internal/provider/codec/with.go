package codec

// Hot-path writes of several top-level attributes without the framework's
// per-attribute path walks.
//
// tfsdk.Plan and State SetAttribute find the attribute by walking the schema
// along the path, and each step copies the schema's map of top-level
// attributes (about twenty in service_auth_config): a CPU profile of a
// 100-resource apply put the three Plan.SetAttribute calls of the auth
// config's ModifyPlan at 7% of the provider's CPU. Replace replaces several
// attributes by rebuilding the object once. (Reads go through GetAttributes
// and Get, which read the object once.)

import (
	"context"
	"fmt"
	"reflect"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Types is what With knows of a resource's schema: the type name, for
// diagnostics, and the framework types of the top-level attributes. Compute
// it once per resource type (TypesOf, in a sync.OnceValue).
type Types struct {
	typeName string
	attrs    map[string]attr.Type
}

// TypesOf returns the Types of the resource typeName whose schema is s.
func TypesOf(typeName string, s schema.Schema) Types {
	out := make(map[string]attr.Type, len(s.Attributes))
	for name, a := range s.Attributes {
		out[name] = a.GetType()
	}
	return Types{typeName: typeName, attrs: out}
}

// Replace replaces the given top-level attributes of *raw (the Raw of a
// plan or state of the resource t describes: a known, non-null object, or a
// null one, which then starts with every attribute null) at once; *raw stays
// as it was when a diagnostic is returned.
func Replace(ctx context.Context, t Types, raw *tftypes.Value, set map[string]attr.Value) diag.Diagnostics {
	v, diags := with(ctx, t, *raw, set)
	if !diags.HasError() {
		*raw = v
	}
	return diags
}

// with returns obj with the given top-level attributes replaced.
func with(ctx context.Context, t Types, obj tftypes.Value, set map[string]attr.Value) (tftypes.Value, diag.Diagnostics) {
	var diags diag.Diagnostics
	ot, ok := obj.Type().(tftypes.Object)
	if !ok {
		diags.AddError("Provider bug", fmt.Sprintf("%s value of type %s is not an object. Please report this to the provider developers.",
			t.typeName, obj.Type()))
		return obj, diags
	}
	vals := make(map[string]tftypes.Value, len(ot.AttributeTypes))
	if obj.IsNull() {
		for name, t := range ot.AttributeTypes {
			vals[name] = tftypes.NewValue(t, nil)
		}
	} else if err := obj.As(&vals); err != nil {
		diags.AddError("Provider bug", fmt.Sprintf("Reading %s attributes failed (%v). Please report this to the provider developers.",
			t.typeName, err))
		return obj, diags
	}
	for name, v := range set {
		if want, known := t.attrs[name]; !known || v == nil || !want.Equal(v.Type(ctx)) {
			// Also an untyped zero value (types.List{}), which cannot be converted.
			diags.AddError("Provider bug", fmt.Sprintf("%s value for attribute %q does not fit the schema. Please report this to the "+
				"provider developers.", t.typeName, name))
			return obj, diags
		}
		tv, err := v.ToTerraformValue(ctx)
		if at, known := ot.AttributeTypes[name]; err != nil || !known || !tv.Type().Equal(at) {
			diags.AddError("Provider bug", fmt.Sprintf("%s value for attribute %q does not fit the schema. Please report this to the "+
				"provider developers.", t.typeName, name))
			return obj, diags
		}
		vals[name] = tv
	}
	return tftypes.NewValue(ot, vals), diags
}

// Equal reports whether every attribute of the models a and b (structs of
// attr.Value fields) is equal. A field that is not an attr.Value, or an
// untyped zero value (types.List{}), is never equal.
func Equal[M any](a, b M) bool {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	for i := range va.NumField() {
		x, okx := va.Field(i).Interface().(attr.Value)
		y, oky := vb.Field(i).Interface().(attr.Value)
		if !okx || !oky || !x.Equal(y) {
			return false
		}
	}
	return true
}
