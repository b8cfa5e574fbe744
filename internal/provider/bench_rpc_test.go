package provider

// In-process benchmark of the per-RPC cost of every resource (`make bench`):
// the provider is driven through its tfprotov6 server, as Terraform drives
// it, with msgpack DynamicValues for ValidateResourceConfig,
// PlanResourceChange (a create and a no-change plan), ApplyResourceChange (a
// create) and ReadResource. Variants, per resource and RPC:
//
//   - ours: this provider against the in-process emulator (HTTP included);
//   - floor: the floor provider of bench_floor_test.go (the same schema, no
//     I/O, no ModifyPlan, no validation beyond the schema's);
//   - ablations of the floor: the same schema without one element, either
//     one top-level attribute or every validator, plan modifier or default.
//     floor minus ablation is what that element costs per RPC.
//
//	go test ./internal/provider -run '^$' -bench '^BenchmarkRPC$' -benchtime 50x -count 5
//
// With -count N every variant runs N times; when the benchmark has run,
// TestMain prints the medians as Markdown tables (per resource, per RPC:
// ours, floor, the cost of each schema element in µs and % of the floor's
// RPC) together with the state bytes of one typical instance (the JSON of
// its attribute values as Terraform stores them), and writes them to
// $SERVICE_BENCH_RPC_OUT when set. -bench '^BenchmarkRPC$/service_trigger_instance/'
// narrows it to one resource.

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"
	"github.com/hashicorp/terraform-plugin-log/tfsdklog"
	"github.com/integration-service/terraform-provider-service/internal/provider/logging"
	"github.com/integration-service/terraform-provider-service/internal/testutil"
)

// rpcBenchRPCs are the RPCs measured, in table order.
var rpcBenchRPCs = []string{"Validate", "PlanCreate", "PlanNoChange", "ApplyCreate", "Read"}

// rpcBenchCase is one resource and the configuration of a typical instance,
// as the JSON of its attribute values (absent attributes are null).
type rpcBenchCase struct {
	typeName string
	config   func(f benchFixtures, unique string) string
}

func rpcBenchCases() []rpcBenchCase {
	return []rpcBenchCase{
		{authConfigResourceType, func(_ benchFixtures, u string) string {
			return fmt.Sprintf(`{"toolkit":"github","name":"bench-rpc-%s"}`, u)
		}},
		{connectedAccountType, func(f benchFixtures, _ string) string {
			return fmt.Sprintf(`{"user_id":"%s-rpc","auth_config_id":%q,"credentials_wo":{"api_key":"sk_bench"},"credentials_wo_version":1}`,
				f.user, f.stripeAuthConfig)
		}},
		{triggerInstanceType, func(f benchFixtures, _ string) string {
			return fmt.Sprintf(`{"user_id":"%s-trig","slug":"STRIPE_CHARGE_SUCCEEDED_TRIGGER","connected_account_id":%q,"trigger_config":"{\"min_amount\":1}"}`,
				f.user, f.stripeAccount)
		}},
		{webhookSubscriptionType, func(_ benchFixtures, _ string) string {
			return `{"webhook_url":"https://hooks.example.com/bench","enabled_events":["composio.trigger.message"]}`
		}},
		{mcpServerType, func(f benchFixtures, u string) string {
			return fmt.Sprintf(`{"name":"bench-rpc-%s","auth_config_ids":[%q]}`, u, f.stripeAuthConfig)
		}},
		{customToolkitType, func(_ benchFixtures, u string) string {
			return fmt.Sprintf(`{"slug":"BENCH_RPC_%s","name":"Bench","mcp_url":"https://bench.example.com",`+
				`"auth_scheme":{"mode":"API_KEY","headers":{"Authorization":"Bearer {{generic_api_key}}"}}}`, strings.ToUpper(u))
		}},
	}
}

// rpcBenchVariant is a provider to measure: ours, the floor, or the floor
// with one schema element removed (drop names a removed attribute).
type rpcBenchVariant struct {
	name string
	drop string
	edit func(s *schema.Schema)
}

