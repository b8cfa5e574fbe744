package provider

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/provider/codec"
	"github.com/integration-service/terraform-provider-service/internal/testutil"
)

const testAccAuthConfigName = "service_auth_config.test"

// testAccCheckAuthConfigDestroy verifies through the API that every auth
// config left in state is gone (404).
func testAccCheckAuthConfigDestroy(t *testing.T) resource.TestCheckFunc {
	return testAccCheckDestroyed(t, authConfigResourceType, "auth config", func(ctx context.Context, c *client.Client, id string) error {
		_, err := c.GetAuthConfig(ctx, id)
		return err
	})
}

// testAccCaptureAuthConfigID stores the id of service_auth_config.test in *dst.
func testAccCaptureAuthConfigID(dst *string) resource.TestCheckFunc {
	return resource.TestCheckResourceAttrWith(testAccAuthConfigName, "id", func(v string) error {
		*dst = v
		return nil
	})
}

// testAccAuthConfigPlannedKnown checks the values an in-place update plans
// as known (not "known after apply"): status (from enabled, or the prior
// status when enabled does not change), is_service_managed (from type), the
// identifiers; updated_at alone is unknown.
func testAccAuthConfigPlannedKnown(status string, serviceManaged bool) []plancheck.PlanCheck {
	return []plancheck.PlanCheck{
		plancheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("status"), knownvalue.StringExact(status)),
		plancheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("is_service_managed"), knownvalue.Bool(serviceManaged)),
		plancheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("id"), knownvalue.StringRegexp(regexp.MustCompile(`^ac_`))),
		plancheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("created_at"), knownvalue.NotNull()),
		plancheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("auth_scheme"), knownvalue.NotNull()),
		plancheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("name"), knownvalue.NotNull()),
		plancheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("is_enabled_for_tool_router"), knownvalue.NotNull()),
		plancheck.ExpectUnknownValue(testAccAuthConfigName, tfjsonpath.New("updated_at")),
	}
}

func testAccAuthConfigManaged(name, extra string) string {
	return fmt.Sprintf(`
resource "service_auth_config" "test" {
  toolkit = "github"
  name    = %q
%s
}
`, name, extra)
}

func TestAccAuthConfig_managedLifecycle(t *testing.T) {
	t.Parallel()
	name := acctest.RandomWithPrefix("tfacc-ac")
	var id string
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckAuthConfigDestroy(t),
		Steps: []resource.TestStep{
			{
				Config: testAccAuthConfigManaged(name, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccAuthConfigName, plancheck.ResourceActionCreate),
					// Known at plan time from the toolkit's managed scheme.
					plancheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("auth_scheme"), knownvalue.StringExact("OAUTH2")),
					plancheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("is_service_managed"), knownvalue.Bool(true)),
					plancheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("status"), knownvalue.StringExact("ENABLED")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("id"), knownvalue.StringRegexp(regexp.MustCompile(`^ac_`))),
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("type"), knownvalue.StringExact("use_service_managed_auth")),
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("name"), knownvalue.StringExact(name)),
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("status"), knownvalue.StringExact("ENABLED")),
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("enabled"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("is_enabled_for_tool_router"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("scopes"), knownvalue.Null()),
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("created_at"), testAccTimestamp),
				},
				Check: testAccCaptureAuthConfigID(&id),
			},
			{
				// Update in place: name, scopes, tool router flag, tool access.
				Config: testAccAuthConfigManaged(name+"-renamed", `
  scopes                     = ["repo", "read:user"]
  is_enabled_for_tool_router = true
  tool_access_config = {
    tools_for_connected_account_creation = ["GITHUB_CREATE_AN_ISSUE"]
  }
`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: append([]plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccAuthConfigName, plancheck.ResourceActionUpdate),
				}, testAccAuthConfigPlannedKnown("ENABLED", true)...)},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("name"), knownvalue.StringExact(name+"-renamed")),
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("scopes"),
						knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("repo"), knownvalue.StringExact("read:user")})),
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("is_enabled_for_tool_router"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("tool_access_config").AtMapKey("tools_for_connected_account_creation"),
						knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("GITHUB_CREATE_AN_ISSUE")})),
				},
				Check: func(*terraform.State) error {
					ac, err := testAccClient(t).GetAuthConfig(context.Background(), id)
					if err != nil {
						return err
					}
					if ac.Name != name+"-renamed" || len(ac.Scopes) != 2 || !ac.IsEnabledForToolRouter {
						return fmt.Errorf("service not updated: %+v", ac)
					}
					return nil
				},
			},
			{
				// Disable in place.
				Config: testAccAuthConfigManaged(name+"-renamed", `
  scopes                     = ["repo", "read:user"]
  is_enabled_for_tool_router = true
  enabled                    = false
`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: append([]plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccAuthConfigName, plancheck.ResourceActionUpdate),
				}, testAccAuthConfigPlannedKnown("DISABLED", true)...)},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("status"), knownvalue.StringExact("DISABLED")),
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("enabled"), knownvalue.Bool(false)),
					// Unset tool_access_config keeps the service's value.
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("tool_access_config").AtMapKey("tools_for_connected_account_creation"),
						knownvalue.ListSizeExact(1)),
				},
			},
			{
				// Enable again.
				Config: testAccAuthConfigManaged(name+"-renamed", `
  scopes                     = ["repo", "read:user"]
  is_enabled_for_tool_router = true
`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: append([]plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccAuthConfigName, plancheck.ResourceActionUpdate),
				}, testAccAuthConfigPlannedKnown("ENABLED", true)...)},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("status"), knownvalue.StringExact("ENABLED")),
				},
			},
			testAccImportStep(testAccAuthConfigName),
		},
	})
}

func TestAccAuthConfig_importBlock(t *testing.T) {
	t.Parallel()
	name := acctest.RandomWithPrefix("tfacc-ac-imp")
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckAuthConfigDestroy(t),
		Steps: []resource.TestStep{
			{Config: testAccAuthConfigManaged(name, "")},
			{
				Config:          testAccAuthConfigManaged(name, ""),
				ResourceName:    testAccAuthConfigName,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithID,
				// An import block plans through the provider: the imported
				// object must match the configuration (no changes).
				ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccAuthConfigName, plancheck.ResourceActionNoop),
				}},
			},
			{
				ResourceName:  testAccAuthConfigName,
				ImportState:   true,
				ImportStateId: "not-an-id",
				ExpectError:   testAccErrRe(`Invalid import id`, `Expected an auth config id such as ac_AbC123`, `got "not-an-id"`),
			},
		},
	})
}

