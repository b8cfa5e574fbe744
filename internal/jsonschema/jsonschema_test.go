package jsonschema

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
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

func TestValidateKeywords(t *testing.T) {
	t.Parallel()
	// Each keyword the hand-written subsets skipped (anyOf, oneOf, $ref, not,
	// const, uniqueItems, dependentRequired, format under draft 7) is checked.
	tests := []struct {
		schema, doc string
		want        []string // "field: message substring"; empty = valid
	}{
		{`{"properties":{"a":{"anyOf":[{"type":"string"}]},"b":{"type":["string","null"]}}}`, `{"a":5,"b":null,"c":true}`,
			[]string{"a: must be a string, got an integer"}},
		{`{"properties":{"a":{"anyOf":[{"type":"integer"},{"type":"null"}]}}}`, `{"a":"x"}`,
			[]string{"a: must be an integer or null, got a string"}},
		{`{"properties":{"a":{"anyOf":[{"type":"integer"},{"type":"null"}]}}}`, `{"a":null}`, nil},
		{`{"properties":{"a":{"anyOf":[{"type":"string","minLength":3},{"type":"integer"}]}}}`, `{"a":"x"}`,
			[]string{"a: must match one of the anyOf alternatives: must be at least 3 characters long; or must be an integer, got a string"}},
		{`{"properties":{"a":{"oneOf":[{"type":"number"},{"type":"integer"}]}}}`, `{"a":2}`,
			[]string{"a: must match exactly one of the oneOf alternatives, matches alternatives 0 and 1"}},
		{`{"$defs":{"repo":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":false}},
		   "properties":{"repos":{"type":"array","items":{"$ref":"#/$defs/repo"}}}}`, `{"repos":[{"name":"a"},{"nam":"b"}]}`,
			[]string{"repos[1].nam: is not an allowed property (allowed: name)", "repos[1].name: is required"}},
		{`{"properties":{"a":{"not":{"type":"string"}}}}`, `{"a":"x"}`, []string{"a: must not match the schema of not"}},
		{`{"properties":{"a":{"const":"on"}}}`, `{"a":"off"}`, []string{`a: must be "on", got "off"`}},
		{`{"properties":{"a":{"uniqueItems":true}}}`, `{"a":[1,2,1]}`, []string{"a: must not repeat items (items 0 and 2 are equal)"}},
		{`{"dependentRequired":{"token":["user"]}}`, `{"token":"t"}`, []string{`user: is required when "token" is present`}},
		{`{"properties":{"a":{"allOf":[{"minimum":2},{"multipleOf":3}]}}}`, `{"a":4}`, []string{"a: must be a multiple of 3, got 4"}},
		{`{"properties":{"a":{"exclusiveMaximum":1.5,"pattern":"^x"}}}`, `{"a":1.5}`, []string{"a: must be less than 1.5, got 1.5"}},
		{`{"properties":{"a":{"type":"string","pattern":"^x"}}}`, `{"a":"y"}`, []string{`a: must match the pattern "^x"`}},
		// format: an annotation in 2020-12 (the default), asserted in draft 7.
		{`{"properties":{"a":{"format":"email"}}}`, `{"a":"nope"}`, nil},
		{`{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"a":{"format":"email"}}}`, `{"a":"nope"}`,
			[]string{"a: must be a valid email"}},
		// Without $schema, a draft 4 schema (a boolean exclusiveMinimum) is checked as draft 4.
		{`{"properties":{"a":{"minimum":0,"exclusiveMinimum":true}}}`, `{"a":0}`, []string{"a: must be greater than 0, got 0"}},
		{`{"properties":{"a":{"minimum":0,"exclusiveMinimum":true}}}`, `{"a":0.5}`, nil},
		{`{"type":"object"}`, `[]`, []string{": must be an object, got an array"}},
		{`{"properties":{"o":{"additionalProperties":false}}}`, `{"o":{"x":1}}`, []string{"o.x: is not an allowed property (allowed: none)"}},
	}
	for _, tc := range tests {
		var doc any
		if err := json.Unmarshal([]byte(tc.doc), &doc); err != nil {
			t.Fatal(err)
		}
		got := Validate(mustSchema(t, tc.schema), doc)
		if len(got) != len(tc.want) {
			t.Errorf("%s on %s: got %v, want %v", tc.doc, tc.schema, got, tc.want)
			continue
		}
		for i, w := range tc.want {
			field, msg, _ := strings.Cut(w, ": ")
			if got[i].Field != field || !strings.Contains(got[i].Message, msg) {
				t.Errorf("%s on %s: violation %d is %q: %q, want %q: %q", tc.doc, tc.schema, i, got[i].Field, got[i].Message, field, msg)
			}
		}
	}
	if got := Validate(nil, map[string]any{"a": 1.0}); len(got) != 0 {
		t.Fatalf("nil schema: %v", got)
	}
}

// The emulator decodes request bodies with json.Number: the verdicts and
// messages are the same as on float64.
func TestValidateJSONNumber(t *testing.T) {
	t.Parallel()
	schema := mustSchema(t, commitEventSchema)
	for doc, want := range map[string]string{
		`{"owner":"o","repo":"r","limit":5}`:   "",
		`{"owner":"o","repo":"r","limit":1.5}`: "must be an integer, got a number",
		`{"owner":"o","repo":"r","limit":0}`:   "must be at least 1, got 0",
		`{"owner":2,"repo":"r"}`:               "must be a string, got an integer",
	} {
		dec := json.NewDecoder(strings.NewReader(doc))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		got := Validate(schema, v)
		switch {
		case want == "" && len(got) != 0:
			t.Errorf("%s: %v", doc, got)
		case want != "" && (len(got) != 1 || !strings.Contains(got[0].Message, want)):
			t.Errorf("%s: got %v, want %q", doc, got, want)
		}
	}
}

// A schema that does not compile checks nothing (the service decides) and
// SchemaError says why; a $ref never reads a file or the network.
func TestSchemaError(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "other.json")
	if err := os.WriteFile(file, []byte(`{"type":"string"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		`{"properties":{"a":{"$ref":"file://` + filepath.ToSlash(file) + `"}}}`,
		`{"properties":{"a":{"$ref":"https://example.com/s.json"}}}`,
		`{"properties":{"a":{"$ref":"#/$defs/missing"}}}`,
		`{"type":"nonsense"}`,
		`{"properties":{"a":{"pattern":"(?<=x)y"}}}`,
	} {
		schema := mustSchema(t, s)
		if err := SchemaError(schema); err == nil {
			t.Errorf("%s: compiled", s)
		}
		if got := Validate(schema, map[string]any{"a": 1.0}); len(got) != 0 {
			t.Errorf("%s: %v", s, got)
		}
	}
	if err := SchemaError(mustSchema(t, commitEventSchema)); err != nil {
		t.Fatal(err)
	}
}