func rpcBenchVariants(s schema.Schema) []rpcBenchVariant {
	out := []rpcBenchVariant{{name: "ours"}, {name: "floor"}}
	for _, a := range slices.Sorted(func(yield func(string) bool) {
		for k := range s.Attributes {
			if !yield(k) {
				return
			}
		}
	}) {
		out = append(out, rpcBenchVariant{name: "-" + a, drop: a, edit: func(s *schema.Schema) { delete(s.Attributes, a) }})
	}
	for _, f := range []string{"Validators", "PlanModifiers", "Default"} {
		out = append(out, rpcBenchVariant{name: "-" + f, edit: func(s *schema.Schema) {
			for k, a := range s.Attributes {
				s.Attributes[k] = stripSchemaField(reflect.ValueOf(a), f).Interface().(schema.Attribute)
			}
		}})
	}
	return out
}

// stripSchemaField returns a copy of the attribute (or nested object) v with
// its field named field, and that of every nested attribute, set to zero.
func stripSchemaField(v reflect.Value, field string) reflect.Value {
	if v.Kind() == reflect.Interface {
		v = v.Elem()
	}
	cp := reflect.New(v.Type()).Elem()
	cp.Set(v)
	if f := cp.FieldByName(field); f.IsValid() {
		f.Set(reflect.Zero(f.Type()))
	}
	if f := cp.FieldByName("Attributes"); f.IsValid() && f.Kind() == reflect.Map && f.Len() > 0 {
		m := reflect.MakeMapWithSize(f.Type(), f.Len())
		for it := f.MapRange(); it.Next(); {
			m.SetMapIndex(it.Key(), stripSchemaField(it.Value(), field))
		}
		f.Set(m)
	}
	if f := cp.FieldByName("NestedObject"); f.IsValid() && f.Kind() == reflect.Struct {
		f.Set(stripSchemaField(f, field))
	}
	return cp
}

// rpcBenchEnv is one provider server of one variant, configured, with the
// requests of one resource.
type rpcBenchEnv struct {
	srv      tfprotov6.ProviderServer
	typeName string
	schema   schema.Schema
	typ      tftypes.Type
	config   tftypes.Value
	cfgDV    *tfprotov6.DynamicValue
	nullDV   *tfprotov6.DynamicValue
	planned  *tfprotov6.DynamicValue
	private  []byte
	newCfg   func(unique string) string
	drop     string
	ours     bool
}

// rpcBenchState holds what the benchmark keeps across -count rounds: the
// configured servers, the fixtures and the results.
var rpcBenchState = struct {
	sync.Mutex
	fixtures   *benchFixtures
	envs       map[string]*rpcBenchEnv
	results    map[string][]float64 // "resource/rpc/variant" -> CPU ns per call, each round
	saved      map[string][]float64 // "resource/rpc/ablation" -> floor minus ablation, CPU ns per call, each round
	order      []string
	bytes      map[string]int            // "resource/variant" -> state bytes
	attrBytes  map[string]map[string]int // resource -> attribute -> bytes in our state
	pathErrors map[string]bool           // "resource/variant" -> validators named the removed attribute
}{envs: map[string]*rpcBenchEnv{}, results: map[string][]float64{}, saved: map[string][]float64{}, bytes: map[string]int{},
	attrBytes: map[string]map[string]int{}, pathErrors: map[string]bool{}}

