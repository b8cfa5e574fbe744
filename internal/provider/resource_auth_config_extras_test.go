package provider

import (
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

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
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
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
