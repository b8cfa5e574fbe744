package contractcheck

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/integration-service/terraform-provider-service/internal/testutil"
)

// Checker is one `node check.mjs serve` process: the operation table and
// the type program are loaded once per test binary, then each Check is a
// line of records in and a line of findings out.
type Checker struct {
	// Dir is test/contract, where check.mjs, the pinned package and
	// exceptions.json are.
	Dir string
	Ops []Operation

	mu     sync.Mutex
	in     io.WriteCloser
	out    *bufio.Reader
	stderr *bytes.Buffer
}

var (
	sharedOnce sync.Once
	shared     *Checker
	sharedSkip string
	sharedErr  error
)

// Shared returns this test binary's checker, starting it on first use
// (installing the pinned packages when node_modules lacks them). skip is
// non-empty, and says why, when node or npm is not installed.
func Shared(tb testing.TB) (c *Checker, skip string) {
	tb.Helper()
	sharedOnce.Do(func() {
		nodeBin, err := exec.LookPath("node")
		if err != nil {
			sharedSkip = "node not found on PATH (" + err.Error() + ")"
			return
		}
		npmBin, err := exec.LookPath("npm")
		if err != nil {
			sharedSkip = "npm not found on PATH (" + err.Error() + ")"
			return
		}
		dir := filepath.Join(testutil.RepoRoot(tb), "test", "contract")
		testutil.NPMInstall(tb, npmBin, dir, os.Environ(), func() bool { return testutil.NPMLockInstalled(dir) })
		shared, sharedErr = start(nodeBin, dir)
	})
	if sharedErr != nil {
		tb.Fatalf("starting the contract checker: %v", sharedErr)
	}
	return shared, sharedSkip
}

func start(nodeBin, dir string) (*Checker, error) {
	// Not bound to a test's context: it serves every test of the binary and
	// ends when the binary does (its stdin closes).
	cmd := exec.Command(nodeBin, "check.mjs", "serve") //nolint:noctx // lives as long as the test binary
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	c := &Checker{Dir: dir, in: in, out: bufio.NewReaderSize(outPipe, 1<<20), stderr: &stderr}
	type ready struct {
		Ready      bool        `json:"ready"`
		Operations []Operation `json:"operations"`
	}
	got := make(chan error, 1)
	var r ready
	go func() {
		line, err := c.out.ReadBytes('\n')
		if err == nil {
			err = json.Unmarshal(line, &r)
		}
		got <- err
	}()
	select {
	case err := <-got:
		if err == nil && (!r.Ready || len(r.Operations) == 0) {
			err = errors.New("its first line is not the operation table")
		}
		if err != nil {
			_ = cmd.Process.Kill()
			return nil, fmt.Errorf("node check.mjs serve did not start (%w): %s", err, stderr.String())
		}
	case <-time.After(5 * time.Minute):
		_ = cmd.Process.Kill()
		return nil, errors.New("node check.mjs serve did not load the types within 5 minutes")
	}
	c.Ops = r.Operations
	return c, nil
}

// Output is check.mjs's report on a list of records.
type Output struct {
	Findings []Finding `json:"findings"`
	Checked  int       `json:"checked"`
	MS       int       `json:"ms"`
	Error    string    `json:"error"`
}

// Check checks recs against the contract and returns check.mjs's report.
func (c *Checker) Check(recs []Record) (Output, error) {
	if recs == nil {
		recs = []Record{}
	}
	b, err := json.Marshal(recs)
	if err != nil {
		return Output{}, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := c.in.Write(append(b, '\n')); err != nil {
		return Output{}, fmt.Errorf("writing to check.mjs: %w (%s)", err, c.stderr.String())
	}
	line, err := c.out.ReadBytes('\n')
	if err != nil {
		return Output{}, fmt.Errorf("reading from check.mjs: %w (%s)", err, c.stderr.String())
	}
	var out Output
	if err := json.Unmarshal(line, &out); err != nil {
		return Output{}, fmt.Errorf("decoding check.mjs's answer: %w", err)
	}
	if out.Error != "" {
		return Output{}, errors.New("check.mjs: " + out.Error)
	}
	return out, nil
}

// Router is a router over the checker's operation table.
func (c *Checker) Router() Router { return Router{Ops: c.Ops} }

// Exceptions reads test/contract/exceptions.json.
func (c *Checker) Exceptions() ([]Deviation, error) {
	return LoadExceptions(filepath.Join(c.Dir, "exceptions.json"))
}

// RequestProblems checks the requests of recs (not their answers) and
// returns one line for each finding no exception covers (class
// client-request): the test that sent it (the record's Source), the
// request, the operation, the member and what is wrong with it.
func (c *Checker) RequestProblems(recs []Record) ([]string, error) {
	if len(recs) == 0 {
		return nil, nil
	}
	exceptions, err := c.Exceptions()
	if err != nil {
		return nil, err
	}
	reqs := make([]Record, len(recs))
	for i, r := range recs {
		r.Response = nil
		reqs[i] = r
	}
	out, err := c.Check(reqs)
	if err != nil {
		return nil, err
	}
	var problems []string
	seen := map[string]bool{}
	for _, f := range out.Findings {
		if f.Direction != "request" {
			continue
		}
		rec := reqs[f.Record]
		d := Deviation{Operation: rec.Operation, Class: "client-request", Path: f.Path, Kind: f.Kind}
		covered := false
		for _, e := range exceptions {
			if e.Covers(d) {
				covered = true
				break
			}
		}
		if covered {
			continue
		}
		p := fmt.Sprintf("%s sent %s %s (operation %s): %s %s: %s", rec.Source, rec.Method, rec.Path, rec.Operation, f.Path, f.Kind, f.Message)
		if !seen[p] {
			seen[p] = true
			problems = append(problems, p)
		}
	}
	return problems, nil
}

// CheckRequests fails tb once for every request of recs outside the
// contract's request types (test/contract/exceptions.json aside), naming
// the test that sent it, the operation and the member. Without node or npm
// it only logs that the requests were not checked.
func CheckRequests(tb testing.TB, recs []Record) {
	tb.Helper()
	if len(recs) == 0 {
		return
	}
	c, skip := Shared(tb)
	if skip != "" {
		tb.Logf("the %d request(s) this test sent were not checked against the contract: %s", len(recs), skip)
		return
	}
	problems, err := c.RequestProblems(recs)
	if err != nil {
		tb.Errorf("checking the requests against the contract: %v", err)
		return
	}
	tb.Logf("%d request(s) this test sent checked against the contract's request types: %d outside them", len(recs), len(problems))
	if len(problems) > 0 {
		tb.Errorf("%d request(s) outside the contract's request types (@composio/client; accepted deviations: test/contract/exceptions.json):\n  %s",
			len(problems), strings.Join(problems, "\n  "))
	}
}

// Started returns this test binary's checker when Shared has started it,
// else nil.
func Started() *Checker {
	if shared == nil {
		return nil
	}
	return shared
}