func BenchmarkRPC(b *testing.B) {
	testAccRequireEmulator(b)
	testAccPreCheck(b)
	for _, kv := range logging.QuietEnv(os.Environ()) { // as main does
		k, v, _ := strings.Cut(kv, "=")
		b.Setenv(k, v)
	}
	st := &rpcBenchState
	if st.fixtures == nil {
		fx := testAccStripeAccountFixtureKept(b, "bench-rpc-"+rpcBenchRandom())
		st.fixtures = &fx
	}
	for _, c := range rpcBenchCases() {
		b.Run(c.typeName, func(b *testing.B) {
			var s resource.SchemaResponse
			rpcBenchResource(b, c.typeName).Schema(context.Background(), resource.SchemaRequest{}, &s)
			variants := rpcBenchVariants(s.Schema)
			for _, rpc := range rpcBenchRPCs {
				b.Run(rpc, func(b *testing.B) {
					for _, v := range variants {
						b.Run(v.name, func(b *testing.B) {
							env := rpcBenchEnvFor(b, c, v)
							key := c.typeName + "/" + rpc + "/" + v.name
							var cpu, saved float64
							if v.edit == nil {
								cpu = rpcBenchRun(b, rpcBenchPrepare(b, env, rpc))
							} else {
								// An ablation: measured in alternation with the floor.
								floor := rpcBenchEnvFor(b, c, rpcBenchVariant{name: "floor"})
								var fcpu float64
								fcpu, cpu = rpcBenchPaired(b, rpcBenchPrepare(b, floor, rpc), rpcBenchPrepare(b, env, rpc))
								saved = fcpu - cpu
								b.ReportMetric(saved, "saved-cpu-ns/op")
							}
							b.ReportMetric(cpu, "cpu-ns/op")
							st.Lock()
							if _, ok := st.results[key]; !ok {
								st.order = append(st.order, key)
							}
							st.results[key] = append(st.results[key], cpu)
							st.saved[key] = append(st.saved[key], saved)
							st.Unlock()
						})
					}
				})
			}
		})
	}
}

// testAccStripeAccountFixtureKept is testAccStripeAccountFixture for
// fixtures that outlive the benchmark round creating them: the in-process
// emulator they live on goes away with the test binary.
func testAccStripeAccountFixtureKept(b *testing.B, user string) benchFixtures {
	var fx benchFixtures
	// A throwaway TB whose cleanups never run; failures still reach b.
	keep := &rpcBenchKeepTB{TB: b}
	fx = testAccStripeAccountFixture(keep, user)
	return fx
}

type rpcBenchKeepTB struct{ testing.TB }

func (*rpcBenchKeepTB) Cleanup(func()) {}

func rpcBenchRandom() string {
	var buf [6]byte
	_, _ = rand.Read(buf[:])
	return hex.EncodeToString(buf[:])
}

// rpcBenchResource returns our resource of the given type.
func rpcBenchResource(b *testing.B, typeName string) resource.Resource {
	ctx := context.Background()
	for _, f := range New("bench")().Resources(ctx) {
		r := f()
		var md resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "service"}, &md)
		if md.TypeName == typeName {
			return r
		}
	}
	b.Fatalf("no resource %s", typeName)
	return nil
}

// rpcBenchCtx gives each RPC the loggers terraform-plugin-go's server sets
// up for it (tf6server's loggingContext), so that tflog calls cost what they
// cost in a real provider process.
func rpcBenchCtx(typeName string) context.Context {
	ctx := tfsdklog.NewRootSDKLogger(context.Background(), tfsdklog.WithStderrFromInit(), tfsdklog.WithLevelFromEnv("TF_LOG_SDK"))
	ctx = tfsdklog.NewSubsystem(ctx, "proto", tfsdklog.WithLevelFromEnv("TF_LOG_SDK_PROTO"))
	ctx = tfsdklog.NewRootProviderLogger(ctx, tfsdklog.WithStderrFromInit(), tfsdklog.WithLogName("service"),
		tflog.WithLevelFromEnv("TF_LOG_PROVIDER", "SERVICE"))
	ctx = tfsdklog.SetField(ctx, "tf_resource_type", typeName)
	ctx = tflog.SetField(ctx, "tf_resource_type", typeName)
	return ctx
}