func testAccAuthConfigCustomWO(name, clientID, secret string, version int) string {
	return fmt.Sprintf(`
resource "service_auth_config" "test" {
  toolkit     = "github"
  type        = "use_custom_auth"
  auth_scheme = "OAUTH2"
  name        = %q
  credentials_wo = {
    client_id     = %q
    client_secret = %q
  }
  credentials_wo_version = %d
  scopes                 = ["repo"]
}
`, name, clientID, secret, version)
}

func TestAccAuthConfig_customWriteOnly(t *testing.T) {
	t.Parallel()
	name := acctest.RandomWithPrefix("tfacc-ac-wo")
	var id string
	checkClientID := func(want string) resource.TestCheckFunc {
		return func(*terraform.State) error {
			ac, err := testAccClient(t).GetAuthConfig(context.Background(), id)
			if err != nil {
				return err
			}
			if got := ac.Credentials["client_id"]; got != want {
				return fmt.Errorf("client_id on the service = %v, want %s", got, want)
			}
			if got := ac.Credentials["client_secret"]; got != "********" {
				return fmt.Errorf("client_secret on the service = %v, want the masked value", got)
			}
			return nil
		}
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckAuthConfigDestroy(t),
		Steps: []resource.TestStep{
			{
				Config: testAccAuthConfigCustomWO(name, "cid-1", "secret-1", 1),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("credentials_wo"), knownvalue.Null()),
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("credentials_wo_version"), knownvalue.Int64Exact(1)),
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("type"), knownvalue.StringExact("use_custom_auth")),
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("is_service_managed"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("scopes"),
						knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("repo")})),
				},
				Check: resource.ComposeTestCheckFunc(testAccCaptureAuthConfigID(&id), checkClientID("cid-1")),
			},
			{
				// A changed write-only value alone plans nothing.
				Config:             testAccAuthConfigCustomWO(name, "cid-ignored", "secret-ignored", 1),
				PlanOnly:           true,
				ExpectNonEmptyPlan: false,
			},
			{
				// Bumping the version sends the new credentials in place.
				Config: testAccAuthConfigCustomWO(name, "cid-2", "secret-2", 2),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: append([]plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccAuthConfigName, plancheck.ResourceActionUpdate),
				}, testAccAuthConfigPlannedKnown("ENABLED", false)...)},
				Check: checkClientID("cid-2"),
			},
			{
				// Scopes of a custom auth config are credential fields: sent with the credentials.
				Config: regexp.MustCompile(`\["repo"\]`).ReplaceAllString(testAccAuthConfigCustomWO(name, "cid-2", "secret-2", 2), `["repo", "user"]`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: append([]plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccAuthConfigName, plancheck.ResourceActionUpdate),
				}, testAccAuthConfigPlannedKnown("ENABLED", false)...)},
				Check: resource.ComposeTestCheckFunc(checkClientID("cid-2"),
					resource.TestCheckResourceAttr(testAccAuthConfigName, "scopes.#", "2")),
			},
			testAccImportStep(testAccAuthConfigName, "credentials_wo_version"),
		},
	})
}

func testAccAuthConfigCustomSensitive(name, secret string) string {
	return fmt.Sprintf(`
resource "service_auth_config" "test" {
  toolkit     = "linear"
  type        = "use_custom_auth"
  auth_scheme = "OAUTH2"
  name        = %q
  credentials = {
    client_id     = "linear-client"
    client_secret = %q
  }
}
`, name, secret)
}

func TestAccAuthConfig_customSensitiveCredentials(t *testing.T) {
	t.Parallel()
	name := acctest.RandomWithPrefix("tfacc-ac-cred")
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckAuthConfigDestroy(t),
		Steps: []resource.TestStep{
			{
				Config: testAccAuthConfigCustomSensitive(name, "first-secret"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectSensitiveValue(testAccAuthConfigName, tfjsonpath.New("credentials")),
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("credentials").AtMapKey("client_secret"),
						knownvalue.StringExact("first-secret")),
				},
			},
			{
				Config: testAccAuthConfigCustomSensitive(name, "second-secret"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccAuthConfigName, plancheck.ResourceActionUpdate),
				}},
			},
			testAccImportStep(testAccAuthConfigName, "credentials"),
		},
	})
}

func TestAccAuthConfig_customAPIKeyNoCredentials(t *testing.T) {
	t.Parallel()
	name := acctest.RandomWithPrefix("tfacc-ac-stripe")
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckAuthConfigDestroy(t),
		Steps: []resource.TestStep{{
			// API_KEY has no required creation fields: credentials are optional.
			Config: fmt.Sprintf(`
resource "service_auth_config" "test" {
  toolkit     = "stripe"
  type        = "use_custom_auth"
  auth_scheme = "API_KEY"
  name        = %q
}
`, name),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("auth_scheme"), knownvalue.StringExact("API_KEY")),
				statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("is_service_managed"), knownvalue.Bool(false)),
			},
		}},
	})
}

// TestAccAuthConfig_createDisabled creates a disabled auth config: one create,
// one status write, and the object reads back DISABLED.
func TestAccAuthConfig_createDisabled(t *testing.T) {
	t.Parallel()
	name := acctest.RandomWithPrefix("tfacc-ac-dis")
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckAuthConfigDestroy(t),
		Steps: []resource.TestStep{
			{
				Config: testAccAuthConfigManaged(name, "  enabled = false"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("status"), knownvalue.StringExact("DISABLED")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("status"), knownvalue.StringExact("DISABLED")),
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("enabled"), knownvalue.Bool(false)),
				},
			},
			{
				// A rename of a disabled auth config keeps DISABLED in the plan.
				Config: testAccAuthConfigManaged(name+"-2", "  enabled = false"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: append([]plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccAuthConfigName, plancheck.ResourceActionUpdate),
				}, testAccAuthConfigPlannedKnown("DISABLED", true)...)},
			},
			{
				Config: testAccAuthConfigManaged(name, "  enabled = true"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: append([]plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccAuthConfigName, plancheck.ResourceActionUpdate),
				}, testAccAuthConfigPlannedKnown("ENABLED", true)...)},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("status"), knownvalue.StringExact("ENABLED")),
				},
			},
		},
	})
}

