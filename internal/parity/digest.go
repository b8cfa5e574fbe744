package parity

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"time"
)

// The digest (testdata/documented-shapes.json) is the committed account of
// what the service's documents say its answers to the provider's reads look
// like: per operation, each member's JSON type, whether the documents make it
// optional (a "?") and whether they let it be null ("|null"); the error
// envelope of a missing object and of a bad key; the rate-limit headers. The
// recording the suite holds the emulator to (testdata/service-shapes.json)
// is generated from it (shapesFromDigest; `make shapes`), never recorded
// from the emulator. `make parity PARITY_RECORD=1` against the service
// writes the digest again from the service's answers (digestFromShapes), the
// final judge, and regenerates the recording from it.

// DefaultDigest is the digest, relative to the repository root.
const DefaultDigest = "internal/parity/testdata/documented-shapes.json"

const digestFormat = 1

type digest struct {
	Note       string               `json:"note"`
	Format     int                  `json:"format"`
	Documents  []digestDocument     `json:"documents"`
	Operations map[string]*digestOp `json:"operations"`
	// MissingObject and BadKey are the error answers of a missing object
	// and of a bad key.
	MissingObject *digestProbe `json:"missing_object"`
	BadKey        *digestProbe `json:"bad_key"`
	// LimitAboveMax says why the page above every maximum is not recorded
	// (the documents leave it open).
	LimitAboveMax string         `json:"limit_above_max,omitempty"`
	Headers       *digestHeaders `json:"headers"`
}

type digestDocument struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Date string `json:"date"`
}

type digestOp struct {
	// Documents name the document (by id) and the model each shape is
	// taken from.
	Documents []string `json:"documents"`
	Note      string   `json:"note,omitempty"`
	// Members by path (the notation of shapes: "" is the answer,
	// "items[].meta.app_url" a member of the list's items): "string",
	// "string?" (optional), "string|null" (nullable), "object?|null",
	// "string|number", "null" (always null).
	Members map[string]string `json:"members"`
}

type digestProbe struct {
	Status    int               `json:"status"`
	Documents []string          `json:"documents"`
	Note      string            `json:"note,omitempty"`
	Members   map[string]string `json:"members"`
}

type digestHeaders struct {
	Documents []string `json:"documents"`
	// EveryAnswer are the headers on every answer, with the kind of their
	// values (integer, duration, other).
	EveryAnswer map[string]string `json:"every_answer"`
}

func loadDigest(path string) (*digest, error) {
	b, err := os.ReadFile(path) //nolint:gosec // G304: the digest the maintainer names (-digest, -from-digest) or the repository's own
	if err != nil {
		return nil, err
	}
	var d digest
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if d.Format != digestFormat {
		return nil, fmt.Errorf("%s: not a digest of format %d", path, digestFormat)
	}
	return &d, nil
}

// recordedFrom names the digest's documents and their dates, as the
// recording's recorded_from says it.
func (d *digest) recordedFrom() string {
	parts := make([]string, 0, len(d.Documents))
	for _, doc := range d.Documents {
		parts = append(parts, fmt.Sprintf("%s %s (%s)", doc.ID, doc.Name, doc.Date))
	}
	return "documents: " + strings.Join(parts, "; ")
}

// memberSpec is one member's entry in the digest.
type memberSpec struct {
	types    []string
	optional bool
	nullable bool
}

var jsonTypes = map[string]bool{"object": true, "array": true, "string": true, "number": true, "boolean": true}

func parseMember(spec string) (memberSpec, error) {
	var m memberSpec
	for _, part := range strings.Split(spec, "|") {
		part = strings.TrimSpace(part)
		if t, ok := strings.CutSuffix(part, "?"); ok {
			m.optional, part = true, t
		}
		switch {
		case part == "null":
			m.nullable = true
		case jsonTypes[part]:
			m.types = append(m.types, part)
		default:
			return m, fmt.Errorf("%q: %q is not a JSON type (object, array, string, number, boolean, null)", spec, part)
		}
	}
	return m, nil
}

// samplesPerAnswer is how many elements each array of a generated shape
// holds, and samplesBase how many answers there are: enough that an
// optional member is "sometimes" and a nullable one "sometimes null".
const (
	samplesBase      = 4
	samplesPerAnswer = 2
)

