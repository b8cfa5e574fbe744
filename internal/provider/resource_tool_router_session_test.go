package provider

import (
	"context"
	"fmt"
	"regexp"
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

const (
	testAccSessionName = "service_tool_router_session.test"
	routeCreateSession = "POST /api/v3.1/tool_router/session"
	routeGetSession    = "GET /api/v3.1/tool_router/session/{session_id}"
	routePatchSession  = "PATCH /api/v3.1/tool_router/session/{session_id}"
)

// testAccSessionFixture is a user with an API-key stripe auth config and an
// ACTIVE stripe account, and another user's account on the same auth config.
type testAccSessionFixture struct {
	user, authConfig, account, otherAccount string
}

func testAccSessionFixtures(t *testing.T, prefix string) testAccSessionFixture {
	t.Helper()
	ctx := context.Background()
	c := testAccClient(t)
	ac := testAccStripeAPIKeyAuthConfig(t, c, prefix)
	connect := func(user string) string {
		a, err := c.InitiateConnectedAccount(ctx, client.InitiateConnectedAccountRequest{AuthConfigID: ac.ID, UserID: user,
			State: &client.ConnectionState{AuthScheme: "API_KEY", Val: map[string]any{"status": "ACTIVE", "api_key": "sk_session"}}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.DeleteConnectedAccount(context.Background(), a.ID) })
		return a.ID
	}
	return testAccSessionFixture{user: prefix + "-user", authConfig: ac.ID, account: connect(prefix + "-user"), otherAccount: connect(prefix + "-other")}
}

func testAccCheckSessionDestroy(t *testing.T) resource.TestCheckFunc {
	return testAccCheckDestroyed(t, toolRouterSessionType, "tool-router session", func(ctx context.Context, c *client.Client, id string) error {
		_, err := c.GetSession(ctx, id)
		return err
	})
}

// testAccSessionFull is a session with every attribute of the first step.
func testAccSessionFull(fx testAccSessionFixture) string {
	return fmt.Sprintf(`
resource "service_tool_router_session" "test" {
  user_id            = %[1]q
  toolkits           = ["stripe", "linear"]
  auth_configs       = { stripe = %[2]q }
  connected_accounts = { stripe = [%[3]q] }
  manage_connections = {
    callback_url         = "https://app.example.com/connected"
    wait_for_connections = true
  }
  tools = {
    stripe = { disabled = ["STRIPE_CREATE_ITEM"] }
    linear = { tags = ["readOnlyHint"] }
  }
  tags      = ["readOnlyHint", "idempotentHint"]
  workbench = { sandbox_size = "medium" }
}
`, fx.user, fx.authConfig, fx.account)
}

// testAccSessionChanged changes every attribute that changes in place.
func testAccSessionChanged(fx testAccSessionFixture) string {
	return fmt.Sprintf(`
resource "service_tool_router_session" "test" {
  user_id            = %[1]q
  disabled_toolkits  = ["gmail"]
  connected_accounts = { stripe = [%[2]q] }
  manage_connections = { enabled = false }
  tools = {
    stripe = { enabled = ["STRIPE_LIST_ITEMS", "STRIPE_GET_ITEM"] }
  }
  disabled_tags = ["destructiveHint"]
  workbench     = { sandbox_size = "large", proxy_execution = false }
  multi_account = { enabled = true, max_accounts_per_toolkit = 3 }
}
`, fx.user, fx.account)
}

// TestAccToolRouterSession_lifecycle: create (one write and at most one
// read of the session), refresh (one GET), an in-place update of every
// attribute that can change (one PATCH, the same id and MCP URL, the
// config's version up by one), import by id, a change outside Terraform
// restored in place, a deletion outside Terraform planned again, a new
// user_id replacing the session, destroy.
func TestAccToolRouterSession_lifecycle(t *testing.T) {
	testAccRequireEmulator(t)
	fx := testAccSessionFixtures(t, acctest.RandomWithPrefix("tfacc-trs"))
	id, url := &testAccValue{}, &testAccValue{}
	ctx := context.Background()
	var before testAccEmulatorStats
	snap := func() { before = testAccEmulatorStatsNow(t) }
	cost := func(route string) int { return testAccEmulatorStatsNow(t).Requests[route] - before.Requests[route] }
	writes := func() int { return testAccEmulatorStatsNow(t).Writes - before.Writes }
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckSessionDestroy(t),
		Steps: []resource.TestStep{
			{
				PreConfig: snap,
				Config:    testAccSessionFull(fx),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccSessionName, tfjsonpath.New("id"), knownvalue.StringRegexp(sessionIDRe)),
					statecheck.ExpectKnownValue(testAccSessionName, tfjsonpath.New("mcp_url"), knownvalue.StringRegexp(regexp.MustCompile(`/tool_router/trs_\w+/mcp$`))),
					statecheck.ExpectKnownValue(testAccSessionName, tfjsonpath.New("mcp_type"), knownvalue.StringExact("http")),
					statecheck.ExpectKnownValue(testAccSessionName, tfjsonpath.New("config_version"), knownvalue.Int64Exact(1)),
					statecheck.ExpectKnownValue(testAccSessionName, tfjsonpath.New("created_at"), testAccTimestamp),
					statecheck.ExpectKnownValue(testAccSessionName, tfjsonpath.New("toolkits"), testAccStrings("linear", "stripe")),
					statecheck.ExpectKnownValue(testAccSessionName, tfjsonpath.New("disabled_toolkits"), knownvalue.Null()),
					statecheck.ExpectKnownValue(testAccSessionName, tfjsonpath.New("manage_connections"), knownvalue.ObjectExact(map[string]knownvalue.Check{
						"enabled": knownvalue.Null(), "callback_url": knownvalue.StringExact("https://app.example.com/connected"),
						"wait_for_connections": knownvalue.Bool(true), "connection_removal": knownvalue.Null(),
					})),
					statecheck.ExpectKnownValue(testAccSessionName, tfjsonpath.New("workbench"), knownvalue.ObjectExact(map[string]knownvalue.Check{
						"enabled": knownvalue.Null(), "proxy_execution": knownvalue.Null(), "auto_offload_threshold": knownvalue.Null(),
						"sandbox_size": knownvalue.StringExact("medium"),
					})),
					statecheck.ExpectKnownValue(testAccSessionName, tfjsonpath.New("tools").AtMapKey("linear").AtMapKey("tags"), testAccStrings("readOnlyHint")),
					statecheck.ExpectKnownValue(testAccSessionName, tfjsonpath.New("multi_account"), knownvalue.Null()),
				},
				Check: resource.ComposeTestCheckFunc(id.capture(testAccSessionName, "id"), url.capture(testAccSessionName, "mcp_url"),
					func(*terraform.State) error {
						// One write; the framework's refresh after apply reads once more.
						if w, c, g := writes(), cost(routeCreateSession), cost(routeGetSession); w != 1 || c != 1 || g > 1 {
							return fmt.Errorf("create cost %d writes (%d creates) and %d GETs of the session, want 1 write and at most 1 GET", w, c, g)
						}
						return nil
					}),
			},
			{
				PreConfig:    snap,
				RefreshState: true,
				Check: func(*terraform.State) error {
					if g, r := cost(routeGetSession), testAccEmulatorStatsNow(t).Requests; g != 1 || writes() != 0 {
						return fmt.Errorf("refresh cost %d GETs of the session and %d writes, want 1 and 0 (%v)", g, writes(), r)
					}
					return nil
				},
			},
			{
				PreConfig: snap,
				Config:    testAccSessionChanged(fx),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccSessionName, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccSessionName, tfjsonpath.New("config_version"), knownvalue.Int64Exact(2)),
					statecheck.ExpectKnownValue(testAccSessionName, tfjsonpath.New("toolkits"), knownvalue.Null()),
					statecheck.ExpectKnownValue(testAccSessionName, tfjsonpath.New("disabled_toolkits"), testAccStrings("gmail")),
					statecheck.ExpectKnownValue(testAccSessionName, tfjsonpath.New("auth_configs"), knownvalue.Null()),
					statecheck.ExpectKnownValue(testAccSessionName, tfjsonpath.New("tags"), knownvalue.Null()),
					statecheck.ExpectKnownValue(testAccSessionName, tfjsonpath.New("disabled_tags"), testAccStrings("destructiveHint")),
					statecheck.ExpectKnownValue(testAccSessionName, tfjsonpath.New("manage_connections").AtMapKey("enabled"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(testAccSessionName, tfjsonpath.New("manage_connections").AtMapKey("callback_url"), knownvalue.Null()),
					statecheck.ExpectKnownValue(testAccSessionName, tfjsonpath.New("workbench").AtMapKey("proxy_execution"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(testAccSessionName, tfjsonpath.New("multi_account").AtMapKey("max_accounts_per_toolkit"), knownvalue.Int64Exact(3)),
					statecheck.ExpectKnownValue(testAccSessionName, tfjsonpath.New("tools").AtMapKey("stripe").AtMapKey("enabled"), testAccStrings("STRIPE_GET_ITEM", "STRIPE_LIST_ITEMS")),
				},
				Check: resource.ComposeTestCheckFunc(testAccSessionSame(id, "id"), testAccSessionSame(url, "mcp_url"),
					func(*terraform.State) error {
						if p, c := cost(routePatchSession), cost(routeCreateSession); p != 1 || c != 0 {
							return fmt.Errorf("update cost %d PATCHes and %d creates, want 1 and 0", p, c)
						}
						return nil
					}),
			},
			testAccImportStep(testAccSessionName),
			{
				// Changed outside Terraform: toolkits narrowed, tags and the
				// sandbox size changed. The plan restores them in place.
				PreConfig: func() {
					if _, err := testAccClient(t).UpdateSession(ctx, id.v, client.UpdateSessionRequest{
						Toolkits: &client.SessionToolkitsParam{Slugs: []string{"stripe"}}, Tags: &client.SessionTagsParam{Enable: []string{"openWorldHint"}},
						Workbench: &client.SessionWorkbenchParam{SandboxSize: "xlarge"},
					}); err != nil {
						t.Fatal(err)
					}
				},
				Config: testAccSessionChanged(fx),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccSessionName, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccSessionName, tfjsonpath.New("toolkits"), knownvalue.Null()),
					statecheck.ExpectKnownValue(testAccSessionName, tfjsonpath.New("tags"), knownvalue.Null()),
					statecheck.ExpectKnownValue(testAccSessionName, tfjsonpath.New("workbench").AtMapKey("sandbox_size"), knownvalue.StringExact("large")),
				},
				Check: testAccSessionSame(id, "id"),
			},
			{
				// Everything removed from the configuration: each member is
				// reset in place (every toolkit, no maps, the defaults).
				PreConfig: snap,
				Config:    fmt.Sprintf("resource \"service_tool_router_session\" \"test\" {\n  user_id = %q\n}\n", fx.user),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccSessionName, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccSessionName, tfjsonpath.New("toolkits"), knownvalue.Null()),
					statecheck.ExpectKnownValue(testAccSessionName, tfjsonpath.New("disabled_toolkits"), knownvalue.Null()),
					statecheck.ExpectKnownValue(testAccSessionName, tfjsonpath.New("connected_accounts"), knownvalue.Null()),
					statecheck.ExpectKnownValue(testAccSessionName, tfjsonpath.New("tools"), knownvalue.Null()),
					statecheck.ExpectKnownValue(testAccSessionName, tfjsonpath.New("disabled_tags"), knownvalue.Null()),
					statecheck.ExpectKnownValue(testAccSessionName, tfjsonpath.New("manage_connections"), knownvalue.Null()),
					statecheck.ExpectKnownValue(testAccSessionName, tfjsonpath.New("workbench"), knownvalue.Null()),
					statecheck.ExpectKnownValue(testAccSessionName, tfjsonpath.New("multi_account"), knownvalue.Null()),
				},
				Check: resource.ComposeTestCheckFunc(testAccSessionSame(id, "id"), func(*terraform.State) error {
					got, err := testAccClient(t).GetSession(ctx, id.v)
					if err != nil {
						return err
					}
					c := got.Config
					if c.Toolkits != nil && (len(c.Toolkits.Enabled) > 0 || len(c.Toolkits.Disabled) > 0) || len(c.Tools) > 0 ||
						len(c.ConnectedAccounts) > 0 || c.MultiAccount != nil || c.Tags != nil && len(c.Tags.Disabled) > 0 {
						return fmt.Errorf("the session kept what the configuration removed: %+v", c)
					}
					if p := cost(routePatchSession); p != 1 {
						return fmt.Errorf("%d PATCHes, want 1", p)
					}
					return nil
				}),
			},
			{
				// Deleted outside Terraform: planned again.
				PreConfig: func() {
					if err := testAccClient(t).DeleteSession(ctx, id.v); err != nil {
						t.Fatal(err)
					}
				},
				Config:             testAccSessionChanged(fx),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			{
				Config: testAccSessionChanged(fx),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccSessionName, plancheck.ResourceActionCreate),
				}},
				Check: id.capture(testAccSessionName, "id"),
			},
			{
				// Another user: a new session.
				Config: fmt.Sprintf(`
resource "service_tool_router_session" "test" {
  user_id = "%s-2"
}
`, fx.user),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccSessionName, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				Check: testAccSessionOther(id, "id"),
			},
		},
	})
}