// TestAccAuthConfig_drift changes and deletes the auth config behind
// Terraform's back.
func TestAccAuthConfig_drift(t *testing.T) {
	t.Parallel()
	name := acctest.RandomWithPrefix("tfacc-ac-drift")
	var id, firstID string
	cfg := testAccAuthConfigManaged(name, "")
	ctx := context.Background()
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckAuthConfigDestroy(t),
		Steps: []resource.TestStep{
			{Config: cfg, Check: testAccCaptureAuthConfigID(&id)},
			{
				// Out-of-band disable: the plan re-enables.
				PreConfig: func() {
					if err := testAccClient(t).DisableAuthConfig(ctx, id); err != nil {
						t.Fatal(err)
					}
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccAuthConfigName, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("enabled"), knownvalue.Bool(true)),
					plancheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("status"), knownvalue.StringExact("ENABLED")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("status"), knownvalue.StringExact("ENABLED")),
				},
			},
			{
				// Out-of-band rename: a plan-only step shows the drift.
				PreConfig: func() {
					other := name + "-elsewhere"
					if err := testAccClient(t).UpdateAuthConfig(ctx, id, client.UpdateAuthConfigRequest{
						Type: client.AuthConfigUpdateDefault, Name: &other,
					}); err != nil {
						t.Fatal(err)
					}
				},
				Config:             cfg,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			{
				// Applying restores the configured name in place.
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccAuthConfigName, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("name"), knownvalue.StringExact(name)),
				},
				Check: testAccCaptureAuthConfigID(&firstID),
			},
			{
				// Out-of-band delete: removed from state, then created again.
				PreConfig: func() {
					if err := testAccDeleteAuthConfig(ctx, testAccClient(t), id); err != nil {
						t.Fatal(err)
					}
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccAuthConfigName, plancheck.ResourceActionCreate),
				}},
				Check: resource.TestCheckResourceAttrWith(testAccAuthConfigName, "id", func(v string) error {
					if v == firstID {
						return fmt.Errorf("expected a new id after recreation, still %s", v)
					}
					return nil
				}),
			},
		},
	})
}

// TestAccAuthConfig_replace checks which changes force replacement.
func TestAccAuthConfig_replace(t *testing.T) {
	t.Parallel()
	name := acctest.RandomWithPrefix("tfacc-ac-repl")
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckAuthConfigDestroy(t),
		Steps: []resource.TestStep{
			{Config: fmt.Sprintf(`
resource "service_auth_config" "test" {
  toolkit = "linear"
  name    = %q
}
`, name)},
			{
				// managed -> custom API_KEY on the same toolkit: replaced.
				Config: fmt.Sprintf(`
resource "service_auth_config" "test" {
  toolkit     = "linear"
  type        = "use_custom_auth"
  auth_scheme = "API_KEY"
  name        = %q
}
`, name),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccAuthConfigName, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("auth_scheme"), knownvalue.StringExact("API_KEY")),
				},
			},
			{
				// Back to managed without auth_scheme: replaced, scheme from the toolkit.
				Config: fmt.Sprintf(`
resource "service_auth_config" "test" {
  toolkit = "slack"
  name    = %q
}
`, name),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccAuthConfigName, plancheck.ResourceActionDestroyBeforeCreate),
					plancheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("auth_scheme"), knownvalue.StringExact("OAUTH2")),
				}},
			},
		},
	})
}

// TestAccAuthConfig_planTimeErrors: every bad input fails during plan with an
// error naming the attribute, and nothing is written. Not parallel: it
// compares the emulator's process-wide write counter.
func TestAccAuthConfig_planTimeErrors(t *testing.T) {
	testAccRequireEmulator(t)
	custom := func(toolkit, scheme, creds string) string {
		return fmt.Sprintf(`
resource "service_auth_config" "bad" {
  toolkit     = %q
  type        = "use_custom_auth"
  auth_scheme = %q
%s
}
`, toolkit, scheme, creds)
	}
	step := func(cfg, re string) resource.TestStep {
		return resource.TestStep{Config: cfg, PlanOnly: true, ExpectError: regexp.MustCompile(re)}
	}
	testAccNoWritesTest(t, []resource.TestStep{
		// Wrong scheme fields: client_secret missing.
		step(custom("github", "OAUTH2", `
  credentials_wo         = { client_id = "x" }
  credentials_wo_version = 1`), `(?s)Missing required credential fields.*credentials_wo.*"client_secret"`),
		// Unknown field.
		step(custom("github", "OAUTH2", `
  credentials_wo         = { client_id = "x", client_secret = "y", tenant = "z" }
  credentials_wo_version = 1`), `(?s)Unknown credential fields.*credentials_wo.*"tenant"`),
		// Unknown field in the sensitive map.
		step(custom("github", "OAUTH2", `
  credentials = { client_id = "x", client_secret = "y", api_key = "z" }`), `(?s)Unknown credential fields.*credentials.*"api_key"`),
		// OAUTH2 custom auth without credentials.
		step(custom("github", "OAUTH2", ""), `(?s)Missing credentials.*client_id`),
		// Bad toolkit.
		step(`
resource "service_auth_config" "bad" {
  toolkit = "no-such-toolkit"
}
`, `(?s)Unknown toolkit.*toolkit.*no-such-toolkit`),
		// Managed auth on a toolkit without a service-managed scheme.
		step(`
resource "service_auth_config" "bad" {
  toolkit = "stripe"
}
`, `(?s)Service-managed auth not available.*Attribute type.*stripe`),
		// Credentials with managed auth (a validate-time error).
		step(`
resource "service_auth_config" "bad" {
  toolkit = "github"
  credentials = { client_id = "x", client_secret = "y" }
}
`, `(?s)Credentials not allowed for service-managed auth.*credentials`),
		step(`
resource "service_auth_config" "bad" {
  toolkit                = "github"
  credentials_wo         = { client_id = "x", client_secret = "y" }
  credentials_wo_version = 1
}
`, `(?s)Credentials not allowed for service-managed auth.*credentials_wo`),
		// Scheme not offered by the toolkit.
		step(custom("stripe", "OAUTH2", `
  credentials_wo         = { client_id = "x", client_secret = "y" }
  credentials_wo_version = 1`), `(?s)Auth scheme not offered by the toolkit.*auth_scheme.*API_KEY`),
		// Managed auth with a scheme the service does not manage.
		step(`
resource "service_auth_config" "bad" {
  toolkit     = "linear"
  auth_scheme = "API_KEY"
}
`, `(?s)Auth scheme not service-managed.*auth_scheme`),
		// Custom auth without auth_scheme.
		step(`
resource "service_auth_config" "bad" {
  toolkit = "linear"
  type    = "use_custom_auth"
}
`, `(?s)Missing auth_scheme.*auth_scheme`),
		// Scopes on a scheme without a scopes field.
		step(custom("linear", "API_KEY", `  scopes = ["read"]`), `(?s)Scopes not supported by the scheme.*scopes`),
		// Static validators.
		step(custom("github", "OAUTH3", ""), `(?s)auth_scheme.*OAUTH2`),
		step(`
resource "service_auth_config" "bad" {
  toolkit = "github"
  type    = "managed"
}
`, `(?s)type.*use_service_managed_auth`),
		step(custom("github", "OAUTH2", `
  credentials_wo = { client_id = "x", client_secret = "y" }
  credentials    = { client_id = "x", client_secret = "y" }
  credentials_wo_version = 1`), `(?s)credentials`),
		step(custom("github", "OAUTH2", `
  credentials_wo = { client_id = "x", client_secret = "y" }`), `(?s)credentials_wo_version`),
		// A toolkit spelled otherwise than the service reports it.
		step(`
resource "service_auth_config" "bad" {
  toolkit = "GitHub"
}
`, `(?s)Invalid\s+toolkit\s+slug.*"GitHub":\s+toolkit\s+slugs\s+are\s+lower\s+case,\s+write\s+"github"`),
		// A blank or padded name (the service would generate or trim one).
		step(`
resource "service_auth_config" "bad" {
  toolkit = "github"
  name    = "   "
}
`, `(?s)Invalid\s+name.*name.*is\s+blank`),
		step(`
resource "service_auth_config" "bad" {
  toolkit = "github"
  name    = " GitHub "
}
`, `(?s)Invalid\s+name.*name.*white\s+space\s+around\s+it`),
		// A blank credential value (the service takes it for a missing field).
		step(custom("github", "OAUTH2", `
  credentials_wo         = { client_id = "x", client_secret = "" }
  credentials_wo_version = 1`), `(?s)Blank\s+credential\s+value.*credentials_wo\["client_secret"\].*the\s+value\s+is\s+blank`),
		// A repeated scope or tool (the service may keep one).
		step(`
resource "service_auth_config" "bad" {
  toolkit = "github"
  scopes  = ["repo", "repo"]
}
`, `(?s)Duplicate\s+List\s+Value.*Attribute\s+scopes:\s+This\s+attribute\s+contains\s+duplicate\s+values\s+of:\s+"repo"`),
		step(`
resource "service_auth_config" "bad" {
  toolkit = "github"
  tool_access_config = {
    tools_for_connected_account_creation = ["GITHUB_CREATE_AN_ISSUE", "GITHUB_CREATE_AN_ISSUE"]
  }
}
`, `(?s)Duplicate\s+List\s+Value.*Attribute\s+tool_access_config.tools_for_connected_account_creation:\s+This\s+attribute\s+contains\s+duplicate\s+values\s+of:\s+"GITHUB_CREATE_AN_ISSUE"`),
	})
}

