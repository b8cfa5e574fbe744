package provider

// End-to-end benchmark through the real Terraform CLI (`make bench`; never
// part of `make test`): apply, refresh plan and destroy of N resources with
// this provider and with the floor provider (bench_floor_test.go), in
// alternating rounds, against the in-process emulator. It prints, per
// scenario and phase, the median times and their ratio, our requests per
// resource, and the CPU time and peak memory of the provider processes.
//
//	SERVICE_BENCH_E2E=1 TF_ACC=1 go test ./internal/provider -run '^TestE2EBenchmark$' -count=1 -timeout 3h -v
//
// Optional: SERVICE_BENCH_SCENARIOS (comma-separated names, default all),
// SERVICE_BENCH_ROUNDS (default 3), SERVICE_BENCH_OUT (also write the table,
// as Markdown, to this file).
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
	"github.com/integration-service/terraform-provider-service/test/testutil"
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
		QuietLogsUnlessRequested() // as main does: the floor is the framework at its best
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
}

type benchFixtures struct{ stripeAuthConfig, stripeAccount, user string }

func benchScenarios() []benchScenario {
	accounts := func(n int) benchScenario {
		return benchScenario{fmt.Sprintf("connected_accounts_%d", n), n, func(f benchFixtures) string {
			return fmt.Sprintf(`resource "service_connected_account" "ca" {
  count          = %d
  user_id        = "%s-${count.index}"
  auth_config_id = %q
  credentials_wo = { api_key = "sk_test_${count.index}" }
  credentials_wo_version = 1
}
`, n, f.user, f.stripeAuthConfig)
		}}
	}
	return []benchScenario{
		accounts(100), accounts(300), accounts(1000),
		{"trigger_instances_300", 300, func(f benchFixtures) string {
			return fmt.Sprintf(`resource "service_trigger_instance" "ti" {
  count                = 300
  user_id              = "%s-trig"
  slug                 = "STRIPE_CHARGE_SUCCEEDED_TRIGGER"
  connected_account_id = %q
  trigger_config       = jsonencode({ min_amount = count.index })
}
`, f.user, f.stripeAccount)
		}},
		{"auth_configs_300", 300, func(f benchFixtures) string {
			return fmt.Sprintf(`resource "service_auth_config" "ac" {
  count   = 300
  toolkit = "github"
  name    = "%s-${count.index}"
}
`, f.user)
		}},
	}
}

var benchPhases = []struct {
	name string
	args []string
}{
	{"apply", []string{"apply", "-auto-approve", "-input=false", "-no-color"}},
	{"refresh plan", []string{"plan", "-input=false", "-no-color", "-detailed-exitcode"}},
	{"destroy", []string{"destroy", "-auto-approve", "-input=false", "-no-color"}},
}

// benchSample is one phase of one run.
type benchSample struct {
	wall     time.Duration
	cpu      time.Duration
	maxRSS   int64 // KiB
	requests int
}