func rpcBenchEnvFor(b *testing.B, c rpcBenchCase, v rpcBenchVariant) *rpcBenchEnv {
	b.Helper()
	st := &rpcBenchState
	key := c.typeName + "/" + v.name
	st.Lock()
	env := st.envs[key]
	st.Unlock()
	if env != nil {
		return env
	}
	var newServer func() (tfprotov6.ProviderServer, error)
	switch v.name {
	case "ours":
		newServer = NewServer("bench") // the server main.go serves
	case "floor":
		newServer = providerserver.NewProtocol6WithError(newFloorProvider())
	default:
		newServer = providerserver.NewProtocol6WithError(&floorProvider{real: New("floor")(), edit: func(typeName string, s *schema.Schema) {
			if typeName == c.typeName {
				v.edit(s)
			}
		}})
	}
	srv, err := newServer()
	if err != nil {
		b.Fatal(err)
	}
	ctx := rpcBenchCtx(c.typeName)
	sch, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	rpcBenchOK(b, "GetProviderSchema", err, sch.Diagnostics)
	pcfg, err := rpcBenchFromJSON("{}", sch.Provider.ValueType())
	if err != nil {
		b.Fatal(err)
	}
	pdv, err := tfprotov6.NewDynamicValue(sch.Provider.ValueType(), pcfg)
	if err != nil {
		b.Fatal(err)
	}
	cr, err := srv.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{TerraformVersion: "1.11.4", Config: &pdv})
	rpcBenchOK(b, "ConfigureProvider", err, cr.Diagnostics)
	rs, ok := sch.ResourceSchemas[c.typeName]
	if !ok {
		b.Fatalf("no schema for %s", c.typeName)
	}
	env = &rpcBenchEnv{srv: srv, typeName: c.typeName, typ: rs.ValueType(), drop: v.drop, ours: v.name == "ours",
		newCfg: func(u string) string { return c.config(*st.fixtures, u) }}
	var s resource.SchemaResponse
	rpcBenchResource(b, c.typeName).Schema(context.Background(), resource.SchemaRequest{}, &s)
	env.schema = s.Schema
	if v.edit != nil {
		v.edit(&env.schema)
	}
	env.setConfig(b, rpcBenchRandom())
	nullDV, err := tfprotov6.NewDynamicValue(env.typ, tftypes.NewValue(env.typ, nil))
	if err != nil {
		b.Fatal(err)
	}
	env.nullDV = &nullDV

	// State bytes of one instance: create it, refresh it as Terraform does
	// after an apply's final plan, measure, destroy.
	state, private := env.create(b)
	state, _ = env.read(b, state, private)
	val := env.value(b, state)
	js := testutil.StateJSON(val)
	raw, err := json.Marshal(js)
	if err != nil {
		b.Fatal(err)
	}
	env.destroy(b, state, private)
	st.Lock()
	st.bytes[key] = len(raw)
	if v.name == "ours" {
		per := map[string]int{}
		for k, x := range js.(map[string]any) {
			one, _ := json.Marshal(map[string]any{k: x})
			per[k] = len(one) - 1 // the key, its value and one separator
		}
		st.attrBytes[c.typeName] = per
	}
	st.envs[key] = env
	st.Unlock()
	return env
}

// setConfig sets the configuration (with unique as the unique part of
// names) and plans its create.
func (e *rpcBenchEnv) setConfig(b *testing.B, unique string) {
	b.Helper()
	raw := e.newCfg(unique)
	if e.drop != "" {
		var m map[string]json.RawMessage
		if err := json.Unmarshal([]byte(raw), &m); err != nil {
			b.Fatal(err)
		}
		delete(m, e.drop)
		out, _ := json.Marshal(m)
		raw = string(out)
	}
	cfg, err := rpcBenchFromJSON(raw, e.typ)
	if err != nil {
		b.Fatalf("%s configuration: %v", e.typeName, err)
	}
	dv, err := tfprotov6.NewDynamicValue(e.typ, cfg)
	if err != nil {
		b.Fatal(err)
	}
	e.config, e.cfgDV = cfg, &dv
	vr, err := e.srv.ValidateResourceConfig(rpcBenchCtx(e.typeName), e.validateReq())
	e.ok(b, "ValidateResourceConfig "+e.typeName, err, vr.Diagnostics)
	pr, err := e.srv.PlanResourceChange(rpcBenchCtx(e.typeName), e.planCreateReq())
	e.ok(b, "PlanResourceChange "+e.typeName, err, pr.Diagnostics)
	e.planned, e.private = pr.PlannedState, pr.PlannedPrivate
}

