package codec

// Conversions between framework values and Go values, shared by the
// provider's types.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Known reports a value that is neither null nor unknown.
func Known(v attr.Value) bool { return !v.IsNull() && !v.IsUnknown() }

// StringOrNull is s as a string value, null when s is empty.
func StringOrNull(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

// NonNil returns xs, or an empty slice for nil (which JSON encodes as []
// and types.ListValueFrom turns into an empty list, not a null one).
func NonNil[T any](xs []T) []T {
	if xs == nil {
		return []T{}
	}
	return xs
}

// ListStrings converts a known list of strings (an empty one to an empty,
// non-nil slice); null or unknown give nil.
func ListStrings(ctx context.Context, l types.List) ([]string, diag.Diagnostics) {
	if l.IsNull() || l.IsUnknown() {
		return nil, nil
	}
	out := []string{}
	diags := l.ElementsAs(ctx, &out, false)
	return out, diags
}

// MapAny converts a known map of strings into a map of any (a JSON object
// of strings); null or unknown give nil.
func MapAny(ctx context.Context, m types.Map) (map[string]any, diag.Diagnostics) {
	if m.IsNull() || m.IsUnknown() {
		return nil, nil
	}
	var raw map[string]string
	diags := m.ElementsAs(ctx, &raw, false)
	out := make(map[string]any, len(raw))
	for k, v := range raw {
		out[k] = v
	}
	return out, diags
}

// StringElements is a list or set of strings.
type StringElements interface {
	attr.Value
	Elements() []attr.Value
}

// KnownStrings returns the elements of a list or set of strings, and
// whether the collection and all its elements are known (a null one is,
// and empty).
func KnownStrings(v StringElements) ([]string, bool) {
	if v.IsUnknown() {
		return nil, false
	}
	out := make([]string, 0, len(v.Elements()))
	for _, e := range v.Elements() {
		s, ok := e.(types.String)
		if !ok || s.IsUnknown() {
			return nil, false
		}
		if !s.IsNull() {
			out = append(out, s.ValueString())
		}
	}
	return out, true
}
