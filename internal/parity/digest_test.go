package parity

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// The shipped recording is the one the committed digest of the service's
// documents generates (`make shapes`), not one recorded from the emulator,
// and it names the documents and their dates.
func TestRecordingIsGeneratedFromTheDigest(t *testing.T) {
	want, err := generatedRecording(filepath.Join("testdata", "documented-shapes.json"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join("testdata", "service-shapes.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("testdata/service-shapes.json is not what testdata/documented-shapes.json generates: run `make shapes` " +
			"(CONTRIBUTING.md, \"Parity with the service\")")
	}
	rec, err := loadShapes(filepath.Join("testdata", "service-shapes.json"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(rec.RecordedFrom, "emulator") || !strings.HasPrefix(rec.RecordedFrom, "documents: ") {
		t.Errorf("recorded_from %q: want the documents, not the emulator", rec.RecordedFrom)
	}
	for _, doc := range []string{"S3 ", "(2026-11-03)", "C1 ", "(2026-08-28)"} {
		if !strings.Contains(rec.RecordedFrom, doc) {
			t.Errorf("recorded_from %q does not name %q", rec.RecordedFrom, doc)
		}
	}
	d, err := loadDigest(filepath.Join("testdata", "documented-shapes.json"))
	if err != nil {
		t.Fatal(err)
	}
	for id, op := range d.Operations {
		if len(op.Documents) == 0 {
			t.Errorf("%s: the digest names no document for it", id)
		}
	}
}

// A member the documents make optional is "sometimes there", a nullable one
// "sometimes null", and nesting must be declared.
func TestShapeFromMembers(t *testing.T) {
	s, err := shapeFromMembers(map[string]string{"": "object", "items": "array", "items[]": "object",
		"items[].id": "string", "items[].alias": "string?|null", "items[].proxy": "null", "items[].n": "number|string"})
	if err != nil {
		t.Fatal(err)
	}
	objects := s.objects("items[]")
	if objects == 0 || s.Fields["items[].id"].Seen() != objects {
		t.Errorf("a required member: seen %d of %d objects", s.Fields["items[].id"].Seen(), objects)
	}
	alias := s.Fields["items[].alias"]
	if alias.Seen() >= objects || alias.Nulls == 0 || alias.Types["string"] == 0 {
		t.Errorf("an optional nullable member: %+v of %d objects", alias, objects)
	}
	if p := s.Fields["items[].proxy"]; len(p.typeSet()) != 0 || p.Nulls == 0 {
		t.Errorf("always null: %+v", p)
	}
	if got := s.Fields["items[].n"].typeSet(); !reflect.DeepEqual(got, []string{"number", "string"}) {
		t.Errorf("two types: %v", got)
	}
	for _, bad := range []map[string]string{
		{"": "object", "a.b": "string"},
		{"": "object", "a": "string", "a[]": "string"},
		{"": "object", "a": "text"},
	} {
		if _, err := shapeFromMembers(bad); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
}

// `make parity PARITY_RECORD=1` refreshes the digest from what a side
// answered: the recording generated from that digest compares with the side
// without a failure.
func TestDigestFromAnswersRoundTrips(t *testing.T) {
	emulated, plan := collectSeeded(t)
	documented, err := loadDigest(filepath.Join("testdata", "documented-shapes.json"))
	if err != nil {
		t.Fatal(err)
	}
	d := digestFromShapes(emulated, "emulator", plan, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), documented)
	file := filepath.Join(t.TempDir(), "digest.json")
	if err := saveDigest(file, d); err != nil {
		t.Fatal(err)
	}
	back, err := loadDigest(file)
	if err != nil {
		t.Fatal(err)
	}
	regenerated, err := shapesFromDigest(back, plan)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(regenerated.RecordedFrom, "emulator") || !strings.Contains(regenerated.RecordedFrom, "2026-12-01") {
		t.Errorf("recorded_from %q: want the side and the date", regenerated.RecordedFrom)
	}
	c := compare(plan, "digest", regenerated, "emulator", emulated)
	if c.failures() > 0 {
		var report bytes.Buffer
		printReport(&report, c, false)
		t.Errorf("the side differs from its own digest:\n%s", report.String())
	}
}

// A member only some kinds of object carry (a custom toolkit's MCP URL) is
// not compared when the side lacking it held no object of that kind: a
// stand-in of the service whose project holds no custom toolkit does not
// fail on it. A side that held one and lacks it still fails.
func TestMemberOfOneKindNotComparedWhenNoneHeld(t *testing.T) {
	plan, err := resolvePlan(readPlan)
	if err != nil {
		t.Fatal(err)
	}
	var op planned
	for _, p := range plan {
		if p.id == "getApiV31ToolkitsBySlug" {
			op = p
		}
	}
	native := `{"slug":"github","type":"native","meta":{"app_url":"https://github.com"}}`
	custom := `{"slug":"CUSTOM_X","type":"custom","meta":{"app_url":"https://x.example/mcp","mcp_url":"https://x.example/mcp"}}`
	customWithout := `{"slug":"CUSTOM_Y","type":"custom","meta":{"app_url":"https://y.example/mcp"}}`
	run := func(service []string, emulator []string) *finding {
		c := &comparison{a: "service", b: "emulator"}
		r := &opResult{op: op}
		c.compareShape(r, "", shapeOf(t, op.read, service...), shapeOf(t, op.read, emulator...), op.read.paths(), true)
		for _, f := range append(r.onlyA, r.onlyB...) {
			if f.path == "meta.mcp_url" {
				return &f
			}
		}
		return nil
	}
	f := run([]string{native, native}, []string{custom, custom})
	if f == nil || f.fails || !strings.Contains(f.detail, "not compared") || !strings.Contains(f.detail, "custom toolkits") {
		t.Errorf("a service holding no custom toolkit: %+v, want meta.mcp_url not compared", f)
	}
	f = run([]string{customWithout, customWithout}, []string{custom, custom})
	if f == nil || !f.fails {
		t.Errorf("a service holding a custom toolkit without it: %+v, want a failing difference", f)
	}
}

// A digest refreshed from a side that answered no object to a read (the
// service lists no tool-router sessions, so the check reads none of them)
// keeps the documents' entry for it, with the documents it names, so that
// the recording can still be generated from it.
func TestDigestFromAnswersKeepsTheDocumentsOfReadsNotAnswered(t *testing.T) {
	plan, err := resolvePlan(readPlan)
	if err != nil {
		t.Fatal(err)
	}
	documented, err := loadDigest(filepath.Join("testdata", "documented-shapes.json"))
	if err != nil {
		t.Fatal(err)
	}
	const op = "getApiV31ToolRouterSessionBySessionId"
	d := digestFromShapes(newShapes(), "service", plan, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), documented)
	kept := d.Operations[op]
	if kept == nil {
		t.Fatalf("%s: not kept from the documents", op)
	}
	if !strings.Contains(kept.Note, "answered no object") || kept.Members["session_id"] != "string" {
		t.Errorf("%s kept as %+v, want the documents' members and a note saying why", op, kept)
	}
	ids := map[string]bool{}
	for _, doc := range d.Documents {
		ids[doc.ID] = true
	}
	if !ids["service"] || !ids["C1"] || !ids["S3"] {
		t.Errorf("documents %v: want the side's and those the kept entry names (C1, S3)", d.Documents)
	}
	if nothing := digestFromShapes(newShapes(), "service", plan, time.Now(), nil); len(nothing.Operations) != 0 {
		t.Errorf("without a digest to refresh: %d operations, want none", len(nothing.Operations))
	}
}
