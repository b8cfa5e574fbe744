// Package jsonschema is the provider's side of internal/jsonschema: the
// check of a JSON document against a JSON Schema (Validate, Violation, the
// same as there) and CheckTriggerConfig, which turns the violations of a
// trigger_config into attribute errors.
package jsonschema

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/integration-service/terraform-provider-service/internal/jsonschema"
	"github.com/integration-service/terraform-provider-service/internal/provider/jsonvalue"
)

// Violation is one failure of a document against a JSON Schema: Field is
// the dotted path of the offending value ("" for the document itself),
// Message what was expected there.
type Violation = jsonschema.Violation

// Validate checks doc (decoded with encoding/json into any) against schema
// and returns the violations sorted by field (see internal/jsonschema for
// the dialects and keywords).
func Validate(schema map[string]any, doc any) []Violation { return jsonschema.Validate(schema, doc) }

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
