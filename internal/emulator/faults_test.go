package emulator

import (
	"bytes"
	"log/slog"
	"regexp"
	"slices"
	"strconv"
	"testing"
)

func TestFaultSeedParsing(t *testing.T) {
	fs, err := parseFaults("seed=18446744073709551615,status=503:0.5")
	if err != nil || !fs.seeded || fs.seed != 18446744073709551615 || len(fs.statuses) != 1 {
		t.Fatalf("%+v %v", fs, err)
	}
	for _, bad := range []string{"seed=-1", "seed=x", "seed=", "seed=1.5"} {
		if _, err := parseFaults(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// faultOutcomes sends n requests and returns what each got: the status, and
// for a 503 which retry header it carried.
func faultOutcomes(e *testEnv, n int) []string {
	e.t.Helper()
	out := make([]string, n)
	for i := range out {
		r := e.do("GET", v+"/toolkits/categories", nil)
		out[i] = strconv.Itoa(r.status)
		if r.status == 503 {
			out[i] += " Retry-After=" + r.header.Get("Retry-After") + " Retry-After-Ms=" + r.header.Get("Retry-After-Ms")
		}
	}
	return out
}

// TestFaultSeedReplaysARun: the same seed makes the same choices for the same
// requests, whether given at start (Options.Faults, --faults) or through PUT
// /_emulator/faults; without a seed one is picked, logged and shown by GET
// /_emulator/faults, and giving it back replays the run.
func TestFaultSeedReplaysARun(t *testing.T) {
	const spec = "status=429:0.2,status=503:0.4"
	var logs bytes.Buffer
	picked := newEnv(t, Options{Faults: spec, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	info := picked.must(200, "GET", "/_emulator/faults", nil)
	seed := info.str("seed")
	if info.str("faults") != spec || seed == "" {
		t.Fatalf("GET /_emulator/faults = %s; want the spec and the seed picked", info.raw)
	}
	if !regexp.MustCompile(`msg="faults set" spec=\S+ seed=` + seed + ` seed_picked=true`).MatchString(logs.String()) {
		t.Fatalf("the picked seed %s is not logged:\n%s", seed, logs.String())
	}
	run := faultOutcomes(picked, 60)

	replay := newEnv(t, Options{Faults: "seed=" + seed + "," + spec})
	if got := faultOutcomes(replay, 60); !slices.Equal(got, run) {
		t.Fatalf("seed %s at start did not replay the run:\n%v\n%v", seed, run, got)
	}
	// The same through the control route, which restarts the sequence.
	r := replay.must(200, "PUT", "/_emulator/faults", "seed="+seed+","+spec)
	if r.str("seed") != seed {
		t.Fatalf("PUT answered %s", r.raw)
	}
	if got := faultOutcomes(replay, 60); !slices.Equal(got, run) {
		t.Fatalf("seed %s through PUT /_emulator/faults did not replay the run:\n%v\n%v", seed, run, got)
	}
	other := newEnv(t, Options{Faults: "seed=1," + spec})
	if seed != "1" && slices.Equal(faultOutcomes(other, 60), run) {
		t.Fatalf("seeds 1 and %s made the same 60 choices", seed)
	}
	// Clearing the faults clears the seed.
	if r := replay.must(200, "PUT", "/_emulator/faults", ""); r.str("faults") != "" || r.get("seed") != nil {
		t.Fatalf("cleared faults: %s", r.raw)
	}
}

// TestFault503RetryHeaders: an injected 503 carries either Retry-After: 0
// or, alone, Retry-After-Ms: 0 (the client must honour both); other 5xx
// carry Retry-After: 0.
func TestFault503RetryHeaders(t *testing.T) {
	e := newEnv(t, Options{Faults: "seed=3,status=503:1"})
	seen := map[string]int{}
	for _, o := range faultOutcomes(e, 40) {
		seen[o]++
	}
	if len(seen) != 2 || seen["503 Retry-After=0 Retry-After-Ms="] == 0 || seen["503 Retry-After= Retry-After-Ms=0"] == 0 {
		t.Fatalf("503 retry headers seen: %v; want both Retry-After alone and Retry-After-Ms alone", seen)
	}
	e.must(200, "PUT", "/_emulator/faults", "status=502:1")
	if r := e.do("GET", v+"/toolkits/categories", nil); r.status != 502 || r.header.Get("Retry-After") != "0" {
		t.Fatalf("502: status %d Retry-After %q", r.status, r.header.Get("Retry-After"))
	}
}
