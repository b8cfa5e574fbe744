package provider

// Every request the tests of this package send to an in-process emulator is
// checked against the contract's request types (internal/testutil/
// contractcheck): each test has a listener of its own in front of the
// shared emulator (testAccEnvironment), checked when the test ends; what
// reaches the shared listener itself, or a test's listener after its check,
// is checked when the test binary ends (testAccCheckLateRequests).

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/integration-service/terraform-provider-service/internal/testutil/contractcheck"
)

var (
	// testAccSharedHandler is the shared emulator's handler.
	testAccSharedHandler http.Handler
	// testAccSharedRecorder records what reaches the shared listener itself
	// (a provider server made without testAccProviders, say).
	testAccSharedRecorder *contractcheck.Recorder
	// testAccRecordings holds each test's recording (testing.TB -> *testAccRecording).
	testAccRecordings sync.Map
	// testAccChecked lists the recordings whose test has ended.
	testAccCheckedMu sync.Mutex
	testAccChecked   []*testAccRecording
)

// testAccRecording is a test's own listener in front of the shared emulator.
type testAccRecording struct {
	url string
	rec *contractcheck.Recorder // nil without node: nothing is checked
}

// testAccRecorded returns t's recording, starting its listener on first use.
// The listener is never closed (a cleanup registered before it may still
// send requests): its requests after t's check are checked at the end.
func testAccRecorded(t testing.TB) *testAccRecording {
	t.Helper()
	if v, ok := testAccRecordings.Load(t); ok {
		return v.(*testAccRecording)
	}
	r := &testAccRecording{}
	c, skip := contractcheck.Shared(t)
	var h = testAccSharedHandler
	if skip == "" {
		r.rec = contractcheck.NewRecorder(testAccSharedHandler, c.Ops, false)
		r.rec.SetSource(t.Name())
		h = r.rec
	}
	ts := httptest.NewServer(h)
	r.url = ts.URL
	if v, loaded := testAccRecordings.LoadOrStore(t, r); loaded {
		ts.Close()
		return v.(*testAccRecording)
	}
	if r.rec == nil {
		t.Logf("requests of this test are not checked against the contract: %s", skip)
		return r
	}
	t.Cleanup(func() {
		contractcheck.CheckRequests(t, r.rec.Take())
		testAccCheckedMu.Lock()
		testAccChecked = append(testAccChecked, r)
		testAccCheckedMu.Unlock()
	})
	return r
}

// testAccCheckLateRequests checks, when the test binary ends, the requests
// no test's check saw: those sent to the shared listener itself and those a
// test's listener received after its test ended. It reports what is outside
// the contract and returns false then.
func testAccCheckLateRequests() bool {
	c := contractcheck.Started()
	if c == nil {
		return true
	}
	var recs []contractcheck.Record
	if testAccSharedRecorder != nil {
		recs = testAccSharedRecorder.Take()
	}
	testAccCheckedMu.Lock()
	for _, r := range testAccChecked {
		for _, rec := range r.rec.Take() {
			rec.Source += " (after it ended)"
			recs = append(recs, rec)
		}
	}
	testAccCheckedMu.Unlock()
	problems, err := c.RequestProblems(recs)
	if err != nil {
		fmt.Fprintln(os.Stderr, "checking the requests against the contract:", err)
		return false
	}
	if len(problems) > 0 {
		fmt.Fprintf(os.Stderr, "FAIL: %d request(s) outside the contract's request types (@composio/client; accepted deviations: test/contract/exceptions.json):\n  %s\n",
			len(problems), strings.Join(problems, "\n  "))
		return false
	}
	return true
}
