package contract

import (
	"fmt"
	"strings"
	"testing"

	"github.com/integration-service/terraform-provider-service/internal/testutil/contractcheck"
)

// The recorder, the node checker and the classification of findings are
// internal/testutil/contractcheck's, shared with every test that checks the
// requests it sends to an emulator.
type (
	record    = contractcheck.Record
	finding   = contractcheck.Finding
	operation = contractcheck.Operation
	recorder  = contractcheck.Recorder
)

// requireNode returns the test binary's checker (node check.mjs serve),
// skipping the test when node or npm is missing.
func requireNode(t *testing.T) *contractcheck.Checker {
	t.Helper()
	c, skip := contractcheck.Shared(t)
	if skip != "" {
		t.Skip("contract test skipped: " + skip)
	}
	return c
}

// operations returns the installed package's operation table.
func operations(t *testing.T, n *contractcheck.Checker) []operation {
	t.Helper()
	if len(n.Ops) == 0 {
		t.Fatal("the installed package lists no operations")
	}
	return n.Ops
}

// check runs check.mjs over recs.
func check(t *testing.T, n *contractcheck.Checker, recs []record) contractcheck.Output {
	t.Helper()
	out, err := n.Check(recs)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func loadExceptions(t *testing.T, n *contractcheck.Checker) []contractcheck.Deviation {
	t.Helper()
	ex, err := n.Exceptions()
	if err != nil {
		t.Fatal(err)
	}
	return ex
}

// compare reports deviations outside the exceptions and stale exceptions.
func compare(t *testing.T, devs map[string]*contractcheck.Occurrence, exceptions []contractcheck.Deviation) {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "accepted exceptions (exceptions.json): %d\n", len(exceptions))
	for _, e := range exceptions {
		fmt.Fprintf(&b, "  - %s: %s\n", e.Key(), e.Reason)
	}
	t.Log(b.String())

	used := make([]bool, len(exceptions))
	failed := contractcheck.Compare(devs, exceptions, used)
	var stale []string
	for i, e := range exceptions {
		if !used[i] {
			stale = append(stale, e.Key())
		}
	}
	if len(failed) > 0 {
		t.Errorf("%d deviation(s) from the @composio/client types outside exceptions.json:\n  %s", len(failed), strings.Join(failed, "\n  "))
	}
	if len(stale) > 0 {
		t.Errorf("%d stale exception(s) in exceptions.json (no longer observed; remove them):\n  %s", len(stale), strings.Join(stale, "\n  "))
	}
}
