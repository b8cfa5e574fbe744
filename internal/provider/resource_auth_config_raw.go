package provider

// Hot-path writes of service_auth_config values without the framework's
// per-attribute path walks.
//
// tfsdk.Plan and State SetAttribute find the attribute by walking the schema
// along the path, and each step copies the schema's map of top-level
// attributes (about twenty here): a CPU profile of a 100-resource apply put
// the three Plan.SetAttribute calls of ModifyPlan at 7% of the provider's
// CPU. acWith replaces several attributes by rebuilding the object once.
// (Reads go through getAttributes and getModel, which read the object once.)

import (
	"context"
	"fmt"
	"reflect"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// acAttrTypes are the framework types of the top-level attributes.
var acAttrTypes = sync.OnceValue(func() map[string]attr.Type {
	var resp resource.SchemaResponse
	(&authConfigResource{}).Schema(context.Background(), resource.SchemaRequest{}, &resp)
	out := make(map[string]attr.Type, len(resp.Schema.Attributes))
	for name, a := range resp.Schema.Attributes {
		out[name] = a.GetType()
	}
	return out
})

// acWith returns obj (a known, non-null object of this resource, or a null
// one, which then starts with every attribute null) with the given
// top-level attributes replaced.
func acWith(ctx context.Context, obj tftypes.Value, set map[string]attr.Value) (tftypes.Value, diag.Diagnostics) {
	var diags diag.Diagnostics
	ot, ok := obj.Type().(tftypes.Object)
	if !ok {
		diags.AddError("Provider bug", fmt.Sprintf("%s value of type %s is not an object. Please report this to the provider developers.",
			authConfigResourceType, obj.Type()))
		return obj, diags
	}
	vals := make(map[string]tftypes.Value, len(ot.AttributeTypes))
	if obj.IsNull() {
		for name, t := range ot.AttributeTypes {
			vals[name] = tftypes.NewValue(t, nil)
		}
	} else if err := obj.As(&vals); err != nil {
		diags.AddError("Provider bug", fmt.Sprintf("Reading %s attributes failed (%v). Please report this to the provider developers.",
			authConfigResourceType, err))
		return obj, diags
	}
	for name, v := range set {
		if want, known := acAttrTypes()[name]; !known || v == nil || !want.Equal(v.Type(ctx)) {
			// Also an untyped zero value (types.List{}), which cannot be converted.
			diags.AddError("Provider bug", fmt.Sprintf("%s value for attribute %q does not fit the schema. Please report this to the "+
				"provider developers.", authConfigResourceType, name))
			return obj, diags
		}
		tv, err := v.ToTerraformValue(ctx)
		if t, known := ot.AttributeTypes[name]; err != nil || !known || !tv.Type().Equal(t) {
			diags.AddError("Provider bug", fmt.Sprintf("%s value for attribute %q does not fit the schema. Please report this to the "+
				"provider developers.", authConfigResourceType, name))
			return obj, diags
		}
		vals[name] = tv
	}
	return tftypes.NewValue(ot, vals), diags
}

// acModelsEqual reports whether every attribute of a and b is equal.
func acModelsEqual(a, b authConfigResourceModel) bool {
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
