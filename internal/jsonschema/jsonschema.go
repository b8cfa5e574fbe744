// Package jsonschema checks a JSON document against a JSON Schema and names
// each offending value by its path, for the provider (trigger_config against
// a trigger type's config schema) and the emulator (the checks the service
// makes on trigger configs, tool arguments and request bodies). The schema
// is compiled and the document validated by
// github.com/santhosh-tekuri/jsonschema/v6; this package turns the library's
// errors into one Violation per offending value. It knows nothing of
// Terraform, so both the provider and the emulator import it.
package jsonschema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/big"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	js "github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Violation is one failure of a document against a JSON Schema. Field is
// the dotted path of the offending value ("branch", "filters[0].name"; ""
// for the document itself) and Message what was expected there.
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

// Validate checks doc (a JSON value as encoding/json decodes it into any:
// maps, slices, strings, bools, nil and float64 or json.Number) against
// schema and returns the violations sorted by field; none when doc is valid
// or schema is nil.
//
// The dialect is the one the schema's $schema names (draft 4, 6, 7, 2019-09
// or 2020-12); when it names none, draft 2020-12, or draft 7 or 4 when the
// schema is one of theirs only: the service's trigger types publish their
// config schemas without $schema, as pydantic writes them (2020-12 from
// pydantic 2, draft 7 from pydantic 1). Every keyword of the dialect is checked; format is checked
// where the dialect asserts it (draft 7 and older), an annotation otherwise.
// A $ref may point only inside the schema: nothing is read from a file or
// the network. A schema that cannot be compiled (SchemaError says why)
// checks nothing: Validate then returns no violations and leaves the verdict
// to the service.
func Validate(schema map[string]any, doc any) []Violation {
	if schema == nil {
		return nil
	}
	c := compile(schema)
	if c.err != nil {
		return nil
	}
	err := c.sch.Validate(doc)
	if err == nil {
		return nil
	}
	var ve *js.ValidationError
	if !errors.As(err, &ve) {
		return []Violation{{Message: err.Error()}}
	}
	var out []violation
	collect(ve, doc, c.raw, &out)
	vs := make([]Violation, len(out))
	for i, v := range out {
		vs[i] = v.Violation
	}
	sort.SliceStable(vs, func(i, j int) bool { return vs[i].Field < vs[j].Field })
	return vs
}

// SchemaError is why schema cannot be compiled (not a JSON Schema of its
// dialect, a $ref that leaves the document, a pattern Go's regexp package
// cannot compile); nil when it can.
func SchemaError(schema map[string]any) error {
	return compile(schema).err
}

const schemaURL = "mem:///schema.json"

type compiled struct {
	sch *js.Schema
	raw any // the schema as the library decoded it, for the allowed properties
	err error
}

// cache keeps compiled schemas by their JSON text: the emulator checks every
// trigger config and tool call against one of a few schemas, and the
// provider every trigger_config of a plan. It is emptied when it grows past
// maxCached (schemas the emulator's users send with custom toolkits).
var cache = struct {
	sync.Mutex
	m map[string]*compiled
}{m: map[string]*compiled{}}

const maxCached = 512

func compile(schema map[string]any) *compiled {
	text, err := json.Marshal(schema)
	if err != nil {
		return &compiled{err: fmt.Errorf("the schema is not JSON: %w", err)}
	}
	key := string(text)
	cache.Lock()
	c, ok := cache.m[key]
	cache.Unlock()
	if ok {
		return c
	}
	c = &compiled{}
	if c.raw, err = js.UnmarshalJSON(bytes.NewReader(text)); err == nil {
		for _, draft := range drafts {
			if c.sch, err = compileAs(c.raw, draft); err == nil {
				break
			}
		}
	}
	c.err = err
	cache.Lock()
	if len(cache.m) >= maxCached {
		clear(cache.m)
	}
	cache.m[key] = c
	cache.Unlock()
	return c
}

// drafts are the dialects a schema without $schema is compiled as, in
// turn: 2020-12 (pydantic 2), then draft 7 (pydantic 1) and draft 4, whose
// keywords differ in form (a boolean exclusiveMinimum is draft 4's).
var drafts = []*js.Draft{js.Draft2020, js.Draft7, js.Draft4}

