package provider

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"
)

// TestAccE2E_projectProtectionWayOut: the deletion_protection error says
// what can be done where the plan comes from. `terraform destroy` keeps the
// resource block: set deletion_protection = false there. A plan that
// destroys the project because its resource block was removed (or a
// removed block with destroy = true asks to) has no block to set it in: the
// error names a removed block with destroy = false, or putting the block
// back; and that removed block forgets the project, which stays on the
// service.
func TestAccE2E_projectProtectionWayOut(t *testing.T) {
	ep := testAccRequireOrgKey(t)
	t.Parallel()
	w := newE2EWorkspace(t)
	name := "tf-acc-removed-" + acctest.RandString(8)
	provider := fmt.Sprintf("provider \"service\" {\n  org_api_key = %q\n}\n", ep.OrgAPIKey)
	w.WriteFile("main.tf", provider+fmt.Sprintf("resource \"service_project\" \"kept\" {\n  name = %q\n}\n", name)+
		"output \"id\" {\n  value = service_project.kept.id\n}\n")
	w.RunOK("apply", "-auto-approve", "-no-color", "-input=false")
	id := strings.TrimSpace(w.RunOK("output", "-raw", "id").Stdout)
	t.Cleanup(func() { _, _ = testAccOrgClient(t).DeleteProject(context.Background(), id, false) })

	const inBlock = "set deletion_protection = false in the resource block, run terraform apply (it changes nothing on the service), then run the destroy again"
	removedBlock := []string{"removed {", "from = service_project.<name>", "lifecycle {", "destroy = false"}
	refused := func(step string, args ...string) string {
		t.Helper()
		res := w.Run(nil, args...)
		out := strings.Join(strings.Fields(res.Stdout+res.Stderr), " ") // the detail is wrapped
		if res.ExitCode == 0 || !strings.Contains(out, "Project is protected against deletion") {
			t.Fatalf("%s: exit %d, want the deletion_protection error:\n%s%s", step, res.ExitCode, res.Stdout, res.Stderr)
		}
		return out
	}

	// terraform destroy: the resource block is there.
	out := refused("terraform destroy", "destroy", "-auto-approve", "-no-color", "-input=false")
	if !strings.Contains(out, inBlock) || strings.Contains(out, "removed {") {
		t.Errorf("terraform destroy: want the resource block's way out only (%q):\n%s", inBlock, out)
	}

	// The resource block removed, then a removed block that destroys: no
	// block to set deletion_protection in.
	for _, tc := range []struct{ step, config string }{
		{"resource block removed", provider},
		{"removed block with destroy = true", provider + "removed {\n  from = service_project.kept\n  lifecycle {\n    destroy = true\n  }\n}\n"},
	} {
		w.WriteFile("main.tf", tc.config)
		out := refused(tc.step, "plan", "-no-color", "-input=false")
		if strings.Contains(out, inBlock) {
			t.Errorf("%s: the error still says to set deletion_protection in the resource block:\n%s", tc.step, out)
		}
		for _, want := range append(removedBlock, "put its resource block back with deletion_protection = false") {
			if !strings.Contains(out, want) {
				t.Errorf("%s: the error does not say %q:\n%s", tc.step, want, out)
			}
		}
	}

	// The removed block the error shows forgets the project, which stays.
	w.WriteFile("main.tf", provider+"removed {\n  from = service_project.kept\n  lifecycle {\n    destroy = false\n  }\n}\n")
	w.RunOK("apply", "-auto-approve", "-no-color", "-input=false")
	if res := w.Run(nil, "state", "list"); strings.TrimSpace(res.Stdout) != "" {
		t.Errorf("the state still holds %q after the removed block", res.Stdout)
	}
	if _, err := testAccOrgClient(t).GetProject(context.Background(), id); err != nil {
		t.Errorf("project %s after the removed block (destroy = false): %v; want it kept on the service", id, err)
	}
}