// TestAccToolRouterSession_planChecks: what the service would refuse is
// refused at plan, each naming its attribute, without a single write.
func TestAccToolRouterSession_planChecks(t *testing.T) {
	testAccRequireEmulator(t)
	fx := testAccSessionFixtures(t, acctest.RandomWithPrefix("tfacc-trs-plan"))
	cfg := func(body string) string {
		return fmt.Sprintf("resource \"service_tool_router_session\" \"test\" {\n  user_id = %q\n%s\n}\n", fx.user, body)
	}
	testAccSessionConfigsFeature(t, false)
	testAccNoWritesTest(t, []resource.TestStep{
		testAccPlanError(cfg(`  toolkits = ["strpe"]`), `toolkits`, `strpe`, `Did you mean "stripe"`),
		testAccPlanError(cfg(`  disabled_toolkits = ["gitbub"]`), `disabled_toolkits`, `Did you mean "github"`),
		testAccPlanError(cfg(fmt.Sprintf(`  auth_configs = { linear = %q }`, fx.authConfig)), `auth_configs`, `is for toolkit "stripe", not "linear"`),
		testAccPlanError(cfg(`  auth_configs = { stripe = "ac_missing000000" }`), `no auth config "ac_missing000000"`),
		testAccPlanError(cfg(fmt.Sprintf(`  connected_accounts = { stripe = [%q] }`, fx.otherAccount)), `connected_accounts`, `belongs to user`, `not to the session's user_id`),
		testAccPlanError(cfg(fmt.Sprintf(`  connected_accounts = { linear = [%q] }`, fx.account)), `account of toolkit "stripe", not "linear"`),
		testAccPlanError(cfg(fmt.Sprintf(`  connected_accounts = { stripe = [%q, %q] }`, fx.account, fx.otherAccount)), `at most one per toolkit`),
		testAccPlanError(cfg(`  tools = { stripe = { enabled = ["STRIPE_LIST_ITEM"] } }`), `no tool "STRIPE_LIST_ITEM"`, `Did you mean "STRIPE_LIST_ITEMS"`),
		testAccPlanError(cfg(`  tools = { stripe = { enabled = ["STRIPE_LIST_ITEMS"], disabled = ["STRIPE_GET_ITEM"] } }`), `exactly one of enabled`),
		testAccPlanError(cfg(`  tags = ["fastHint"]`), `tags`, `readOnlyHint`),
		testAccPlanError(cfg(`  workbench = { sandbox_size = "huge" }`), `sandbox_size`, `standard`),
		testAccPlanError(cfg(`  toolkits = ["stripe"]
  disabled_toolkits = ["gmail"]`), `disabled_toolkits`),
		testAccPlanError(cfg(`  session_config_id = "sc_missing000000"`), `Session configs not enabled`, `403`),
	})
}