func (e *rpcBenchEnv) validateReq() *tfprotov6.ValidateResourceConfigRequest {
	return &tfprotov6.ValidateResourceConfigRequest{TypeName: e.typeName, Config: e.cfgDV,
		ClientCapabilities: &tfprotov6.ValidateResourceConfigClientCapabilities{WriteOnlyAttributesAllowed: true}}
}

// ok is rpcBenchOK, except that a variant without an attribute tolerates the
// errors of validators and plan modifiers of other attributes that name it
// (and says so in the report): building them costs about what the removed
// check saved.
func (e *rpcBenchEnv) ok(b *testing.B, what string, err error, diags []*tfprotov6.Diagnostic) {
	b.Helper()
	if e.drop != "" && err == nil {
		kept := diags[:0:0]
		for _, d := range diags {
			if d.Summary == "Invalid Path Expression for Schema" || strings.Contains(d.Detail, strconv.Quote(e.drop)) {
				rpcBenchState.Lock()
				rpcBenchState.pathErrors[e.typeName+"/-"+e.drop] = true
				rpcBenchState.Unlock()
				continue
			}
			kept = append(kept, d)
		}
		diags = kept
	}
	rpcBenchOK(b, what, err, diags)
}

func (e *rpcBenchEnv) planCreateReq() *tfprotov6.PlanResourceChangeRequest {
	return &tfprotov6.PlanResourceChangeRequest{TypeName: e.typeName, PriorState: e.nullDVOr(), ProposedNewState: e.cfgDV, Config: e.cfgDV}
}

func (e *rpcBenchEnv) nullDVOr() *tfprotov6.DynamicValue {
	if e.nullDV != nil {
		return e.nullDV
	}
	dv, _ := tfprotov6.NewDynamicValue(e.typ, tftypes.NewValue(e.typ, nil))
	return &dv
}

func (e *rpcBenchEnv) create(b *testing.B) (*tfprotov6.DynamicValue, []byte) {
	r, err := e.srv.ApplyResourceChange(rpcBenchCtx(e.typeName), &tfprotov6.ApplyResourceChangeRequest{
		TypeName: e.typeName, PriorState: e.nullDVOr(), PlannedState: e.planned, Config: e.cfgDV, PlannedPrivate: e.private,
	})
	e.ok(b, "ApplyResourceChange (create) "+e.typeName, err, r.Diagnostics)
	return r.NewState, r.Private
}

func (e *rpcBenchEnv) destroy(b *testing.B, state *tfprotov6.DynamicValue, private []byte) {
	r, err := e.srv.ApplyResourceChange(rpcBenchCtx(e.typeName), &tfprotov6.ApplyResourceChangeRequest{
		TypeName: e.typeName, PriorState: state, PlannedState: e.nullDVOr(), Config: e.nullDVOr(), PlannedPrivate: private,
	})
	e.ok(b, "ApplyResourceChange (destroy) "+e.typeName, err, r.Diagnostics)
}

func (e *rpcBenchEnv) read(b *testing.B, state *tfprotov6.DynamicValue, private []byte) (*tfprotov6.DynamicValue, []byte) {
	r, err := e.srv.ReadResource(rpcBenchCtx(e.typeName), &tfprotov6.ReadResourceRequest{TypeName: e.typeName, CurrentState: state, Private: private})
	e.ok(b, "ReadResource "+e.typeName, err, r.Diagnostics)
	return r.NewState, r.Private
}

func (e *rpcBenchEnv) value(b *testing.B, dv *tfprotov6.DynamicValue) tftypes.Value {
	v, err := dv.Unmarshal(e.typ)
	if err != nil {
		b.Fatal(err)
	}
	return v
}