// testAccCheckAuthConfigLists checks the scopes and the connected-account
// creation tools on the service (nil want = empty).
func testAccCheckAuthConfigLists(t *testing.T, id *string, wantScopes, wantTools []string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		ac, err := testAccClient(t).GetAuthConfig(context.Background(), *id)
		if err != nil {
			return err
		}
		if fmt.Sprint(ac.Scopes) != fmt.Sprint(codec.NonNil(wantScopes)) {
			return fmt.Errorf("scopes on the service = %q, want %q", ac.Scopes, wantScopes)
		}
		if got := ac.ToolAccessConfig.ToolsForConnectedAccountCreation; fmt.Sprint(got) != fmt.Sprint(codec.NonNil(wantTools)) {
			return fmt.Errorf("tools_for_connected_account_creation on the service = %q, want %q", got, wantTools)
		}
		return nil
	}
}

// TestAccAuthConfig_clearScopesAndTools: `scopes = []` and an empty
// tools_for_connected_account_creation clear the service's values in place
// and read back as [] (no inconsistent result, empty plan); removing the
// attributes from the configuration keeps the service's values; an import
// after clearing verifies.
func TestAccAuthConfig_clearScopesAndTools(t *testing.T) {
	t.Parallel()
	name := acctest.RandomWithPrefix("tfacc-ac-clr")
	var id string
	set := testAccAuthConfigManaged(name, `
  scopes = ["repo", "read:user"]
  tool_access_config = {
    tools_for_connected_account_creation = ["GITHUB_CREATE_AN_ISSUE"]
  }
`)
	cleared := testAccAuthConfigManaged(name, `
  scopes = []
  tool_access_config = {
    tools_for_connected_account_creation = []
  }
`)
	unset := testAccAuthConfigManaged(name, "")
	emptyLists := []statecheck.StateCheck{
		statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("scopes"), knownvalue.ListExact([]knownvalue.Check{})),
		statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("tool_access_config").AtMapKey("tools_for_connected_account_creation"),
			knownvalue.ListExact([]knownvalue.Check{})),
	}
	emptyAfterApply := resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckAuthConfigDestroy(t),
		Steps: []resource.TestStep{
			{
				Config: set,
				Check: resource.ComposeTestCheckFunc(testAccCaptureAuthConfigID(&id),
					testAccCheckAuthConfigLists(t, &id, []string{"repo", "read:user"}, []string{"GITHUB_CREATE_AN_ISSUE"})),
			},
			{
				// Clear both lists in place.
				Config: cleared,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testAccAuthConfigName, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("scopes"), knownvalue.ListExact([]knownvalue.Check{})),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: emptyLists,
				Check:             testAccCheckAuthConfigLists(t, &id, nil, nil),
			},
			{
				// Cleared lists are imported as [] too.
				ResourceName:      testAccAuthConfigName,
				ImportState:       true,
				ImportStateVerify: true,
			},
			{
				// Removing the attributes keeps the service's (empty) values: no changes.
				Config:            unset,
				ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				ConfigStateChecks: emptyLists,
			},
			{
				// Set again, then remove from the configuration: the values stay.
				Config:           set,
				ConfigPlanChecks: emptyAfterApply,
				Check:            testAccCheckAuthConfigLists(t, &id, []string{"repo", "read:user"}, []string{"GITHUB_CREATE_AN_ISSUE"}),
			},
			{
				Config:           unset,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("scopes"), knownvalue.ListSizeExact(2)),
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("tool_access_config").AtMapKey("tools_for_connected_account_creation"),
						knownvalue.ListSizeExact(1)),
				},
				Check: testAccCheckAuthConfigLists(t, &id, []string{"repo", "read:user"}, []string{"GITHUB_CREATE_AN_ISSUE"}),
			},
			{
				// Clear again from the set state.
				Config: cleared,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(testAccAuthConfigName, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: emptyLists,
				Check:             testAccCheckAuthConfigLists(t, &id, nil, nil),
			},
			{
				// Scopes added behind Terraform's back show up as a change to [].
				PreConfig: func() {
					if err := testAccClient(t).UpdateAuthConfig(context.Background(), id, client.UpdateAuthConfigRequest{
						Type: client.AuthConfigUpdateDefault, Scopes: []string{"gist"},
					}); err != nil {
						t.Fatal(err)
					}
				},
				Config:             cleared,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			{
				Config:            cleared,
				ConfigPlanChecks:  emptyAfterApply,
				ConfigStateChecks: emptyLists,
				Check:             testAccCheckAuthConfigLists(t, &id, nil, nil),
			},
		},
	})
}

