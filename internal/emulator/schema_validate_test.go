package emulator

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestValidateSchema(t *testing.T) {
	schema := map[string]any{
		"type": "object", "required": []any{"a"}, "additionalProperties": false,
		"properties": map[string]any{
			"a": map[string]any{"type": "string", "enum": []any{"x", "y"}},
			"n": map[string]any{"type": "integer", "minimum": 1.0, "maximum": 10.0},
			"f": map[string]any{"type": "number"},
			"l": map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
			"o": map[string]any{"type": "object", "properties": map[string]any{"b": map[string]any{"type": "boolean"}}, "additionalProperties": map[string]any{"type": "string"}},
		},
	}
	cases := []struct {
		in, path, msg string
	}{
		{`{"a":"x"}`, "", ""},
		{`{"a":"x","n":10,"f":1.5,"l":["p"],"o":{"b":true,"extra":"s"}}`, "", ""},
		{`{}`, "a", "is required"},
		{`{"a":"z"}`, "a", "must be one of"},
		{`{"a":"x","n":0}`, "n", ">= 1"},
		{`{"a":"x","n":11}`, "n", "<= 10"},
		{`{"a":"x","n":1.5}`, "n", "type integer"},
		{`{"a":"x","f":"1"}`, "f", "type number"},
		{`{"a":"x","l":["p",1]}`, "l[1]", "type string"},
		{`{"a":"x","o":{"b":"no"}}`, "o.b", "type boolean"},
		{`{"a":"x","o":{"c":1}}`, "o.c", "type string"},
		{`{"a":"x","zzz":1}`, "zzz", "not a known property"},
		{`[]`, "", "type object"},
	}
	for _, c := range cases {
		dec := json.NewDecoder(strings.NewReader(c.in))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatal(err)
		}
		path, msg, ok := validateSchema(schema, v, "")
		if c.msg == "" {
			if !ok {
				t.Errorf("%s: unexpected error %s %s", c.in, path, msg)
			}
			continue
		}
		if ok || path != c.path || !strings.Contains(msg, c.msg) {
			t.Errorf("%s: got (%q, %q, %v), want (%q, %q)", c.in, path, msg, ok, c.path, c.msg)
		}
	}
	if _, _, ok := validateSchema(map[string]any{"type": []any{"string", "null"}}, nil, ""); !ok {
		t.Error("type list")
	}
}

func TestValidateVersion(t *testing.T) {
	for _, ok := range []string{"latest", "20250901_00", "20240229_12"} {
		if e := validateVersion("v", ok); e != nil {
			t.Errorf("%s rejected: %v", ok, e)
		}
	}
	for _, bad := range []string{"", "2025-09-01", "20250931_00", "20250901_0", "20250901_000", "LATEST", "20230229_00"} {
		if e := validateVersion("v", bad); e == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}