// shapeFromMembers makes the shape of answers that are as members say.
func shapeFromMembers(members map[string]string) (*Shape, error) {
	s := newShape()
	s.Answers = samplesBase
	paths := make([]string, 0, len(members))
	for p := range members {
		paths = append(paths, p)
	}
	// parents first: a path is longer than its parent
	sort.Slice(paths, func(i, j int) bool {
		if len(paths[i]) != len(paths[j]) {
			return len(paths[i]) < len(paths[j])
		}
		return paths[i] < paths[j]
	})
	for _, p := range paths {
		m, err := parseMember(members[p])
		if err != nil {
			return nil, fmt.Errorf("member %q: %w", p, err)
		}
		var n int
		switch {
		case p == "":
			n = samplesBase
		case strings.HasSuffix(p, "[]"):
			arr := s.Fields[parentPath(p)]
			if arr == nil || arr.Types["array"] == 0 {
				return nil, fmt.Errorf("member %q: %q is not declared an array", p, parentPath(p))
			}
			n = arr.Types["array"] * samplesPerAnswer
		default:
			parent := s.Fields[parentPath(p)]
			if parent == nil || parent.Types["object"] == 0 {
				return nil, fmt.Errorf("member %q: %q is not declared an object", p, displayPath(parentPath(p)))
			}
			n = parent.Types["object"]
			if m.optional {
				n = (n + 1) / 2
			}
		}
		f := &Field{Types: map[string]int{}}
		switch {
		case len(m.types) == 0:
			f.Nulls = n
		case m.nullable && n > 1:
			f.Nulls = n / 2
			n -= f.Nulls
			fallthrough
		default:
			for i, t := range m.types {
				c := n / len(m.types)
				if i < n%len(m.types) {
					c++
				}
				if c > 0 {
					f.Types[t] = c
				}
			}
		}
		s.Fields[p] = f
	}
	return s, nil
}

// shapesFromDigest is the recording the digest describes, for the reads of
// plan: every operation answered as documented, the missing-object and
// bad-key probes the collector makes, a page of one item where the check
// reads one, the documented headers on every answer.
func shapesFromDigest(d *digest, plan []planned) (*Shapes, error) {
	out := newShapes()
	out.RecordedFrom = d.recordedFrom()
	answers := 0
	for _, op := range plan {
		do := d.Operations[op.id]
		if do == nil {
			return nil, fmt.Errorf("the digest has nothing for %s, which the provider reads", op.id)
		}
		sh, err := shapeFromMembers(do.Members)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", op.id, err)
		}
		out.Operations[op.id] = &OpShape{Method: op.method, Path: op.path, Statuses: map[int]int{200: sh.Answers}, Shape: sh}
		answers += sh.Answers
		if op.byID() {
			probe, err := d.MissingObject.shape()
			if err != nil {
				return nil, fmt.Errorf("missing_object: %w", err)
			}
			out.Probes[op.id+" "+probeMissing] = &Probe{Op: op.id, Kind: probeMissing, Status: d.MissingObject.Status, Shape: probe}
			answers++
		} else if op.paging != pagingNone {
			out.Probes[op.id+" "+probeLimitOne] = &Probe{Op: op.id, Kind: probeLimitOne, Status: 200, Shape: newShape()}
			answers++
		}
	}
	for _, op := range firstLists(plan, true) {
		probe, err := d.BadKey.shape()
		if err != nil {
			return nil, fmt.Errorf("bad_key: %w", err)
		}
		out.Probes[op.id+" "+probeBadKey] = &Probe{Op: op.id, Kind: probeBadKey, Status: d.BadKey.Status, Shape: probe}
		answers++
	}
	for name := range d.Operations {
		if _, ok := out.Operations[name]; !ok {
			return nil, fmt.Errorf("the digest has %s, which the provider does not read (plan.go)", name)
		}
	}
	out.Headers.Answers = answers
	if d.Headers != nil {
		for name, kind := range d.Headers.EveryAnswer {
			out.Headers.Seen[strings.ToLower(name)] = &HeaderSeen{Count: answers, Kinds: map[string]int{kind: answers}}
		}
	}
	return out, nil
}

func (p *digestProbe) shape() (*Shape, error) {
	if p == nil {
		return nil, fmt.Errorf("not in the digest")
	}
	s, err := shapeFromMembers(p.Members)
	if err != nil {
		return nil, err
	}
	s.Answers = 1
	return s, nil
}

