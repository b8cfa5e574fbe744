package contractcheck

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
)

// Finding is one problem check.mjs found in a record.
type Finding struct {
	Record    int    `json:"record"`
	Direction string `json:"direction"` // request | response
	Path      string `json:"path"`
	Kind      string `json:"kind"` // missing | type | null | enum | undeclared | status | operation
	Message   string `json:"message"`
}

// Deviation is a finding a test fails on unless excepted. Class says who
// deviates:
//
//	response          the emulator's 2xx body does not fit the response type
//	client-request    the Go client (or the provider through it) sent a request outside the params type
//	accepted-invalid  the emulator answered 2xx to a request outside the params type
//	error-envelope    an error body is not the {"error": {...}} envelope
type Deviation struct {
	Operation string `json:"operation"`
	Class     string `json:"class"`
	Path      string `json:"path"`
	Kind      string `json:"kind"`
	Reason    string `json:"reason,omitempty"`
}

// Key names the deviation: operation, class, path and kind.
func (d Deviation) Key() string { return d.Operation + " " + d.Class + " " + d.Path + " " + d.Kind }

// Covers reports whether exception e accepts deviation d: same operation,
// class and kind, and the same path, or a path under e's "prefix.*".
func (d Deviation) Covers(o Deviation) bool {
	if d.Operation != o.Operation || d.Class != o.Class || d.Kind != o.Kind {
		return false
	}
	if prefix, ok := strings.CutSuffix(d.Path, ".*"); ok {
		return strings.HasPrefix(o.Path, prefix+".")
	}
	return d.Path == o.Path
}

// Occurrence groups the findings of one deviation.
type Occurrence struct {
	Deviation
	Count   int
	Example string
}

// exceptionsFile is exceptions.json: accepted deviations, each with its reason.
type exceptionsFile struct {
	Exceptions []Deviation `json:"exceptions"`
}

// LoadExceptions reads an exceptions file (test/contract/exceptions.json):
// each entry needs an operation, a class, a kind and a reason.
func LoadExceptions(file string) ([]Deviation, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var f exceptionsFile
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	for _, e := range f.Exceptions {
		if e.Operation == "" || e.Class == "" || e.Kind == "" || strings.TrimSpace(e.Reason) == "" {
			return nil, fmt.Errorf("%s: %q needs operation, class, kind and a reason", file, e.Key())
		}
	}
	return f.Exceptions, nil
}

// Classify turns check.mjs findings into deviations (grouped) and the
// undeclared response properties (reported only). A request finding of a
// record whose Source is not "walk" is the client's (client-request); one of
// the walk's counts when the emulator answered it 2xx (accepted-invalid).
// invalid holds "METHOD path" of the requests classified accepted-invalid.
func Classify(recs []Record, findings []Finding) (devs map[string]*Occurrence, undeclared map[string]int, invalid map[string]bool) {
	devs = map[string]*Occurrence{}
	undeclared = map[string]int{}
	invalid = map[string]bool{}
	add := func(rec Record, d Deviation, msg string) {
		o := devs[d.Key()]
		if o == nil {
			o = &Occurrence{Deviation: d, Example: fmt.Sprintf("%s %s -> %d: %s", rec.Method, rec.Path, rec.Status, msg)}
			devs[d.Key()] = o
		}
		o.Count++
	}
	for _, f := range findings {
		rec := recs[f.Record]
		d := Deviation{Operation: rec.Operation, Path: f.Path, Kind: f.Kind}
		switch {
		case f.Direction == "response" && f.Kind == "undeclared":
			undeclared[rec.Operation+" "+f.Path]++
		case f.Direction == "response":
			d.Class = "response"
			add(rec, d, f.Message)
		case rec.Source != "walk":
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
		if msg := EnvelopeProblem(rec); msg != "" {
			add(rec, Deviation{Operation: rec.Operation, Class: "error-envelope", Kind: "shape"}, msg)
		}
	}
	return devs, undeclared, invalid
}

// EnvelopeProblem checks an error body: {"error": {"message", "code", "status", "request_id"}}.
func EnvelopeProblem(rec Record) string {
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

// Compare returns the deviations no exception covers (one line each, with
// its count and an example), and marks in used the exceptions that cover one.
func Compare(devs map[string]*Occurrence, exceptions []Deviation, used []bool) (failed []string) {
	for _, k := range slices.Sorted(maps.Keys(devs)) {
		o := devs[k]
		excepted := false
		for i, e := range exceptions {
			if e.Covers(o.Deviation) {
				excepted = true
				if used != nil {
					used[i] = true
				}
			}
		}
		if !excepted {
			failed = append(failed, fmt.Sprintf("%s (%d×), e.g. %s", k, o.Count, o.Example))
		}
	}
	return failed
}
