// Package listfilter is the filters of the list data sources and list
// resources: optional list-of-string filter attributes, their values, and
// the computed list of the ids (or slugs) found.
//
// StringList and Values serve four list data sources
// (service_connected_accounts, service_mcp_servers,
// service_trigger_instances, service_trigger_types), ComputedStringList
// six; ForListResource gives a list resource its data source's filters.
package listfilter

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// StringList is an optional list-of-string filter attribute: when set it
// has at least one element, no duplicates, and every element passes elems.
func StringList(desc string, elems ...validator.String) schema.ListAttribute {
	return schema.ListAttribute{
		MarkdownDescription: desc,
		Optional:            true,
		ElementType:         types.StringType,
		Validators: []validator.List{
			listvalidator.SizeAtLeast(1),
			listvalidator.UniqueValues(),
			listvalidator.ValueStringsAre(elems...),
		},
	}
}

// ComputedStringList is a computed list of strings, e.g. the `ids` or
// `slugs` of what a list data source found.
func ComputedStringList(desc string) schema.ListAttribute {
	return schema.ListAttribute{
		MarkdownDescription: desc,
		Computed:            true,
		ElementType:         types.StringType,
	}
}

// Values returns the elements of a StringList value, or nil when it is
// null or unknown (no filter). Conversion problems go to diags.
func Values(ctx context.Context, l types.List, diags *diag.Diagnostics) []string {
	if l.IsNull() || l.IsUnknown() {
		return nil
	}
	var out []string
	diags.Append(l.ElementsAs(ctx, &out, false)...)
	return out
}

// ForListResource returns the named attributes of a data source's schema as
// optional attributes of a list resource's config, with the same
// descriptions and validators, so that the list resource filters as the data
// source does.
func ForListResource(ds schema.Schema, names ...string) (map[string]listschema.Attribute, error) {
	out := make(map[string]listschema.Attribute, len(names))
	for _, name := range names {
		switch a := ds.Attributes[name].(type) {
		case schema.StringAttribute:
			out[name] = listschema.StringAttribute{MarkdownDescription: a.MarkdownDescription, Optional: true, Validators: a.Validators}
		case schema.BoolAttribute:
			out[name] = listschema.BoolAttribute{MarkdownDescription: a.MarkdownDescription, Optional: true, Validators: a.Validators}
		case schema.ListAttribute:
			out[name] = listschema.ListAttribute{MarkdownDescription: a.MarkdownDescription, Optional: true,
				ElementType: a.ElementType, Validators: a.Validators}
		default:
			return nil, fmt.Errorf("filter %q: the data source has no string, bool or list attribute of that name (%T)", name, a)
		}
	}
	return out, nil
}