// digestFromShapes writes what a side answered as a digest: each member with
// the types seen, optional when it was not on every object holding it,
// nullable when it was null on some. It is how `make parity PARITY_RECORD=1`
// refreshes the digest from the service. An operation the side answered no
// object to (the reads of tool-router sessions, which no list names: only
// their missing-object read is sent) keeps its entry and documents from
// prev, the digest being refreshed (nil: none).
func digestFromShapes(s *Shapes, side string, plan []planned, now time.Time, prev *digest) *digest {
	d := &digest{
		Note: "The shapes of the answers to every read the provider makes, as the " + side + " answered them on " +
			now.UTC().Format("2006-01-02") + " (`make parity PARITY_RECORD=1`): one entry per operation, each member's JSON type " +
			"with ? for a member not on every object and |null for one seen null. `make shapes` generates " +
			"testdata/service-shapes.json from it.",
		Format:     digestFormat,
		Documents:  []digestDocument{{ID: side, Name: "the " + side + "'s answers (make parity)", Date: now.UTC().Format("2006-01-02")}},
		Operations: map[string]*digestOp{},
	}
	for _, op := range plan {
		read := s.Operations[op.id]
		if read == nil || read.Shape == nil || read.Shape.Answers == 0 {
			if prev != nil && prev.Operations[op.id] != nil {
				kept := *prev.Operations[op.id]
				kept.Note = strings.TrimSpace("Kept from the documents: the " + side + " answered no object to this read. " + kept.Note)
				d.Operations[op.id] = &kept
				d.Documents = appendDocuments(d.Documents, prev, kept.Documents)
			}
			continue
		}
		d.Operations[op.id] = &digestOp{Documents: []string{side}, Members: membersOf(read.Shape)}
	}
	for _, p := range s.Probes {
		switch {
		case p.Kind == probeMissing && d.MissingObject == nil && p.Status >= 400:
			d.MissingObject = &digestProbe{Status: p.Status, Documents: []string{side}, Members: membersOf(p.Shape)}
		case p.Kind == probeBadKey && d.BadKey == nil && p.Status >= 400:
			d.BadKey = &digestProbe{Status: p.Status, Documents: []string{side}, Members: membersOf(p.Shape)}
		}
	}
	if s.Headers != nil {
		d.Headers = &digestHeaders{Documents: []string{side}, EveryAnswer: map[string]string{}}
		for name, h := range s.Headers.Seen {
			if h.Count >= s.Headers.Answers {
				d.Headers.EveryAnswer[name] = strings.Join(sortedKeys(h.Kinds), "|")
			}
		}
	}
	return d
}

// appendDocuments adds to docs the documents of prev that refs name (by
// the id before the first space), once each.
func appendDocuments(docs []digestDocument, prev *digest, refs []string) []digestDocument {
	for _, ref := range refs {
		id, _, _ := strings.Cut(ref, " ")
		if slices.ContainsFunc(docs, func(d digestDocument) bool { return d.ID == id }) {
			continue
		}
		if i := slices.IndexFunc(prev.Documents, func(d digestDocument) bool { return d.ID == id }); i >= 0 {
			docs = append(docs, prev.Documents[i])
		}
	}
	return docs
}

func membersOf(s *Shape) map[string]string {
	out := map[string]string{}
	for p, f := range s.Fields {
		spec := strings.Join(f.typeSet(), "|")
		if spec == "" {
			out[p] = "null"
			continue
		}
		if p != "" && !strings.HasSuffix(p, "[]") && f.Seen() < s.objects(parentPath(p)) {
			spec += "?"
		}
		if f.Nulls > 0 {
			spec += "|null"
		}
		out[p] = spec
	}
	return out
}

func saveDigest(path string, d *digest) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(d); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644) //nolint:gosec // G306: a recording of shapes without values, committed to the repository
}

// GenerateRecording writes the recording the digest at digestPath describes
// to recordPath (`make shapes`).
func GenerateRecording(digestPath, recordPath string) error {
	b, err := generatedRecording(digestPath)
	if err != nil {
		return err
	}
	return os.WriteFile(recordPath, b, 0o644) //nolint:gosec // G306: a recording of shapes without values, committed to the repository
}

// generatedRecording is the recording the digest describes, as the bytes
// the file holds.
func generatedRecording(digestPath string) ([]byte, error) {
	d, err := loadDigest(digestPath)
	if err != nil {
		return nil, err
	}
	plan, err := resolvePlan(readPlan)
	if err != nil {
		return nil, err
	}
	s, err := shapesFromDigest(d, plan)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", digestPath, err)
	}
	return encodeRecording(s.RecordedFrom, s)
}
