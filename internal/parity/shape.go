package parity

import (
	"regexp"
	"sort"
)

// A Shape is what the answers of one operation look like, without a single
// value: the places that occur (member names and nesting), the JSON types
// seen at each, how often each is there and null. Only the enum values of
// the members named in enumKeys are kept, and only in memory: they are
// compared, never recorded.
type Shape struct {
	// Answers counts the answers the shape was taken from.
	Answers int `json:"answers"`
	// Fields by path: "" is the answer itself, "items[]" the elements of
	// items, "items[].toolkit.slug" a member of them.
	Fields map[string]*Field `json:"fields"`
}

// Field is one place of the answers.
type Field struct {
	// Types counts the occurrences of each JSON type (object, array,
	// string, number, boolean), null excluded.
	Types map[string]int `json:"types"`
	// Nulls counts the occurrences of null.
	Nulls int `json:"nulls,omitempty"`
	// Enum holds the values seen of an enum member (enumKeys); never
	// written to a recording.
	Enum map[string]bool `json:"-"`
}

// Seen is how many times the place occurs (null included).
func (f *Field) Seen() int {
	n := f.Nulls
	for _, c := range f.Types {
		n += c
	}
	return n
}

// typeSet is the JSON types seen, sorted.
func (f *Field) typeSet() []string {
	out := make([]string, 0, len(f.Types))
	for t, c := range f.Types {
		if c > 0 {
			out = append(out, t)
		}
	}
	sort.Strings(out)
	return out
}

// enumKeys are the members whose values are compared: the service's fixed
// vocabularies (ACTIVE, OAUTH2, custom, webhook...). No other value is kept.
var enumKeys = map[string]bool{"status": true, "auth_scheme": true, "type": true, "mode": true}

// enumValue is the shape an enum value must have to be kept (a short token);
// anything else at an enum key is counted, not kept.
var enumValue = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_.-]{0,39}$`)

func newShape() *Shape { return &Shape{Fields: map[string]*Field{}} }

// add takes the shape of one answer's body, guided by what the client reads
// of it (read): a member the client reads is followed inside; one it does
// not read (or reads whole: a map, a JSON Schema, credentials) is noted with
// its type and not entered, so that the keys of data never become paths.
func (s *Shape) add(body any, read *node) {
	s.Answers++
	s.walk(body, "", "", read)
}

func (s *Shape) walk(v any, path, key string, read *node) {
	f := s.Fields[path]
	if f == nil {
		f = &Field{Types: map[string]int{}}
		s.Fields[path] = f
	}
	t := jsonType(v)
	if t == "null" {
		f.Nulls++
		return
	}
	f.Types[t]++
	if str, ok := v.(string); ok && enumKeys[key] && enumValue.MatchString(str) {
		if f.Enum == nil {
			f.Enum = map[string]bool{}
		}
		f.Enum[str] = true
	}
	if read == nil || read.kind == kindWhole {
		return
	}
	switch x := v.(type) {
	case map[string]any:
		if read.kind != kindObject {
			return
		}
		for k, cv := range x {
			c := read.child(k)
			if c == nil {
				// not read: its type only
				s.walk(cv, joinPath(path, k), k, &node{kind: kindWhole})
				continue
			}
			s.walk(cv, joinPath(path, k), k, c)
		}
	case []any:
		if read.kind != kindArray {
			return
		}
		for _, e := range x {
			s.walk(e, path+"[]", key, read.element())
		}
	}
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case bool:
		return "boolean"
	default:
		return "number"
	}
}

// objects is how many times path held an object on this side: the samples
// its members could have been seen in ("" counts every answer).
func (s *Shape) objects(path string) int {
	f := s.Fields[path]
	if f == nil {
		return 0
	}
	return f.Types["object"]
}