// TestAccToolRouterSession_sessionConfig: a session created from a saved
// session config follows its policy and names it; a missing or archived
// config is refused at plan.
func TestAccToolRouterSession_sessionConfig(t *testing.T) {
	testAccRequireEmulator(t)
	testAccSessionConfigsFeature(t, true)
	var sc, archived struct {
		ID string `json:"id"`
	}
	testAccEmulatorDo(t, "POST", "/_emulator/session_configs", map[string]any{"name": acctest.RandomWithPrefix("tfacc-sc"),
		"config": map[string]any{"toolkits": map[string]any{"enable": []string{"github"}}}}, &sc)
	testAccEmulatorDo(t, "POST", "/_emulator/session_configs", map[string]any{"name": acctest.RandomWithPrefix("tfacc-sc-old"), "archived": true}, &archived)
	cfg := func(id string) string {
		return fmt.Sprintf("resource \"service_tool_router_session\" \"test\" {\n  user_id = \"sc-user\"\n  session_config_id = %q\n}\n", id)
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckSessionDestroy(t),
		Steps: []resource.TestStep{
			testAccPlanError(cfg("sc_missing000000"), `no session config "sc_missing000000"`),
			testAccPlanError(cfg(archived.ID), `is archived`),
			{
				Config: cfg(sc.ID),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccSessionName, tfjsonpath.New("session_config_id"), knownvalue.StringExact(sc.ID)),
					statecheck.ExpectKnownValue(testAccSessionName, tfjsonpath.New("toolkits"), knownvalue.Null()),
				},
				Check: func(s *terraform.State) error {
					got, err := testAccClient(t).GetSession(context.Background(), s.RootModule().Resources[testAccSessionName].Primary.ID)
					if err != nil {
						return err
					}
					if got.Config.Toolkits == nil || len(got.Config.Toolkits.Enabled) != 1 || got.Config.Toolkits.Enabled[0] != "github" {
						return fmt.Errorf("the session does not follow the config's policy: %+v", got.Config.Toolkits)
					}
					return nil
				},
			},
		},
	})
}

