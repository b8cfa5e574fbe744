// Package destroyrun tells whether Terraform is running a destroy, and is the
// gate that skips the provider's plan-time checks of the service then.
//
// Destroy never depends on provider-side plan checks.
//
// `terraform destroy` (and `apply -destroy`, `plan -destroy`) first runs a
// normal plan of the whole configuration to refresh the state, and fails if
// that plan has an error, before planning the deletes. A provider-side plan
// check (credentials against the auth config's scheme, a trigger's account,
// toolkit versions) can fail there for an object that was never created, for
// example after a partial apply, and would make destroy impossible without
// -refresh=false. Terraform does not tell a provider which command runs, so
// the provider reads the command line of the Terraform process that started
// it (its parent); when that is a destroy, ModifyPlan skips its remote checks
// (nothing will be created) and says so in the DEBUG log.
//
// `terraform test` (before Terraform 1.14) and `tofu test` tear each run down
// with such a destroy too, inside the test command: the parent's command line
// says `test` for the runs and the teardown alike, and what Terraform sends
// the provider cannot tell them apart either (the teardown's first plan is a
// normal plan: the same calls with the same values; ClientCapabilities carry
// nothing about it; the null planned states of the deletes come only after
// it, in another provider process). Under such a test command (InTest, which
// the CLI's version from ConfigureProvider decides), the checks run and their
// errors are warnings, and Create and Update refuse what they refused
// (Refused) before anything is written. Every ModifyPlan
// goes through one gate for this, RemotePlanChecks. Objects already in the
// state and unchanged are never checked in any command. When the parent
// cannot be read (another OS, a debugger-attached provider) the checks run as
// usual and their errors name `terraform destroy -refresh=false` as the way
// out.
package destroyrun

import (
	"context"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// Detection is what the provider can tell about the command that
// started it.
type Detection int

const (
	// NotDestroying: the parent is a terraform or tofu command other than a destroy.
	NotDestroying Detection = iota
	// Destroying: the parent is `terraform destroy` or `apply|plan -destroy`.
	Destroying
	// Unknown: the parent's command line cannot be read (another OS)
	// or the parent is not terraform or tofu (a debugger-attached or
	// in-process provider).
	Unknown
	// InTest: the parent is `tofu test`, or `terraform test` before
	// Terraform 1.14. Their teardown destroys each run's objects with a
	// destroy that first makes a normal plan of the configuration (Terraform
	// 1.14 and later skip it), and nothing Terraform sends the provider
	// tells that plan from a run's plan: the same calls, the same values.
	// A plan-time check failing there would stop the teardown and leave the
	// run's objects behind, so the gate turns its errors into warnings and
	// the apply refuses the object before writing it (Refused).
	InTest
)

// parent is what the parent's command line says: Destroying,
// NotDestroying, Unknown, or InTest for any test command (testTeardownPlans
// then decides on the CLI's version).
var parentOnce = sync.OnceValue(func() Detection {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(os.Getppid()) + "/cmdline")
	if err != nil {
		return Unknown
	}
	return classify(strings.Split(strings.TrimRight(string(b), "\x00"), "\x00"))
})

