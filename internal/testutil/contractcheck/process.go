package contractcheck

import (
	"bufio"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/integration-service/terraform-provider-service/internal/testutil"
)

// StartEmulator is testutil.StartEmulator whose emulator records every API
// request it receives (--record) and, when the test ends, checks them
// against the contract's request types (CheckRecordFile).
func StartEmulator(tb testing.TB, bin string) *testutil.Emulator {
	tb.Helper()
	return StartEmulatorWith(tb, bin, testutil.EmulatorOptions{})
}

// StartEmulatorWith is StartEmulator with options (opts.Record is set).
func StartEmulatorWith(tb testing.TB, bin string, opts testutil.EmulatorOptions) *testutil.Emulator {
	tb.Helper()
	opts.Record = filepath.Join(tb.TempDir(), "requests.jsonl")
	// registered before the emulator's own cleanup, so it runs after the
	// emulator has stopped
	tb.Cleanup(func() { CheckRecordFile(tb, opts.Record, tb.Name()) })
	return testutil.StartEmulatorWith(tb, bin, opts)
}

// recordedRequest is a line of the emulator's --record file.
type recordedRequest struct {
	Method string          `json:"method"`
	Path   string          `json:"path"`
	Query  string          `json:"query"`
	Body   json.RawMessage `json:"body"`
}

// CheckRecordFile checks the requests of an emulator's --record file
// (service-emulator --record, or $SERVICE_EMULATOR_RECORD) against the
// contract's request types, as CheckRequests does; source names the test
// that sent them. A missing file means no request was received.
func CheckRecordFile(tb testing.TB, file, source string) {
	tb.Helper()
	f, err := os.Open(file)
	if os.IsNotExist(err) {
		return
	}
	if err != nil {
		tb.Errorf("reading the emulator's requests: %v", err)
		return
	}
	defer f.Close()
	c, skip := Shared(tb)
	if skip != "" {
		tb.Logf("the requests this test sent were not checked against the contract: %s", skip)
		return
	}
	router := c.Router()
	var recs []Record
	var missed int
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
	for sc.Scan() {
		var q recordedRequest
		if err := json.Unmarshal(sc.Bytes(), &q); err != nil {
			continue // a line cut short by a killed emulator
		}
		u := &url.URL{Path: q.Path, RawQuery: q.Query}
		if rec, ok := router.NewRecord(source, q.Method, u, q.Body, 0, nil); ok {
			recs = append(recs, rec)
		} else {
			missed++
		}
	}
	if err := sc.Err(); err != nil {
		tb.Errorf("reading %s: %v", file, err)
	}
	if missed > 0 {
		tb.Logf("%d request(s) matched no operation of the contract (not checked)", missed)
	}
	CheckRequests(tb, recs)
}