func TestE2EBenchmark(t *testing.T) {
	if os.Getenv("SERVICE_BENCH_E2E") == "" {
		t.Skip("end-to-end benchmark: run `make bench` (or set SERVICE_BENCH_E2E=1 and TF_ACC=1)")
	}
	if os.Getenv("TF_ACC") == "" {
		t.Skip("end-to-end benchmark: needs TF_ACC=1 (the in-process emulator)")
	}
	testutil.RequireTerraform(t)
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

	fx := testAccStripeAccountFixture(t, fmt.Sprintf("bench-%d", time.Now().UnixNano()))
	type key struct{ scenario, provider, phase string }
	samples := map[key][]benchSample{}
	var order []benchScenario
	for _, sc := range benchScenarios() {
		if only != nil && !slices.Contains(only, sc.name) {
			continue
		}
		order = append(order, sc)
		for round := range rounds {
			providers := []string{"ours", "floor"}
			if round%2 == 1 {
				providers = []string{"floor", "ours"}
			}
			for _, prov := range providers {
				exe, extra := oursBin, []string(nil)
				if prov == "floor" {
					exe, extra = self, []string{benchEnvRole + "=floor"}
				}
				dir := t.TempDir()
				usageFile := filepath.Join(dir, "usage.jsonl")
				env := testutil.TerraformEnv(cliConfig, append(extra,
					EnvBaseURL+"="+ep.BaseURL, EnvAPIKey+"="+ep.APIKey,
					benchEnvWrapExec+"="+exe, benchEnvWrapOut+"="+usageFile)...)
				benchWrite(t, dir, "providers.tf", fmt.Sprintf("terraform {\n  required_providers {\n    service = {\n      source = %q\n    }\n  }\n}\n", testutil.ProviderSource))
				benchWrite(t, dir, "main.tf", sc.config(fx))
				for _, ph := range benchPhases {
					_ = os.Remove(usageFile)
					before := testAccEmulatorStatsNow(t)
					start := time.Now()
					out, code := benchTerraform(t, dir, env, ph.args...)
					wall := time.Since(start)
					if code != 0 {
						t.Fatalf("%s %s round %d: terraform %s: exit %d\n%s", sc.name, prov, round, ph.name, code, benchTail(out))
					}
					after := testAccEmulatorStatsNow(t)
					s := benchSample{wall: wall, requests: benchRequests(before, after)}
					s.cpu, s.maxRSS = benchReadUsage(t, usageFile)
					samples[key{sc.name, prov, ph.name}] = append(samples[key{sc.name, prov, ph.name}], s)
					t.Logf("%s round %d %s %s: %.2fs, provider CPU %.2fs, peak RSS %d MiB, %d requests",
						sc.name, round+1, prov, ph.name, wall.Seconds(), s.cpu.Seconds(), s.maxRSS/1024, s.requests)
				}
			}
		}
	}

	var b strings.Builder
	fmt.Fprintf(&b, "Medians of %d alternating rounds (ours, floor) per scenario.\n\n", rounds)
	b.WriteString("| Scenario | Phase | Ours (s) | Floor (s) | Ours / floor | Requests per resource | Provider CPU ours / floor (s) | Peak RSS ours / floor (MiB) |\n")
	b.WriteString("|---|---|---:|---:|---:|---:|---:|---:|\n")
	for _, sc := range order {
		for _, ph := range benchPhases {
			o, f := samples[key{sc.name, "ours", ph.name}], samples[key{sc.name, "floor", ph.name}]
			ow, fw := benchMedian(o, func(s benchSample) float64 { return s.wall.Seconds() }), benchMedian(f, func(s benchSample) float64 { return s.wall.Seconds() })
			fmt.Fprintf(&b, "| %s | %s | %.2f | %.2f | %.2f | %.2f | %.2f / %.2f | %.0f / %.0f |\n", sc.name, ph.name, ow, fw, ow/fw,
				benchMedian(o, func(s benchSample) float64 { return float64(s.requests) / float64(sc.n) }),
				benchMedian(o, func(s benchSample) float64 { return s.cpu.Seconds() }), benchMedian(f, func(s benchSample) float64 { return s.cpu.Seconds() }),
				benchMedian(o, func(s benchSample) float64 { return float64(s.maxRSS) / 1024 }), benchMedian(f, func(s benchSample) float64 { return float64(s.maxRSS) / 1024 }))
		}
	}
	fmt.Println(b.String())
	if out := os.Getenv("SERVICE_BENCH_OUT"); out != "" {
		if err := os.WriteFile(out, []byte(b.String()), 0o600); err != nil {
			t.Error(err)
		}
	}
}

// testAccStripeAccountFixture creates, through the client, a custom API_KEY
// auth config for stripe and one ACTIVE connected account on it of user
// <user>-trig (for trigger instances), both deleted at the end of the test.
func testAccStripeAccountFixture(t testing.TB, user string) benchFixtures {
	t.Helper()
	ctx := context.Background()
	c := testAccClient(t)
	ac, err := c.CreateAuthConfig(ctx, client.CreateAuthConfigRequest{ToolkitSlug: "stripe", Type: client.AuthConfigTypeCustom, Name: user, AuthScheme: "API_KEY"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.DeleteAuthConfig(context.Background(), ac.ID) })
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

// benchTerraform runs terraform; "refresh plan" exits 0 (no changes) or fails.
func benchTerraform(t *testing.T, dir string, env []string, args ...string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "terraform", args...)
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
