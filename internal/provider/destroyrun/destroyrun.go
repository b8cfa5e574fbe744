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
// (nothing will be created) and says so in the DEBUG log. Every ModifyPlan
// goes through one gate for this, RemotePlanChecks. Objects already in the
// state and unchanged are never checked in any command. When the parent
// cannot be read (another OS, a debugger-attached provider) the checks run as
// usual and their errors name `terraform destroy -refresh=false` as the way
// out.
package destroyrun

import (
	"context"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
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
)

var parentOnce = sync.OnceValue(func() Detection {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(os.Getppid()) + "/cmdline")
	if err != nil {
		return Unknown
	}
	argv := strings.Split(strings.TrimRight(string(b), "\x00"), "\x00")
	switch {
	case isDestroyCommand(argv):
		return Destroying
	case isTerraformCommand(argv):
		return NotDestroying
	}
	return Unknown
})

// detectParent reports what the provider knows about a destroy.
func detectParent() Detection { return parentOnce() }

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
func RemotePlanChecks(ctx context.Context, resourceType string, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, checks func()) {
	if req.Plan.Raw.IsNull() {
		return // a delete: nothing is created, nothing to check
	}
	GatedChecks(ctx, resourceType, &resp.Diagnostics, checks)
}

// GatedChecks runs checks (which add their errors to diags) unless
// Terraform is planning a destroy, with hint on their errors when the
// provider cannot tell; typeName names the caller in the DEBUG log.
// RemotePlanChecks is the gate of ModifyPlan; the provider's readReady puts
// the checks a data source runs through the same gate, since `terraform
// destroy` reads data sources too.
func GatedChecks(ctx context.Context, typeName string, diags *diag.Diagnostics, checks func()) {
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