// TestAccAuthConfig_createWithEmptyLists: empty lists at creation are known
// [] in the state (not null) and plan empty afterwards.
func TestAccAuthConfig_createWithEmptyLists(t *testing.T) {
	t.Parallel()
	name := acctest.RandomWithPrefix("tfacc-ac-empty")
	var id string
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckAuthConfigDestroy(t),
		Steps: []resource.TestStep{
			{
				Config: testAccAuthConfigManaged(name, `
  scopes = []
  tool_access_config = {
    tools_for_connected_account_creation = []
  }
`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("scopes"), knownvalue.ListExact([]knownvalue.Check{})),
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("tool_access_config").AtMapKey("tools_for_connected_account_creation"),
						knownvalue.ListExact([]knownvalue.Check{})),
				},
				Check: resource.ComposeTestCheckFunc(testAccCaptureAuthConfigID(&id), testAccCheckAuthConfigLists(t, &id, nil, nil)),
			},
			testAccImportStep(testAccAuthConfigName),
		},
	})
}

// TestAccAuthConfig_customClearScopes: a custom auth config's scopes live in
// its credentials; `scopes = []` sends credentials.scopes [] with the other
// credentials, which stay in place.
func TestAccAuthConfig_customClearScopes(t *testing.T) {
	t.Parallel()
	name := acctest.RandomWithPrefix("tfacc-ac-cclr")
	var id string
	withScopes := regexp.MustCompile(`\["repo"\]`).ReplaceAllString(testAccAuthConfigCustomWO(name, "cid-1", "secret-1", 1), `["repo", "user"]`)
	cleared := regexp.MustCompile(`\["repo"\]`).ReplaceAllString(testAccAuthConfigCustomWO(name, "cid-1", "secret-1", 1), `[]`)
	checkClientID := func(*terraform.State) error {
		ac, err := testAccClient(t).GetAuthConfig(context.Background(), id)
		if err != nil {
			return err
		}
		if ac.Credentials["client_id"] != "cid-1" || ac.Credentials["client_secret"] != "********" {
			return fmt.Errorf("credentials changed on the service: %v", ac.Credentials)
		}
		return nil
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckAuthConfigDestroy(t),
		Steps: []resource.TestStep{
			{
				Config: withScopes,
				Check:  resource.ComposeTestCheckFunc(testAccCaptureAuthConfigID(&id), testAccCheckAuthConfigLists(t, &id, []string{"repo", "user"}, nil)),
			},
			{
				Config: cleared,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(testAccAuthConfigName, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("scopes"), knownvalue.ListExact([]knownvalue.Check{})),
				},
				Check: resource.ComposeTestCheckFunc(testAccCheckAuthConfigLists(t, &id, nil, nil), checkClientID),
			},
			testAccImportStep(testAccAuthConfigName, "credentials_wo_version"),
		},
	})
}

// TestAccAuthConfig_importPlansKnownValues: right after an import (block),
// the in-place update that sends write-only credentials plans status and
// is_service_managed from the imported object, here a disabled custom auth
// config, instead of (known after apply).
func TestAccAuthConfig_importPlansKnownValues(t *testing.T) {
	t.Parallel()
	name := acctest.RandomWithPrefix("tfacc-ac-impk")
	cfg := strings.Replace(testAccAuthConfigCustomWO(name, "cid-1", "secret-1", 1), "  scopes", "  enabled = false\n  scopes", 1)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckAuthConfigDestroy(t),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("status"), knownvalue.StringExact("DISABLED")),
				},
			},
			{
				Config:          cfg,
				ResourceName:    testAccAuthConfigName,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithID,
				// credentials_wo_version cannot be read back: one in-place
				// update that re-sends the credentials.
				ExpectNonEmptyPlan: true,
				ImportPlanChecks: resource.ImportPlanChecks{PreApply: append([]plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccAuthConfigName, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("credentials_wo_version"), knownvalue.Int64Exact(1)),
				}, testAccAuthConfigPlannedKnown("DISABLED", false)...)},
			},
		},
	})
}

// TestAccAuthConfig_staleStatusNoRefresh: with -refresh=false the state can
// hold a status the service no longer has. The plan keeps the prior status
// (enabled does not change), and the apply makes the service match enabled,
// so the result is consistent with the plan.
func TestAccAuthConfig_staleStatusNoRefresh(t *testing.T) {
	t.Parallel()
	name := acctest.RandomWithPrefix("tfacc-ac-norf")
	var id string
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckAuthConfigDestroy(t),
		AdditionalCLIOptions:     &resource.AdditionalCLIOptions{Plan: resource.PlanOptions{NoRefresh: true}},
		Steps: []resource.TestStep{
			{Config: testAccAuthConfigManaged(name, ""), Check: testAccCaptureAuthConfigID(&id)},
			{
				PreConfig: func() {
					if err := testAccClient(t).DisableAuthConfig(context.Background(), id); err != nil {
						t.Fatal(err)
					}
				},
				Config: testAccAuthConfigManaged(name+"-renamed", ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: append([]plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccAuthConfigName, plancheck.ResourceActionUpdate),
				}, testAccAuthConfigPlannedKnown("ENABLED", true)...)},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("status"), knownvalue.StringExact("ENABLED")),
				},
				Check: func(*terraform.State) error {
					ac, err := testAccClient(t).GetAuthConfig(context.Background(), id)
					if err != nil {
						return err
					}
					if ac.Status != client.AuthConfigStatusEnabled || ac.Name != name+"-renamed" {
						return fmt.Errorf("service not updated: status %s, name %s", ac.Status, ac.Name)
					}
					return nil
				},
			},
		},
	})
}

