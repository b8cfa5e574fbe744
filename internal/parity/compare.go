package parity

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// What the comparison finds, per operation, in the groups the report
// prints. A finding fails the check only when it is about something the
// provider reads (a member of the decode types, the status of a missing
// object or of a bad key) and cannot come from which objects exist: a member
// one side lacks although it had a sample of the object holding it, or JSON
// types that differ. Everything else is reported and never fails: no sample
// on a side, null on one side and a value on the other, a member present
// sometimes, enum values seen on one side only, page sizes, headers.
type finding struct {
	path   string
	detail string
	fails  bool
}

type opResult struct {
	op planned
	// answers per side (a, b)
	answersA, answersB int
	// notCompared says why the operation was not compared ("" when it was).
	notCompared   string
	same          []string
	onlyA, onlyB  []finding
	differentType []finding
	notes         []finding
}

type comparison struct {
	a, b    string // the sides' names: "service" (or "recording") and "emulator"
	ops     []*opResult
	headers []finding
}

func (c *comparison) failures() int {
	n := 0
	for _, r := range c.ops {
		for _, group := range [][]finding{r.onlyA, r.onlyB, r.differentType, r.notes} {
			for _, f := range group {
				if f.fails {
					n++
				}
			}
		}
	}
	return n
}

func (c *comparison) reported() int {
	n := len(c.headers)
	for _, r := range c.ops {
		n += len(r.onlyA) + len(r.onlyB) + len(r.differentType) + len(r.notes)
	}
	return n
}

// compare compares side a's shapes with side b's, operation by operation.
func compare(plan []planned, aName string, a *Shapes, bName string, b *Shapes) *comparison {
	c := &comparison{a: aName, b: bName}
	for _, op := range plan {
		r := &opResult{op: op}
		c.ops = append(c.ops, r)
		sa, sb := a.Operations[op.id], b.Operations[op.id]
		switch {
		case sa == nil || sb == nil:
			why := a.Skipped[op.id]
			if why == "" {
				why = b.Skipped[op.id]
			}
			if why == "" {
				missing := aName
				if sa != nil {
					missing = bName
				}
				why = "the " + missing + " has no answer recorded for it"
			}
			r.notCompared = why
			continue
		}
		r.answersA, r.answersB = sa.Shape.Answers, sb.Shape.Answers
		c.compareStatuses(r, "", sa.Statuses, sb.Statuses, true)
		if sa.NotJSON != sb.NotJSON {
			r.notes = append(r.notes, finding{path: "body", detail: fmt.Sprintf("answers that are not JSON: %s %d, %s %d", aName, sa.NotJSON, bName, sb.NotJSON), fails: true})
		}
		switch {
		case op.unlisted != "" && r.answersA == 0 && r.answersB == 0:
			// Expected: only the missing-object probe is sent (compared below).
		case r.answersA == 0 || r.answersB == 0:
			none := aName
			if r.answersA > 0 {
				none = bName
			}
			r.notes = append(r.notes, finding{path: "answers", detail: "no successful answer on the " + none + " (no object of this kind listed there): fields not compared"})
		default:
			c.compareShape(r, "", sa.Shape, sb.Shape, op.read.paths(), true)
		}
		c.compareProbes(r, a, b)
	}
	c.compareHeaders(a.Headers, b.Headers)
	return c
}

// compareStatuses compares the sets of statuses; failing says whether a
// difference fails the check.
func (c *comparison) compareStatuses(r *opResult, prefix string, a, b map[int]int, failing bool) {
	ka, kb := statusSet(a), statusSet(b)
	if slices.Equal(ka, kb) || len(ka) == 0 || len(kb) == 0 {
		return // the same, or nothing read on a side (reported as no answer)
	}
	r.notes = append(r.notes, finding{path: prefix + "status", detail: fmt.Sprintf("%s %s, %s %s", c.a, statusList(ka), c.b, statusList(kb)), fails: failing})
}

func statusSet(m map[int]int) []int {
	var out []int
	for s, n := range m {
		if n > 0 {
			out = append(out, s)
		}
	}
	sort.Ints(out)
	return out
}

func statusList(s []int) string {
	if len(s) == 0 {
		return "none"
	}
	parts := make([]string, len(s))
	for i, v := range s {
		parts[i] = strconv.Itoa(v)
	}
	return strings.Join(parts, ", ")
}

