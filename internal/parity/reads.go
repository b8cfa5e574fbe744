package parity

import (
	"encoding/json"
	"reflect"
	"sort"
	"strings"
)

// What the provider reads of an answer is what the client decodes: the json
// tags of the Go type each operation's answer is decoded into (plan.go names
// the types, and a test holds them to the client's code). A node is one
// place of an answer as the client sees it.
type node struct {
	kind   nodeKind
	fields map[string]*node // kindObject: the members the client decodes
	elem   *node            // kindArray: the elements
}

type nodeKind int

const (
	// kindWhole is a value the client takes whole without naming what is
	// inside it: a scalar, a map, an interface, a json.RawMessage.
	kindWhole nodeKind = iota
	kindObject
	kindArray
)

var rawMessage = reflect.TypeFor[json.RawMessage]()

// readTree returns what the client reads of an answer decoded into any of
// types (their union).
func readTree(types ...reflect.Type) *node {
	var n *node
	for _, t := range types {
		n = mergeNodes(n, nodeOf(t, map[reflect.Type]*node{}))
	}
	if n == nil {
		n = &node{kind: kindWhole}
	}
	return n
}

func nodeOf(t reflect.Type, seen map[reflect.Type]*node) *node {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if n, ok := seen[t]; ok {
		return n
	}
	switch {
	case t == rawMessage:
		return &node{kind: kindWhole}
	case t.Kind() == reflect.Struct:
		n := &node{kind: kindObject, fields: map[string]*node{}}
		seen[t] = n
		addStructFields(n, t, seen)
		return n
	case (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) && t.Elem().Kind() != reflect.Uint8:
		return &node{kind: kindArray, elem: nodeOf(t.Elem(), seen)}
	default:
		return &node{kind: kindWhole}
	}
}

// addStructFields adds the members encoding/json decodes into t's fields,
// flattening embedded structs without a name of their own.
func addStructFields(n *node, t reflect.Type, seen map[reflect.Type]*node) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				addStructFields(n, ft, seen)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		n.fields[name] = mergeNodes(n.fields[name], nodeOf(f.Type, seen))
	}
}

// mergeNodes is the union of what two decodes read: a structure wins over a
// value taken whole (it names more of the answer).
func mergeNodes(a, b *node) *node {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	case a.kind == kindWhole:
		return b
	case b.kind == kindWhole, a.kind != b.kind:
		return a
	case a.kind == kindArray:
		return &node{kind: kindArray, elem: mergeNodes(a.elem, b.elem)}
	}
	out := &node{kind: kindObject, fields: map[string]*node{}}
	for k, v := range a.fields {
		out.fields[k] = v
	}
	for k, v := range b.fields {
		out.fields[k] = mergeNodes(out.fields[k], v)
	}
	return out
}

// child is what the client reads of member key of an object read as n (nil
// when it does not read it).
func (n *node) child(key string) *node {
	if n == nil || n.kind != kindObject {
		return nil
	}
	return n.fields[key]
}

// element is what the client reads of the elements of an array read as n.
func (n *node) element() *node {
	if n == nil || n.kind != kindArray {
		return nil
	}
	return n.elem
}

// paths lists every place the client reads, in the path notation of shapes
// ("" for the answer itself, "items[].toolkit.slug").
func (n *node) paths() map[string]bool {
	out := map[string]bool{}
	var walk func(n *node, path string, depth int)
	walk = func(n *node, path string, depth int) {
		out[path] = true
		if depth > 12 {
			return
		}
		switch n.kind {
		case kindObject:
			for k, c := range n.fields {
				walk(c, joinPath(path, k), depth+1)
			}
		case kindArray:
			walk(n.elem, path+"[]", depth+1)
		}
	}
	walk(n, "", 0)
	return out
}

// errorTree is what the client reads of a failed answer: the envelope, with
// its error member read as the error body when it is an object.
func errorTree(envelope, body reflect.Type) *node {
	n := readTree(envelope)
	if n.kind == kindObject {
		n.fields["error"] = mergeNodes(n.fields["error"], readTree(body))
	}
	return n
}

func joinPath(parent, key string) string {
	if parent == "" {
		return key
	}
	return parent + "." + key
}

// parentPath is the place holding path: "items[]" for "items[].id", "items"
// for "items[]", "" for "items".
func parentPath(path string) string {
	if strings.HasSuffix(path, "[]") {
		return strings.TrimSuffix(path, "[]")
	}
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		return path[:i]
	}
	return ""
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// unionKeys returns the keys of a and b, sorted, each once.
func unionKeys[V any](a, b map[string]V) []string {
	all := make(map[string]bool, len(a)+len(b))
	for k := range a {
		all[k] = true
	}
	for k := range b {
		all[k] = true
	}
	return sortedKeys(all)
}
