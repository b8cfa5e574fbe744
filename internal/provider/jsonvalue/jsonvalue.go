// Package jsonvalue decodes, encodes and compares the JSON documents of
// JSON-valued attributes (trigger_config, input_schema, ...).
//
// Those attributes use jsontypes.Normalized: in the schema set
//
//	CustomType: jsontypes.NormalizedType{},
//
// on a schema.StringAttribute and type the model field as jsontypes.Normalized.
// Its semantic equality ignores key order and whitespace, so reading back the
// service's JSON never causes a diff. jsontypes validates that the value is
// JSON; use ObjectFromNormalized to also require an object.
package jsonvalue

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

// DecodeObject parses a JSON object; "" (or whitespace) is an empty object.
// Numbers decode as float64, as jsonschema.Validate expects.
func DecodeObject(s string) (map[string]any, error) {
	if strings.TrimSpace(s) == "" {
		return map[string]any{}, nil
	}
	dec := json.NewDecoder(strings.NewReader(s))
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("not valid JSON: %w", err)
	}
	if dec.More() {
		return nil, errors.New("not valid JSON: unexpected content after the JSON value")
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("must be a JSON object, got %s", TypeName(v))
	}
	return obj, nil
}

// ObjectFromNormalized decodes a known jsontypes.Normalized value into a
// map. A null value yields an empty map. The diagnostic is attached to attr.
// Callers must check IsUnknown first.
func ObjectFromNormalized(v jsontypes.Normalized, attr path.Path) (map[string]any, diag.Diagnostics) {
	var diags diag.Diagnostics
	if v.IsNull() || v.IsUnknown() {
		return map[string]any{}, diags
	}
	obj, err := DecodeObject(v.ValueString())
	if err != nil {
		diags.AddAttributeError(attr, "Invalid JSON", fmt.Sprintf("Attribute %s: %s.", attr, err))
		return nil, diags
	}
	return obj, diags
}

// FromValue encodes a value read from the service (a map, or nil)
// as compact JSON with sorted keys. A nil or empty map becomes "{}".
func FromValue(v any) (jsontypes.Normalized, error) {
	if v == nil {
		return jsontypes.NewNormalizedValue("{}"), nil
	}
	if m, ok := v.(map[string]any); ok && len(m) == 0 {
		return jsontypes.NewNormalizedValue("{}"), nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return jsontypes.NewNormalizedNull(), err
	}
	return jsontypes.NewNormalizedValue(strings.TrimRight(buf.String(), "\n")), nil
}

// KeepConfigured returns prior (the value from plan or state) when it is
// semantically equal to the service's value, so that the user's formatting is
// kept in state; otherwise it returns fromService. Use it in Read/Create for
// JSON attributes.
func KeepConfigured(prior, fromService jsontypes.Normalized) jsontypes.Normalized {
	if prior.IsNull() || prior.IsUnknown() {
		return fromService
	}
	if Same(prior.ValueString(), fromService.ValueString()) {
		return prior
	}
	return fromService
}

// Same reports whether two JSON texts hold the same document (key order and
// whitespace aside; "" counts as {}). Text that is not JSON is never the same.
func Same(a, b string) bool {
	va, err1 := decodeAny(a)
	vb, err2 := decodeAny(b)
	return err1 == nil && err2 == nil && Text(va) == Text(vb)
}

func decodeAny(s string) (any, error) {
	var v any
	if strings.TrimSpace(s) == "" {
		return map[string]any{}, nil
	}
	err := json.Unmarshal([]byte(s), &v)
	return v, err
}

// Text is v encoded as JSON (with fmt's %v when it cannot be encoded).
func Text(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	return string(b)
}

// TypeName names the JSON type of a decoded value for messages ("a string",
// "an integer", ...).
func TypeName(v any) string {
	switch n := v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case float64, json.Number:
		if f, _ := ToFloat(n); f == math.Trunc(f) {
			return "an integer"
		}
		return "a number"
	}
	return fmt.Sprintf("%T", v)
}

// ToFloat returns a decoded JSON number (float64 or json.Number) as a float64.
func ToFloat(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	}
	return 0, false
}
