package provider

// Hot-path access to service_auth_config values without the framework's
// per-attribute path walks.
//
// tfsdk.Config/Plan/State GetAttribute and SetAttribute find the attribute
// by walking the schema along the path, and each step copies the schema's
// map of top-level attributes (about twenty here): a CPU profile of a
// 100-resource apply put the three Plan.SetAttribute calls of ModifyPlan
// alone at 7% of the provider's CPU. The helpers below read the object once
// and convert only the named attributes, and write planned or new-state
// values by rebuilding the object once.

import (
	"context"
	"fmt"
	"reflect"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
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

// acAttrNames are the names of the top-level attributes.
var acAttrNames = sync.OnceValue(func() []string {
	names := make([]string, 0, len(acAttrTypes()))
	for name := range acAttrTypes() {
		names = append(names, name)
	}
	return names
})

// acGetAll decodes every attribute of raw into *m (as Plan.Get or
// State.Get do, without their per-attribute reflection walk).
func acGetAll(ctx context.Context, raw tftypes.Value, m *authConfigResourceModel) diag.Diagnostics {
	return acGet(ctx, raw, m, acAttrNames()...)
}

// acObjectOf returns m as an object value of type typ (as State.Set does).
// Every field of m must hold a typed value (null or not), as after acGetAll.
func acObjectOf(ctx context.Context, typ tftypes.Type, m *authConfigResourceModel) (tftypes.Value, diag.Diagnostics) {
	rv := reflect.ValueOf(m).Elem()
	set := make(map[string]attr.Value, rv.NumField())
	for i := range rv.NumField() {
		if name := rv.Type().Field(i).Tag.Get("tfsdk"); name != "" {
			if v, ok := rv.Field(i).Interface().(attr.Value); ok {
				set[name] = v
			}
		}
	}
	if ot, ok := typ.(tftypes.Object); !ok || len(set) != len(ot.AttributeTypes) {
		var diags diag.Diagnostics
		diags.AddError("Provider bug", fmt.Sprintf("%s model has %d attributes, the schema type %s others. Please report this "+
			"to the provider developers.", authConfigResourceType, len(set), typ))
		return tftypes.NewValue(typ, nil), diags
	}
	return acWith(ctx, tftypes.NewValue(typ, nil), set)
}

// acSetState writes m as the whole state (as State.Set does); on an error
// the state is left as it was.
func acSetState(ctx context.Context, state *tfsdk.State, m *authConfigResourceModel, diags *diag.Diagnostics) {
	v, d := acObjectOf(ctx, state.Raw.Type(), m)
	diags.Append(d...)
	if !d.HasError() {
		state.Raw = v
	}
}

// acGet decodes the named top-level attributes of raw (a known, non-null
// configuration, plan or state object of this resource) into the fields of
// *m tagged with those names; other fields are left as they are. Like
// getAttributes, the caller lists every attribute it reads.
func acGet(ctx context.Context, raw tftypes.Value, m *authConfigResourceModel, names ...string) diag.Diagnostics {
	var diags diag.Diagnostics
	var vals map[string]tftypes.Value
	if err := raw.As(&vals); err != nil || vals == nil {
		diags.AddError("Provider bug", fmt.Sprintf("Reading %s attributes from a %s value failed (%v). Please report this to "+
			"the provider developers.", authConfigResourceType, raw.Type(), err))
		return diags
	}
	rv := reflect.ValueOf(m).Elem()
	attrTypes := acAttrTypes()
	for _, name := range names {
		i, t, v, ok := fieldIndexByTag(rv.Type(), name), attrTypes[name], vals[name], true
		if i < 0 || t == nil {
			ok = false
		}
		var val attr.Value
		if ok {
			var err error
			if val, err = t.ValueFromTerraform(ctx, v); err != nil || !reflect.TypeOf(val).AssignableTo(rv.Field(i).Type()) {
				ok = false
			}
		}
		if !ok {
			diags.AddError("Provider bug", fmt.Sprintf("%s has no readable attribute %q. Please report this to the provider developers.",
				authConfigResourceType, name))
			continue
		}
		rv.Field(i).Set(reflect.ValueOf(val))
	}
	return diags
}

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
