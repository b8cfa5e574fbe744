package provider

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

const testAccCustomToolkitName = "service_custom_toolkit.test"

// testAccCustomSlugRe matches the service slug of a test's custom toolkit.
var testAccCustomSlugRe = regexp.MustCompile(`^CUSTOM_TFACC_CT_`)

func testAccCheckCustomToolkitDestroy(t *testing.T) resource.TestCheckFunc {
	return testAccCheckDestroyed(t, customToolkitType, "custom toolkit", func(ctx context.Context, c *client.Client, id string) error {
		_, err := c.GetToolkit(ctx, id, "")
		return err
	})
}

// testAccCustomSlug is a random slug for a custom toolkit (upper case, so the
// imported slug matches the configured one).
func testAccCustomSlug() string {
	return strings.ToUpper(strings.ReplaceAll(acctest.RandomWithPrefix("tfacc_ct"), "-", "_"))
}

func testAccCustomToolkitConfig(slug, name, appURL, authScheme, extra string) string {
	return fmt.Sprintf(`
resource "service_custom_toolkit" "test" {
  slug        = %q
  name        = %q
  app_url     = %q
  auth_scheme = %s
%s
}
`, slug, name, appURL, authScheme, extra)
}

const testAccCustomDCRScheme = `{
    mode          = "DCR_OAUTH"
    discovery_url = "https://mcp.example.com/.well-known/oauth-authorization-server"
  }`

const testAccCustomAPIKeyScheme = `{
    mode    = "API_KEY"
    headers = { Authorization = "Bearer {{generic_api_key}}" }
  }`

func TestAccCustomToolkit_lifecycle(t *testing.T) {
	t.Parallel()
	slug := testAccCustomSlug()
	want := client.CustomToolkitPrefix + slug
	var firstID string
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             testAccCheckCustomToolkitDestroy(t),
		Steps: []resource.TestStep{
			{
				Config: testAccCustomToolkitConfig(slug, "Acme", "https://mcp.example.com/mcp", testAccCustomAPIKeyScheme, `  description = "first"`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccCustomToolkitName, tfjsonpath.New("id"), knownvalue.StringExact(want)),
					statecheck.ExpectKnownValue(testAccCustomToolkitName, tfjsonpath.New("description"), knownvalue.StringExact("first")),
					statecheck.ExpectKnownValue(testAccCustomToolkitName, tfjsonpath.New("auth_scheme").AtMapKey("mode"), knownvalue.StringExact("API_KEY")),
				},
				Check: resource.TestCheckResourceAttrWith(testAccCustomToolkitName, "id", func(v string) error { firstID = v; return nil }),
			},
			{
				// name and description change in place
				Config: testAccCustomToolkitConfig(slug, "Acme Renamed", "https://mcp.example.com/mcp", testAccCustomAPIKeyScheme, `  description = "second"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccCustomToolkitName, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(testAccCustomToolkitName, tfjsonpath.New("id"), knownvalue.StringExact(want)),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccCustomToolkitName, tfjsonpath.New("name"), knownvalue.StringExact("Acme Renamed")),
					statecheck.ExpectKnownValue(testAccCustomToolkitName, tfjsonpath.New("description"), knownvalue.StringExact("second")),
				},
			},
			// headers and discovery_url are not reported by the service
			testAccImportStep(testAccCustomToolkitName, "auth_scheme.headers", "auth_scheme.%"),
			{
				// app_url cannot change on the service: replacement
				Config: testAccCustomToolkitConfig(slug, "Acme Renamed", "https://mcp2.example.com/mcp", testAccCustomAPIKeyScheme, `  description = "second"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccCustomToolkitName, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccCustomToolkitName, tfjsonpath.New("app_url"), knownvalue.StringExact("https://mcp2.example.com/mcp")),
				},
			},
			{
				// so does the auth scheme
				Config: testAccCustomToolkitConfig(slug, "Acme Renamed", "https://mcp2.example.com/mcp", `{ mode = "NO_AUTH" }`, `  description = "second"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccCustomToolkitName, plancheck.ResourceActionDestroyBeforeCreate),
				}},
			},
			{
				// a change of case of the slug names the same toolkit: an
				// in-place update (no write), not a replacement
				Config: testAccCustomToolkitConfig(strings.ToLower(slug), "Acme Renamed", "https://mcp2.example.com/mcp", `{ mode = "NO_AUTH" }`, `  description = "second"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccCustomToolkitName, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccCustomToolkitName, tfjsonpath.New("id"), knownvalue.StringExact(want)),
				},
			},
		},
	})
	if firstID != want {
		t.Errorf("first id %q, want %q", firstID, want)
	}
}

func TestAccCustomToolkit_drift(t *testing.T) {
	t.Parallel()
	slug := testAccCustomSlug()
	id := client.CustomToolkitPrefix + slug
	cfg := testAccCustomToolkitConfig(slug, "Drift", "https://mcp.example.com/mcp", testAccCustomDCRScheme, "")
	ctx := context.Background()
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             testAccCheckCustomToolkitDestroy(t),
		Steps: []resource.TestStep{
			{Config: cfg},
			{
				// renamed outside Terraform: renamed back in place
				PreConfig: func() {
					other := "Elsewhere"
					if err := testAccClient(t).UpdateCustomToolkit(ctx, id, client.UpdateCustomToolkitRequest{Name: &other}); err != nil {
						t.Fatal(err)
					}
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccCustomToolkitName, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccCustomToolkitName, tfjsonpath.New("name"), knownvalue.StringExact("Drift")),
				},
			},
			{
				// deleted outside Terraform: created again
				PreConfig: func() {
					if err := testAccClient(t).DeleteCustomToolkit(ctx, id); err != nil {
						t.Fatal(err)
					}
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccCustomToolkitName, plancheck.ResourceActionCreate),
				}},
			},
		},
	})
}

