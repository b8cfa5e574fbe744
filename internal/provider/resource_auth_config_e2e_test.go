package provider

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

// TestAccE2E_authConfigGenerateConfig imports an existing service-managed
// auth config with an import block and `terraform plan
// -generate-config-out`, applies the import, and checks that the generated
// configuration then plans empty (`-detailed-exitcode` = 0).
func TestAccE2E_authConfigGenerateConfig(t *testing.T) {
	w := newE2EWorkspace(t)
	ctx := context.Background()
	c := testAccClient(t)
	// Created with the service's defaults (name included) outside Terraform.
	created := testAccCreateAuthConfig(t, c, client.CreateAuthConfigRequest{ToolkitSlug: "github", Type: client.AuthConfigTypeManaged})
	ac, err := c.GetAuthConfig(ctx, created.ID)
	if err != nil {
		t.Fatal(err)
	}

	w.WriteFile("import.tf", fmt.Sprintf(`
import {
  to = service_auth_config.imported
  id = %q
}
`, created.ID))
	w.RunOK("plan", "-generate-config-out=generated.tf", "-no-color")
	gen := string(w.ReadFile("generated.tf"))
	for _, want := range []string{
		`resource "service_auth_config" "imported"`,
		`toolkit`,
		fmt.Sprintf("%q", ac.Name), // the service's default name round-trips
		`"use_service_managed_auth"`,
	} {
		if !strings.Contains(gen, want) {
			t.Errorf("generated.tf lacks %s:\n%s", want, gen)
		}
	}
	t.Logf("generated.tf:\n%s", gen)

	// The import itself changes nothing on the object.
	w.RunOK("plan", "-out=import.tfplan", "-no-color")
	if changes := w.PlanChanges("import.tfplan"); len(changes) != 1 || changes[0].Actions != "no-op" || !changes[0].Importing {
		t.Fatalf("want exactly one no-op import, got %+v", changes)
	}
	w.RunOK("apply", "-no-color", "import.tfplan")

	res := w.Run(nil, "plan", "-detailed-exitcode", "-no-color")
	if res.ExitCode != 0 {
		t.Fatalf("plan after importing with generated configuration is not empty (exit %d):\n%s\n%s", res.ExitCode, res.Stdout, res.Stderr)
	}
	// Still empty without the import block.
	if err := os.Remove(w.Path("import.tf")); err != nil {
		t.Fatal(err)
	}
	res = w.Run(nil, "plan", "-detailed-exitcode", "-no-color")
	if res.ExitCode != 0 {
		t.Fatalf("plan without the import block is not empty (exit %d):\n%s\n%s", res.ExitCode, res.Stdout, res.Stderr)
	}
	// Nothing was written to the auth config by the import.
	after, err := c.GetAuthConfig(ctx, created.ID)
	if err != nil {
		t.Fatal(err)
	}
	if after.LastUpdatedAt != ac.LastUpdatedAt || after.Name != ac.Name {
		t.Errorf("import changed the auth config: before %+v, after %+v", ac, after)
	}
	// Terraform manages it now: remove it through Terraform.
	w.RunOK("destroy", "-auto-approve", "-no-color")
	if _, err := c.GetAuthConfig(ctx, created.ID); !client.IsNotFound(err) {
		t.Errorf("after destroy: want 404, got %v", err)
	}
}

// TestAccE2E_authConfigCost counts requests per terraform command: the
// toolkit is fetched at most once per provider run however many auth configs
// use it; create is one write and one read; refresh is one GET per auth
// config and never a list. Not parallel: it reads process-wide counters
// (sequential tests never overlap parallel ones).
func TestAccE2E_authConfigCost(t *testing.T) {
	w := newE2EWorkspace(t)
	testAccRequireEmulator(t)
	prefix := acctest.RandomWithPrefix("e2e-cost")
	w.WriteFile("main.tf", fmt.Sprintf(`
resource "service_auth_config" "a" {
  toolkit = "github"
  name    = "%[1]s-a"
}

resource "service_auth_config" "b" {
  toolkit = "github"
  name    = "%[1]s-b"
  scopes  = ["repo"]
}

resource "service_auth_config" "c" {
  toolkit     = "github"
  type        = "use_custom_auth"
  auth_scheme = "OAUTH2"
  name        = "%[1]s-c"
  credentials = {
    client_id     = "id"
    client_secret = "secret"
  }
}
`, prefix))
	t.Cleanup(func() { w.Run(nil, "destroy", "-auto-approve", "-no-color") })

	type counts struct{ toolkit, get, list, create, writes int }
	snap := func() counts {
		s := testAccEmulatorStatsNow(t)
		return counts{s.Requests[routeGetToolkit], s.Requests[routeGetAuthConfig], s.Requests[routeListAuthConfigs],
			s.Requests[routeCreateAuthCfg], s.Writes}
	}
	delta := func(a, b counts) counts {
		return counts{b.toolkit - a.toolkit, b.get - a.get, b.list - a.list, b.create - a.create, b.writes - a.writes}
	}

	// Plan: three auth configs of one toolkit, one toolkit GET.
	c0 := snap()
	w.RunOK("plan", "-out=tfplan", "-no-color")
	c1 := snap()
	if d := delta(c0, c1); d.toolkit != 1 || d.writes != 0 || d.get != 0 || d.list != 0 {
		t.Errorf("plan: want 1 toolkit GET and nothing else, got %+v", d)
	}
	// Apply: at most one toolkit GET (the final plan), one create and one GET each.
	w.RunOK("apply", "-no-color", "tfplan")
	c2 := snap()
	if d := delta(c1, c2); d.toolkit > 1 || d.create != 3 || d.writes != 3 || d.get != 3 || d.list != 0 {
		t.Errorf("apply: want <=1 toolkit GET, 3 creates (3 writes), 3 auth config GETs, no list; got %+v", d)
	}
	// Refresh-only plan: one GET per auth config, one toolkit GET, no list.
	res := w.Run(nil, "plan", "-detailed-exitcode", "-no-color")
	if res.ExitCode != 0 {
		t.Fatalf("plan after apply not empty (exit %d):\n%s\n%s", res.ExitCode, res.Stdout, res.Stderr)
	}
	c3 := snap()
	if d := delta(c2, c3); d.toolkit > 1 || d.get != 3 || d.list != 0 || d.writes != 0 {
		t.Errorf("refresh+plan: want <=1 toolkit GET, 3 auth config GETs, no list, no writes; got %+v", d)
	}
}