// TestAuthConfig_validateConfigOneErrorPerMistake validates configurations
// through the provider server (attribute validators and ValidateConfig
// together) and checks that each mistake gives exactly the expected errors:
// an invalid type gives the type validator's error alone, not also errors
// of checks that assume a valid type.
func TestAuthConfig_validateConfigOneErrorPerMistake(t *testing.T) {
	ctx := context.Background()
	srv, err := testAccProviders(t)["service"]()
	if err != nil {
		t.Fatal(err)
	}
	schResp, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil || schResp.ResourceSchemas[authConfigResourceType] == nil {
		t.Fatalf("schema: %v %v", err, schResp)
	}
	objType := schResp.ResourceSchemas[authConfigResourceType].ValueType().(tftypes.Object)
	strMap := func(kv ...string) tftypes.Value {
		m := map[string]tftypes.Value{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = tftypes.NewValue(tftypes.String, kv[i+1])
		}
		return tftypes.NewValue(tftypes.Map{ElementType: tftypes.String}, m)
	}
	config := func(attrs map[string]tftypes.Value) *tfprotov6.DynamicValue {
		dv, err := tfprotov6.NewDynamicValue(objType, testutil.ObjectValue(objType, attrs))
		if err != nil {
			t.Fatal(err)
		}
		return &dv
	}
	str := func(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }
	for _, tc := range []struct {
		name  string
		attrs map[string]tftypes.Value
		want  []string // one summary per expected error, in any order
	}{
		{"custom type misspelled", map[string]tftypes.Value{"toolkit": str("github"), "type": str("custom")},
			[]string{"Invalid Attribute Value Match"}},
		{"custom type misspelled with credentials", map[string]tftypes.Value{"toolkit": str("github"), "type": str("custom"),
			"credentials": strMap("client_id", "x", "client_secret", "y")},
			[]string{"Invalid Attribute Value Match"}},
		{"managed type misspelled", map[string]tftypes.Value{"toolkit": str("github"), "type": str("managed")},
			[]string{"Invalid Attribute Value Match"}},
		{"custom without scheme", map[string]tftypes.Value{"toolkit": str("github"), "type": str(authConfigTypeCustom)},
			[]string{"Missing auth_scheme"}},
		{"custom with invalid scheme", map[string]tftypes.Value{"toolkit": str("github"), "type": str(authConfigTypeCustom),
			"auth_scheme": str("oauth2")},
			[]string{"Invalid Attribute Value Match"}},
		{"managed with credentials", map[string]tftypes.Value{"toolkit": str("github"),
			"credentials": strMap("client_id", "x")},
			[]string{"Credentials not allowed for service-managed auth"}},
		{"managed with credentials_wo and no version", map[string]tftypes.Value{"toolkit": str("github"),
			"credentials_wo": strMap("client_id", "x")},
			[]string{"Credentials not allowed for service-managed auth"}},
		{"managed with credentials_wo_version only", map[string]tftypes.Value{"toolkit": str("github"),
			"credentials_wo_version": tftypes.NewValue(tftypes.Number, 1)},
			[]string{"Credentials not allowed for service-managed auth"}},
		{"custom with credentials_wo and no version", map[string]tftypes.Value{"toolkit": str("github"),
			"type": str(authConfigTypeCustom), "auth_scheme": str("OAUTH2"),
			"credentials_wo": strMap("client_id", "x", "client_secret", "y")},
			[]string{"Missing credentials_wo_version"}},
		{"custom with credentials_wo_version only", map[string]tftypes.Value{"toolkit": str("github"),
			"type": str(authConfigTypeCustom), "auth_scheme": str("OAUTH2"),
			"credentials_wo_version": tftypes.NewValue(tftypes.Number, 1)},
			[]string{"credentials_wo_version without credentials_wo"}},
		{"valid custom write-only", map[string]tftypes.Value{"toolkit": str("github"), "type": str(authConfigTypeCustom),
			"auth_scheme": str("OAUTH2"), "credentials_wo": strMap("client_id", "x", "client_secret", "y"),
			"credentials_wo_version": tftypes.NewValue(tftypes.Number, 1)},
			nil},
		{"valid custom", map[string]tftypes.Value{"toolkit": str("github"), "type": str(authConfigTypeCustom),
			"auth_scheme": str("OAUTH2"), "credentials": strMap("client_id", "x", "client_secret", "y")},
			nil},
	} {
		resp, err := srv.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{
			TypeName: authConfigResourceType, Config: config(tc.attrs),
			// As Terraform 1.11+ sends it, so write-only values are accepted.
			ClientCapabilities: &tfprotov6.ValidateResourceConfigClientCapabilities{WriteOnlyAttributesAllowed: true},
		})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var got []string
		for _, d := range resp.Diagnostics {
			if d.Severity == tfprotov6.DiagnosticSeverityError {
				got = append(got, d.Summary)
			}
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			var details []string
			for _, d := range resp.Diagnostics {
				details = append(details, d.Summary+": "+d.Detail)
			}
			t.Errorf("%s: want errors %q, got %q\n%s", tc.name, tc.want, got, strings.Join(details, "\n"))
		}
	}
}

