package emulator

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// validateSchema checks v against a JSON-Schema subset: type, properties,
// required, additionalProperties (bool or schema), enum, minimum, maximum,
// items. It returns the path of the first bad field ("" for the root) and a
// message, or ok=true.
func validateSchema(schema map[string]any, v any, path string) (badPath, msg string, ok bool) {
	if schema == nil {
		return "", "", true
	}
	if t, has := schema["type"]; has {
		if !typeMatches(t, v) {
			return path, fmt.Sprintf("must be of type %v, got %s", t, jsonType(v)), false
		}
	}
	if enum, has := schema["enum"].([]any); has {
		found := false
		for _, e := range enum {
			if jsonEqual(e, v) {
				found = true
				break
			}
		}
		if !found {
			return path, fmt.Sprintf("must be one of %s", enumString(enum)), false
		}
	}
	if n, isNum := toFloat(v); isNum {
		if minimum, has := toFloat(schema["minimum"]); has && n < minimum {
			return path, fmt.Sprintf("must be >= %v, got %v", minimum, n), false
		}
		if maximum, has := toFloat(schema["maximum"]); has && n > maximum {
			return path, fmt.Sprintf("must be <= %v, got %v", maximum, n), false
		}
	}
	switch x := v.(type) {
	case map[string]any:
		props, _ := schema["properties"].(map[string]any)
		for _, r := range stringList(schema["required"]) {
			if _, has := x[r]; !has {
				return join(path, r), "is required", false
			}
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if ps, has := props[k].(map[string]any); has {
				if p, m, ok := validateSchema(ps, x[k], join(path, k)); !ok {
					return p, m, false
				}
				continue
			}
			switch ap := schema["additionalProperties"].(type) {
			case bool:
				if !ap {
					return join(path, k), "is not a known property" + knownList(props), false
				}
			case map[string]any:
				if p, m, ok := validateSchema(ap, x[k], join(path, k)); !ok {
					return p, m, false
				}
			}
		}
	case []any:
		if items, has := schema["items"].(map[string]any); has {
			for i, it := range x {
				if p, m, ok := validateSchema(items, it, path+"["+strconv.Itoa(i)+"]"); !ok {
					return p, m, false
				}
			}
		}
	}
	return "", "", true
}

func join(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

func knownList(props map[string]any) string {
	if len(props) == 0 {
		return " (no properties are accepted)"
	}
	keys := make([]string, 0, len(props))
	for k := range props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return " (known: " + strings.Join(keys, ", ") + ")"
}

func stringList(v any) []string {
	switch x := v.(type) {
	case []string:
		return x
	case []any:
		out := make([]string, 0, len(x))
		for _, e := range x {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	}
	return 0, false
}

func jsonType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	default:
		if f, ok := toFloat(x); ok {
			if f == math.Trunc(f) {
				return "integer"
			}
			return "number"
		}
	}
	return fmt.Sprintf("%T", v)
}

func typeMatches(t any, v any) bool {
	if list, ok := t.([]any); ok {
		for _, e := range list {
			if typeMatches(e, v) {
				return true
			}
		}
		return false
	}
	name, _ := t.(string)
	got := jsonType(v)
	switch name {
	case "number":
		return got == "number" || got == "integer"
	case "":
		return true
	default:
		return got == name
	}
}

func jsonEqual(a, b any) bool {
	fa, okA := toFloat(a)
	fb, okB := toFloat(b)
	if okA && okB {
		return fa == fb
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

func enumString(enum []any) string {
	parts := make([]string, len(enum))
	for i, e := range enum {
		b, _ := json.Marshal(e)
		parts[i] = string(b)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
