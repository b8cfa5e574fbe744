// Package jsonschema checks a JSON document against the small JSON Schema
// subset the service's trigger types use, naming the offending field.
package jsonschema

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/integration-service/terraform-provider-service/internal/provider/jsonvalue"
)

// Violation is one failure of a document against a JSON Schema. Field
// is the dotted path of the offending value ("branch", "filters[0].name"; ""
// for the document itself).
type Violation struct {
	Field   string
	Message string
}

func (v Violation) Error() string {
	if v.Field == "" {
		return v.Message
	}
	return fmt.Sprintf("field %q: %s", v.Field, v.Message)
}

// Validate checks doc (decoded with encoding/json into any) against
// a small JSON-Schema subset: type (string or list), properties, required,
// additionalProperties (false or a schema), enum, const, minimum, maximum,
// exclusiveMinimum, exclusiveMaximum, minLength, maxLength, pattern, items,
// minItems, maxItems, and allOf. Keywords outside the subset (anyOf, oneOf,
// $ref, format, ...) are ignored, so the check never refuses what the service
// might accept for those. Violations are sorted by field.
func Validate(schema map[string]any, doc any) []Violation {
	var out []Violation
	validateNode(schema, doc, "", &out)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Field < out[j].Field })
	return out
}

func validateNode(schema map[string]any, v any, field string, out *[]Violation) {
	if schema == nil {
		return
	}
	add := func(format string, args ...any) {
		*out = append(*out, Violation{Field: field, Message: fmt.Sprintf(format, args...)})
	}

	if sub, ok := schema["allOf"].([]any); ok {
		for _, s := range sub {
			if sm, ok := s.(map[string]any); ok {
				validateNode(sm, v, field, out)
			}
		}
	}

	if t, ok := schema["type"]; ok {
		types := schemaTypes(t)
		if len(types) > 0 && !matchesAnyType(v, types) {
			add("must be %s, got %s", joinTypes(types), jsonvalue.TypeName(v))
			return
		}
	}

	if enum, ok := schema["enum"].([]any); ok && len(enum) > 0 {
		found := false
		for _, e := range enum {
			if jsonEqual(e, v) {
				found = true
				break
			}
		}
		if !found {
			add("must be one of %s, got %s", jsonList(enum), jsonvalue.Text(v))
		}
	}
	if c, ok := schema["const"]; ok && !jsonEqual(c, v) {
		add("must be %s, got %s", jsonvalue.Text(c), jsonvalue.Text(v))
	}

	switch val := v.(type) {
	case float64:
		validateNumber(schema, val, add)
	case json.Number:
		if f, err := val.Float64(); err == nil {
			validateNumber(schema, f, add)
		}
	case string:
		n := len([]rune(val))
		if m, ok := schemaNumber(schema["minLength"]); ok && float64(n) < m {
			add("must be at least %s characters long", formatNumber(m))
		}
		if m, ok := schemaNumber(schema["maxLength"]); ok && float64(n) > m {
			add("must be at most %s characters long", formatNumber(m))
		}
		if p, ok := schema["pattern"].(string); ok {
			if re, err := regexp.Compile(p); err == nil && !re.MatchString(val) {
				add("must match the pattern %q", p)
			}
		}
	case []any:
		if m, ok := schemaNumber(schema["minItems"]); ok && float64(len(val)) < m {
			add("must have at least %s items", formatNumber(m))
		}
		if m, ok := schemaNumber(schema["maxItems"]); ok && float64(len(val)) > m {
			add("must have at most %s items", formatNumber(m))
		}
		if items, ok := schema["items"].(map[string]any); ok {
			for i, item := range val {
				validateNode(items, item, fmt.Sprintf("%s[%d]", field, i), out)
			}
		}
	case map[string]any:
		props, _ := schema["properties"].(map[string]any)
		if req, ok := schema["required"].([]any); ok {
			for _, r := range req {
				name, ok := r.(string)
				if !ok {
					continue
				}
				if _, present := val[name]; !present {
					*out = append(*out, Violation{Field: joinField(field, name), Message: "is required"})
				}
			}
		}
		for _, k := range slices.Sorted(maps.Keys(val)) {
			if ps, ok := props[k].(map[string]any); ok {
				validateNode(ps, val[k], joinField(field, k), out)
				continue
			}
			if _, known := props[k]; known {
				continue
			}
			switch ap := schema["additionalProperties"].(type) {
			case bool:
				if !ap {
					allowed := slices.Sorted(maps.Keys(props))
					*out = append(*out, Violation{Field: joinField(field, k),
						Message: "is not an allowed property (allowed: " + joinOrNone(allowed) + ")"})
				}
			case map[string]any:
				validateNode(ap, val[k], joinField(field, k), out)
			}
		}
	}
}

