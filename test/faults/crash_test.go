package faults_test

import (
	"testing"
	"time"

	"github.com/integration-service/terraform-provider-service/internal/testutil"
	"github.com/integration-service/terraform-provider-service/internal/testutil/contractcheck"
)

// TestCrashSuite kills the emulator (SIGKILL, by the crash-after-commit fault)
// right after it committed a create and before it answered, restarts it on
// the same data file and port within 2 s, and checks that the running apply
// completes (or a second apply converges) with exactly the declared objects:
// no duplicate, nothing on the service missing from the state.
func TestCrashSuite(t *testing.T) {
	for name, route := range map[string]string{
		"auth config":       "POST:/auth_configs:2",
		"connected account": "POST:/connected_accounts:3",
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			emu := startCrashingEmulator(t, route)
			w := newWorkspace(t, emu.Emulator, fleetConfig("crash", 3, 6))
			emu.applyThroughCrash(t, w, "-parallelism=10")
			checkExactly(t, w, emu.Emulator, map[string]int{
				"service_auth_config": 3, "service_connected_account": 6, "service_trigger_instance": 6,
			})
			if out, code := w.run("plan", "-detailed-exitcode", "-no-color", "-input=false"); code != 0 {
				t.Errorf("plan after the crash is not empty (exit %d):\n%s", code, tailText(out, 4000))
			}
			w.mustRun("destroy", "-auto-approve", "-no-color", "-input=false")
			checkEmpty(t, emu.Emulator)
		})
	}
}

// crashingEmulator is an emulator with the crash-after-commit fault on route,
// restarted on the same data file and port as soon as it has died.
type crashingEmulator struct {
	*testutil.Emulator
	route     string
	restarted chan time.Duration // how long it was down
}

func startCrashingEmulator(t *testing.T, route string) *crashingEmulator {
	t.Helper()
	_, emuBin := binaries(t)
	e := &crashingEmulator{
		Emulator:  contractcheck.StartEmulatorWith(t, emuBin, testutil.EmulatorOptions{Faults: "crash-after-commit=" + route}),
		route:     route,
		restarted: make(chan time.Duration, 1),
	}
	go func() {
		<-e.Exited()
		down := time.Now()
		e.Restart(t, "")
		e.restarted <- time.Since(down)
	}()
	return e
}

// applyThroughCrash runs apply (with extra flags) in w: the emulator must
// crash on its route during it and be back within 2 s; when the running
// apply failed, a second apply must converge.
func (e *crashingEmulator) applyThroughCrash(t *testing.T, w *workspace, extra ...string) {
	t.Helper()
	out, code := w.run(append([]string{"apply", "-auto-approve", "-no-color", "-input=false"}, extra...)...)
	select {
	case d := <-e.restarted:
		t.Logf("emulator crashed after committing %s and was back after %s", e.route, d.Round(time.Millisecond))
		if d > 2*time.Second {
			t.Errorf("restart took %s, want within 2s", d)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("the emulator never crashed on %s (apply exit %d):\n%s", e.route, code, tailText(out, 3000))
	}
	if code != 0 {
		t.Logf("the running apply failed (exit %d); a second apply must converge:\n%s", code, tailText(out, 3000))
		w.mustRun("apply", "-auto-approve", "-no-color", "-input=false")
	}
}
