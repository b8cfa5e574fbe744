package parity

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/emulator"
)

// Shapes is everything one side answered, without a value: per operation
// the statuses and the shape of its answers, the probes (a missing object,
// a bad key, page sizes) and the rate-limit headers. It is what a recording
// holds (record.go).
type Shapes struct {
	// Format is the recording format (recordFormat).
	Format int `json:"format"`
	// RecordedFrom is "service" or "emulator".
	RecordedFrom string `json:"recorded_from,omitempty"`
	// Operations by operation id.
	Operations map[string]*OpShape `json:"operations"`
	// Probes by operation id and kind ("getApiV31AuthConfigs limit=1").
	Probes map[string]*Probe `json:"probes"`
	// Headers are the rate-limit and request-id headers of every answer.
	Headers *Headers `json:"headers"`
	// Skipped names the operations not read, with the reason.
	Skipped map[string]string `json:"skipped,omitempty"`
}

// OpShape is what the reads of one operation answered.
type OpShape struct {
	Method string `json:"method"`
	Path   string `json:"path"`
	// Statuses counts the answers by HTTP status.
	Statuses map[int]int `json:"statuses"`
	// NotJSON counts answers whose body was not JSON.
	NotJSON int `json:"not_json,omitempty"`
	// Shape is the shape of the successful answers.
	Shape *Shape `json:"shape"`
}

// The probes: reads that show how a side answers what is not a plain read.
const (
	probeMissing  = "missing object"
	probeBadKey   = "bad key"
	probeLimitOne = "limit=1"
)

var probeLimitAbove = "limit=" + strconv.Itoa(limitAboveMax)

// Probe is the answer to one probe read.
type Probe struct {
	Op     string `json:"operation"`
	Kind   string `json:"kind"`
	Status int    `json:"status"`
	// Shape is the answer's shape: the error envelope, or the page.
	Shape *Shape `json:"shape"`
	// OverLimit is set when a limit=1 page held more than one item.
	OverLimit bool `json:"over_limit,omitempty"`
}

// Headers counts the rate-limit and request-id headers over every answer.
type Headers struct {
	Answers int                    `json:"answers"`
	Seen    map[string]*HeaderSeen `json:"seen"`
}

// HeaderSeen is one header: how many answers carried it and the kinds of its
// values (integer, duration, other), never the values.
type HeaderSeen struct {
	Count int            `json:"count"`
	Kinds map[string]int `json:"kinds"`
}

// comparedHeader selects the headers compared.
var comparedHeader = regexp.MustCompile(`(?i)(rate-?limit|^retry-after|^x-request-id$)`)

var (
	integerValue  = regexp.MustCompile(`^-?[0-9]+$`)
	durationValue = regexp.MustCompile(`^[0-9.]+(ms|s|m|h)$`)
)

func (h *Headers) add(header http.Header) {
	h.Answers++
	for name, vals := range header {
		if !comparedHeader.MatchString(name) || len(vals) == 0 {
			continue
		}
		name = strings.ToLower(name)
		hs := h.Seen[name]
		if hs == nil {
			hs = &HeaderSeen{Kinds: map[string]int{}}
			h.Seen[name] = hs
		}
		hs.Count++
		v := strings.TrimSpace(vals[0])
		switch {
		case integerValue.MatchString(v):
			hs.Kinds["integer"]++
		case durationValue.MatchString(v):
			hs.Kinds["duration"]++
		default:
			hs.Kinds["other"]++
		}
	}
}

func newShapes() *Shapes {
	return &Shapes{Format: recordFormat, Operations: map[string]*OpShape{}, Probes: map[string]*Probe{},
		Headers: &Headers{Seen: map[string]*HeaderSeen{}}, Skipped: map[string]string{}}
}

// planned is a read operation of the plan with its route from the
// emulator's operation table.
type planned struct {
	readOp
	method, path, clientMethod string
	read                       *node
}

// resolvePlan joins the plan to the operation table.
func resolvePlan(plan []readOp) ([]planned, error) {
	table := map[string]emulator.Operation{}
	for _, op := range emulator.Operations() {
		table[op.ID] = op
	}
	out := make([]planned, 0, len(plan))
	for _, op := range plan {
		t, ok := table[op.id]
		if !ok {
			return nil, fmt.Errorf("parity: the plan names %s, which the operation table does not list", op.id)
		}
		if t.Method != http.MethodGet {
			return nil, fmt.Errorf("parity: the plan names %s, a %s: the check sends only GET", op.id, t.Method)
		}
		out = append(out, planned{readOp: op, method: t.Method, path: t.Path, clientMethod: t.ClientMethod, read: readTree(op.decodes...)})
	}
	return out, nil
}

// errorRead is what the client reads of a failed answer.
var errorRead = errorTree(client.ErrorEnvelopeType(), client.ErrorBodyType())