// rpcBenchOp is one RPC of one env, ready to be measured.
type rpcBenchOp struct {
	call  func() // one RPC (measured)
	after func() // work after each call, not measured (nil: none)
	done  func() // cleanup after the loop
	env   *rpcBenchEnv
}

// rpcBenchPrepare sets up rpc on env: the object it needs exists and the
// request is built.
func rpcBenchPrepare(b *testing.B, env *rpcBenchEnv, rpc string) rpcBenchOp {
	ctx := rpcBenchCtx(env.typeName)
	op := rpcBenchOp{env: env, done: func() {}}
	switch rpc {
	case "Validate":
		req := env.validateReq()
		op.call = func() {
			r, err := env.srv.ValidateResourceConfig(rpcBenchCtx(env.typeName), req)
			env.ok(b, rpc, err, r.Diagnostics)
		}
	case "PlanCreate":
		req := env.planCreateReq()
		op.call = func() {
			r, err := env.srv.PlanResourceChange(rpcBenchCtx(env.typeName), req)
			env.ok(b, rpc, err, r.Diagnostics)
		}
	case "ApplyCreate":
		// Every create is destroyed again, and every create of ours gets a
		// configuration of its own (names are unique on the service), both
		// outside the measured time.
		var state *tfprotov6.DynamicValue
		var private []byte
		op.call = func() { state, private = env.create(b) }
		op.after = func() {
			env.destroy(b, state, private)
			if env.ours {
				env.setConfig(b, rpcBenchRandom())
			}
		}
	case "Read":
		state, private := env.create(b)
		op.done = func() { env.destroy(b, state, private) }
		req := &tfprotov6.ReadResourceRequest{TypeName: env.typeName, CurrentState: state, Private: private}
		op.call = func() {
			r, err := env.srv.ReadResource(rpcBenchCtx(env.typeName), req)
			env.ok(b, rpc, err, r.Diagnostics)
		}
	case "PlanNoChange":
		state, private := env.create(b)
		state, private = env.read(b, state, private)
		op.done = func() { env.destroy(b, state, private) }
		prior := env.value(b, state)
		proposed := rpcBenchProposedNew(env.schema.Attributes, prior, env.config)
		pdv, err := tfprotov6.NewDynamicValue(env.typ, proposed)
		if err != nil {
			b.Fatal(err)
		}
		req := &tfprotov6.PlanResourceChangeRequest{TypeName: env.typeName, PriorState: state, ProposedNewState: &pdv,
			Config: env.cfgDV, PriorPrivate: private}
		// It must be a no-change plan.
		r, err := env.srv.PlanResourceChange(ctx, req)
		env.ok(b, "no-change plan", err, r.Diagnostics)
		if planned := env.value(b, r.PlannedState); !planned.Equal(prior) || len(r.RequiresReplace) > 0 {
			diff, _ := prior.Diff(planned)
			b.Fatalf("%s: the refresh plan is not a no-change plan: %v, requires replace %v", env.typeName, diff, r.RequiresReplace)
		}
		op.call = func() {
			r, err := env.srv.PlanResourceChange(rpcBenchCtx(env.typeName), req)
			env.ok(b, rpc, err, r.Diagnostics)
		}
	default:
		b.Fatalf("unknown RPC %s", rpc)
	}
	return op
}

// rpcBenchRun measures op and returns the CPU time per call the process
// spent in it (with the emulator's, which runs in this process). CPU time
// rather than wall time: on a shared machine, other processes inflate the
// wall time of a call far more than its CPU time.
func rpcBenchRun(b *testing.B, op rpcBenchOp) float64 {
	defer op.done()
	var cpu time.Duration
	for b.Loop() {
		start := rpcBenchCPU()
		op.call()
		cpu += rpcBenchCPU() - start
		if op.after != nil {
			b.StopTimer()
			op.after()
			b.StartTimer()
		}
	}
	return float64(cpu.Nanoseconds()) / float64(b.N)
}

