package provider

// End-to-end benchmark through the real Terraform CLI (`make bench`; never
// part of `make test`): apply, refresh plan and destroy of N resources with
// this provider and with the floor provider (bench_floor_test.go), in
// alternating rounds, against the in-process emulator. Two kinds of scenario:
//
//   - same-schema floor (no latency): the median times of ours and of the
//     floor and their ratio (target: ours / floor <= 1.15), our requests per
//     resource, and the CPU time and peak memory of the provider processes;
//   - latency (the emulator delays every API request, `latency=50ms` as
//     `service-emulator --faults` spells it): ours against the round-trip
//     floor, requests x latency / Terraform's parallelism (10, passed
//     explicitly) plus the wall time of the floor provider, which makes no
//     request, for the same configuration (target: <= 1.10). A third variant
//     runs ours with max_concurrent_requests = 10 (the default is 8), to show
//     what the provider's own limit on requests in flight costs, and a fourth
//     ours with refresh by listing off (refreshlisting.EnvSwitch=off: one GET per
//     object refreshed), its requests and time beside ours.
//   - throttled (the emulator limits each organization to N requests per
//     minute, `ratelimit=N/min`, with or without `ratelimit-headers=off`):
//     ours only, the apply only (the destroy that cleans up runs without the
//     limit), its wall time against the limit's floor, requests / rate
//     (target: <= 1.15), and the share of its requests answered 429.
//
//	SERVICE_BENCH_E2E=1 TF_ACC=1 go test ./internal/provider -run '^TestE2EBenchmark$' -count=1 -timeout 4h -v
//
// Optional: SERVICE_BENCH_SCENARIOS (comma-separated names, default all),
// SERVICE_BENCH_ROUNDS (default 3), SERVICE_BENCH_OUT (also write the tables,
// as Markdown, to this file), TF_CLI (the Terraform binary, default
// terraform on PATH), SERVICE_BENCH_BASELINE (a provider binary built from
// another commit, say main: it runs beside ours in every scenario, in the
// same rotation, and a last table compares the two), SERVICE_BENCH_PROVIDERS
// (comma-separated names of the providers to run, of "ours", "floor",
// "baseline", "mcr10" and "get"; default all that apply).
//
// Provider CPU and memory: the provider executable Terraform starts is this
// test binary in "wrapper" mode, which runs the real provider (our binary, or
// this test binary in "floor" mode) as its child and records the child's
// rusage when it exits; a phase sums the CPU of every provider process
// Terraform started and takes the largest peak RSS.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/provider/logging"
	"github.com/integration-service/terraform-provider-service/internal/provider/refreshlisting"
	"github.com/integration-service/terraform-provider-service/internal/testutil"
)

// Environment of the provider processes of the benchmark (passed through
// Terraform, which hands its environment to the plugins it starts).
const (
	benchEnvWrapExec = "BENCH_PROVIDER_WRAP_EXEC" // wrapper mode: run this executable
	benchEnvWrapOut  = "BENCH_PROVIDER_WRAP_OUT"  // append the child's rusage (JSON line) here
	benchEnvRole     = "BENCH_PROVIDER_ROLE"      // "floor": serve the floor provider
)

