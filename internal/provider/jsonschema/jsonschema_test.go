package jsonschema

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/integration-service/terraform-provider-service/internal/testutil"
)

const commitEventSchema = `{
  "type": "object",
  "properties": {
    "owner":  {"type": "string", "minLength": 1},
    "repo":   {"type": "string"},
    "events": {"type": "array", "items": {"type": "string", "enum": ["push", "tag"]}, "maxItems": 2},
    "limit":  {"type": "integer", "minimum": 1, "maximum": 100},
    "filter": {"type": "object", "properties": {"label": {"type": "string"}}, "required": ["label"], "additionalProperties": false}
  },
  "required": ["owner", "repo"],
  "additionalProperties": false
}`

func mustSchema(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestValidate(t *testing.T) {
	t.Parallel()
	schema := mustSchema(t, commitEventSchema)
	tests := []struct {
		doc    string
		fields []string // offending fields; empty = valid
		msg    string   // substring of the first message
	}{
		{doc: `{"owner":"o","repo":"r"}`},
		{doc: `{"owner":"o","repo":"r","events":["push"],"limit":5,"filter":{"label":"x"}}`},
		{doc: `{"repo":"r"}`, fields: []string{"owner"}, msg: "is required"},
		{doc: `{"owner":"o","repo":"r","branch":"main"}`, fields: []string{"branch"}, msg: "not an allowed property (allowed: events, filter, limit, owner, repo)"},
		{doc: `{"owner":1,"repo":"r"}`, fields: []string{"owner"}, msg: "must be a string, got an integer"},
		{doc: `{"owner":"","repo":"r"}`, fields: []string{"owner"}, msg: "at least 1 characters"},
		{doc: `{"owner":"o","repo":"r","limit":1.5}`, fields: []string{"limit"}, msg: "must be an integer"},
		{doc: `{"owner":"o","repo":"r","limit":101}`, fields: []string{"limit"}, msg: "at most 100"},
		{doc: `{"owner":"o","repo":"r","events":["push","pull"]}`, fields: []string{"events[1]"}, msg: `one of "push", "tag"`},
		{doc: `{"owner":"o","repo":"r","events":["push","tag","push"]}`, fields: []string{"events"}, msg: "at most 2 items"},
		{doc: `{"owner":"o","repo":"r","filter":{"x":1}}`, fields: []string{"filter.label", "filter.x"}},
		{doc: `{"owner":"o","repo":"r","":1}`, fields: []string{"<empty name>"}, msg: "not an allowed property"},
	}
	for _, tc := range tests {
		var doc any
		if err := json.Unmarshal([]byte(tc.doc), &doc); err != nil {
			t.Fatal(err)
		}
		got := Validate(schema, doc)
		if len(got) != len(tc.fields) {
			t.Errorf("%s: got %v, want fields %v", tc.doc, got, tc.fields)
			continue
		}
		for i, f := range tc.fields {
			if got[i].Field != f {
				t.Errorf("%s: violation %d field %q, want %q", tc.doc, i, got[i].Field, f)
			}
		}
		if tc.msg != "" && !strings.Contains(got[0].Message, tc.msg) {
			t.Errorf("%s: message %q does not contain %q", tc.doc, got[0].Message, tc.msg)
		}
	}
}

func TestValidateLenient(t *testing.T) {
	t.Parallel()
	// Unsupported keywords are ignored; type lists and nullable work.
	schema := mustSchema(t, `{"type":"object","properties":{"a":{"anyOf":[{"type":"string"}]},"b":{"type":["string","null"]}}}`)
	var doc any
	_ = json.Unmarshal([]byte(`{"a":5,"b":null,"c":true}`), &doc)
	if got := Validate(schema, doc); len(got) != 0 {
		t.Fatalf("want no violations, got %v", got)
	}
	if got := Validate(nil, doc); len(got) != 0 {
		t.Fatalf("nil schema: %v", got)
	}
	if got := Validate(mustSchema(t, `{"type":"object"}`), []any{}); len(got) != 1 || got[0].Field != "" {
		t.Fatalf("root type: %v", got)
	}
}

func TestCheckTriggerConfig(t *testing.T) {
	t.Parallel()
	schema := mustSchema(t, commitEventSchema)
	attr := path.Root("trigger_config")
	if d := CheckTriggerConfig(schema, `{"repo":"r","owner":"o"}`, "GITHUB_COMMIT_EVENT", "20250901_00", attr); d.HasError() {
		t.Fatalf("valid config refused: %v", d)
	}
	d := CheckTriggerConfig(schema, `{"owner":"o","repo":"r","branch":"main"}`, "GITHUB_COMMIT_EVENT", "20250901_00", attr)
	if !d.HasError() || !testutil.DiagsContain(d, `field "branch"`) || !testutil.DiagsContain(d, "trigger_config") || !testutil.DiagsContain(d, "20250901_00") {
		t.Fatalf("want an error naming branch: %v", d)
	}
	if d := CheckTriggerConfig(schema, `[1]`, "X", "latest", attr); !testutil.DiagsContain(d, "must be a JSON object") {
		t.Fatalf("array: %v", d)
	}
	if d := CheckTriggerConfig(schema, `{`, "X", "latest", attr); !testutil.DiagsContain(d, "not valid JSON") {
		t.Fatalf("broken JSON: %v", d)
	}
	if d := CheckTriggerConfig(nil, ``, "X", "latest", attr); d.HasError() {
		t.Fatalf("empty config with no schema: %v", d)
	}
	if d := CheckTriggerConfig(schema, ``, "X", "latest", attr); !testutil.DiagsContain(d, `field "owner"`) {
		t.Fatalf("empty config must miss owner: %v", d)
	}
}