// rpcBenchPaired measures the floor's op and an ablation's op in
// alternation (which one goes first alternates too), so that the machine's
// drift hits both alike, and returns the CPU time per call of each.
func rpcBenchPaired(b *testing.B, floor, ablated rpcBenchOp) (float64, float64) {
	defer floor.done()
	defer ablated.done()
	var cf, ca time.Duration
	i := 0
	for b.Loop() {
		first, second, d1, d2 := floor, ablated, &cf, &ca
		if i%2 == 1 {
			first, second, d1, d2 = ablated, floor, &ca, &cf
		}
		i++
		t0 := rpcBenchCPU()
		first.call()
		t1 := rpcBenchCPU()
		second.call()
		t2 := rpcBenchCPU()
		*d1 += t1 - t0
		*d2 += t2 - t1
		if floor.after != nil {
			b.StopTimer()
			floor.after()
			ablated.after()
			b.StartTimer()
		}
	}
	return float64(cf.Nanoseconds()) / float64(b.N), float64(ca.Nanoseconds()) / float64(b.N)
}

// rpcBenchCPU is the CPU time (user and system) of this process so far.
func rpcBenchCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// rpcBenchOK fails the benchmark on an RPC error or error diagnostic. The
// framework's server never returns an error (it answers with diagnostics),
// so the response is never nil when err is nil.
func rpcBenchOK(b *testing.B, what string, err error, diags []*tfprotov6.Diagnostic) {
	b.Helper()
	if err != nil {
		b.Fatalf("%s: %v", what, err)
	}
	if d := rpcBenchDiagErr(diags); d != "" {
		b.Fatalf("%s: %s", what, d)
	}
}

func rpcBenchDiagErr(diags []*tfprotov6.Diagnostic) string {
	var out []string
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			out = append(out, d.Summary+": "+d.Detail)
		}
	}
	return strings.Join(out, "; ")
}

// rpcBenchProposedNew is Terraform's proposed new state for an update with
// no change in the configuration: the configured values, and the prior ones
// of computed attributes the configuration leaves null (recursively in
// single nested attributes).
func rpcBenchProposedNew(attrs map[string]schema.Attribute, prior, config tftypes.Value) tftypes.Value {
	if config.IsNull() || prior.IsNull() || !config.IsKnown() {
		return config
	}
	var p, c map[string]tftypes.Value
	if prior.As(&p) != nil || config.As(&c) != nil {
		return config
	}
	out := make(map[string]tftypes.Value, len(c))
	for k, cv := range c {
		a := attrs[k]
		switch {
		case a == nil:
			out[k] = cv
		case cv.IsNull() && a.IsComputed():
			out[k] = p[k]
		default:
			if n, ok := a.(schema.SingleNestedAttribute); ok {
				out[k] = rpcBenchProposedNew(n.Attributes, p[k], cv)
			} else {
				out[k] = cv
			}
		}
	}
	return tftypes.NewValue(config.Type(), out)
}

// rpcBenchFromJSON decodes a value of type typ from JSON, attributes absent
// from it being null.
func rpcBenchFromJSON(raw string, typ tftypes.Type) (tftypes.Value, error) {
	return (&tfprotov6.RawState{JSON: []byte(raw)}).UnmarshalWithOpts(typ, tfprotov6.UnmarshalOpts{})
}