func compileAs(raw any, draft *js.Draft) (*js.Schema, error) {
	comp := js.NewCompiler()
	comp.DefaultDraft(draft)
	comp.UseLoader(js.SchemeURLLoader{}) // no scheme: a $ref outside the schema fails to compile
	if err := comp.AddResource(schemaURL, raw); err != nil {
		return nil, err
	}
	return comp.Compile(schemaURL)
}

// violation is a Violation with the types a type error wanted, so that the
// alternatives of an anyOf that all failed on type read as one ("must be an
// integer or null").
type violation struct {
	Violation
	types []string
}

var printer = message.NewPrinter(language.English)

// collect appends the violations of e (the leaves of the library's error
// tree) to out.
func collect(e *js.ValidationError, doc, raw any, out *[]violation) {
	field := fieldOf(doc, e.InstanceLocation)
	add := func(f, format string, args ...any) {
		*out = append(*out, violation{Violation: Violation{Field: f, Message: fmt.Sprintf(format, args...)}})
	}
	switch k := e.ErrorKind.(type) {
	case *kind.Schema, *kind.Group, *kind.AllOf, *kind.Reference:
		for _, c := range e.Causes {
			collect(c, doc, raw, out)
		}
	case *kind.AnyOf:
		alternatives(e, doc, raw, field, "anyOf", out)
	case *kind.OneOf:
		if len(k.Subschemas) == 0 {
			alternatives(e, doc, raw, field, "oneOf", out)
			return
		}
		add(field, "must match exactly one of the oneOf alternatives, matches alternatives %d and %d (counting from 0)",
			k.Subschemas[0], k.Subschemas[1])
	case *kind.Type:
		want := make([]string, len(k.Want))
		for i, t := range k.Want {
			want[i] = article(t)
		}
		*out = append(*out, violation{
			Violation: Violation{Field: field, Message: fmt.Sprintf("must be %s, got %s",
				strings.Join(want, " or "), article(typeName(valueAt(doc, e.InstanceLocation))))},
			types: k.Want,
		})
	case *kind.Required:
		for _, name := range k.Missing {
			add(joinField(field, name), "is required")
		}
	case *kind.Dependency:
		for _, name := range k.Missing {
			add(joinField(field, name), "is required when %q is present", k.Prop)
		}
	case *kind.DependentRequired:
		for _, name := range k.Missing {
			add(joinField(field, name), "is required when %q is present", k.Prop)
		}
	case *kind.AdditionalProperties:
		allowed := joinOrNone(propertiesAt(raw, e.SchemaURL))
		for _, name := range k.Properties {
			add(joinField(field, name), "is not an allowed property (allowed: %s)", allowed)
		}
	case *kind.PropertyNames:
		add(joinField(field, k.Property), "is not an allowed property name")
	case *kind.FalseSchema:
		add(field, "is not allowed")
	case *kind.Not:
		add(field, "must not match the schema of not")
	case *kind.Enum:
		add(field, "must be one of %s, got %s", jsonList(k.Want), jsonText(k.Got))
	case *kind.Const:
		add(field, "must be %s, got %s", jsonText(k.Want), jsonText(k.Got))
	case *kind.Format:
		add(field, "must be a valid %s (%v)", k.Want, k.Err)
	case *kind.Minimum:
		add(field, "must be at least %s, got %s", ratText(k.Want), ratText(k.Got))
	case *kind.Maximum:
		add(field, "must be at most %s, got %s", ratText(k.Want), ratText(k.Got))
	case *kind.ExclusiveMinimum:
		add(field, "must be greater than %s, got %s", ratText(k.Want), ratText(k.Got))
	case *kind.ExclusiveMaximum:
		add(field, "must be less than %s, got %s", ratText(k.Want), ratText(k.Got))
	case *kind.MultipleOf:
		add(field, "must be a multiple of %s, got %s", ratText(k.Want), ratText(k.Got))
	case *kind.MinLength:
		add(field, "must be at least %d characters long", k.Want)
	case *kind.MaxLength:
		add(field, "must be at most %d characters long", k.Want)
	case *kind.Pattern:
		add(field, "must match the pattern %q", k.Want)
	case *kind.MinItems:
		add(field, "must have at least %d items", k.Want)
	case *kind.MaxItems:
		add(field, "must have at most %d items", k.Want)
	case *kind.UniqueItems:
		add(field, "must not repeat items (items %d and %d are equal)", k.Duplicates[0], k.Duplicates[1])
	case *kind.MinProperties:
		add(field, "must have at least %d properties", k.Want)
	case *kind.MaxProperties:
		add(field, "must have at most %d properties", k.Want)
	default:
		add(field, "%s", e.ErrorKind.LocalizedString(printer))
	}
}

