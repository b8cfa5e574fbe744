package contract

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
)

// finding is one problem check.mjs found in a record.
type finding struct {
	Record    int    `json:"record"`
	Direction string `json:"direction"` // request | response
	Path      string `json:"path"`
	Kind      string `json:"kind"` // missing | type | null | enum | undeclared | status | operation
	Message   string `json:"message"`
}

// deviation is a finding the test fails on unless excepted. Class says who
// deviates:
//
//	response          the emulator's 2xx body does not fit the response type
//	client-request    the Go client sent a request outside the params type
//	accepted-invalid  the emulator answered 2xx to a request outside the params type
//	error-envelope    an error body is not the {"error": {...}} envelope
type deviation struct {
	Operation string `json:"operation"`
	Class     string `json:"class"`
	Path      string `json:"path"`
	Kind      string `json:"kind"`
	Reason    string `json:"reason,omitempty"`
}

func (d deviation) key() string { return d.Operation + " " + d.Class + " " + d.Path + " " + d.Kind }

// occurrence groups the findings of one deviation.
type occurrence struct {
	deviation
	count   int
	example string
}

// exceptionsFile is exceptions.json: accepted deviations, each with its reason.
type exceptionsFile struct {
	Exceptions []deviation `json:"exceptions"`
}

func loadExceptions(t *testing.T) []deviation {
	t.Helper()
	b, err := os.ReadFile("exceptions.json")
	if err != nil {
		t.Fatal(err)
	}
	var f exceptionsFile
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		t.Fatalf("exceptions.json: %v", err)
	}
	for _, e := range f.Exceptions {
		if e.Operation == "" || e.Class == "" || e.Kind == "" || strings.TrimSpace(e.Reason) == "" {
			t.Fatalf("exceptions.json: %q needs operation, class, kind and a reason", e.key())
		}
	}
	return f.Exceptions
}

// classify turns check.mjs findings into deviations (grouped) and the
// undeclared response properties (reported only).
// invalid holds "METHOD path" of the requests classified accepted-invalid.
func classify(recs []record, findings []finding) (devs map[string]*occurrence, undeclared map[string]int, invalid map[string]bool) {
	devs = map[string]*occurrence{}
	undeclared = map[string]int{}
	invalid = map[string]bool{}
	add := func(rec record, d deviation, msg string) {
		o := devs[d.key()]
		if o == nil {
			o = &occurrence{deviation: d, example: fmt.Sprintf("%s %s -> %d: %s", rec.Method, rec.Path, rec.Status, msg)}
			devs[d.key()] = o
		}
		o.count++
	}
	for _, f := range findings {
		rec := recs[f.Record]
		d := deviation{Operation: rec.Operation, Path: f.Path, Kind: f.Kind}
		switch {
		case f.Direction == "response" && f.Kind == "undeclared":
			undeclared[rec.Operation+" "+f.Path]++
		case f.Direction == "response":
			d.Class = "response"
			add(rec, d, f.Message)
		case rec.Source == "client":
			d.Class = "client-request"
			add(rec, d, f.Message)
		case f.Kind != "undeclared" && rec.Status >= 200 && rec.Status < 300:
			d.Class = "accepted-invalid"
			add(rec, d, f.Message)
			invalid[rec.Method+" "+rec.Path] = true
		}
	}
	for _, rec := range recs {
		if rec.Status < 400 {
			continue
		}
		if msg := envelopeProblem(rec); msg != "" {
			add(rec, deviation{Operation: rec.Operation, Class: "error-envelope", Kind: "shape"}, msg)
		}
	}
	return devs, undeclared, invalid
}

// envelopeProblem checks an error body: {"error": {"message", "code", "status", "request_id"}}.
func envelopeProblem(rec record) string {
	var env struct {
		Error *struct {
			Message   *string  `json:"message"`
			Code      *float64 `json:"code"`
			Status    *float64 `json:"status"`
			RequestID *string  `json:"request_id"`
		} `json:"error"`
	}
	if err := json.Unmarshal(rec.Response, &env); err != nil || env.Error == nil {
		return "body is not an error envelope: " + string(rec.Response)
	}
	e := env.Error
	switch {
	case e.Message == nil || *e.Message == "":
		return "error.message missing"
	case e.Code == nil:
		return "error.code missing"
	case e.Status == nil || int(*e.Status) != rec.Status:
		return fmt.Sprintf("error.status does not match the HTTP status %d", rec.Status)
	case e.RequestID == nil || *e.RequestID == "":
		return "error.request_id missing"
	}
	return ""
}

// covers reports whether exception e accepts deviation d: same operation,
// class and kind, and the same path, or a path under e's "prefix.*".
func (e deviation) covers(d deviation) bool {
	if e.Operation != d.Operation || e.Class != d.Class || e.Kind != d.Kind {
		return false
	}
	if prefix, ok := strings.CutSuffix(e.Path, ".*"); ok {
		return strings.HasPrefix(d.Path, prefix+".")
	}
	return e.Path == d.Path
}

// compare reports deviations outside the exceptions and stale exceptions.
func compare(t *testing.T, devs map[string]*occurrence, exceptions []deviation) {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "accepted exceptions (exceptions.json): %d\n", len(exceptions))
	for _, e := range exceptions {
		fmt.Fprintf(&b, "  - %s: %s\n", e.key(), e.Reason)
	}
	t.Log(b.String())

	used := make([]bool, len(exceptions))
	var failed []string
	for _, k := range slices.Sorted(maps.Keys(devs)) {
		o := devs[k]
		excepted := false
		for i, e := range exceptions {
			if e.covers(o.deviation) {
				used[i], excepted = true, true
			}
		}
		if !excepted {
			failed = append(failed, fmt.Sprintf("%s (%d×), e.g. %s", k, o.count, o.example))
		}
	}
	var stale []string
	for i, e := range exceptions {
		if !used[i] {
			stale = append(stale, e.key())
		}
	}
	if len(failed) > 0 {
		t.Errorf("%d deviation(s) from the @composio/client types outside exceptions.json:\n  %s", len(failed), strings.Join(failed, "\n  "))
	}
	if len(stale) > 0 {
		t.Errorf("%d stale exception(s) in exceptions.json (no longer observed; remove them):\n  %s", len(stale), strings.Join(stale, "\n  "))
	}
}