func TestAccIdentity_toolRouterSession(t *testing.T) {
	testAccIdentity(t, identityCase{
		addr: testAccSessionName, idRe: sessionIDRe,
		create: "resource \"service_tool_router_session\" \"test\" {\n  user_id  = \"ident-user\"\n  toolkits = [\"github\"]\n}\n",
		update: "resource \"service_tool_router_session\" \"test\" {\n  user_id  = \"ident-user\"\n  toolkits = [\"github\", \"slack\"]\n}\n",
		remove: func(ctx context.Context, c *client.Client, id string) error { return c.DeleteSession(ctx, id) },
		gone:   testAccCheckSessionDestroy,
	})
}

// testAccSessionConfigsFeature turns the emulator's session configs feature
// on or off for the acceptance project (the tests that read session configs
// are not parallel).
func testAccSessionConfigsFeature(t *testing.T, on bool) {
	t.Helper()
	testAccEmulatorDo(t, "PUT", "/_emulator/session_configs/feature", map[string]any{"enabled": on}, nil)
}

// testAccSessionSame checks that the session's attr still holds the value v
// captured.
func testAccSessionSame(v *testAccValue, attr string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		if got := s.RootModule().Resources[testAccSessionName].Primary.Attributes[attr]; got != v.v {
			return fmt.Errorf("%s.%s changed: %q, was %q", testAccSessionName, attr, got, v.v)
		}
		return nil
	}
}

// testAccSessionOther checks that the session's attr no longer holds the
// value v captured.
func testAccSessionOther(v *testAccValue, attr string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		if got := s.RootModule().Resources[testAccSessionName].Primary.Attributes[attr]; got == v.v {
			return fmt.Errorf("%s.%s is still %q", testAccSessionName, attr, got)
		}
		return nil
	}
}

// An import id that is not a session id is refused before any request.
func TestToolRouterSessionImportID(t *testing.T) {
	for _, id := range []string{"ac_abc", "trs_", "trs abc", ""} {
		if sessionIDRe.MatchString(id) {
			t.Errorf("%q matched", id)
		}
	}
	if !sessionIDRe.MatchString("trs_AbC123-x_Y") {
		t.Error("a session id was refused")
	}
}
