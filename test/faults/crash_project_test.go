package faults_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

// TestCrashSuiteProject kills the emulator right after it committed the
// second of three project creates and before it answered, and restarts it on
// the same data file. The apply (or a second one) must end with exactly the
// three projects (no duplicate name, nothing on the service missing from the
// state), and every project's api_key in the state must work: the project
// whose create was never answered is found again by its name and its key
// regenerated, the only way to learn a key.
func TestCrashSuiteProject(t *testing.T) {
	emu := startCrashingEmulator(t, "POST:/org/owner/project/new:2")
	var config strings.Builder
	for i := range 3 {
		fmt.Fprintf(&config, "resource \"service_project\" \"p%d\" {\n  name                = \"crash-%d\"\n  deletion_protection = false\n}\n\n", i, i)
	}
	w := newWorkspace(t, emu.Emulator, config.String())
	w.env = append(w.env, "SERVICE_ORG_API_KEY="+emu.OrgAPIKey)
	emu.applyThroughCrash(t, w)

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	oc, err := client.New(client.Config{BaseURL: emu.URL, OrgAPIKey: emu.OrgAPIKey})
	if err != nil {
		t.Fatal(err)
	}
	liveNames := func() []string {
		var names []string
		for p, err := range oc.Projects(ctx) {
			if err != nil {
				t.Fatalf("listing projects: %v", err)
			}
			if strings.HasPrefix(p.Name, "crash-") {
				names = append(names, p.Name)
			}
		}
		slices.Sort(names)
		return names
	}
	if got := liveNames(); !slices.Equal(got, []string{"crash-0", "crash-1", "crash-2"}) {
		t.Errorf("projects on the service = %q, want exactly crash-0, crash-1, crash-2", got)
	}
	keys := projectKeys(w)
	if len(keys) != 3 {
		t.Fatalf("state holds %d project keys, want 3: %v", len(keys), slices.Collect(maps.Keys(keys)))
	}
	for name, key := range keys {
		pc, err := client.New(client.Config{BaseURL: emu.URL, APIKey: key})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := pc.ListAuthConfigs(ctx, client.AuthConfigListParams{}); err != nil {
			t.Errorf("%s: the api_key in the state does not work: %v", name, err)
		}
	}
	if out, code := w.run("plan", "-detailed-exitcode", "-no-color", "-input=false"); code != 0 {
		t.Errorf("plan after the crash is not empty (exit %d):\n%s", code, tailText(out, 4000))
	}
	w.mustRun("destroy", "-auto-approve", "-no-color", "-input=false")
	if got := liveNames(); len(got) != 0 {
		t.Errorf("projects after destroy = %q, want none", got)
	}
}

// projectKeys returns the api_key of each service_project in the state, by name.
func projectKeys(w *workspace) map[string]string {
	w.t.Helper()
	out := map[string]string{}
	for _, attrs := range w.stateAttributes()["service_project"] {
		name, _ := attrs["name"].(string)
		if key, _ := attrs["api_key"].(string); key != "" {
			out[name] = key
		}
	}
	return out
}
