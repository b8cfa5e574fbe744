package provider

import (
	"context"
	"fmt"
	"reflect"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

// attributeGetter is tfsdk.Config, tfsdk.Plan or tfsdk.State.
type attributeGetter interface {
	GetAttribute(ctx context.Context, p path.Path, target any) diag.Diagnostics
}

// getAttributes decodes only the named top-level attributes of src into the
// fields of *model tagged `tfsdk:"<name>"`; the other fields are left as
// they are (null when model is fresh). Use it on hot paths that read a few
// attributes of a large schema, such as ModifyPlan, which runs for every
// resource in every plan: src.Get converts every attribute through
// reflection, about ten times the cost of reading four attributes this way.
// The caller must list every attribute it (and the helpers it passes model
// to) reads. An unknown name is a programming error, reported as one.
func getAttributes(ctx context.Context, src attributeGetter, model any, names ...string) diag.Diagnostics {
	var diags diag.Diagnostics
	v := reflect.ValueOf(model).Elem()
	t := v.Type()
	for _, name := range names {
		i := fieldIndexByTag(t, name)
		if i < 0 {
			diags.AddError("Provider bug", fmt.Sprintf("%s has no attribute %q. Please report this to the provider developers.", t.Name(), name))
			continue
		}
		diags.Append(src.GetAttribute(ctx, path.Root(name), v.Field(i).Addr().Interface())...)
	}
	return diags
}

func fieldIndexByTag(t reflect.Type, name string) int {
	for i := range t.NumField() {
		if t.Field(i).Tag.Get("tfsdk") == name {
			return i
		}
	}
	return -1
}