// TestAccE2E_authConfigGenerateConfigCustomOAuth2 follows the guide
// "Importing existing auth configs" for a custom OAUTH2 auth config: the
// configuration generated by `-generate-config-out` has no credentials (the
// service never returns secrets), so its plan fails naming client_id and
// client_secret; adding credentials_wo from ephemeral variables with
// credentials_wo_version = 1 plans the import plus one in-place update that
// re-sends the credentials, and the next plan is empty.
func TestAccE2E_authConfigGenerateConfigCustomOAuth2(t *testing.T) {
	w := newE2EWorkspace(t)
	ctx := context.Background()
	c := testAccClient(t)
	created := testAccCreateAuthConfig(t, c, client.CreateAuthConfigRequest{
		ToolkitSlug: "github", Type: client.AuthConfigTypeCustom, AuthScheme: "OAUTH2",
		Name:        acctest.RandomWithPrefix("e2e-gen-oauth2"),
		Credentials: map[string]any{"client_id": "old-id", "client_secret": "old-secret"},
	})

	w.WriteFile("import.tf", fmt.Sprintf(`
import {
  to = service_auth_config.imported
  id = %q
}
`, created.ID))
	res := w.Run(nil, "plan", "-generate-config-out=generated.tf", "-no-color")
	out := res.Stdout + res.Stderr
	if res.ExitCode == 0 || !strings.Contains(out, "Missing credentials") ||
		!strings.Contains(out, `"client_id"`) || !strings.Contains(out, `"client_secret"`) {
		t.Fatalf("want the plan of the generated configuration to fail with Missing credentials naming client_id and client_secret (exit %d):\n%s", res.ExitCode, out)
	}
	gen := string(w.ReadFile("generated.tf"))
	t.Logf("generated.tf:\n%s", gen)

	// The guide's steps: credentials_wo from ephemeral variables, version 1.
	fixed := regexp.MustCompile(`(?m)^\s*credentials_wo\s*=\s*null\s*(#.*)?$`).ReplaceAllString(gen, `  credentials_wo = {
    client_id     = var.github_client_id
    client_secret = var.github_client_secret
  }`)
	fixed = regexp.MustCompile(`(?m)^\s*credentials_wo_version\s*=\s*null\s*$`).ReplaceAllString(fixed, "  credentials_wo_version = 1")
	if fixed == gen || !strings.Contains(fixed, "credentials_wo_version = 1") {
		t.Fatalf("generated.tf has no credentials_wo = null / credentials_wo_version = null lines to replace:\n%s", gen)
	}
	w.WriteFile("generated.tf", fixed)
	w.WriteFile("variables.tf", `
variable "github_client_id" {
  type      = string
  ephemeral = true
}

variable "github_client_secret" {
  type      = string
  sensitive = true
  ephemeral = true
}
`)
	vars := []string{"TF_VAR_github_client_id=new-id", "TF_VAR_github_client_secret=new-secret"}

	w.RunEnvOK(vars, "plan", "-out=import.tfplan", "-no-color")
	if changes := w.PlanChanges("import.tfplan"); len(changes) != 1 || changes[0].Actions != "update" || !changes[0].Importing {
		t.Fatalf("want one import with an in-place update, got %+v", changes)
	}
	w.RunEnvOK(vars, "apply", "-no-color", "import.tfplan")

	ac, err := c.GetAuthConfig(ctx, created.ID)
	if err != nil {
		t.Fatal(err)
	}
	if ac.Credentials["client_id"] != "new-id" {
		t.Errorf("credentials not re-sent: client_id on the service = %v, want new-id", ac.Credentials["client_id"])
	}
	if res := w.Run(vars, "plan", "-detailed-exitcode", "-no-color"); res.ExitCode != 0 {
		t.Fatalf("plan after the import is not empty (exit %d):\n%s\n%s", res.ExitCode, res.Stdout, res.Stderr)
	}
	w.RunEnvOK(vars, "destroy", "-auto-approve", "-no-color")
}
