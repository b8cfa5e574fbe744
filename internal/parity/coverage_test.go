package parity

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/integration-service/terraform-provider-service/internal/emulator"
)

// uncovered compares the GETs the provider sends (reads) with the plan:
// every such operation must be in the plan, decoded into the same types;
// the plan must name nothing else.
func uncovered(reads []clientRead, plan []readOp) []string {
	byTemplate := map[string]string{}
	for _, op := range emulator.Operations() {
		if op.Method == "GET" {
			byTemplate[regexp.MustCompile(`\{[^}]+\}`).ReplaceAllString(op.Path, "{}")] = op.ID
		}
	}
	want := map[string]map[string][]string{} // op -> decode -> positions
	var problems []string
	for _, r := range reads {
		id, ok := byTemplate[r.Path]
		if !ok {
			problems = append(problems, fmt.Sprintf("%s: GET %s is not in the emulator's operation table", r.Pos, r.Path))
			continue
		}
		if want[id] == nil {
			want[id] = map[string][]string{}
		}
		if r.Decode != "" {
			want[id][r.Decode] = append(want[id][r.Decode], r.Pos)
		}
	}
	have := map[string]readOp{}
	for _, op := range plan {
		have[op.id] = op
	}
	for _, id := range sortedKeys(want) {
		op, ok := have[id]
		if !ok {
			var at []string
			for _, pos := range want[id] {
				at = append(at, pos...)
			}
			problems = append(problems, fmt.Sprintf("the provider reads %s (GET, client %s) and the parity plan does not: add it to readPlan (internal/parity/plan.go)",
				id, strings.Join(at, ", ")))
			continue
		}
		var got []string
		for _, t := range op.decodes {
			got = append(got, renderType(t))
		}
		sort.Strings(got)
		if exp := sortedKeys(want[id]); !slices.Equal(got, exp) {
			problems = append(problems, fmt.Sprintf("%s: the plan decodes into %v, the client into %v", id, got, exp))
		}
	}
	for _, op := range plan {
		if _, ok := want[op.id]; !ok {
			problems = append(problems, fmt.Sprintf("the parity plan reads %s, which the provider no longer reads: remove it from readPlan", op.id))
		}
	}
	return problems
}

// The plan covers every read operation the provider uses, as the code of
// internal/client and internal/provider says today, with the client's
// decode types (so that "read by the provider" is what the client reads).
func TestPlanCoversEveryProviderRead(t *testing.T) {
	reads, err := scanClientReads("../client", "../provider")
	if err != nil {
		t.Fatal(err)
	}
	if len(reads) < 20 {
		t.Fatalf("the scan found %d GETs, fewer than the 20 the provider sent when this test was written", len(reads))
	}
	for _, p := range uncovered(reads, readPlan) {
		t.Error(p)
	}
}

// A GET added to the client and named by the provider is found, and the
// coverage check then names it.
func TestScanFindsAReadAddedToTheClient(t *testing.T) {
	dir := t.TempDir()
	clientDir, providerDir := filepath.Join(dir, "client"), filepath.Join(dir, "provider")
	for _, d := range []string{clientDir, providerDir} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	entries, err := os.ReadDir("../client")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".go") && !strings.HasSuffix(e.Name(), "_test.go") {
			b, err := os.ReadFile(filepath.Join("../client", e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(clientDir, e.Name()), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	added := `package client

import (
	"context"
	"net/http"
)

const logsPath = "/logs/tool_execution"

func (c *Client) GetToolLog(ctx context.Context, id string) (*Tool, error) {
	return getLog[Tool](ctx, c, logsPath+"/"+escape(id))
}

func getLog[T any](ctx context.Context, c *Client, path string) (*T, error) {
	var out T
	err := c.doKind(ctx, opRead, http.MethodGet, path, nil, nil, &out)
	return &out, err
}
`
	if err := os.WriteFile(filepath.Join(clientDir, "zz_logs.go"), []byte(added), 0o644); err != nil {
		t.Fatal(err)
	}
	use := "package provider\n\nfunc use(c any) { _ = c.(interface{ GetToolLog() }).GetToolLog }\n"
	if err := os.WriteFile(filepath.Join(providerDir, "use.go"), []byte(use), 0o644); err != nil {
		t.Fatal(err)
	}
	reads, err := scanClientReads(clientDir, providerDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(reads) != 1 || reads[0].Path != "/logs/tool_execution/{}" || reads[0].Decode != "Tool" || reads[0].Pos != "zz_logs.go:16" {
		t.Fatalf("reads = %+v, want the one GET of zz_logs.go:16 decoded into Tool", reads)
	}
	problems := uncovered(reads, nil)
	if len(problems) != 1 || !strings.Contains(problems[0], "the provider reads getApiV31LogsToolExecutionById") {
		t.Fatalf("coverage problems = %q, want one naming getApiV31LogsToolExecutionById", problems)
	}
}