// RefusedError stops the check: a side refused the key of its first read.
type RefusedError struct {
	Side   string // "service", "emulator"
	EnvVar string // the variable holding the refused key
	Method string
	Path   string
	Status int
	Sent   int // requests sent to that side
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("the %s refused %s: %s %s answered %d %s. Check the key (and that SERVICE_BASE_URL is the service it belongs to); "+
		"nothing else was sent (%d request(s) to it in all)", e.Side, e.EnvVar, e.Method, e.Path, e.Status, http.StatusText(e.Status), e.Sent)
}

// sideReads is what one side has answered so far: the items of each list
// (ids for the reads of one object, slugs for later list queries).
type sideReads struct {
	items map[string][][]map[string]any
	// unlisted are the ids of objects no list names (tool-router
	// sessions), by the read operation: the ids the emulator's side was
	// seeded with (none on the service's side).
	unlisted map[string][]string
}

// values are up to limit distinct string members key of the items of op's
// answers, at most perAnswer from each answer.
func (r *sideReads) values(op, key string, limit int) []string {
	return r.valuesPer(op, key, limit, limit)
}

func (r *sideReads) valuesPer(op, key string, perAnswer, limit int) []string {
	var out []string
	seen := map[string]bool{}
	for _, items := range r.items[op] {
		n := 0
		for _, it := range items {
			if n >= perAnswer || len(out) >= limit {
				break
			}
			if v, ok := it[key].(string); ok && v != "" && !seen[v] {
				seen[v] = true
				out = append(out, v)
				n++
			}
		}
	}
	return out
}