// TestAccCustomToolkit_authConfigSameApply creates a custom toolkit and an
// auth config on it in one apply; replacing the toolkit replaces the auth
// config (the service deletes a toolkit's auth configs with it).
func TestAccCustomToolkit_authConfigSameApply(t *testing.T) {
	t.Parallel()
	slug := testAccCustomSlug()
	cfg := func(appURL string) string {
		return testAccCustomToolkitConfig(slug, "With AC", appURL, testAccCustomAPIKeyScheme, "") + `
resource "service_auth_config" "test" {
  toolkit     = service_custom_toolkit.test.id
  type        = "use_custom_auth"
  auth_scheme = "API_KEY"
}
`
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy: func(s *terraform.State) error {
			if err := testAccCheckAuthConfigDestroy(t)(s); err != nil {
				return err
			}
			return testAccCheckCustomToolkitDestroy(t)(s)
		},
		Steps: []resource.TestStep{
			{
				Config: cfg("https://mcp.example.com/mcp"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("toolkit"), knownvalue.StringExact(client.CustomToolkitPrefix+slug)),
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("auth_scheme"), knownvalue.StringExact("API_KEY")),
				},
			},
			{
				Config: cfg("https://mcp3.example.com/mcp"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccCustomToolkitName, plancheck.ResourceActionDestroyBeforeCreate),
					plancheck.ExpectResourceAction(testAccAuthConfigName, plancheck.ResourceActionDestroyBeforeCreate),
				}},
			},
		},
	})
}

// TestAccCustomToolkit_badInputs: each fails at validate or plan naming the
// attribute, without a write (not parallel, so the write count is ours).
func TestAccCustomToolkit_badInputs(t *testing.T) {
	testAccRequireEmulator(t)
	before := testAccEmulatorWrites(t)
	slug := testAccCustomSlug()
	step := func(slug, appURL, scheme string, want ...string) resource.TestStep {
		return resource.TestStep{
			Config:      testAccCustomToolkitConfig(slug, "Bad", appURL, scheme, ""),
			PlanOnly:    true,
			ExpectError: testAccErrRe(want...),
		}
	}
	const url = "https://mcp.example.com/mcp"
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			step(slug, url, `{
    mode    = "API_KEY"
    headers = { "X-Key" = "static" }
  }`, "auth_scheme.headers", `\{\{generic_api_key\}\}`),
			step(slug, url, `{ mode = "API_KEY" }`, "auth_scheme.headers", "required with mode API_KEY"),
			step(slug, url, `{ mode = "DCR_OAUTH" }`, "auth_scheme.discovery_url", "required with mode DCR_OAUTH"),
			step(slug, url, `{ mode = "OAUTH2" }`, "auth_scheme.mode", "NO_AUTH"),
			step(slug, url, `{
    mode          = "NO_AUTH"
    discovery_url = "https://x.example/d"
  }`, "auth_scheme.discovery_url", "only used with mode"),
			step(slug, "mcp.example.com", `{ mode = "NO_AUTH" }`, "app_url", "absolute"),
			step("bad-slug!", url, `{ mode = "NO_AUTH" }`, "slug", "letters, digits"),
			{
				Config:      testAccCustomToolkitConfig(slug, "   ", url, `{ mode = "NO_AUTH" }`, ""),
				PlanOnly:    true,
				ExpectError: testAccErrRe("name", "is blank"),
			},
		},
	})
	testAccAssertNoWritesSince(t, before)
}

// TestAccCustomToolkit_importAdoptsAuthDetails: the service never reports
// headers or discovery_url, so an import leaves them unset; adopting the
// toolkit with its configuration (an import block) takes them in place, with
// no replacement (which would delete the toolkit's auth configs and
// connected accounts), and the next plan is empty.
func TestAccCustomToolkit_importAdoptsAuthDetails(t *testing.T) {
	t.Parallel()
	for name, scheme := range map[string]string{
		"api_key": testAccCustomAPIKeyScheme,
		"dcr":     testAccCustomDCRScheme,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			slug := testAccCustomSlug()
			cfg := testAccCustomToolkitConfig(slug, "Adopted", "https://mcp.example.com/mcp", scheme, "")
			resource.Test(t, resource.TestCase{
				PreCheck:                 func() { testAccPreCheck(t) },
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				CheckDestroy:             testAccCheckCustomToolkitDestroy(t),
				Steps: []resource.TestStep{
					{Config: cfg},
					{
						// Forget it (the toolkit stays on the service) ...
						Config: fmt.Sprintf(`
removed {
  from = %s
  lifecycle { destroy = false }
}
`, testAccCustomToolkitName),
					},
					{
						// ... and adopt it again with the same configuration.
						Config: cfg + fmt.Sprintf(`
import {
  to = %s
  id = %q
}
`, testAccCustomToolkitName, client.CustomToolkitPrefix+slug),
						ConfigPlanChecks: resource.ConfigPlanChecks{
							PreApply: []plancheck.PlanCheck{
								plancheck.ExpectResourceAction(testAccCustomToolkitName, plancheck.ResourceActionUpdate),
							},
							PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
						},
					},
				},
			})
		})
	}
}