// alternatives is one violation for an anyOf or oneOf that no alternative
// matched: "must be an integer or null, got a string" when each failed only
// on its type here, else what each alternative wanted.
func alternatives(e *js.ValidationError, doc, raw any, field, keyword string, out *[]violation) {
	var types, wants []string
	onlyTypes := true
	for _, c := range e.Causes {
		var sub []violation
		collect(c, doc, raw, &sub)
		if len(sub) != 1 || sub[0].types == nil || sub[0].Field != field {
			onlyTypes = false
		}
		parts := make([]string, len(sub))
		for i, v := range sub {
			parts[i] = v.Message
			if v.Field != field {
				parts[i] = fmt.Sprintf("field %q %s", v.Field, v.Message)
			}
			types = append(types, v.types...)
		}
		wants = append(wants, strings.Join(parts, " and "))
	}
	if onlyTypes && len(types) > 0 {
		named := make([]string, len(types))
		for i, t := range types {
			named[i] = article(t)
		}
		*out = append(*out, violation{
			Violation: Violation{Field: field, Message: fmt.Sprintf("must be %s, got %s",
				strings.Join(named, " or "), article(typeName(valueAt(doc, e.InstanceLocation))))},
			types: types,
		})
		return
	}
	*out = append(*out, violation{Violation: Violation{Field: field,
		Message: fmt.Sprintf("must match one of the %s alternatives: %s", keyword, strings.Join(wants, "; or "))}})
}

// fieldOf is the dotted path of the value at loc in doc: "a.b[2].c".
func fieldOf(doc any, loc []string) string {
	var b strings.Builder
	v := doc
	for _, tok := range loc {
		switch x := v.(type) {
		case []any:
			b.WriteString("[" + tok + "]")
			if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < len(x) {
				v = x[i]
			}
			continue
		case map[string]any:
			v = x[tok]
		}
		if tok == "" {
			tok = "<empty name>" // a key "" would otherwise read as the document itself
		}
		if b.Len() > 0 {
			b.WriteString(".")
		}
		b.WriteString(tok)
	}
	return b.String()
}

func valueAt(doc any, loc []string) any {
	v := doc
	for _, tok := range loc {
		switch x := v.(type) {
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return nil
			}
			v = x[i]
		case map[string]any:
			v = x[tok]
		default:
			return nil
		}
	}
	return v
}

func joinField(parent, name string) string {
	if name == "" {
		name = "<empty name>"
	}
	if parent == "" {
		return name
	}
	return parent + "." + name
}

// propertiesAt is the names of the properties of the schema at url (the
// schema whose additionalProperties refused a property), sorted.
func propertiesAt(raw any, url string) []string {
	_, ptr, _ := strings.Cut(url, "#")
	s := raw
	if ptr != "" {
		for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
			switch x := s.(type) {
			case map[string]any:
				s = x[tok]
			case []any:
				i, err := strconv.Atoi(tok)
				if err != nil || i < 0 || i >= len(x) {
					return nil
				}
				s = x[i]
			default:
				return nil
			}
		}
	}
	m, _ := s.(map[string]any)
	props, _ := m["properties"].(map[string]any)
	return slices.Sorted(maps.Keys(props))
}

// typeName is the JSON type of v, "integer" for a whole number.
func typeName(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	case float64:
		if x == math.Trunc(x) {
			return "integer"
		}
		return "number"
	case json.Number:
		if f, err := x.Float64(); err == nil && f == math.Trunc(f) {
			return "integer"
		}
		return "number"
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return "integer"
	}
	return fmt.Sprintf("%T", v)
}

// article names a JSON type with its article: "an integer", "a string".
func article(t string) string {
	switch t {
	case "object", "array", "integer":
		return "an " + t
	case "null":
		return "null"
	}
	return "a " + t
}

func ratText(r *big.Rat) string {
	if r == nil {
		return "?"
	}
	if r.IsInt() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'f', -1, 64)
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	return string(b)
}

func jsonList(vs []any) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = jsonText(v)
	}
	return strings.Join(parts, ", ")
}

func joinOrNone(xs []string) string {
	if len(xs) == 0 {
		return "none"
	}
	return strings.Join(xs, ", ")
}