// listItems are the objects of a list answer: items, data or instances, or
// the answer itself when it is an array.
func listItems(body any) []map[string]any {
	var arr []any
	switch b := body.(type) {
	case []any:
		arr = b
	case map[string]any:
		for _, k := range []string{"items", "data", "instances"} {
			if a, ok := b[k].([]any); ok {
				arr = append(arr, a...)
			}
		}
	}
	var out []map[string]any
	for _, e := range arr {
		if m, ok := e.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// collector reads the plan on one side.
type collector struct {
	s     *side
	out   *Shapes
	reads *sideReads
}

// collect sends the plan's reads to s and returns the shapes of its
// answers. It checks each key first (checkKeys): a refused key stops
// everything with a *RefusedError. unlisted are the ids of objects no list
// names that s holds, by read operation (nil: none known).
func collect(ctx context.Context, s *side, plan []planned, unlisted map[string][]string) (*Shapes, error) {
	c := &collector{s: s, out: newShapes(), reads: &sideReads{items: map[string][][]map[string]any{}, unlisted: unlisted}}
	if err := c.checkKeys(ctx, plan); err != nil {
		return nil, err
	}
	for _, op := range plan {
		if op.org && s.orgKey == "" {
			c.out.Skipped[op.id] = "SERVICE_ORG_API_KEY is not set"
			continue
		}
		c.out.Operations[op.id] = &OpShape{Method: op.method, Path: op.path, Statuses: map[int]int{}, Shape: newShape()}
		var err error
		if op.byID() {
			err = c.readObjects(ctx, op)
		} else {
			err = c.readList(ctx, op)
		}
		if err != nil {
			return nil, err
		}
	}
	// a bad key, once per kind of key, on the first list taking it
	for _, op := range firstLists(plan, s.orgKey != "") {
		cred := credBadProject
		if op.org {
			cred = credBadOrg
		}
		if err := c.probe(ctx, op, probeBadKey, op.path, nil, cred); err != nil {
			return nil, err
		}
	}
	return c.out, nil
}

// firstLists are the first list of the plan taking the project's key and,
// with org, the first taking the organization's.
func firstLists(plan []planned, org bool) []planned {
	var out []planned
	seen := map[bool]bool{}
	for _, op := range plan {
		if op.byID() || seen[op.org] || (op.org && !org) {
			continue
		}
		seen[op.org] = true
		out = append(out, op)
	}
	return out
}

// checkKeys reads one item of the first list with each key before anything
// else: a key the side refuses (401, 403) stops the check there, with
// nothing else sent.
func (c *collector) checkKeys(ctx context.Context, plan []planned) error {
	for _, op := range firstLists(plan, c.s.orgKey != "") {
		a, err := c.send(ctx, op.path, url.Values{"limit": {"1"}}, op.cred())
		if err != nil {
			return err
		}
		if a.status == http.StatusUnauthorized || a.status == http.StatusForbidden {
			env := "SERVICE_API_KEY"
			if op.org {
				env = "SERVICE_ORG_API_KEY"
			}
			return &RefusedError{Side: c.s.name, EnvVar: env, Method: http.MethodGet, Path: client.APIPrefix + op.path,
				Status: a.status, Sent: c.s.sent}
		}
	}
	return nil
}

func (op planned) cred() credential {
	if op.org {
		return credOrg
	}
	return credProject
}

// send is one read; an error (the side unreachable) stops the check.
func (c *collector) send(ctx context.Context, path string, q url.Values, cred credential) (*answer, error) {
	a, err := c.s.get(ctx, path, q, cred)
	if err != nil {
		return nil, fmt.Errorf("the %s: %w", c.s.name, err)
	}
	c.out.Headers.add(a.header)
	return a, nil
}

// record adds a plain read's answer to op's shape.
func (c *collector) record(op planned, a *answer) {
	sh := c.out.Operations[op.id]
	sh.Statuses[a.status]++
	if !a.isJSON {
		sh.NotJSON++
		return
	}
	if a.ok() {
		sh.Shape.add(a.body, op.read)
		if !op.byID() {
			c.reads.items[op.id] = append(c.reads.items[op.id], listItems(a.body))
		}
	}
}

func (c *collector) readList(ctx context.Context, op planned) error {
	queries := []url.Values{nil}
	if op.queries != nil {
		queries = op.queries(c.reads)
	}
	for i, q := range queries {
		a, err := c.send(ctx, op.path, q, op.cred())
		if err != nil {
			return err
		}
		c.record(op, a)
		if i == 0 && op.paging != pagingNone {
			if err := c.readPages(ctx, op, q); err != nil {
				return err
			}
		}
	}
	if op.then == nil {
		return nil
	}
	for _, q := range op.then(c.reads) {
		a, err := c.send(ctx, op.path, q, op.cred())
		if err != nil {
			return err
		}
		c.record(op, a)
	}
	return nil
}

// readPages reads a page of one item, the page after it when there is one,
// and a page above every maximum.
func (c *collector) readPages(ctx context.Context, op planned, q url.Values) error {
	q1 := withParam(q, "limit", "1")
	if op.paging == pagingNumbered {
		q1.Set("page_no", "1")
	}
	a, err := c.send(ctx, op.path, q1, op.cred())
	if err != nil {
		return err
	}
	c.record(op, a)
	c.addProbe(op, probeLimitOne, a).OverLimit = a.ok() && len(listItems(a.body)) > 1
	if a.ok() {
		var next url.Values
		body, _ := a.body.(map[string]any)
		switch op.paging {
		case pagingCursor:
			if cur, ok := body["next_cursor"].(string); ok && cur != "" {
				next = withParam(q1, "cursor", cur)
			}
		case pagingNumbered:
			if tp, ok := body["total_pages"].(float64); ok && tp > 1 {
				next = withParam(q1, "page_no", "2")
			}
		}
		if next != nil {
			a2, err := c.send(ctx, op.path, next, op.cred())
			if err != nil {
				return err
			}
			c.record(op, a2)
		}
	}
	return c.probe(ctx, op, probeLimitAbove, op.path, withParam(q, "limit", strconv.Itoa(limitAboveMax)), op.cred())
}

func withParam(q url.Values, k, v string) url.Values {
	out := maps.Clone(q)
	if out == nil {
		out = url.Values{}
	}
	out.Set(k, v)
	return out
}

var pathParam = regexp.MustCompile(`\{[^}]+\}`)

func (c *collector) readObjects(ctx context.Context, op planned) error {
	ids := c.reads.valuesPer(op.from, op.key, idsPerList, 2*idsPerList)
	if op.unlisted != "" {
		ids = c.reads.unlisted[op.id]
	}
	for _, id := range ids {
		a, err := c.send(ctx, pathParam.ReplaceAllLiteralString(op.path, url.PathEscape(id)), nil, op.cred())
		if err != nil {
			return err
		}
		c.record(op, a)
	}
	sample := ""
	if len(ids) > 0 {
		sample = ids[0]
	}
	missing := missingLike(sample, op.key, op.missing)
	return c.probe(ctx, op, probeMissing, pathParam.ReplaceAllLiteralString(op.path, url.PathEscape(missing)), nil, op.cred())
}

// probe sends one probe read and keeps its answer.
func (c *collector) probe(ctx context.Context, op planned, kind, path string, q url.Values, cred credential) error {
	a, err := c.send(ctx, path, q, cred)
	if err != nil {
		return err
	}
	c.addProbe(op, kind, a)
	return nil
}

func (c *collector) addProbe(op planned, kind string, a *answer) *Probe {
	p := &Probe{Op: op.id, Kind: kind, Status: a.status, Shape: newShape()}
	read := errorRead
	if a.ok() {
		read = op.read
	}
	if a.isJSON {
		p.Shape.add(a.body, read)
	}
	c.out.Probes[op.id+" "+kind] = p
	return p
}

var (
	prefixedID = regexp.MustCompile(`^([A-Za-z]+_)([A-Za-z0-9]+)$`)
	uuidID     = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
)

// missingLike is an id of the same form as sample that names no object
// (prefix kept, the rest zeros), or fallback when sample has no such form.
func missingLike(sample, key, fallback string) string {
	if key != "id" {
		return fallback
	}
	if m := prefixedID.FindStringSubmatch(sample); m != nil {
		return m[1] + strings.Repeat("0", len(m[2]))
	}
	if uuidID.MatchString(sample) {
		return "00000000-0000-4000-8000-000000000000"
	}
	return fallback
}
