package parity

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// collectSeeded reads the plan on a seeded in-process emulator.
func collectSeeded(t *testing.T) (*Shapes, []planned) {
	t.Helper()
	plan, err := resolvePlan(readPlan)
	if err != nil {
		t.Fatal(err)
	}
	emu, err := startEmulator(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(emu.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	shapes, err := readEmulator(ctx, emu, emu.OrgKey, plan, true)
	if err != nil {
		t.Fatal(err)
	}
	return shapes, plan
}

// The emulator's answers match the recorded shapes of the service
// (testdata/service-shapes.json, written by `make parity PARITY_RECORD=1`):
// a member the recording has and the emulator lacks, or a JSON type that
// differs, in what the provider reads, fails. Differences that can come from
// which objects the recorded project held are logged.
func TestEmulatorMatchesRecordedShapes(t *testing.T) {
	recorded, err := loadShapes(filepath.Join("testdata", "service-shapes.json"))
	if err != nil {
		t.Fatal(err)
	}
	emulated, plan := collectSeeded(t)
	for _, op := range plan {
		if recorded.Operations[op.id] == nil && recorded.Skipped[op.id] == "" {
			t.Errorf("the recording has nothing for %s, which the provider reads: record it again (CONTRIBUTING.md, \"Parity with the service\")", op.id)
		}
	}
	c := compare(plan, "recording", recorded, "emulator", emulated)
	var report bytes.Buffer
	printReport(&report, c, false)
	printSummary(&report, c)
	if c.failures() > 0 {
		t.Errorf("the emulator differs from the recorded shapes (recorded from the %s) in what the provider reads:\n%s", recorded.RecordedFrom, report.String())
	} else if c.reported() > 0 {
		t.Logf("differences reported, none failing:\n%s", report.String())
	}
}

// The seeded emulator has a sample of every route of the plan: every read
// answered, every list held items. A read of objects no list names
// (unlisted: tool-router sessions) has only its missing-object probe, on
// either side.
func TestSeededEmulatorHasASampleOfEveryRoute(t *testing.T) {
	emulated, plan := collectSeeded(t)
	for _, op := range plan {
		if op.unlisted != "" {
			if emulated.Probes[op.id+" "+probeMissing] == nil {
				t.Errorf("%s: no missing-object probe", op.id)
			}
			continue
		}
		sh := emulated.Operations[op.id]
		if sh == nil || sh.Shape.Answers == 0 {
			t.Errorf("%s: no successful answer", op.id)
			continue
		}
		if !op.byID() && sh.Shape.Fields["items[]"] == nil && sh.Shape.Fields["data[]"] == nil && sh.Shape.Fields["[]"] == nil {
			t.Errorf("%s: the lists held no item", op.id)
		}
	}
}

// A recording holds no value: no id, name, secret or key of the objects it
// was taken from, and no enum value; the shipped one neither.
func TestRecordingsHoldNoValues(t *testing.T) {
	file := filepath.Join(t.TempDir(), "shapes.json")
	code, out, errOut := runCheck(t, nil, "-from-emulator", "-record", file)
	if code != ExitSame {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := loadShapes(file)
	if err != nil {
		t.Fatal(err)
	}
	if rec.RecordedFrom != "emulator" || len(rec.Operations) != len(readPlan) {
		t.Errorf("recorded from %q with %d operations; want the emulator and %d", rec.RecordedFrom, len(rec.Operations), len(readPlan))
	}
	noValues(t, "a fresh recording", string(b))
	for _, enum := range []string{"ACTIVE", "ENABLED", "API_KEY", "OAUTH2", "INITIATED"} {
		if strings.Contains(string(b), `"`+enum+`"`) {
			t.Errorf("a fresh recording holds the enum value %s", enum)
		}
	}
	shipped, err := os.ReadFile(filepath.Join("testdata", "service-shapes.json"))
	if err != nil {
		t.Fatal(err)
	}
	noValues(t, "testdata/service-shapes.json", string(shipped))
}

// loadShapes reads a recording.
func loadShapes(path string) (*Shapes, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r recording
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if r.Shapes == nil || r.Format != recordFormat {
		return nil, fmt.Errorf("%s: not a recording of format %d", path, recordFormat)
	}
	return r.Shapes, nil
}
