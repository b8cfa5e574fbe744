package faults_test

import (
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/integration-service/terraform-provider-service/internal/testutil"
	"github.com/integration-service/terraform-provider-service/internal/testutil/contractcheck"
)

// faultSeed returns the seed of the emulator's random fault choices:
// SERVICE_FAULT_SEED when set (to replay a failed run), a random one
// otherwise. A failing test prints it with the command that replays it.
func faultSeed(t *testing.T) uint64 {
	t.Helper()
	seed := rand.Uint64()
	if s := os.Getenv("SERVICE_FAULT_SEED"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("SERVICE_FAULT_SEED=%q: want an unsigned integer", s)
		}
		seed = v
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("fault seed %d: replay the emulator's fault choices with\n  TF_ACC=1 SERVICE_FAULT_SEED=%d go test -count=1 -run '^%s$' ./test/faults/\n"+
				"(the same choices for the same sequence of requests; Terraform's parallel requests may arrive in another order)",
				seed, seed, t.Name())
		}
	})
	return seed
}

// TestFaultSuite applies 10 auth configs, 70 connected accounts and 70
// trigger instances through an emulator answering 10% of the requests with
// 429, 10% with 503, resetting some connections (2%, then 5%) and adding
// 20 ms to each: the apply and the destroy exit 0, the second plan is empty,
// and the service holds exactly the declared objects, then nothing. The
// faults' seed is printed on failure (SERVICE_FAULT_SEED replays it).
func TestFaultSuite(t *testing.T) {
	for _, reset := range []string{"0.02", "0.05"} {
		t.Run("reset="+reset, func(t *testing.T) {
			t.Parallel()
			_, emuBin := binaries(t)
			seed := faultSeed(t)
			emu := contractcheck.StartEmulatorWith(t, emuBin, testutil.EmulatorOptions{
				Faults: "seed=" + strconv.FormatUint(seed, 10) + ",status=429:0.1,status=503:0.1,reset=" + reset + ",latency=20ms",
			})
			w := newWorkspace(t, emu, fleetConfig("fault", 10, 70))
			w.mustRun("apply", "-auto-approve", "-no-color", "-input=false", "-parallelism=30")
			checkExactly(t, w, emu, map[string]int{
				"service_auth_config": 10, "service_connected_account": 70, "service_trigger_instance": 70,
			})
			if out, code := w.run("plan", "-detailed-exitcode", "-no-color", "-input=false", "-parallelism=30"); code != 0 {
				t.Errorf("second plan is not empty (exit %d):\n%s", code, tailText(out, 4000))
			}
			w.mustRun("destroy", "-auto-approve", "-no-color", "-input=false", "-parallelism=30")
			checkEmpty(t, emu)
		})
	}
}
