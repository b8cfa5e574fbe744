package provider

import (
	"context"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-log/tflog"
)

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
// (nothing will be created) and says so in the DEBUG log. Objects already in
// the state and unchanged are never checked in any command. When the parent
// cannot be read (another OS, a debugger-attached provider) the checks run as
// usual.

var destroyRunOnce = sync.OnceValue(func() bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(os.Getppid()) + "/cmdline")
	if err != nil {
		return false
	}
	return isDestroyCommand(strings.Split(strings.TrimRight(string(b), "\x00"), "\x00"))
})

// terraformIsDestroying reports whether the Terraform command that started
// this provider process is a destroy.
func terraformIsDestroying() bool { return destroyRunOnce() }

// isDestroyCommand reports whether argv (argv[0] first) is `terraform destroy`
// or `terraform apply|plan -destroy`, allowing global options such as
// -chdir=DIR before the subcommand.
func isDestroyCommand(argv []string) bool {
	if len(argv) < 2 {
		return false
	}
	base := argv[0][strings.LastIndexAny(argv[0], `/\`)+1:]
	if !strings.HasPrefix(base, "terraform") && !strings.HasPrefix(base, "tofu") {
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

// skipPlanChecks reports (and logs) that ModifyPlan must not run its
// provider-side checks because Terraform is planning a destroy.
func skipPlanChecks(ctx context.Context, resourceType string) bool {
	if !terraformIsDestroying() {
		return false
	}
	tflog.Debug(ctx, "terraform destroy is running: provider-side plan checks skipped", map[string]any{"resource_type": resourceType})
	return true
}
