// Package contract checks the emulator and the Go client against the wire
// contract: the TypeScript types of the official @composio/client (pinned in
// package.json / package-lock.json, installed with `npm ci`).
//
// TestContract runs a scripted walk over every operation the emulator serves
// (each auth scheme of the catalog, each connected account status the API and
// the control routes reach, lists over several pages, errors) and drives
// every operation of the Go client, recording each exchange. check.mjs then
// walks the recorded values against each operation's types with the
// TypeScript type checker. Deviations fail the test unless exceptions.json
// lists them with a reason; exceptions no longer observed fail as stale.
//
// TestEveryOperationAnswers asks the emulator for each of the package's
// operations and requires an implementation or a 501 naming the operation.
//
// Both tests skip only when node or npm is not installed.
package contract

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/integration-service/terraform-provider-service/internal/emulator"
	"github.com/integration-service/terraform-provider-service/internal/testutil/contractcheck"
)

// startEmulator serves an in-process emulator behind a recorder.
func startEmulator(t *testing.T, ops []operation) (*recorder, string) {
	t.Helper()
	srv, err := emulator.New(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	rec := contractcheck.NewRecorder(srv.Handler(), ops, true)
	hs := httptest.NewServer(rec)
	t.Cleanup(hs.Close)
	srv.SetBaseURL(hs.URL)
	return rec, hs.URL
}

func completeAccount(t *testing.T, base, id string) {
	t.Helper()
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, base+"/_emulator/connected_accounts/"+id+"/complete", nil)
	req.Header.Set("x-api-key", apiKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("complete %s: status %d", id, resp.StatusCode)
	}
}

func TestContract(t *testing.T) {
	n := requireNode(t)
	start := time.Now()
	ops := operations(t, n)
	rec, base := startEmulator(t, ops)

	w := &walker{t: t, base: base, hc: &http.Client{Timeout: 30 * time.Second}}
	schemes := w.walkCatalog()
	configs := w.walkAuthConfigs(schemes)
	active := w.walkAccounts(configs)
	w.walkTriggers(active)
	w.walkTools(active)
	w.walkSessions()
	w.walkWebhookSubscriptions()
	w.walkWebhookEndpoints()
	w.walkMCP()

	rec.SetSource("client")
	driveClient(t, base)
	driveMCPClient(t, base)

	recs := rec.Records()
	first := len(recs)
	checked := append(recs, selfTestRecords()...)
	if missed := rec.Missed(); len(missed) > 0 {
		t.Errorf("requests matching no operation of the package: %s", strings.Join(missed, ", "))
	}
	if keep := os.Getenv("CONTRACT_RECORDS_OUT"); keep != "" {
		b, err := json.Marshal(checked)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(keep, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	walked := time.Since(start)
	out := check(t, n, checked)

	checkSelfTest(t, first, out.Findings)
	var walkFindings []finding
	for _, f := range out.Findings {
		if f.Record < first {
			walkFindings = append(walkFindings, f)
		}
	}
	devs, undeclared, invalid := contractcheck.Classify(recs, walkFindings)
	w.checkAccepted(invalid)
	coverage := map[string]map[string]int{} // operation -> source -> count
	for _, r := range recs {
		if coverage[r.Operation] == nil {
			coverage[r.Operation] = map[string]int{}
		}
		coverage[r.Operation][r.Source]++
	}
	t.Logf("checked %d exchanges over %d operations (walk+client %s, type check %dms)", out.Checked, len(coverage), walked.Round(time.Millisecond), out.MS)
	var cov []string
	for _, op := range slices.Sorted(maps.Keys(coverage)) {
		cov = append(cov, fmt.Sprintf("%s walk=%d client=%d", op, coverage[op]["walk"], coverage[op]["client"]))
	}
	t.Logf("operations exercised:\n  %s", strings.Join(cov, "\n  "))
	if len(undeclared) > 0 {
		var u []string
		for _, k := range slices.Sorted(maps.Keys(undeclared)) {
			u = append(u, fmt.Sprintf("%s (%d×)", k, undeclared[k]))
		}
		t.Logf("response properties the types do not declare (reported, not failed): %d\n  %s", len(u), strings.Join(u, "\n  "))
	}
	t.Logf("deviations observed: %d", len(devs))
	compare(t, devs, loadExceptions(t, n))
}
