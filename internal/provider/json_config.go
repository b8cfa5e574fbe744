package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// JSON-valued attributes (trigger_config, input_schema, ...) use
// jsontypes.Normalized: in the schema set
//
//	CustomType: jsontypes.NormalizedType{},
//
// on a schema.StringAttribute and type the model field as jsontypes.Normalized.
// Its semantic equality ignores key order and whitespace, so reading back the
// service's JSON never causes a diff. jsontypes validates that the value is
// JSON; use jsonObjectFromNormalized to also require an object.

// decodeJSONObject parses a JSON object; "" (or whitespace) is an empty object.
// Numbers decode as float64, as validateJSONSchema expects.
func decodeJSONObject(s string) (map[string]any, error) {
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
		return nil, fmt.Errorf("must be a JSON object, got %s", jsonTypeName(v))
	}
	return obj, nil
}

// jsonObjectFromNormalized decodes a known jsontypes.Normalized value into a
// map. A null value yields an empty map. The diagnostic is attached to attr.
// Callers must check IsUnknown first.
func jsonObjectFromNormalized(v jsontypes.Normalized, attr path.Path) (map[string]any, diag.Diagnostics) {
	var diags diag.Diagnostics
	if v.IsNull() || v.IsUnknown() {
		return map[string]any{}, diags
	}
	obj, err := decodeJSONObject(v.ValueString())
	if err != nil {
		diags.AddAttributeError(attr, "Invalid JSON", fmt.Sprintf("Attribute %s: %s.", attr, err))
		return nil, diags
	}
	return obj, diags
}

// normalizedFromValue encodes a value read from the service (a map, or nil)
// as compact JSON with sorted keys. A nil or empty map becomes "{}".
func normalizedFromValue(v any) (jsontypes.Normalized, error) {
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

// keepConfiguredJSON returns prior (the value from plan or state) when it is
// semantically equal to the service's value, so that the user's formatting is
// kept in state; otherwise it returns fromService. Use it in Read/Create for
// JSON attributes.
func keepConfiguredJSON(prior, fromService jsontypes.Normalized) jsontypes.Normalized {
	if prior.IsNull() || prior.IsUnknown() {
		return fromService
	}
	a, err1 := decodeJSONAny(prior.ValueString())
	b, err2 := decodeJSONAny(fromService.ValueString())
	if err1 == nil && err2 == nil && jsonText(a) == jsonText(b) {
		return prior
	}
	return fromService
}

func decodeJSONAny(s string) (any, error) {
	var v any
	if strings.TrimSpace(s) == "" {
		return map[string]any{}, nil
	}
	err := json.Unmarshal([]byte(s), &v)
	return v, err
}

// jsonObjectValidator requires a string attribute (typically
// jsontypes.Normalized) to hold a JSON object, at validate time.
func jsonObjectValidator() validator.String {
	return stringCheck{
		description: "value must be a JSON object, e.g. jsonencode({ key = \"value\" })",
		summary:     "Invalid JSON object",
		check: func(v string) error {
			_, err := decodeJSONObject(v)
			return err
		},
	}
}

// normalizedJSONUseStatePlanModifier plans the prior state value of a JSON
// attribute when the configured value means the same (only key order or
// whitespace differ). The framework applies semantic equality to values read
// back from the service but not to plans, so without it a reformatted
// configuration shows a diff (and a replacement with RequiresReplace, which
// must come after it in the list).
type normalizedJSONUseStatePlanModifier struct{}

var _ planmodifier.String = normalizedJSONUseStatePlanModifier{}

func (normalizedJSONUseStatePlanModifier) Description(_ context.Context) string {
	return "JSON that differs from the state only in key order or whitespace keeps the state value."
}

func (m normalizedJSONUseStatePlanModifier) MarkdownDescription(ctx context.Context) string {
	return m.Description(ctx)
}

func (normalizedJSONUseStatePlanModifier) PlanModifyString(_ context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if req.StateValue.IsNull() || req.StateValue.IsUnknown() || req.PlanValue.IsNull() || req.PlanValue.IsUnknown() {
		return
	}
	a, err1 := decodeJSONAny(req.StateValue.ValueString())
	b, err2 := decodeJSONAny(req.PlanValue.ValueString())
	if err1 == nil && err2 == nil && jsonText(a) == jsonText(b) {
		resp.PlanValue = req.StateValue
	}
}