// TestAccAuthConfig_revokeOnDelete: an auth config with revoke_on_delete =
// true sends revoke_on_delete=true on every delete, the delete half of a
// replacement and the final destroy: the emulator revokes (and logs) the
// accounts made through it (here accounts created outside Terraform, which
// the delete leaves behind). One deleted with the default false revokes
// nothing: its account is only INACTIVE.
func TestAccAuthConfig_revokeOnDelete(t *testing.T) {
	testAccRequireEmulator(t) // the revocation log is the emulator's
	name := acctest.RandomWithPrefix("tf-acc-ac-revoke")
	cfg := func(toolkit string, keeping bool) string {
		s := fmt.Sprintf(`
resource "service_auth_config" "test" {
  toolkit          = %q
  type             = "use_custom_auth"
  auth_scheme      = "API_KEY"
  name             = %q
  revoke_on_delete = true
}
`, toolkit, name)
		if keeping {
			s += fmt.Sprintf(`
resource "service_auth_config" "keeping" {
  toolkit     = "stripe"
  type        = "use_custom_auth"
  auth_scheme = "API_KEY"
  name        = %q
}
`, name)
		}
		return s
	}
	c := testAccClient(t)
	// account creates an API-key account of the auth config at addr, outside
	// Terraform, and keeps its id in v.
	account := func(addr string, v *testAccValue) resource.TestCheckFunc {
		return func(s *terraform.State) error {
			acID := s.RootModule().Resources[addr].Primary.ID
			cr, err := c.InitiateConnectedAccount(context.Background(), client.InitiateConnectedAccountRequest{AuthConfigID: acID, UserID: name,
				State: &client.ConnectionState{AuthScheme: "API_KEY", Val: map[string]any{"api_key": "sk_outside"}}})
			if err != nil {
				return err
			}
			v.v = cr.ID
			t.Cleanup(func() { _ = c.DeleteConnectedAccount(context.Background(), cr.ID) })
			return nil
		}
	}
	// revoked checks how the deletion of its auth config left the account v.
	revoked := func(v *testAccValue, want bool) resource.TestCheckFunc {
		return func(*terraform.State) error {
			a, err := c.GetConnectedAccount(context.Background(), v.v)
			if err != nil {
				return err
			}
			log := testAccRevocationsOf(t, v.v)
			if want && (a.Status != client.StatusRevoked || len(log) != 1 || log[0].Via != "auth_config_delete") {
				return fmt.Errorf("account %s of a deleted auth config with revoke_on_delete: status %s, revocations %+v", v.v, a.Status, log)
			}
			if !want && (a.Status != client.StatusInactive || len(log) != 0) {
				return fmt.Errorf("account %s of an auth config deleted without revoke_on_delete: status %s, revocations %+v", v.v, a.Status, log)
			}
			return nil
		}
	}
	onFirst, onSecond, onKeeping := &testAccValue{}, &testAccValue{}, &testAccValue{}
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy: func(s *terraform.State) error {
			if err := testAccCheckAuthConfigDestroy(t)(s); err != nil {
				return err
			}
			return revoked(onSecond, true)(s)
		},
		Steps: []resource.TestStep{
			{
				Config: cfg("stripe", true),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("revoke_on_delete"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue("service_auth_config.keeping", tfjsonpath.New("revoke_on_delete"), knownvalue.Bool(false)),
				},
				Check: resource.ComposeTestCheckFunc(account(testAccAuthConfigName, onFirst), account("service_auth_config.keeping", onKeeping)),
			},
			{
				// Another toolkit replaces the auth config: its delete revokes.
				Config: cfg("airtable", true),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccAuthConfigName, plancheck.ResourceActionReplace),
				}},
				Check: resource.ComposeTestCheckFunc(revoked(onFirst, true), account(testAccAuthConfigName, onSecond)),
			},
			{
				// Deleted with the default revoke_on_delete = false.
				Config: cfg("airtable", false),
				Check:  revoked(onKeeping, false),
			},
		},
	})
}

func TestAccIdentity_authConfig(t *testing.T) {
	t.Parallel()
	name := acctest.RandomWithPrefix("tf-acc-ident-ac")
	cfg := func(n string) string {
		return fmt.Sprintf("resource \"service_auth_config\" \"test\" {\n  toolkit = \"github\"\n  name    = %q\n}\n", n)
	}
	testAccIdentity(t, identityCase{
		addr: "service_auth_config.test", idRe: regexp.MustCompile(`^ac_\S+$`),
		create: cfg(name), update: cfg(name + "-b"),
		remove: testAccDeleteAuthConfig,
		gone:   testAccCheckAuthConfigDestroy,
	})
}

// testAccToolSlugs returns two tool slugs of toolkit.
func testAccToolSlugs(t *testing.T, toolkit string) (string, string) {
	t.Helper()
	tools, err := testAccClient(t).ListTools(context.Background(), client.ToolListParams{ToolkitSlug: toolkit})
	if err != nil {
		t.Fatal(err)
	}
	if len(tools) < 2 {
		t.Fatalf("toolkit %s has %d tools, want 2", toolkit, len(tools))
	}
	return tools[0].Slug, tools[1].Slug
}

func testAccAuthConfigExtras(tools, userScopes, proxy string, sharedVersion int) string {
	return fmt.Sprintf(`
resource "service_auth_config" "test" {
  toolkit                = "jira"
  type                   = "use_custom_auth"
  auth_scheme            = "OAUTH2"
  credentials_wo         = { client_id = "id", client_secret = "secret" }
  credentials_wo_version = 1
  user_scopes            = %s
  tool_access_config = {
    tools_available_for_execution = %s
  }
  shared_credentials_wo         = { subdomain = "acme" }
  shared_credentials_wo_version = %d
%s
}
`, userScopes, tools, sharedVersion, proxy)
}

func testAccProxy(url string, version int) string {
	return fmt.Sprintf(`  proxy_config = {
    proxy_url                 = %q
    proxy_auth_key_wo         = "proxy-secret"
    proxy_auth_key_wo_version = %d
  }`, url, version)
}