// rpcBenchReport returns the Markdown tables of the medians, or "" when
// BenchmarkRPC has not run. TestMain prints it.
func rpcBenchReport() string {
	st := &rpcBenchState
	st.Lock()
	defer st.Unlock()
	if len(st.results) == 0 {
		return ""
	}
	medOf := func(vals []float64) (float64, int) {
		v := slices.Clone(vals)
		if len(v) == 0 {
			return -1, 0
		}
		sort.Float64s(v)
		if len(v)%2 == 1 {
			return v[len(v)/2], len(v)
		}
		return (v[len(v)/2-1] + v[len(v)/2]) / 2, len(v)
	}
	med := func(key string) (float64, int) { return medOf(st.results[key]) }
	var resources []string
	variants := map[string][]string{}
	rounds := 0
	for _, key := range st.order {
		parts := strings.SplitN(key, "/", 3)
		if !slices.Contains(resources, parts[0]) {
			resources = append(resources, parts[0])
		}
		if !slices.Contains(variants[parts[0]], parts[2]) {
			variants[parts[0]] = append(variants[parts[0]], parts[2])
		}
		if _, n := med(key); rounds == 0 || n < rounds {
			rounds = n
		}
	}
	us := func(ns float64) string { return fmt.Sprintf("%.1f", ns/1000) }
	var b strings.Builder
	fmt.Fprintf(&b, "Medians of %d runs (`-count %d`), µs of CPU time per RPC (the process's, the in-process emulator's included). ", rounds, rounds)
	b.WriteString("Element rows: what removing that element from the floor's schema saves, µs and % of the floor's RPC ")
	b.WriteString("(the floor and the floor without it measured in alternation, call by call; noise makes small values negative). ")
	b.WriteString("State bytes: the JSON of the instance's attribute values in the state; per attribute, its key and value in our state. ")
	b.WriteString("†: validators or plan modifiers of other attributes read this one; without it they report a path error, whose cost is left in.\n\n")
	b.WriteString("| Resource | State bytes ours / floor | Validate ours / floor | Plan (create) | Plan (no change) | Apply (create) | Read |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|\n")
	for _, r := range resources {
		fmt.Fprintf(&b, "| %s | %d / %d", r, st.bytes[r+"/ours"], st.bytes[r+"/floor"])
		for _, rpc := range rpcBenchRPCs {
			o, _ := med(r + "/" + rpc + "/ours")
			f, _ := med(r + "/" + rpc + "/floor")
			if o < 0 || f < 0 {
				b.WriteString(" | ")
				continue
			}
			fmt.Fprintf(&b, " | %s / %s (%.2f×)", us(o), us(f), o/f)
		}
		b.WriteString(" |\n")
	}
	for _, r := range resources {
		fmt.Fprintf(&b, "\n#### %s\n\n", r)
		b.WriteString("| Variant | State bytes | Validate | Plan (create) | Plan (no change) | Apply (create) | Read |\n")
		b.WriteString("|---|---:|---:|---:|---:|---:|---:|\n")
		for _, v := range variants[r] {
			label, bytes := v, ""
			switch {
			case v == "ours" || v == "floor":
				bytes = fmt.Sprint(st.bytes[r+"/"+v])
			case strings.HasPrefix(v, "-") && strings.ToLower(v[1:2]) == v[1:2]:
				label = "`" + v[1:] + "`"
				if st.pathErrors[r+"/"+v] {
					label += " †"
				}
				bytes = fmt.Sprint(st.attrBytes[r][v[1:]])
			default:
				label = map[string]string{"-Validators": "all validators", "-PlanModifiers": "all plan modifiers", "-Default": "all defaults"}[v]
			}
			fmt.Fprintf(&b, "| %s | %s", label, bytes)
			for _, rpc := range rpcBenchRPCs {
				x, _ := med(r + "/" + rpc + "/" + v)
				f, _ := med(r + "/" + rpc + "/floor")
				switch {
				case x < 0:
					b.WriteString(" | ")
				case v == "ours" && f < 0:
					fmt.Fprintf(&b, " | %s", us(x))
				case v == "ours":
					fmt.Fprintf(&b, " | %s (%.2f×)", us(x), x/f)
				case v == "floor":
					fmt.Fprintf(&b, " | %s", us(x))
				case f < 0:
					b.WriteString(" | ")
				default:
					saved, _ := medOf(st.saved[r+"/"+rpc+"/"+v])
					fmt.Fprintf(&b, " | %s (%.0f%%)", us(saved), 100*saved/f)
				}
			}
			b.WriteString(" |\n")
		}
	}
	return b.String()
}
