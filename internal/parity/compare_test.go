package parity

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

type sample struct {
	ID      string `json:"id"`
	Status  string `json:"status"`
	Count   int    `json:"count"`
	Toolkit struct {
		Slug string `json:"slug"`
	} `json:"toolkit"`
	Secret map[string]string `json:"secret"`
}

func shapeOf(t *testing.T, read *node, bodies ...string) *Shape {
	t.Helper()
	s := newShape()
	for _, b := range bodies {
		var v any
		if err := json.Unmarshal([]byte(b), &v); err != nil {
			t.Fatal(err)
		}
		s.add(v, read)
	}
	return s
}

// A shape holds member names and types: the keys inside what the client
// reads whole (a map) and inside members it does not read are not paths,
// and values are kept only for enum keys.
func TestShapeKeepsNamesNotValues(t *testing.T) {
	read := readTree(reflect.TypeFor[sample]())
	s := shapeOf(t, read, `{"id":"ac_1a2b3c4d5e6f","status":"ACTIVE","count":3,"toolkit":{"slug":"github","logo":"x"},
		"secret":{"api_key":"sk_live_123"},"extra":{"inner":"v"}}`)
	want := []string{"", "count", "extra", "id", "secret", "status", "toolkit", "toolkit.logo", "toolkit.slug"}
	if got := sortedKeys(s.Fields); !reflect.DeepEqual(got, want) {
		t.Errorf("paths = %q, want %q", got, want)
	}
	if e := s.Fields["status"].Enum; !e["ACTIVE"] || len(e) != 1 {
		t.Errorf("status enum = %v, want ACTIVE", e)
	}
	for _, p := range []string{"id", "toolkit.slug", "secret"} {
		if s.Fields[p].Enum != nil {
			t.Errorf("%s kept a value", p)
		}
	}
	b, _ := json.Marshal(s)
	for _, v := range []string{"ac_1a2b3c4d5e6f", "github", "sk_live_123", "api_key", "ACTIVE", "inner"} {
		if strings.Contains(string(b), v) {
			t.Errorf("the shape's JSON holds %q", v)
		}
	}
}

// What fails and what is only reported.
func TestCompareFailsOnlyOnWhatTheProviderReads(t *testing.T) {
	read := readTree(reflect.TypeFor[sample]())
	op := planned{readOp: readOp{id: "op"}, path: "/x", read: read}
	cases := []struct {
		name        string
		a, b        []string
		group, want string
		fails       bool
	}{
		{"a read member lacking", []string{`{"id":"1","status":"A"}`}, []string{`{"id":"2"}`}, "onlyA", "status", true},
		{"an optional read member lacking", []string{`{"id":"1","status":"A"}`, `{"id":"3"}`}, []string{`{"id":"2"}`}, "onlyA", "status", false},
		{"a member not read", []string{`{"id":"1","new":1}`}, []string{`{"id":"2"}`}, "onlyA", "new", false},
		{"a read type differs", []string{`{"count":"3"}`}, []string{`{"count":3}`}, "differentType", "count", true},
		{"a type differs where nothing is read", []string{`{"extra":"3"}`}, []string{`{"extra":3}`}, "differentType", "extra", false},
		{"no sample of the parent", []string{`{"toolkit":{"slug":"a"}}`}, []string{`{"toolkit":null}`}, "onlyA", "toolkit.slug", false},
		{"null on one side", []string{`{"toolkit":null}`}, []string{`{"toolkit":{}}`}, "notes", "toolkit", false},
		{"present sometimes", []string{`{"id":"1"}`, `{}`}, []string{`{"id":"1"}`}, "notes", "id", false},
		{"enum value on one side", []string{`{"status":"REVOKED"}`}, []string{`{"status":"ACTIVE"}`}, "notes", "status", false},
		{"a member only in the second side", []string{`{}`}, []string{`{"id":"1"}`}, "onlyB", "id", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := &comparison{a: "service", b: "emulator"}
			r := &opResult{op: op}
			c.compareShape(r, "", shapeOf(t, read, tc.a...), shapeOf(t, read, tc.b...), read.paths(), true)
			groups := map[string][]finding{"onlyA": r.onlyA, "onlyB": r.onlyB, "differentType": r.differentType, "notes": r.notes}
			var found *finding
			for _, f := range groups[tc.group] {
				if f.path == tc.want {
					found = &f
				}
			}
			if found == nil {
				t.Fatalf("no finding %s in %s: %+v", tc.want, tc.group, groups)
			}
			if found.fails != tc.fails {
				t.Errorf("%s fails = %v, want %v (%s)", tc.want, found.fails, tc.fails, found.detail)
			}
			for g, fs := range groups {
				for _, f := range fs {
					if f.fails && (g != tc.group || f.path != tc.want) {
						t.Errorf("another finding fails: %s %+v", g, f)
					}
				}
			}
		})
	}
}
