package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"
)

// TestAccE2E_projectAndItsObjectsInOneRun: a provider configured from a
// service_project created in the same run plans with the warning (its
// configuration is unknown, plan-time checks skipped), applies (the project
// first, then the object in it with the new key), plans empty afterwards and
// destroys, as the guide "Projects and environments" says.
func TestAccE2E_projectAndItsObjectsInOneRun(t *testing.T) {
	ep := testAccRequireOrgKey(t)
	t.Parallel()
	w := newE2EWorkspace(t)
	name := "tf-acc-one-run-" + acctest.RandString(8)
	w.WriteFile("main.tf", fmt.Sprintf(`
provider "service" {
  org_api_key = %[1]q
}

resource "service_project" "qa" {
  name                = %[2]q
  deletion_protection = false
}

provider "service" {
  alias   = "qa"
  api_key = service_project.qa.api_key
}

resource "service_auth_config" "github" {
  provider = service.qa
  toolkit  = "github"
  name     = "GitHub (qa)"
}
`, ep.OrgAPIKey, name))
	plan := w.RunOK("plan", "-no-color", "-input=false")
	if out := plan.Stdout + plan.Stderr; !strings.Contains(out, "Provider configuration not known until apply") || !strings.Contains(out, "Plan: 2 to add") {
		t.Errorf("plan lacks the unknown-configuration warning or the two creates:\n%s", out)
	}
	w.RunOK("apply", "-auto-approve", "-no-color", "-input=false")
	if res := w.Run(nil, "plan", "-detailed-exitcode", "-no-color", "-input=false"); res.ExitCode != 0 {
		t.Errorf("plan after apply is not empty (exit %d):\n%s%s", res.ExitCode, res.Stdout, res.Stderr)
	}
	w.RunOK("destroy", "-auto-approve", "-no-color", "-input=false")
}