// benchProviderMain runs this test binary as a provider process of the
// benchmark when the environment asks for it (it then never returns).
// TestMain calls it first.
func benchProviderMain() {
	if exe := os.Getenv(benchEnvWrapExec); exe != "" {
		os.Exit(benchWrap(exe, os.Getenv(benchEnvWrapOut)))
	}
	if os.Getenv(benchEnvRole) == "floor" {
		logging.QuietUnlessRequested() // as main does: the floor is the framework at its best
		err := providerserver.Serve(context.Background(), newFloorProvider, providerserver.ServeOpts{Address: RegistryAddress})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
}

// benchUsage is the resource usage of one provider process.
type benchUsage struct {
	CPU    time.Duration `json:"cpu"`
	MaxRSS int64         `json:"max_rss_kib"`
}

func benchWrap(exe, out string) int {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, benchEnvWrapExec+"=") {
			env = append(env, kv)
		}
	}
	cmd := exec.Command(exe) //nolint:gosec,noctx // the benchmark's own provider binary; lives as long as Terraform wants
	cmd.Env = env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && out != "" {
		u := benchUsage{
			CPU:    time.Duration(ru.Utime.Nano() + ru.Stime.Nano()),
			MaxRSS: ru.Maxrss,
		}
		if b, err := json.Marshal(u); err == nil {
			if f, err := os.OpenFile(out, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600); err == nil { //nolint:gosec // benchmark scratch file
				_, _ = f.Write(append(b, '\n'))
				_ = f.Close()
			}
		}
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// benchScenario is one configuration of n resources.
type benchScenario struct {
	name string
	n    int
	// config returns the configuration; fixtures are objects created
	// beforehand through the client (the floor gets the same configuration).
	config func(f benchFixtures) string
	// latency, when set, delays every API request of the emulator by this
	// much while the scenario runs: a latency scenario.
	latency time.Duration
	// rateLimit, when set, limits each organization to this many requests
	// per minute during the apply (rateHeadersOff: with 429s and answers
	// carrying no rate-limit header): a throttled scenario.
	rateLimit      int
	rateHeadersOff bool
}

// Targets of the kinds of scenario (printed, not enforced: a shared
// machine moves single runs by more than the margins).
const (
	benchFloorTarget     = 1.15 // ours / same-schema floor
	benchLatencyTarget   = 1.10 // ours / round-trip floor
	benchThrottledTarget = 1.15 // ours / rate-limit floor (requests / rate)
	// benchParallelism is Terraform's -parallelism in every phase (its
	// default, passed explicitly): the round-trip floor divides by it.
	benchParallelism = 10
	// benchLatency is the emulator's delay per API request in the latency
	// scenarios.
	benchLatency = 50 * time.Millisecond
)

// benchWithLatency is sc against an emulator that delays every API request
// by benchLatency.
func benchWithLatency(sc benchScenario) benchScenario {
	sc.name = fmt.Sprintf("%s_latency%dms", sc.name, benchLatency.Milliseconds())
	sc.latency = benchLatency
	return sc
}

// benchThrottled is sc's apply under the emulator's fault
// ratelimit=perMinute/min, with or without the rate-limit headers.
func benchThrottled(sc benchScenario, perMinute int, headers bool) benchScenario {
	sc.name = fmt.Sprintf("%s_ratelimit%d", sc.name, perMinute)
	if !headers {
		sc.name += "_noheaders"
	}
	sc.rateLimit, sc.rateHeadersOff = perMinute, !headers
	return sc
}

// faults is the fault spec of a throttled scenario.
func (sc benchScenario) faults() string {
	spec := fmt.Sprintf("ratelimit=%d/min", sc.rateLimit)
	if sc.rateHeadersOff {
		spec += ",ratelimit-headers=off"
	}
	return spec
}

type benchFixtures struct{ stripeAuthConfig, stripeAccount, user string }

func benchScenarios() []benchScenario {
	accounts := func(n int) benchScenario {
		return benchScenario{name: fmt.Sprintf("connected_accounts_%d", n), n: n, config: func(f benchFixtures) string {
			return apiKeyAccountsConfig(n, f.user, f.stripeAuthConfig)
		}}
	}
	triggers := benchScenario{name: "trigger_instances_300", n: 300, config: func(f benchFixtures) string {
		return fmt.Sprintf(`resource "service_trigger_instance" "ti" {
  count                = 300
  user_id              = "%s-trig"
  slug                 = "STRIPE_CHARGE_SUCCEEDED_TRIGGER"
  connected_account_id = %q
  trigger_config       = jsonencode({ min_amount = count.index })
}
`, f.user, f.stripeAccount)
	}}
	authConfigsN := func(n int) benchScenario {
		return benchScenario{name: fmt.Sprintf("auth_configs_%d", n), n: n, config: func(f benchFixtures) string {
			return fmt.Sprintf(`resource "service_auth_config" "ac" {
  count   = %d
  toolkit = "github"
  name    = "%s-${count.index}"
}
`, n, f.user)
		}}
	}
	authConfigs := authConfigsN(300)
	return []benchScenario{
		accounts(100), accounts(300), accounts(1000), triggers, authConfigs,
		benchWithLatency(authConfigs),
		benchWithLatency(accounts(300)),
		benchWithLatency(triggers),
		benchWithLatency(accounts(1000)),
		benchThrottled(accounts(300), 600, true),
		benchThrottled(accounts(300), 600, false),
		benchWithLatency(authConfigsN(500)),
		benchThrottled(accounts(300), 2000, true),
		benchThrottled(accounts(1000), 2000, true),
		benchThrottled(authConfigs, 2000, true),
		benchThrottled(authConfigsN(500), 2000, true),
	}
}

var benchPhases = []struct {
	name string
	args []string
}{
	{"apply", []string{"apply", "-auto-approve", "-input=false", "-no-color", benchParallelismFlag}},
	{"refresh plan", []string{"plan", "-input=false", "-no-color", "-detailed-exitcode", benchParallelismFlag}},
	{"destroy", []string{"destroy", "-auto-approve", "-input=false", "-no-color", benchParallelismFlag}},
}

var benchParallelismFlag = fmt.Sprintf("-parallelism=%d", benchParallelism)

// The providers of a scenario's rounds.
const (
	benchOurs      = "ours"
	benchFloor     = "floor"
	benchOursMCR10 = "ours, max_concurrent_requests = 10" // latency scenarios only
	// benchOursGET is ours with refresh by listing off (one GET per object
	// refreshed), the internal switch refreshlisting.EnvSwitch: latency scenarios
	// only.
	benchOursGET = "ours, one GET per object"
	// benchBaseline is the provider binary SERVICE_BENCH_BASELINE names.
	benchBaseline = "baseline"
)

// benchProviderNames are the names SERVICE_BENCH_PROVIDERS takes.
var benchProviderNames = map[string]string{"ours": benchOurs, "floor": benchFloor, "baseline": benchBaseline,
	"mcr10": benchOursMCR10, "get": benchOursGET}

// benchProviderFilter reads SERVICE_BENCH_PROVIDERS: which providers run
// (every one when v is empty).
func benchProviderFilter(t *testing.T, v string) func(provider string) bool {
	t.Helper()
	if v == "" {
		return func(string) bool { return true }
	}
	keep := map[string]bool{}
	for _, name := range strings.Split(v, ",") {
		prov, ok := benchProviderNames[strings.TrimSpace(name)]
		if !ok {
			t.Fatalf("SERVICE_BENCH_PROVIDERS: unknown provider %q (want some of ours, floor, baseline, mcr10, get)", name)
		}
		keep[prov] = true
	}
	return func(p string) bool { return keep[p] }
}

// benchBaselineTable is the Markdown table of ours against the baseline
// provider, scenario by scenario and phase by phase (medians; the phases
// each ran, the throttled scenarios' apply only).
func benchBaselineTable(order []benchScenario, samples map[benchKey][]benchSample) string {
	heading := "Ours against the baseline (SERVICE_BENCH_BASELINE), side by side in this run:\n\n" +
		"| Scenario | Phase | Requests, baseline | Requests, ours | Per object, baseline / ours | Baseline (s) | Ours (s) | Ours / baseline (time) |\n" +
		"|---|---|---:|---:|---:|---:|---:|---:|\n"
	return benchTable(order, func(benchScenario) bool { return true }, heading, func(b *strings.Builder, sc benchScenario) {
		for _, ph := range benchPhases {
			o, base := samples[benchKey{sc.name, benchOurs, ph.name}], samples[benchKey{sc.name, benchBaseline, ph.name}]
			if len(o) == 0 || len(base) == 0 {
				continue
			}
			requests := func(s benchSample) float64 { return float64(s.requests) }
			ro, rb := benchMedian(o, requests), benchMedian(base, requests)
			ow, bw := benchMedian(o, benchWall), benchMedian(base, benchWall)
			fmt.Fprintf(b, "| %s | %s | %.0f | %.0f | %.2f / %.2f | %.2f | %.2f | %.2f |\n",
				sc.name, ph.name, rb, ro, rb/float64(sc.n), ro/float64(sc.n), bw, ow, ow/bw)
		}
	})
}

// benchSample is one phase of one run.
type benchSample struct {
	wall      time.Duration
	cpu       time.Duration
	maxRSS    int64 // KiB
	requests  int
	throttled int // requests answered 429 (throttled scenarios)
}

func TestE2EBenchmark(t *testing.T) {
	if os.Getenv("SERVICE_BENCH_E2E") == "" {
		t.Skip("end-to-end benchmark: run `make bench` (or set SERVICE_BENCH_E2E=1 and TF_ACC=1)")
	}
	if os.Getenv("TF_ACC") == "" {
		t.Skip("end-to-end benchmark: needs TF_ACC=1 (the in-process emulator)")
	}
	cli := testutil.RequireTerraform(t)
	ep := testAccEnvironment(t)
	testAccRequireEmulator(t)
	rounds := 3
	if v := os.Getenv("SERVICE_BENCH_ROUNDS"); v != "" {
		var err error
		if rounds, err = strconv.Atoi(v); err != nil || rounds < 1 {
			t.Fatalf("SERVICE_BENCH_ROUNDS=%q: want a positive integer", v)
		}
	}
	var only []string
	if v := os.Getenv("SERVICE_BENCH_SCENARIOS"); v != "" {
		only = strings.Split(v, ",")
	}
	baseline := os.Getenv("SERVICE_BENCH_BASELINE")
	if baseline != "" {
		if _, err := os.Stat(baseline); err != nil {
			t.Fatalf("SERVICE_BENCH_BASELINE: %v", err)
		}
	}
	runs := benchProviderFilter(t, os.Getenv("SERVICE_BENCH_PROVIDERS"))

	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	oursBin := filepath.Join(e2eProviderDir(t), "terraform-provider-service")
	wrapDir := t.TempDir()
	if err := os.Symlink(self, filepath.Join(wrapDir, "terraform-provider-service")); err != nil {
		t.Fatal(err)
	}
	cliConfig := testutil.DevOverridesConfig(t, wrapDir)
	cliVersion := benchCLIVersion(t, cli)

	fx := testAccStripeAccountFixture(t, fmt.Sprintf("bench-%d", time.Now().UnixNano()))
	samples := map[benchKey][]benchSample{}
	var order []benchScenario
	for _, sc := range benchScenarios() {
		if only != nil && !slices.Contains(only, sc.name) {
			continue
		}
		order = append(order, sc)
		if sc.rateLimit > 0 {
			exes := map[string]string{}
			for prov, exe := range map[string]string{benchOurs: oursBin, benchBaseline: baseline} {
				if exe != "" && runs(prov) {
					exes[prov] = exe
				}
			}
			benchThrottledRounds(t, sc, rounds, cli, testutil.TerraformEnv(cliConfig,
				EnvBaseURL+"="+ep.BaseURL, EnvAPIKey+"="+ep.APIKey), exes, fx, samples)
			continue
		}
		if sc.latency > 0 {
			benchSetFaults(t, fmt.Sprintf("latency=%s", sc.latency))
		}
		providers := []string{benchOurs, benchFloor}
		if sc.latency > 0 {
			providers = append(providers, benchOursMCR10, benchOursGET)
		}
		if baseline != "" {
			providers = append(providers, benchBaseline)
		}
		providers = slices.DeleteFunc(providers, func(p string) bool { return !runs(p) })
		for round := range rounds {
			// Rotate the order every round, so that slow periods of a
			// shared machine hit every provider alike.
			rot := slices.Concat(providers[round%len(providers):], providers[:round%len(providers)])
			for _, prov := range rot {
				exe, extra := oursBin, []string(nil)
				switch prov {
				case benchFloor:
					exe, extra = self, []string{benchEnvRole + "=floor"}
				case benchOursGET:
					extra = []string{refreshlisting.EnvSwitch + "=off"}
				case benchBaseline:
					exe = baseline
				}
				dir := t.TempDir()
				usageFile := filepath.Join(dir, "usage.jsonl")
				env := testutil.TerraformEnv(cliConfig, append(extra,
					EnvBaseURL+"="+ep.BaseURL, EnvAPIKey+"="+ep.APIKey,
					benchEnvWrapExec+"="+exe, benchEnvWrapOut+"="+usageFile)...)
				providerBlock := ""
				if prov == benchOursMCR10 {
					providerBlock = "\nprovider \"service\" {\n  max_concurrent_requests = 10\n}\n"
				}
				benchWrite(t, dir, "providers.tf", fmt.Sprintf("terraform {\n  required_providers {\n    service = {\n      source = %q\n    }\n  }\n}\n%s", testutil.ProviderSource, providerBlock))
				benchWrite(t, dir, "main.tf", sc.config(fx))
				for _, ph := range benchPhases {
					_ = os.Remove(usageFile)
					before := testAccEmulatorStatsNow(t)
					start := time.Now()
					out, code := benchTerraform(t, cli, dir, env, ph.args...)
					wall := time.Since(start)
					if code != 0 {
						t.Fatalf("%s %s round %d: terraform %s: exit %d\n%s", sc.name, prov, round, ph.name, code, benchTail(out))
					}
					after := testAccEmulatorStatsNow(t)
					s := benchSample{wall: wall, requests: benchRequests(before, after)}
					s.cpu, s.maxRSS = benchReadUsage(t, usageFile)
					k := benchKey{sc.name, prov, ph.name}
					samples[k] = append(samples[k], s)
					t.Logf("%s round %d %s %s: %.2fs, provider CPU %.2fs, peak RSS %d MiB, %d requests",
						sc.name, round+1, prov, ph.name, wall.Seconds(), s.cpu.Seconds(), s.maxRSS/1024, s.requests)
				}
			}
		}
		if sc.latency > 0 {
			benchSetFaults(t, "")
		}
	}

	report := fmt.Sprintf("%s, parallelism %d, %d rounds (providers in rotating order), medians.\n\n", cliVersion, benchParallelism, rounds) +
		benchFloorTable(order, samples) + benchLatencyTable(order, samples) + benchThrottledTable(order, samples)
	if baseline != "" {
		report += benchBaselineTable(order, samples)
	}
	fmt.Println(report)
	if out := os.Getenv("SERVICE_BENCH_OUT"); out != "" {
		if err := os.WriteFile(out, []byte(report), 0o600); err != nil {
			t.Error(err)
		}
	}
}

// benchKey names the samples of one phase of one provider in one scenario.
type benchKey struct{ scenario, provider, phase string }

func benchWall(s benchSample) float64 { return s.wall.Seconds() }

// benchTargetMark is "yes" when ratio is within target, else "**no**".
func benchTargetMark(ratio, target float64) string {
	if ratio <= target {
		return "yes"
	}
	return "**no**"
}

// benchFloorTable is the Markdown table of the same-schema floor scenarios
// (empty when none ran).
func benchFloorTable(order []benchScenario, samples map[benchKey][]benchSample) string {
	same := func(sc benchScenario) bool { return sc.latency <= 0 && sc.rateLimit <= 0 }
	heading := fmt.Sprintf("Same-schema floor (no latency; target ours / floor <= %.2f):\n\n", benchFloorTarget) +
		"| Scenario | Phase | Ours (s) | Floor (s) | Ours / floor | Within target | Requests per resource | Provider CPU ours / floor (s) | Peak RSS ours / floor (MiB) |\n" +
		"|---|---|---:|---:|---:|---|---:|---:|---:|\n"
	return benchTable(order, same, heading, func(b *strings.Builder, sc benchScenario) {
		for _, ph := range benchPhases {
			o, f := samples[benchKey{sc.name, benchOurs, ph.name}], samples[benchKey{sc.name, benchFloor, ph.name}]
			if len(o) == 0 || len(f) == 0 {
				continue // ours or the floor left out (SERVICE_BENCH_PROVIDERS)
			}
			ow, fw := benchMedian(o, benchWall), benchMedian(f, benchWall)
			fmt.Fprintf(b, "| %s | %s | %.2f | %.2f | %.2f | %s | %.2f | %.2f / %.2f | %.0f / %.0f |\n", sc.name, ph.name, ow, fw, ow/fw,
				benchTargetMark(ow/fw, benchFloorTarget),
				benchMedian(o, func(s benchSample) float64 { return float64(s.requests) / float64(sc.n) }),
				benchMedian(o, func(s benchSample) float64 { return s.cpu.Seconds() }), benchMedian(f, func(s benchSample) float64 { return s.cpu.Seconds() }),
				benchMedian(o, func(s benchSample) float64 { return float64(s.maxRSS) / 1024 }), benchMedian(f, func(s benchSample) float64 { return float64(s.maxRSS) / 1024 }))
		}
	})
}

// benchTable is the Markdown table of the scenarios of order that keep
// accepts: heading, then the rows row writes for each, then a blank line;
// empty when no row was written.
func benchTable(order []benchScenario, keep func(benchScenario) bool, heading string, row func(*strings.Builder, benchScenario)) string {
	var rows strings.Builder
	for _, sc := range order {
		if keep(sc) {
			row(&rows, sc)
		}
	}
	if rows.Len() == 0 {
		return ""
	}
	return heading + rows.String() + "\n"
}

// benchLatencyTable is the Markdown table of the latency scenarios (empty
// when none ran): ours against the round-trip floor, requests x latency /
// parallelism + the floor provider's wall time, where requests is the median
// of what ours made in the phase.
func benchLatencyTable(order []benchScenario, samples map[benchKey][]benchSample) string {
	heading := fmt.Sprintf("Latency (round-trip floor = requests x latency / %d + no-op provider's wall time; target ours / round-trip floor <= %.2f):\n\n", benchParallelism, benchLatencyTarget) +
		"| Scenario | Phase | Requests | Requests per resource | Requests x latency / parallelism (s) | No-op provider (s) | Round-trip floor (s) | Ours (s) | Ours / round-trip floor | Within target | Ours, max_concurrent_requests = 10 (s) | Its ratio | Ours, one GET per object: requests | Its time (s) | Ours / it (time) |\n" +
		"|---|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|\n"
	return benchTable(order, func(sc benchScenario) bool { return sc.latency != 0 }, heading, func(b *strings.Builder, sc benchScenario) {
		for _, ph := range benchPhases {
			o := samples[benchKey{sc.name, benchOurs, ph.name}]
			f := samples[benchKey{sc.name, benchFloor, ph.name}]
			if len(o) == 0 || len(f) == 0 {
				continue // ours or the floor left out (SERVICE_BENCH_PROVIDERS)
			}
			m := samples[benchKey{sc.name, benchOursMCR10, ph.name}]
			g := samples[benchKey{sc.name, benchOursGET, ph.name}]
			requests := func(s benchSample) float64 { return float64(s.requests) }
			req := benchMedian(o, requests)
			rt := req * sc.latency.Seconds() / benchParallelism
			noop := benchMedian(f, benchWall)
			floor := rt + noop
			ow, mw, gw := benchMedian(o, benchWall), benchMedian(m, benchWall), benchMedian(g, benchWall)
			fmt.Fprintf(b, "| %s | %s | %.0f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %s | %.2f | %.2f | %.0f | %.2f | %.2f |\n",
				sc.name, ph.name, req, req/float64(sc.n), rt, noop, floor, ow, ow/floor, benchTargetMark(ow/floor, benchLatencyTarget), mw, mw/floor,
				benchMedian(g, requests), gw, ow/gw)
		}
	})
}

// benchThrottledRounds runs the apply of a throttled scenario rounds times
// with our provider: each under the scenario's rate limit, set just before
// (which starts the organization's window afresh), then a destroy without
// the limit.
func benchThrottledRounds(t *testing.T, sc benchScenario, rounds int, cli string, baseEnv []string, exes map[string]string, fx benchFixtures, samples map[benchKey][]benchSample) {
	t.Helper()
	apply, destroy := benchPhases[0], benchPhases[len(benchPhases)-1]
	providers := slices.Sorted(maps.Keys(exes)) // "baseline" before "ours"
	for i := range rounds * len(providers) {
		round, prov := i/len(providers), providers[(i+i/len(providers))%len(providers)] // rotating order
		env := append(slices.Clone(baseEnv), benchEnvWrapExec+"="+exes[prov])
		dir := t.TempDir()
		benchWrite(t, dir, "providers.tf", fmt.Sprintf("terraform {\n  required_providers {\n    service = {\n      source = %q\n    }\n  }\n}\n", testutil.ProviderSource))
		benchWrite(t, dir, "main.tf", sc.config(fx))
		benchSetFaults(t, sc.faults())
		before := testAccEmulatorStatsNow(t)
		start := time.Now()
		out, code := benchTerraform(t, cli, dir, env, apply.args...)
		wall := time.Since(start)
		after := testAccEmulatorStatsNow(t)
		benchSetFaults(t, "")
		if code != 0 {
			t.Fatalf("%s round %d: terraform %s: exit %d\n%s", sc.name, round, apply.name, code, benchTail(out))
		}
		s := benchSample{wall: wall, requests: benchRequests(before, after), throttled: after.Throttled - before.Throttled}
		k := benchKey{sc.name, prov, apply.name}
		samples[k] = append(samples[k], s)
		t.Logf("%s round %d %s apply: %.2fs, %d requests, %d answered 429, rate-limit floor %.2fs",
			sc.name, round+1, prov, wall.Seconds(), s.requests, s.throttled, benchRateFloor(sc, float64(s.requests)))
		if out, code := benchTerraform(t, cli, dir, env, destroy.args...); code != 0 {
			t.Fatalf("%s round %d: terraform %s: exit %d\n%s", sc.name, round, destroy.name, code, benchTail(out))
		}
	}
}

// benchRateFloor is the least time requests take at the scenario's rate
// limit, requests / rate, in seconds.
func benchRateFloor(sc benchScenario, requests float64) float64 {
	return requests / float64(sc.rateLimit) * 60
}

// benchThrottledTable is the Markdown table of the throttled scenarios
// (empty when none ran).
func benchThrottledTable(order []benchScenario, samples map[benchKey][]benchSample) string {
	heading := fmt.Sprintf("Throttled apply (rate-limit floor = requests / rate; target ours / floor <= %.2f):\n\n", benchThrottledTarget) +
		"| Scenario | Faults | Requests | Answered 429 | Share 429 | Rate-limit floor (s) | Ours (s) | Ours / floor | Within target |\n" +
		"|---|---|---:|---:|---:|---:|---:|---:|---|\n"
	return benchTable(order, func(sc benchScenario) bool { return sc.rateLimit != 0 }, heading, func(b *strings.Builder, sc benchScenario) {
		o := samples[benchKey{sc.name, benchOurs, benchPhases[0].name}]
		req := benchMedian(o, func(s benchSample) float64 { return float64(s.requests) })
		thr := benchMedian(o, func(s benchSample) float64 { return float64(s.throttled) })
		share := benchMedian(o, func(s benchSample) float64 { return float64(s.throttled) / float64(s.requests) })
		floor := benchRateFloor(sc, req)
		ow := benchMedian(o, benchWall)
		fmt.Fprintf(b, "| %s | `%s` | %.0f | %.0f | %.1f%% | %.2f | %.2f | %.2f | %s |\n",
			sc.name, sc.faults(), req, thr, 100*share, floor, ow, ow/floor, benchTargetMark(ow/floor, benchThrottledTarget))
	})
}

// benchSetFaults sets the emulator's fault spec ("" clears it).
func benchSetFaults(t *testing.T, spec string) {
	t.Helper()
	testAccEmulatorDo(t, http.MethodPut, "/_emulator/faults", rawBody(spec), nil)
	if spec != "" {
		t.Cleanup(func() { testAccEmulatorDo(t, http.MethodPut, "/_emulator/faults", rawBody(""), nil) })
	}
}

// benchCLIVersion is the first line of `<cli> version`, e.g. "Terraform v1.11.4".
func benchCLIVersion(t *testing.T, cli string) string {
	t.Helper()
	out, err := exec.CommandContext(context.Background(), cli, "version").Output() //nolint:gosec // the Terraform CLI of the test
	if err != nil {
		t.Fatalf("%s version: %v", cli, err)
	}
	line, _, _ := strings.Cut(string(out), "\n")
	return strings.TrimSpace(line)
}

// testAccStripeAccountFixture creates, through the client, a custom API_KEY
// auth config for stripe and one ACTIVE connected account on it of user
// <user>-trig (for trigger instances), both deleted at the end of the test.
func testAccStripeAccountFixture(t testing.TB, user string) benchFixtures {
	t.Helper()
	ctx := context.Background()
	c := testAccClient(t)
	ac := testAccStripeAPIKeyAuthConfig(t, c, user)
	acct, err := c.InitiateConnectedAccount(ctx, client.InitiateConnectedAccountRequest{AuthConfigID: ac.ID, UserID: user + "-trig",
		State: &client.ConnectionState{AuthScheme: "API_KEY", Val: map[string]any{"status": "ACTIVE", "api_key": "sk_bench"}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.DeleteConnectedAccount(context.Background(), acct.ID) })
	return benchFixtures{stripeAuthConfig: ac.ID, stripeAccount: acct.ID, user: user}
}

func benchWrite(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// benchTerraform runs the CLI; "refresh plan" exits 0 (no changes) or fails.
func benchTerraform(t *testing.T, cli, dir string, env []string, args ...string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, cli, args...) //nolint:gosec // the Terraform CLI of the test
	cmd.Dir, cmd.Env = dir, env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return out.String(), ee.ExitCode()
	}
	if err != nil {
		t.Fatalf("terraform %s: %v", strings.Join(args, " "), err)
	}
	return out.String(), 0
}

func benchTail(s string) string {
	if len(s) > 4000 {
		return "..." + s[len(s)-4000:]
	}
	return s
}

// benchRequests counts the API requests between two emulator snapshots.
func benchRequests(before, after testAccEmulatorStats) int {
	n := 0
	for _, d := range requestDelta(before.Requests, after.Requests) {
		n += d
	}
	return n
}

// benchReadUsage sums the CPU of the provider processes recorded in file and
// returns the largest peak RSS (KiB).
func benchReadUsage(t *testing.T, file string) (time.Duration, int64) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("no provider usage recorded: %v", err)
	}
	var cpu time.Duration
	var rss int64
	for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		var u benchUsage
		if err := json.Unmarshal(line, &u); err != nil {
			t.Fatalf("usage line %q: %v", line, err)
		}
		cpu += u.CPU
		rss = max(rss, u.MaxRSS)
	}
	return cpu, rss
}

func benchMedian(s []benchSample, f func(benchSample) float64) float64 {
	if len(s) == 0 {
		return 0
	}
	v := make([]float64, len(s))
	for i := range s {
		v[i] = f(s[i])
	}
	sort.Float64s(v)
	if len(v)%2 == 1 {
		return v[len(v)/2]
	}
	return (v[len(v)/2-1] + v[len(v)/2]) / 2
}
