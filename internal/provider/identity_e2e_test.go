package provider

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/testutil"
)

// TestAccE2E_importByIdentity: an `import` block with `identity = { id =
// ... }` (Terraform 1.12+, OpenTofu 1.12+) imports an auth config created
// outside Terraform: the apply imports it without a change, the state holds
// its identity, and the next plan is empty. Part of make test's
// compatibility pass, so that it runs on OpenTofu too (and skips, naming
// the CLI, on Terraform 1.11).
func TestAccE2E_importByIdentity(t *testing.T) {
	t.Parallel()
	w := newE2EWorkspace(t)
	if ok, version := testutil.CLIAtLeast(t, testutil.RequireTerraform(t), 1, 12); !ok {
		t.Skipf("%s has no resource identity (import blocks by identity need Terraform 1.12+ or OpenTofu 1.12+)", version)
	}
	c := testAccClient(t)
	name := acctest.RandomWithPrefix("tf-acc-e2e-ident")
	ac := testAccCreateAuthConfig(t, c, client.CreateAuthConfigRequest{ToolkitSlug: "github", Type: client.AuthConfigTypeManaged, Name: name})

	w.WriteFile("main.tf", fmt.Sprintf(`resource "service_auth_config" "imported" {
  toolkit = "github"
  name    = %q
}

import {
  to       = service_auth_config.imported
  identity = { id = %q }
}
`, name, ac.ID))
	apply := w.RunOK("apply", "-auto-approve", "-no-color", "-input=false")
	if !strings.Contains(apply.Stdout, "1 imported, 0 added, 0 changed, 0 destroyed") {
		t.Errorf("the apply did not import the auth config alone:\n%s", apply.Stdout)
	}
	var state struct {
		Resources []struct {
			Type      string `json:"type"`
			Instances []struct {
				Identity   map[string]any `json:"identity"`
				Attributes map[string]any `json:"attributes"`
			} `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(w.ReadFile("terraform.tfstate"), &state); err != nil {
		t.Fatal(err)
	}
	if len(state.Resources) != 1 || len(state.Resources[0].Instances) != 1 ||
		state.Resources[0].Instances[0].Identity["id"] != ac.ID || state.Resources[0].Instances[0].Attributes["id"] != ac.ID {
		t.Errorf("state after the import: %+v; want one service_auth_config with id and identity.id %s", state.Resources, ac.ID)
	}
	if res := w.Run(nil, "plan", "-detailed-exitcode", "-no-color", "-input=false"); res.ExitCode != 0 {
		t.Errorf("plan after the import by identity is not empty (exit %d):\n%s%s", res.ExitCode, res.Stdout, res.Stderr)
	}
}