// compareShape compares two shapes of the same answers; read is every path
// the client reads, failing whether differences there fail the check.
func (c *comparison) compareShape(r *opResult, prefix string, a, b *Shape, read map[string]bool, failing bool) {
	for _, p := range unionKeys(a.Fields, b.Fields) {
		fa, fb := a.Fields[p], b.Fields[p]
		name := prefix + displayPath(p)
		isRead := read[p] && failing
		why := ""
		if read[p] {
			why = " (read by the provider)"
		}
		switch {
		case fa != nil && fb != nil:
			c.compareField(r, name, p, a, b, fa, fb, isRead, why)
		case fa != nil:
			if f, ok := c.onlyOn(p, name, fa, a, b, c.b, isRead, why); ok {
				r.onlyA = append(r.onlyA, notComparedByKind(r.op, p, b, c.b, f))
			}
		default:
			if f, ok := c.onlyOn(p, name, fb, b, a, c.a, isRead, why); ok {
				r.onlyB = append(r.onlyB, notComparedByKind(r.op, p, a, c.a, f))
			}
		}
	}
}

// onlyOn is the finding for a place seen on one side only (f there, in
// shape in); other is the side without it. Only the outermost place of a
// subtree missing on the other side is a finding (ok false for the places
// inside it, which it counts).
func (c *comparison) onlyOn(p, name string, f *Field, in, other *Shape, otherName string, isRead bool, why string) (finding, bool) {
	parent := parentPath(p)
	if p != "" && other.Fields[parent] == nil {
		return finding{}, false
	}
	types := strings.Join(f.typeSet(), "|")
	if types == "" {
		types = "null"
	}
	if inside := countInside(in, p); inside > 0 {
		types += fmt.Sprintf(" (and %d place(s) inside it)", inside)
	}
	switch {
	case strings.HasSuffix(p, "[]"):
		return finding{path: name, detail: types + ": no element on the " + otherName + " to compare (its lists were empty)"}, true
	case other.objects(parent) == 0:
		return finding{path: name, detail: types + ": no sample of " + displayPath(parent) + " on the " + otherName}, true
	case p != "" && f.Seen() < in.objects(parent):
		// an optional member: its absence on the other side is one of the
		// forms the side having it allows
		return finding{path: name, detail: types + ": present on some objects only, never on the " + otherName + why}, true
	}
	return finding{path: name, detail: types + why, fails: isRead}, true
}

// notComparedByKind makes f, a place the side named otherName (shape other)
// lacks, "not compared" when only some kinds of object carry it and that
// side held none of them: absent because none is held, not a difference.
func notComparedByKind(op planned, p string, other *Shape, otherName string, f finding) finding {
	k := op.kindRule(p)
	if k == nil || k.holds(other) {
		return f
	}
	f.fails = false
	f.detail += "; not compared: only " + k.what + " carry it (" + k.discriminator + " " + k.value + ") and the " + otherName + " held none"
	return f
}

// countInside counts the places of s below p.
func countInside(s *Shape, p string) int {
	n := 0
	for q := range s.Fields {
		for a := q; a != "" && a != p; {
			a = parentPath(a)
			if a == p {
				n++
				break
			}
		}
	}
	return n
}

func (c *comparison) compareField(r *opResult, name, p string, a, b *Shape, fa, fb *Field, isRead bool, why string) {
	ta, tb := fa.typeSet(), fb.typeSet()
	switch {
	case len(ta) == 0 && len(tb) > 0, len(ta) > 0 && len(tb) == 0:
		r.same = append(r.same, name)
		r.notes = append(r.notes, finding{path: name, detail: fmt.Sprintf("always null on the %s, %s on the %s",
			c.sideWithout(ta), strings.Join(append(ta, tb...), "|"), c.sideWith(ta))})
		return
	case !slices.Equal(ta, tb):
		r.differentType = append(r.differentType, finding{path: name,
			detail: fmt.Sprintf("%s %s, %s %s%s", c.a, strings.Join(ta, "|"), c.b, strings.Join(tb, "|"), why), fails: isRead})
		return
	}
	r.same = append(r.same, name)
	if (fa.Nulls > 0) != (fb.Nulls > 0) && len(ta) > 0 {
		nullOn := c.a
		if fb.Nulls > 0 {
			nullOn = c.b
		}
		r.notes = append(r.notes, finding{path: name, detail: "sometimes null on the " + nullOn + " only"})
	}
	if p != "" && !strings.HasSuffix(p, "[]") {
		parent := parentPath(p)
		oa, ob := a.objects(parent), b.objects(parent)
		alwaysA, alwaysB := fa.Seen() >= oa, fb.Seen() >= ob
		if oa > 0 && ob > 0 && alwaysA != alwaysB {
			always, sometimes := c.a, c.b
			if alwaysB {
				always, sometimes = c.b, c.a
			}
			r.notes = append(r.notes, finding{path: name, detail: "always present on the " + always + ", sometimes on the " + sometimes})
		}
	}
	if fa.Enum != nil && fb.Enum != nil {
		onlyA, onlyB := setMinus(fa.Enum, fb.Enum), setMinus(fb.Enum, fa.Enum)
		if len(onlyA)+len(onlyB) > 0 {
			var parts []string
			if len(onlyA) > 0 {
				parts = append(parts, "only on the "+c.a+": "+strings.Join(onlyA, ", "))
			}
			if len(onlyB) > 0 {
				parts = append(parts, "only on the "+c.b+": "+strings.Join(onlyB, ", "))
			}
			r.notes = append(r.notes, finding{path: name, detail: "enum values seen " + strings.Join(parts, "; ")})
		}
	}
}