func validateNumber(schema map[string]any, f float64, add func(string, ...any)) {
	if m, ok := schemaNumber(schema["minimum"]); ok && f < m {
		add("must be at least %s, got %s", formatNumber(m), formatNumber(f))
	}
	if m, ok := schemaNumber(schema["maximum"]); ok && f > m {
		add("must be at most %s, got %s", formatNumber(m), formatNumber(f))
	}
	if m, ok := schemaNumber(schema["exclusiveMinimum"]); ok && f <= m {
		add("must be greater than %s, got %s", formatNumber(m), formatNumber(f))
	}
	if m, ok := schemaNumber(schema["exclusiveMaximum"]); ok && f >= m {
		add("must be less than %s, got %s", formatNumber(m), formatNumber(f))
	}
}

func joinField(parent, name string) string {
	if name == "" {
		name = "<empty name>" // a key "" would otherwise read as the document itself
	}
	if parent == "" {
		return name
	}
	return parent + "." + name
}

func schemaTypes(t any) []string {
	switch tv := t.(type) {
	case string:
		return []string{tv}
	case []any:
		out := make([]string, 0, len(tv))
		for _, x := range tv {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

func matchesAnyType(v any, types []string) bool {
	for _, t := range types {
		if matchesType(v, t) {
			return true
		}
	}
	return false
}

func matchesType(v any, t string) bool {
	switch t {
	case "string":
		_, ok := v.(string)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "null":
		return v == nil
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	case "number":
		_, ok := jsonvalue.ToFloat(v)
		return ok
	case "integer":
		f, ok := jsonvalue.ToFloat(v)
		return ok && f == math.Trunc(f) && !math.IsInf(f, 0)
	}
	return true // unknown type names are not enforced
}

func schemaNumber(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	}
	return 0, false
}

func formatNumber(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func joinTypes(types []string) string {
	named := make([]string, len(types))
	for i, t := range types {
		switch t {
		case "object", "array", "integer":
			named[i] = "an " + t
		case "null":
			named[i] = "null"
		default:
			named[i] = "a " + t
		}
	}
	return strings.Join(named, " or ")
}

func jsonEqual(a, b any) bool {
	if fa, ok := jsonvalue.ToFloat(a); ok {
		fb, ok := jsonvalue.ToFloat(b)
		return ok && fa == fb
	}
	return jsonvalue.Text(a) == jsonvalue.Text(b)
}

func jsonList(vs []any) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = jsonvalue.Text(v)
	}
	return strings.Join(parts, ", ")
}

// CheckTriggerConfig validates a trigger_config JSON document against a
// trigger type's config schema and returns attribute errors at attr, one per
// violation, each naming the offending field. An empty document ("") is
// treated as {}. A nil schema accepts anything. triggerSlug and version
// appear in the detail so the user sees which schema applied.
func CheckTriggerConfig(schema map[string]any, configJSON string, triggerSlug, version string, attr path.Path) diag.Diagnostics {
	var diags diag.Diagnostics
	doc, err := jsonvalue.DecodeObject(configJSON)
	if err != nil {
		diags.AddAttributeError(attr, "Invalid trigger_config",
			fmt.Sprintf("Attribute %s: %s.", attr, err))
		return diags
	}
	if schema == nil {
		return diags
	}
	for _, v := range Validate(schema, doc) {
		where := "the document"
		if v.Field != "" {
			where = fmt.Sprintf("field %q", v.Field)
		}
		diags.AddAttributeError(attr, "Invalid trigger_config",
			fmt.Sprintf("Attribute %s: %s %s (trigger type %s, toolkit version %s).",
				attr, where, v.Message, triggerSlug, version))
	}
	return diags
}

func joinOrNone(xs []string) string {
	if len(xs) == 0 {
		return "(none)"
	}
	return strings.Join(xs, ", ")
}