// classify is parentOnce for the parent's argv.
func classify(argv []string) Detection {
	switch {
	case isDestroyCommand(argv):
		return Destroying
	case isTestCommand(argv):
		cliIsTofu.Store(strings.HasPrefix(argv[0][strings.LastIndexAny(argv[0], `/\`)+1:], "tofu"))
		return InTest
	case isTerraformCommand(argv):
		return NotDestroying
	}
	return Unknown
}

var (
	cliVersion atomic.Value // string: the version Terraform sent in ConfigureProvider
	cliIsTofu  atomic.Bool
)

// SetCLIVersion records the CLI's version, which Terraform (and OpenTofu,
// its own version) sends when it configures the provider; the provider's
// Configure calls it. Until it is known, a test command counts as one whose
// teardown plans the configuration.
func SetCLIVersion(v string) { cliVersion.Store(v) }

// testTeardownPlans reports whether the teardown of the test command that
// started the provider plans the configuration before destroying: `tofu
// test` (every version so far), and `terraform test` before 1.14 (1.14
// destroys with SkipRefresh).
func testTeardownPlans() bool {
	if cliIsTofu.Load() {
		return true
	}
	v, _ := cliVersion.Load().(string)
	major, minor, ok := majorMinor(v)
	return !ok || major < 1 || (major == 1 && minor < 14)
}

// majorMinor parses "1.13.5" (or "v1.13.0-beta1") into 1, 13.
func majorMinor(v string) (int, int, bool) {
	parts := strings.SplitN(strings.TrimPrefix(v, "v"), ".", 3)
	if len(parts) < 2 {
		return 0, 0, false
	}
	major, err1 := strconv.Atoi(parts[0])
	minor, err2 := strconv.Atoi(strings.TrimRightFunc(parts[1], func(r rune) bool { return r < '0' || r > '9' }))
	return major, minor, err1 == nil && err2 == nil
}

// detectParent reports what the provider knows about a destroy.
func detectParent() Detection {
	d := parentOnce()
	if d == InTest && !testTeardownPlans() {
		return NotDestroying
	}
	return d
}

// detectionKey carries a Detection in a context, for tests
// (WithDetection) that must not change the process-wide detection.
type detectionKey struct{}

// WithDetection returns ctx carrying d, which Detect then reports instead of
// what the process's parent tells. Only tests call it (the provider's, which
// plan as if destroying): kept here on purpose, as they are in another package.
func WithDetection(ctx context.Context, d Detection) context.Context {
	return context.WithValue(ctx, detectionKey{}, d)
}

// Detect is detectParent unless ctx carries another value.
func Detect(ctx context.Context) Detection {
	if d, ok := ctx.Value(detectionKey{}).(Detection); ok {
		return d
	}
	return detectParent()
}

// isTerraformCommand reports whether argv[0] is a terraform or tofu binary.
func isTerraformCommand(argv []string) bool {
	if len(argv) == 0 {
		return false
	}
	base := argv[0][strings.LastIndexAny(argv[0], `/\`)+1:]
	return strings.HasPrefix(base, "terraform") || strings.HasPrefix(base, "tofu")
}

// isTestCommand reports whether argv is `terraform test` or `tofu test`,
// allowing global options such as -chdir=DIR before the subcommand.
func isTestCommand(argv []string) bool {
	if len(argv) < 2 || !isTerraformCommand(argv) {
		return false
	}
	args := argv[1:]
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		args = args[1:]
	}
	return len(args) > 0 && args[0] == "test"
}

// isDestroyCommand reports whether argv (argv[0] first) is `terraform destroy`
// or `terraform apply|plan -destroy`, allowing global options such as
// -chdir=DIR before the subcommand.
func isDestroyCommand(argv []string) bool {
	if len(argv) < 2 {
		return false
	}
	if !isTerraformCommand(argv) {
		return false
	}
	args := argv[1:]
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		args = args[1:]
	}
	if len(args) == 0 {
		return false
	}
	switch args[0] {
	case "destroy":
		return true
	case "apply", "plan":
		for _, a := range args[1:] {
			switch a {
			case "-destroy", "--destroy", "-destroy=true", "--destroy=true":
				return true
			}
		}
	}
	return false
}

// hint is appended to the errors of plan-time checks when the
// provider cannot tell whether a destroy is running.
const hint = "If this error stops `terraform destroy` (or `terraform apply -destroy`): the provider could not " +
	"tell that a destroy is running (it reads the command line of the Terraform process that started it, which " +
	"is not readable here), so its plan-time checks ran. Destroy without them with " +
	"`terraform destroy -refresh=false` (`tofu destroy -refresh=false` with OpenTofu)."

// RemotePlanChecks is the one gate of every resource's ModifyPlan: each
// ModifyPlan is
//
//	func (r *fooResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
//		destroyrun.RemotePlanChecks(ctx, fooType, req, resp, func() { r.modifyPlan(ctx, req, resp) })
//	}
//
// and makes its API calls (through Cache or Client) only inside checks.
// checks does not run for a delete (no planned object) nor when Terraform is
// planning a destroy: `terraform destroy` first plans the whole
// configuration, and a check failing there (for example after a partial
// apply) would make destroy impossible. When the provider cannot tell
// whether a destroy runs, checks runs and its errors say how to destroy
// without them (hint). TestModifyPlanGoesThroughTheGate (internal/provider)
// fails for a resource whose ModifyPlan reads the service outside this gate.
//
// Under a test command whose teardown plans the configuration (InTest), the
// checks run and their errors become warnings, and the configuration they
// refused is recorded: Create and Update call Refused first, which fails
// the apply with the same errors before anything is written. The plan
// Terraform makes during an apply runs in the same provider process as the
// apply's Create, so the record is there when Create runs; the teardown's
// plan is never applied.
func RemotePlanChecks(ctx context.Context, resourceType string, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, checks func()) {
	if req.Plan.Raw.IsNull() {
		return // a delete: nothing is created, nothing to check
	}
	if Detect(ctx) != InTest {
		GatedChecks(ctx, resourceType, &resp.Diagnostics, checks)
		return
	}
	n := len(resp.Diagnostics)
	checks()
	var refused diag.Diagnostics
	for i := n; i < len(resp.Diagnostics); i++ {
		d := resp.Diagnostics[i]
		if d.Severity() != diag.SeverityError {
			continue
		}
		refused = append(refused, d)
		detail := strings.TrimRight(d.Detail(), "\n") + "\n\n" + testHint
		if wp, ok := d.(diag.DiagnosticWithPath); ok {
			resp.Diagnostics[i] = diag.NewAttributeWarningDiagnostic(wp.Path(), d.Summary(), detail)
		} else {
			resp.Diagnostics[i] = diag.NewWarningDiagnostic(d.Summary(), detail)
		}
	}
	if len(refused) > 0 {
		refusals.add(resourceType, req.Config.Raw, refused)
		tflog.Debug(ctx, "test command: plan-time check errors reported as warnings, refused at apply", map[string]any{"type": resourceType})
	}
}

// testHint is appended to a check's error turned into a warning (InTest).
const testHint = "This is a warning and not an error here because this test command tears a test down with a destroy " +
	"that first plans the configuration again, and the provider cannot tell that plan from this one: an error there " +
	"would stop the teardown and leave this run's objects behind. The apply refuses this object with this error " +
	"before anything is written. (tofu test, and terraform test before Terraform 1.14.)"

// refusals are the configurations the gate refused under a test command,
// by resource type; Refused reads them.
var refusals refusedConfigs

type refusedConfigs struct {
	mu      sync.Mutex
	entries []refusedConfig
}

type refusedConfig struct {
	resourceType string
	config       tftypes.Value
	diags        diag.Diagnostics
}

func (r *refusedConfigs) add(resourceType string, config tftypes.Value, diags diag.Diagnostics) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, e := range r.entries {
		if e.resourceType == resourceType && e.config.Equal(config) {
			r.entries[i].diags = diags
			return
		}
	}
	r.entries = append(r.entries, refusedConfig{resourceType, config, diags})
}

func (r *refusedConfigs) find(resourceType string, config tftypes.Value) diag.Diagnostics {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, e := range r.entries {
		if e.resourceType == resourceType && e.config.Equal(config) {
			return e.diags
		}
	}
	return nil
}

// Refused is the first step of every Create and Update of a resource whose
// ModifyPlan goes through RemotePlanChecks: it adds the errors the gate
// turned into warnings for this configuration under a test command, and
// returns true (refuse: write nothing). It is false, with nothing added,
// everywhere else. TestCreateAndUpdateHonourRefusals (internal/provider)
// fails for a resource that does not call it.
func Refused(_ context.Context, resourceType string, config tfsdk.Config, diags *diag.Diagnostics) bool {
	found := refusals.find(resourceType, config.Raw)
	if len(found) == 0 {
		return false
	}
	diags.Append(found...)
	return true
}

// Refuse records diags as the gate's refusal of config, as RemotePlanChecks
// does under a test command, and returns the function that forgets it; only
// tests call it.
func Refuse(resourceType string, config tftypes.Value, diags diag.Diagnostics) (forget func()) {
	refusals.add(resourceType, config, diags)
	return func() {
		refusals.mu.Lock()
		defer refusals.mu.Unlock()
		refusals.entries = slices.DeleteFunc(refusals.entries, func(e refusedConfig) bool {
			return e.resourceType == resourceType && e.config.Equal(config)
		})
	}
}

// GatedChecks runs checks (which add their errors to diags) unless
// Terraform is planning a destroy, with hint on their errors when the
// provider cannot tell; typeName names the caller in the DEBUG log.
// RemotePlanChecks is the gate of ModifyPlan; the provider's readReady puts
// the checks a data source runs through the same gate, since `terraform
// destroy` reads data sources too.
func GatedChecks(ctx context.Context, typeName string, diags *diag.Diagnostics, checks func()) {
	// InTest runs the checks as usual here: a data source, the ephemeral
	// resource and a list have no apply that could refuse later, and these
	// checks (the provider block's toolkit_versions) fail every run of a
	// test file from its first plan, before anything exists to tear down.
	switch Detect(ctx) {
	case Destroying:
		tflog.Debug(ctx, "terraform destroy is running: provider-side plan checks skipped", map[string]any{"type": typeName})
		return
	case Unknown:
		n := len(*diags)
		checks()
		*diags = withHint(*diags, n)
		return
	}
	checks()
}

// withHint appends hint to the errors of diags from index from on.
func withHint(diags diag.Diagnostics, from int) diag.Diagnostics {
	for i := from; i < len(diags); i++ {
		d := diags[i]
		if d.Severity() != diag.SeverityError || strings.Contains(d.Detail(), "-refresh=false") {
			continue
		}
		detail := strings.TrimRight(d.Detail(), "\n") + "\n\n" + hint
		if wp, ok := d.(diag.DiagnosticWithPath); ok {
			diags[i] = diag.NewAttributeErrorDiagnostic(wp.Path(), d.Summary(), detail)
		} else {
			diags[i] = diag.NewErrorDiagnostic(d.Summary(), detail)
		}
	}
	return diags
}
