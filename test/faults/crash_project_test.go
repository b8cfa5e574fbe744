package faults_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/test/testutil"
)

// TestCrashSuiteProject kills the emulator right after it committed the
// second of three project creates and before it answered, and restarts it on
// the same data file. The apply (or a second one) must end with exactly the
// three projects (no duplicate name, nothing on the service missing from the
// state), and every project's api_key in the state must work: the project
// whose create was never answered is found again by its name and its key
// regenerated, the only way to learn a key.
func TestCrashSuiteProject(t *testing.T) {
	_, emuBin := binaries(t)
	emu := testutil.StartEmulatorWith(t, emuBin, testutil.EmulatorOptions{Faults: "crash-after-commit=POST:/org/owner/project/new:2"})
	restarted := make(chan time.Duration, 1)
	go func() {
		<-emu.Exited()
		down := time.Now()
		emu.Restart(t, "")
		restarted <- time.Since(down)
	}()
	var config strings.Builder
	for i := range 3 {
		fmt.Fprintf(&config, "resource \"service_project\" \"p%d\" {\n  name                = \"crash-%d\"\n  deletion_protection = false\n}\n\n", i, i)
	}
	w := newWorkspace(t, emu, config.String())
	w.env = append(w.env, "SERVICE_ORG_API_KEY="+emu.OrgAPIKey)
	out, code := w.run("apply", "-auto-approve", "-no-color", "-input=false")
	select {
	case d := <-restarted:
		t.Logf("emulator crashed after committing a project create and was back after %s", d.Round(time.Millisecond))
	case <-time.After(5 * time.Second):
		t.Fatalf("the emulator never crashed on the project create (apply exit %d):\n%s", code, tailText(out, 3000))
	}
	if code != 0 {
		t.Logf("the running apply failed (exit %d); a second apply must converge:\n%s", code, tailText(out, 3000))
		w.mustRun("apply", "-auto-approve", "-no-color", "-input=false")
	}

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
	keys := projectKeys(t, w)
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
func projectKeys(t *testing.T, w *workspace) map[string]string {
	t.Helper()
	var st struct {
		Resources []struct {
			Type      string `json:"type"`
			Instances []struct {
				Attributes map[string]any `json:"attributes"`
			} `json:"instances"`
		} `json:"resources"`
	}
	b, err := os.ReadFile(filepath.Join(w.dir, "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, r := range st.Resources {
		if r.Type != "service_project" {
			continue
		}
		for _, in := range r.Instances {
			name, _ := in.Attributes["name"].(string)
			key, _ := in.Attributes["api_key"].(string)
			if key != "" {
				out[name] = key
			}
		}
	}
	return out
}