// TestAccAuthConfig_accessProxySharedUserScopes covers
// tool_access_config.tools_available_for_execution, proxy_config,
// shared_credentials_wo and user_scopes: create, update in place, import,
// clearing, drift.
func TestAccAuthConfig_accessProxySharedUserScopes(t *testing.T) {
	t.Parallel()
	testAccPreCheck(t)
	t1, t2 := testAccToolSlugs(t, "jira")
	var id string
	execTools := tfjsonpath.New("tool_access_config").AtMapKey("tools_available_for_execution")
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckAuthConfigDestroy(t),
		Steps: []resource.TestStep{
			{
				Config: testAccAuthConfigExtras(fmt.Sprintf("[%q]", t1), `["users:read"]`, testAccProxy("https://proxy.example.com/a", 1), 1),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccAuthConfigName, execTools, knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact(t1)})),
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("user_scopes"), knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("users:read")})),
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("proxy_config").AtMapKey("proxy_url"), knownvalue.StringExact("https://proxy.example.com/a")),
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("proxy_config").AtMapKey("proxy_auth_key_wo"), knownvalue.Null()),
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("shared_credentials_wo"), knownvalue.Null()),
				},
				Check: testAccCaptureAuthConfigID(&id),
			},
			{
				// everything changes in place
				Config: testAccAuthConfigExtras(fmt.Sprintf("[%q, %q]", t1, t2), `["users:read", "chat:write"]`, testAccProxy("https://proxy.example.com/b", 2), 2),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccAuthConfigName, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccAuthConfigName, execTools, knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact(t1), knownvalue.StringExact(t2)})),
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("user_scopes"), knownvalue.ListSizeExact(2)),
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("proxy_config").AtMapKey("proxy_url"), knownvalue.StringExact("https://proxy.example.com/b")),
				},
			},
			{
				// Only the proxy changes: the custom update resends the whole
				// credential map, user scopes included (they were dropped).
				Config: testAccAuthConfigExtras(fmt.Sprintf("[%q, %q]", t1, t2), `["users:read", "chat:write"]`, testAccProxy("https://proxy.example.com/c", 2), 2),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("user_scopes"), knownvalue.ListSizeExact(2)),
				},
				Check: func(*terraform.State) error {
					ac, err := testAccClient(t).GetAuthConfig(context.Background(), id)
					if err != nil {
						return err
					}
					if len(ac.UserScopes) != 2 {
						return fmt.Errorf("user_scopes on the service = %q, want 2", ac.UserScopes)
					}
					return nil
				},
			},
			testAccImportStep(testAccAuthConfigName, "credentials_wo_version", "shared_credentials_wo_version",
				"proxy_config.proxy_auth_key_wo_version"),
			{
				// the tool list changed outside Terraform: the plan restores it
				PreConfig: func() {
					if err := testAccClient(t).UpdateAuthConfig(context.Background(), id, client.UpdateAuthConfigRequest{
						Type: client.AuthConfigUpdateDefault, ToolAccessConfig: &client.ToolAccessConfig{ToolsAvailableForExecution: []string{t2}},
					}); err != nil {
						t.Fatal(err)
					}
				},
				Config:             testAccAuthConfigExtras(fmt.Sprintf("[%q, %q]", t1, t2), `["users:read", "chat:write"]`, testAccProxy("https://proxy.example.com/b", 2), 2),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			{
				// [] lifts the restriction; removing proxy_config removes the proxy
				Config: testAccAuthConfigExtras("[]", `[]`, "", 2),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccAuthConfigName, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccAuthConfigName, execTools, knownvalue.SetSizeExact(0)),
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("user_scopes"), knownvalue.ListSizeExact(0)),
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("proxy_config"), knownvalue.Null()),
				},
			},
		},
	})
}

// TestAccAuthConfig_extrasPlanErrors: bad inputs fail at validate or plan
// naming the attribute, without a write (not parallel: the write count is
// ours).
func TestAccAuthConfig_extrasPlanErrors(t *testing.T) {
	testAccRequireEmulator(t)
	testAccNoWritesTest(t, []resource.TestStep{
		testAccPlanError(`
resource "service_auth_config" "bad" {
  toolkit = "github"
  proxy_config = { proxy_url = "https://proxy.example.com" }
}`, "proxy_config", "only accepted with type"),
		testAccPlanError(`
resource "service_auth_config" "bad" {
  toolkit               = "github"
  shared_credentials_wo = { team = "x" }
}`, "shared_credentials_wo_version", "required with shared_credentials_wo"),
		testAccPlanError(`
resource "service_auth_config" "bad" {
  toolkit     = "stripe"
  type        = "use_custom_auth"
  auth_scheme = "API_KEY"
  user_scopes = ["a"]
}`, "user_scopes", "has no user_scopes field"),
		testAccPlanError(`
resource "service_auth_config" "bad" {
  toolkit                       = "stripe"
  type                          = "use_custom_auth"
  auth_scheme                   = "API_KEY"
  shared_credentials_wo         = { team = "x" }
  shared_credentials_wo_version = 1
}`, "shared_credentials_wo", `"team"`, "api_key"),
		testAccPlanError(`
resource "service_auth_config" "bad" {
  toolkit     = "stripe"
  type        = "use_custom_auth"
  auth_scheme = "S2S_OAUTH2"
}`, "auth_scheme", "does not offer the S2S_OAUTH2 scheme"),
		testAccPlanError(`
resource "service_auth_config" "bad" {
  toolkit     = "stripe"
  type        = "use_custom_auth"
  auth_scheme = "KERBEROS"
}`, "auth_scheme", "S2S_OAUTH2"),
		testAccPlanError(`
resource "service_auth_config" "bad" {
  toolkit     = "stripe"
  type        = "use_custom_auth"
  auth_scheme = "API_KEY"
  proxy_config = { proxy_url = "proxy.example.com" }
}`, "proxy_config.proxy_url", "absolute URL"),
		// The framework's conversion error, rewritten (protocol.WholeNumbers; for a
		// nested attribute the framework names the enclosing one):
		// this step fails if the framework changes its wording.
		testAccPlanError(`
resource "service_auth_config" "bad" {
  toolkit                = "stripe"
  type                   = "use_custom_auth"
  auth_scheme            = "API_KEY"
  proxy_config = {
    proxy_url                 = "https://proxy.example.com"
    proxy_auth_key_wo         = "k"
    proxy_auth_key_wo_version = 1.5
  }
}`, "Invalid number", "Attribute proxy_config: 1.5 is not a whole number"),
		testAccPlanError(`
resource "service_auth_config" "bad" {
  toolkit = "github"
  tool_access_config = {
    tools_available_for_execution = ["GITHUB_CREATE_AN_ISSUE", "GITHUB_NO_SUCH_TOOL"]
  }
}`, "tool_access_config.tools_available_for_execution", `toolkit "github" has no tool "GITHUB_NO_SUCH_TOOL"`),
		testAccPlanError(`
resource "service_auth_config" "bad" {
  toolkit = "github"
  tool_access_config = {
    tools_for_connected_account_creation = ["SLACK_SEND_MESSAGE"]
  }
}`, "tool_access_config.tools_for_connected_account_creation", `toolkit "github" has no tool "SLACK_SEND_MESSAGE"`),
	})
}

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
	// Apply: at most one toolkit GET (the final plan), one create each and
	// at most one read-back each: a GET, or one page of the toolkit for the
	// read-backs that met in a batch (coalesced reads, PERFORMANCE.md).
	w.RunOK("apply", "-no-color", "tfplan")
	c2 := snap()
	if d := delta(c1, c2); d.toolkit > 1 || d.create != 3 || d.writes != 3 || d.get+d.list < 1 || d.get+d.list > 3 {
		t.Errorf("apply: want <=1 toolkit GET, 3 creates (3 writes), 3 read-backs in 1 to 3 requests (GETs, or lists for those that met); got %+v", d)
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
