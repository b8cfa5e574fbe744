package provider

import (
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"
	tfresource "github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// TestAccE2E_refusedKeyNamesTheSetting: a 401 names the setting that holds
// the refused key, whatever the service suggests. After a project's key is
// rotated (stage 1 of the guide "Projects and environments"), the
// configuration of stage 2 still holds the earlier key: its refresh fails
// with the error naming api_key, the provider configuration that manages the
// object (the `providers` of its module) and the rotation. With the two keys
// swapped, the organization's operation is refused naming org_api_key, and
// the emulator's advice keeps the documented default key readable (not
// "default ***" because it equals the configured api_key).
func TestAccE2E_refusedKeyNamesTheSetting(t *testing.T) {
	ep := testAccRequireOrgKey(t)
	testAccRequireEmulator(t)
	t.Parallel()
	name := "tf-acc-stale-" + acctest.RandString(8)
	words := func(res e2eResult) string { return strings.Join(strings.Fields(res.Stdout+res.Stderr), " ") }

	org := newE2EWorkspace(t)
	project := func(rotation string) string {
		return fmt.Sprintf(`provider "service" {
  org_api_key = %q
}

resource "service_project" "staging" {
  name                = %q
  deletion_protection = false
  api_key_rotation    = %q
}

output "key" {
  value     = service_project.staging.api_key
  sensitive = true
}
`, ep.OrgAPIKey, name, rotation)
	}
	org.WriteFile("main.tf", project("first"))
	org.RunOK("apply", "-auto-approve", "-no-color", "-input=false")
	t.Cleanup(func() { org.Run(nil, "destroy", "-auto-approve", "-no-color", "-input=false") })
	key := strings.TrimSpace(org.RunOK("output", "-raw", "key").Stdout)

	env := newE2EWorkspace(t)
	env.WriteFile("main.tf", `variable "staging_api_key" {
  type      = string
  sensitive = true
}

provider "service" {
  alias   = "staging"
  api_key = var.staging_api_key
}

module "staging" {
  source    = "./env"
  providers = { service = service.staging }
}
`)
	if err := os.MkdirAll(env.Path("env"), 0o755); err != nil {
		t.Fatal(err)
	}
	env.WriteFile("env/main.tf", `terraform {
  required_providers {
    service = { source = "integration-service/service" }
  }
}

resource "service_auth_config" "github" {
  toolkit = "github"
  name    = "GitHub (staging)"
}
`)
	staleEnv := []string{"TF_VAR_staging_api_key=" + key}
	env.RunEnvOK(staleEnv, "get", "-no-color")
	env.RunEnvOK(staleEnv, "apply", "-auto-approve", "-no-color", "-input=false")
	t.Cleanup(func() { env.Run(staleEnv, "destroy", "-auto-approve", "-no-color", "-input=false") })

	// Stage 1 rotates; stage 2 still has the earlier key.
	org.WriteFile("main.tf", project("second"))
	org.RunOK("apply", "-auto-approve", "-no-color", "-input=false")
	res := env.Run(staleEnv, "plan", "-no-color", "-input=false")
	out := words(res)
	if res.ExitCode == 0 {
		t.Fatalf("plan with the earlier key succeeded:\n%s", out)
	}
	for _, want := range []string{
		"with module.staging.service_auth_config.github", // Terraform's, for the object
		"HTTP status: 401 Unauthorized",
		"The key refused is api_key of the provider configuration that manages this object",
		"`providers = { service = service.staging }`",
		"If the project's key was rotated (a change of api_key_rotation of its service_project)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the stale key's error lacks %q:\n%s", want, out)
		}
	}
	// The new key works again.
	fresh := []string{"TF_VAR_staging_api_key=" + strings.TrimSpace(org.RunOK("output", "-raw", "key").Stdout)}
	if res := env.Run(fresh, "plan", "-detailed-exitcode", "-no-color", "-input=false"); res.ExitCode != 0 {
		t.Errorf("plan with the new key (exit %d):\n%s", res.ExitCode, words(res))
	}
	env.RunEnvOK(fresh, "destroy", "-auto-approve", "-no-color", "-input=false")

	// The two keys swapped: the organization's key as api_key, a project's as org_api_key.
	swapped := newE2EWorkspace(t)
	swapped.WriteFile("main.tf", fmt.Sprintf(`provider "service" {
  api_key     = %q
  org_api_key = %q
}

data "service_projects" "all" {}
`, ep.OrgAPIKey, ep.APIKey))
	res = swapped.Run(nil, "plan", "-no-color", "-input=false")
	out = words(res)
	if res.ExitCode == 0 || strings.Contains(out, "***") || !strings.Contains(out, "default "+ep.OrgAPIKey) ||
		!strings.Contains(out, "The key refused is the organization key: org_api_key") {
		t.Errorf("swapped keys: exit %d; want the refusal naming org_api_key, with the default key %q readable and no ***:\n%s", res.ExitCode, ep.OrgAPIKey, out)
	}
}

// TestAccScopedKey_plansThenRefused: a project key that may only read (the
// service's scoped keys: read or write per area; the emulator's
// POST /_emulator/api_keys) plans a new auth config without an error, since
// a plan only reads, and the apply's create is refused with 403: the
// diagnostic names the operation, says the key lacks the write permission
// for auth_configs and how to check it.
func TestAccScopedKey_plansThenRefused(t *testing.T) {
	testAccRequireEmulator(t)
	var key struct {
		Key string `json:"key"`
	}
	testAccEmulatorDo(t, http.MethodPost, "/_emulator/api_keys", map[string]any{"permissions": map[string]any{"*": "read"}}, &key)
	config := fmt.Sprintf(`
provider "service" {
  api_key = %q
}

resource "service_auth_config" "github" {
  toolkit = "github"
  name    = %q
}
`, key.Key, acctest.RandomWithPrefix("tf-acc-scoped"))
	tfresource.ParallelTest(t, tfresource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps: []tfresource.TestStep{
			{Config: config, PlanOnly: true, ExpectNonEmptyPlan: true},
			{
				Config: config,
				ExpectError: testAccErrRe(`Error creating service_auth_config`, `HTTP status: 403 Forbidden`,
					`The project API key lacks the write permission for auth_configs that creating service_auth_config needs`,
					`POST /api/v3.1/auth_configs`, `Check its permissions`),
			},
		},
	})
}