func (c *comparison) sideWithout(ta []string) string {
	if len(ta) == 0 {
		return c.a
	}
	return c.b
}

func (c *comparison) sideWith(ta []string) string {
	if len(ta) == 0 {
		return c.b
	}
	return c.a
}

func setMinus(a, b map[string]bool) []string {
	var out []string
	for v := range a {
		if !b[v] {
			out = append(out, v)
		}
	}
	sort.Strings(out)
	return out
}

// compareProbes compares op's probes: the status and the envelope of a
// missing object and of a bad key fail the check when they differ in what
// the client reads; page-size probes are reported only.
func (c *comparison) compareProbes(r *opResult, a, b *Shapes) {
	kinds := map[string]bool{}
	for _, s := range []*Shapes{a, b} {
		for _, p := range s.Probes {
			if p.Op == r.op.id {
				kinds[p.Kind] = true
			}
		}
	}
	for _, kind := range sortedKeys(kinds) {
		pa, pb := a.Probes[r.op.id+" "+kind], b.Probes[r.op.id+" "+kind]
		prefix := "[" + kind + "] "
		if pa == nil || pb == nil {
			r.notes = append(r.notes, finding{path: prefix + "read", detail: "made on one side only"})
			continue
		}
		failing := kind == probeMissing || kind == probeBadKey
		c.compareStatuses(r, prefix, map[int]int{pa.Status: 1}, map[int]int{pb.Status: 1}, failing)
		if pa.OverLimit != pb.OverLimit {
			over := c.a
			if pb.OverLimit {
				over = c.b
			}
			r.notes = append(r.notes, finding{path: prefix + "items", detail: "more than one item on the " + over})
		}
		if pa.Status < 300 || pb.Status < 300 {
			// a page is part of the operation's shape already; a page
			// against an error: the status says it all
			continue
		}
		c.compareShape(r, prefix, pa.Shape, pb.Shape, errorRead.paths(), failing)
	}
}

func (c *comparison) compareHeaders(a, b *Headers) {
	if a == nil || b == nil {
		return
	}
	for _, n := range unionKeys(a.Seen, b.Seen) {
		ha, hb := a.Seen[n], b.Seen[n]
		switch {
		case hb == nil:
			c.headers = append(c.headers, finding{path: n, detail: "sent by the " + c.a + " only"})
		case ha == nil:
			c.headers = append(c.headers, finding{path: n, detail: "sent by the " + c.b + " only"})
		default:
			ka, kb := sortedKeys(ha.Kinds), sortedKeys(hb.Kinds)
			if !slices.Equal(ka, kb) {
				c.headers = append(c.headers, finding{path: n, detail: fmt.Sprintf("values: %s %s, %s %s", c.a, strings.Join(ka, "|"), c.b, strings.Join(kb, "|"))})
			}
			if (ha.Count >= a.Answers) != (hb.Count >= b.Answers) {
				always, sometimes := c.a, c.b
				if hb.Count >= b.Answers {
					always, sometimes = c.b, c.a
				}
				c.headers = append(c.headers, finding{path: n, detail: "on every answer of the " + always + ", on some of the " + sometimes})
			}
		}
	}
}

func displayPath(p string) string {
	if p == "" {
		return "(answer)"
	}
	return p
}
