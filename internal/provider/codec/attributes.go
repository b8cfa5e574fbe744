package codec

import (
	"context"
	"fmt"
	"reflect"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

// AttributeGetter is tfsdk.Config, tfsdk.Plan or tfsdk.State.
type AttributeGetter interface {
	GetAttribute(ctx context.Context, p path.Path, target any) diag.Diagnostics
}

// GetAttributes decodes only the named top-level attributes of src into the
// fields of *model tagged `tfsdk:"<name>"`; the other fields are left as
// they are (null when model is fresh). Use it on hot paths that read a few
// attributes of a large schema, such as ModifyPlan, which runs for every
// resource in every plan: src.Get converts every attribute through
// reflection, about ten times the cost of reading four attributes this way.
// The caller must list every attribute it (and the helpers it passes model
// to) reads. An unknown name is a programming error, reported as one.
//
// It reads the object once and converts only the named attributes (see
// getAttributesOnce); GetAttribute, its fallback, walks the schema for each
// name, copying the map of top-level attributes at every step, which a CPU
// profile of a 100-resource apply put at several percent of the provider.
func GetAttributes(ctx context.Context, src AttributeGetter, model any, names ...string) diag.Diagnostics {
	if diags, ok := getAttributesOnce(ctx, src, model, names); ok {
		return diags
	}
	var diags diag.Diagnostics
	v := reflect.ValueOf(model).Elem()
	index := layoutOf(v.Type()).index
	for _, name := range names {
		i, ok := index[name]
		if !ok {
			diags.AddError("Provider bug", fmt.Sprintf("%s has no attribute %q. Please report this to the provider developers.", v.Type().Name(), name))
			continue
		}
		diags.Append(src.GetAttribute(ctx, path.Root(name), v.Field(i).Addr().Interface())...)
	}
	return diags
}

// getAttributesOnce is GetAttributes from the object value of src (a
// tfsdk.State, Plan or Config) read once (see modelData.decodeInto). ok is
// false, with nothing written, when it cannot: the caller then uses
// GetAttribute, whose diagnostics name the problem.
func getAttributesOnce(ctx context.Context, src any, model any, names []string) (diag.Diagnostics, bool) {
	d, ok := modelDataOf(src)
	rv := reflect.ValueOf(model)
	if !ok || rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Elem().Kind() != reflect.Struct {
		return nil, false
	}
	return d.decodeInto(ctx, rv.Elem(), layoutOf(rv.Elem().Type()), slices.Values(names))
}
