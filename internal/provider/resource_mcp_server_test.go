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
	"github.com/integration-service/terraform-provider-service/internal/provider/importid"
)

const testAccMCPServerName = "service_mcp_server.test"

func testAccCheckMCPServerDestroy(t *testing.T) resource.TestCheckFunc {
	return testAccCheckDestroyed(t, mcpServerType, "MCP server", func(ctx context.Context, c *client.Client, id string) error {
		_, err := c.GetMCPServer(ctx, id)
		return err
	})
}

// testAccMCPName is a random MCP server name (the service allows 4-30
// letters, digits, spaces and hyphens).
func testAccMCPName() string { return "tfacc-" + acctest.RandString(10) }

// testAccMCPServerTwoACs renders github and gmail auth configs and
// service_mcp_server.test over both, with extra lines in the server.
func testAccMCPServerTwoACs(prefix, name, extra string) string {
	return testAccMCPServerACs(prefix, name, "service_auth_config.github.id, service_auth_config.gmail.id", extra)
}

// testAccMCPServerACs renders github and gmail auth configs and
// service_mcp_server.test over the auth config ids acRefs (HCL list items).
func testAccMCPServerACs(prefix, name, acRefs, extra string) string {
	return fmt.Sprintf(`
resource "service_auth_config" "github" {
  toolkit = "github"
  name    = "%[1]s-gh"
}

resource "service_auth_config" "gmail" {
  toolkit = "gmail"
  name    = "%[1]s-gm"
}

resource "service_mcp_server" "test" {
  name            = %[2]q
  auth_config_ids = [%[3]s]
%[4]s
}
`, prefix, name, acRefs, extra)
}

func testAccStrings(vals ...string) knownvalue.Check {
	checks := make([]knownvalue.Check, 0, len(vals))
	for _, v := range vals {
		checks = append(checks, knownvalue.StringExact(v))
	}
	return knownvalue.SetExact(checks)
}

func testAccCaptureMCPServerID(dst *string) resource.TestCheckFunc {
	return resource.TestCheckResourceAttrWith(testAccMCPServerName, "id", func(v string) error {
		*dst = v
		return nil
	})
}

// TestAccMCPServer_lifecycle: an MCP server over two auth configs with
// restricted tools; update in place (rename, other tools, managed auth,
// every tool); import.
func TestAccMCPServer_lifecycle(t *testing.T) {
	t.Parallel()
	prefix := acctest.RandomWithPrefix("tfacc-mcp")
	name := testAccMCPName()
	var id string
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckMCPServerDestroy(t),
		Steps: []resource.TestStep{
			{
				Config: testAccMCPServerTwoACs(prefix, name, `  allowed_tools = ["GITHUB_CREATE_AN_ISSUE", "GMAIL_SEND_EMAIL"]`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccMCPServerName, plancheck.ResourceActionCreate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccMCPServerName, tfjsonpath.New("id"), knownvalue.StringRegexp(importid.UUIDRe)),
					statecheck.ExpectKnownValue(testAccMCPServerName, tfjsonpath.New("name"), knownvalue.StringExact(name)),
					statecheck.ExpectKnownValue(testAccMCPServerName, tfjsonpath.New("allowed_tools"), testAccStrings("GITHUB_CREATE_AN_ISSUE", "GMAIL_SEND_EMAIL")),
					statecheck.ExpectKnownValue(testAccMCPServerName, tfjsonpath.New("toolkits"), testAccStrings("github", "gmail")),
					statecheck.ExpectKnownValue(testAccMCPServerName, tfjsonpath.New("auth_config_ids"), knownvalue.SetSizeExact(2)),
					statecheck.ExpectKnownValue(testAccMCPServerName, tfjsonpath.New("no_auth_toolkits"), knownvalue.Null()),
					statecheck.ExpectKnownValue(testAccMCPServerName, tfjsonpath.New("managed_auth_via_service"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(testAccMCPServerName, tfjsonpath.New("mcp_url"), knownvalue.StringRegexp(regexp.MustCompile(`/mcp`))),
					statecheck.ExpectKnownValue(testAccMCPServerName, tfjsonpath.New("created_at"), testAccTimestamp),
					statecheck.ExpectKnownValue(testAccMCPServerName, tfjsonpath.New("updated_at"), testAccTimestamp),
				},
				Check: testAccCaptureMCPServerID(&id),
			},
			{
				// In place: rename, other tools, managed auth. Toolkits stay known.
				Config: testAccMCPServerTwoACs(prefix, name+"-b", `
  allowed_tools            = ["GITHUB_GET_A_REPOSITORY", "GMAIL_FETCH_EMAILS"]
  managed_auth_via_service = true
`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccMCPServerName, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(testAccMCPServerName, tfjsonpath.New("toolkits"), testAccStrings("github", "gmail")),
					plancheck.ExpectKnownValue(testAccMCPServerName, tfjsonpath.New("mcp_url"), knownvalue.NotNull()),
					plancheck.ExpectUnknownValue(testAccMCPServerName, tfjsonpath.New("updated_at")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccMCPServerName, tfjsonpath.New("name"), knownvalue.StringExact(name+"-b")),
					statecheck.ExpectKnownValue(testAccMCPServerName, tfjsonpath.New("allowed_tools"), testAccStrings("GITHUB_GET_A_REPOSITORY", "GMAIL_FETCH_EMAILS")),
					statecheck.ExpectKnownValue(testAccMCPServerName, tfjsonpath.New("managed_auth_via_service"), knownvalue.Bool(true)),
				},
				Check: resource.ComposeTestCheckFunc(
					resource.TestCheckResourceAttrWith(testAccMCPServerName, "id", func(v string) error {
						if v != id {
							return fmt.Errorf("id changed from %s to %s: want an in-place update", id, v)
						}
						return nil
					}),
					func(*terraform.State) error {
						m, err := testAccClient(t).GetMCPServer(context.Background(), id)
						if err != nil {
							return err
						}
						if m.Name != name+"-b" || !m.ManagedAuthViaComposio || len(m.AllowedTools) != 2 {
							return fmt.Errorf("service not updated: %+v", m)
						}
						return nil
					},
				),
			},
			{
				// allowed_tools removed: every tool of both toolkits, known at plan.
				Config: testAccMCPServerTwoACs(prefix, name+"-b", `  managed_auth_via_service = true`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccMCPServerName, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(testAccMCPServerName, tfjsonpath.New("allowed_tools"), knownvalue.SetSizeExact(6)),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccMCPServerName, tfjsonpath.New("allowed_tools"), knownvalue.SetSizeExact(6)),
				},
			},
			{
				// Only github: gmail's tools go, every github tool is served.
				Config: testAccMCPServerACs(prefix, name+"-b", "service_auth_config.github.id", ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccMCPServerName, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(testAccMCPServerName, tfjsonpath.New("toolkits"), testAccStrings("github")),
					plancheck.ExpectUnknownValue(testAccMCPServerName, tfjsonpath.New("allowed_tools")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccMCPServerName, tfjsonpath.New("allowed_tools"),
						testAccStrings("GITHUB_CREATE_AN_ISSUE", "GITHUB_GET_A_REPOSITORY", "GITHUB_LIST_REPOSITORIES_FOR_THE_AUTHENTICATED_USER")),
					statecheck.ExpectKnownValue(testAccMCPServerName, tfjsonpath.New("toolkits"), testAccStrings("github")),
					statecheck.ExpectKnownValue(testAccMCPServerName, tfjsonpath.New("managed_auth_via_service"), knownvalue.Bool(false)),
				},
			},
			testAccImportStep(testAccMCPServerName),
		},
	})
}

// TestAccMCPServer_drift: changed and deleted outside Terraform.
func TestAccMCPServer_drift(t *testing.T) {
	t.Parallel()
	prefix := acctest.RandomWithPrefix("tfacc-mcp-drift")
	name := testAccMCPName()
	cfg := testAccMCPServerTwoACs(prefix, name, `  allowed_tools = ["GITHUB_CREATE_AN_ISSUE"]`)
	var id string
	ctx := context.Background()
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckMCPServerDestroy(t),
		Steps: []resource.TestStep{
			{Config: cfg, Check: testAccCaptureMCPServerID(&id)},
			{
				// Renamed and given other tools outside Terraform: the plan restores both in place.
				PreConfig: func() {
					other := name + "-x"
					if _, err := testAccClient(t).UpdateMCPServer(ctx, id, client.UpdateMCPServerRequest{
						Name: &other, AllowedTools: []string{"GMAIL_SEND_EMAIL"},
					}); err != nil {
						t.Fatal(err)
					}
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccMCPServerName, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccMCPServerName, tfjsonpath.New("name"), knownvalue.StringExact(name)),
					statecheck.ExpectKnownValue(testAccMCPServerName, tfjsonpath.New("allowed_tools"), testAccStrings("GITHUB_CREATE_AN_ISSUE")),
				},
			},
			{
				// An auth config dropped outside Terraform: the plan puts it back.
				PreConfig: func() {
					m, err := testAccClient(t).GetMCPServer(ctx, id)
					if err != nil {
						t.Fatal(err)
					}
					if _, err := testAccClient(t).UpdateMCPServer(ctx, id, client.UpdateMCPServerRequest{
						AuthConfigIDs: m.AuthConfigIDs[:1], Toolkits: []string{m.Toolkits[0]},
					}); err != nil {
						t.Fatal(err)
					}
				},
				Config:             cfg,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			{
				Config: cfg,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccMCPServerName, tfjsonpath.New("toolkits"), testAccStrings("github", "gmail")),
				},
			},
			{
				// Deleted outside Terraform: removed from state, then created again.
				PreConfig: func() {
					if err := testAccClient(t).DeleteMCPServer(ctx, id); err != nil {
						t.Fatal(err)
					}
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccMCPServerName, plancheck.ResourceActionCreate),
				}},
				Check: resource.TestCheckResourceAttrWith(testAccMCPServerName, "id", func(v string) error {
					if v == id {
						return fmt.Errorf("expected a new id after recreation, still %s", v)
					}
					return nil
				}),
			},
		},
	})
}

// testAccMCPExistingACs creates github and gmail auth configs through the API
// (deleted when the test ends) and returns their ids.
func testAccMCPExistingACs(t *testing.T) (github, gmail string) {
	t.Helper()
	testAccPreCheck(t)
	c := testAccClient(t)
	ctx := context.Background()
	var ids []string
	for _, tk := range []string{"github", "gmail"} {
		ac, err := c.CreateAuthConfig(ctx, client.CreateAuthConfigRequest{ToolkitSlug: tk, Name: acctest.RandomWithPrefix("tfacc-mcp-" + tk)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = testAccDeleteAuthConfig(context.Background(), c, ac.ID) })
		ids = append(ids, ac.ID)
	}
	return ids[0], ids[1]
}

func testAccMCPServerOver(name string, acIDs []string, extra string) string {
	list := ""
	for _, id := range acIDs {
		list += fmt.Sprintf("%q, ", id)
	}
	return fmt.Sprintf(`
resource "service_mcp_server" "test" {
  name            = %q
  auth_config_ids = [%s]
%s
}
`, name, list, extra)
}

// TestAccMCPServer_planTimeErrors: bad inputs fail at validate or plan,
// naming the attribute, with zero writes. Not parallel: it compares the
// emulator's write counter.
func TestAccMCPServer_planTimeErrors(t *testing.T) {
	testAccRequireEmulator(t)
	gh, gm := testAccMCPExistingACs(t)
	both := []string{gh, gm}
	name := testAccMCPName()
	testAccNoWritesTest(t, []resource.TestStep{
		testAccPlanError(testAccMCPServerOver(name, both, `  allowed_tools = ["GITHUB_NOPE"]`),
			`allowed_tools`, `toolkit "github" has no tool "GITHUB_NOPE"`),
		testAccPlanError(testAccMCPServerOver(name, both, `  allowed_tools = ["SLACK_SEND_MESSAGE"]`),
			`allowed_tools`, `tool "SLACK_SEND_MESSAGE" belongs to toolkit "slack"`, `github, gmail`),
		testAccPlanError(testAccMCPServerOver(name, both, `  allowed_tools = ["NOSUCH_TOOL"]`),
			`allowed_tools`, `has a tool "NOSUCH_TOOL"`),
		testAccPlanError(testAccMCPServerOver(name, both, `  allowed_tools = ["github_create_an_issue"]`),
			`allowed_tools`, `upper snake case`),
		testAccPlanError(testAccMCPServerOver("", both, ""), `name`, `length must be between 4 and 30`),
		testAccPlanError(testAccMCPServerOver("bad_name!", both, ""), `name`, `letters, digits, spaces and hyphens`),
		testAccPlanError(testAccMCPServerOver(name, both, `  allowed_tools = []`),
			`Attribute allowed_tools set must contain at least 1 elements, got: 0`),
		testAccPlanError(testAccMCPServerOver("     ", both, ""), `name`, `is blank`),
		testAccPlanError(testAccMCPServerOver(" srv ", both, ""), `name`, `white space around it`),
		testAccPlanError(testAccMCPServerOver(name, []string{gh, "ac_doesnotexist1"}, ""),
			`auth_config_ids`, `no auth config "ac_doesnotexist1"`),
		testAccPlanError(testAccMCPServerOver(name, []string{"not-an-id"}, ""), `auth_config_ids`, `must be an auth config id`),
		testAccPlanError(testAccMCPServerOver(name, nil, ""), `auth_config_ids`, `needs at least one auth config`),
		testAccPlanError(testAccMCPServerOver(name, both, `  no_auth_toolkits = ["slack"]`),
			`no_auth_toolkits`, `toolkit "slack" needs authentication`),
		testAccPlanError(testAccMCPServerOver(name, both, `  no_auth_toolkits = ["custom_zed"]`),
			`no_auth_toolkits`, `custom toolkit slugs are upper case, write "CUSTOM_ZED"`),
		testAccPlanError(testAccMCPServerOver(name, both, `  no_auth_toolkits = ["nosuchkit"]`),
			`no_auth_toolkits`, `no toolkit "nosuchkit"`),
	})
}

// TestAccMCPServer_nameTaken: a second server with the same name fails at
// plan (the project's servers are listed once per provider run) naming name,
// and nothing is left half-created.
func TestAccMCPServer_nameTaken(t *testing.T) {
	t.Parallel()
	gh, _ := testAccMCPExistingACs(t)
	name := testAccMCPName()
	existing, err := testAccClient(t).CreateMCPServer(context.Background(), client.CreateMCPServerRequest{Name: name, AuthConfigIDs: []string{gh}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = testAccClient(t).DeleteMCPServer(context.Background(), existing.ID) })
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckMCPServerDestroy(t),
		Steps: []resource.TestStep{{
			Config:      testAccMCPServerOver(name, []string{gh}, ""),
			ExpectError: testAccErrRe(`name`, `already has an MCP server named`),
		}},
	})
}

// TestAccMCPServer_importInvalidID: an id that is not a UUID fails without a
// request.
func TestAccMCPServer_importInvalidID(t *testing.T) {
	t.Parallel()
	gh, _ := testAccMCPExistingACs(t)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps: []resource.TestStep{{
			Config:        testAccMCPServerOver(testAccMCPName(), []string{gh}, ""),
			ResourceName:  testAccMCPServerName,
			ImportState:   true,
			ImportStateId: "ac_notanmcpserver",
			ExpectError:   testAccErrRe(`Expected an MCP server id, a UUID`, `"ac_notanmcpserver"`),
		}},
	})
}

// TestAccMCPServer_noAuthToolkit: a NO_AUTH custom toolkit created in the
// same apply served next to an auth config; import derives no_auth_toolkits;
// removing it updates in place.
func TestAccMCPServer_noAuthToolkit(t *testing.T) {
	t.Parallel()
	prefix := acctest.RandomWithPrefix("tfacc-mcp-noauth")
	slug := "MCPOPEN" + acctest.RandStringFromCharSet(8, acctest.CharSetAlpha)
	name := testAccMCPName()
	cfg := func(noAuth string) string {
		return fmt.Sprintf(`
resource "service_custom_toolkit" "open" {
  slug    = %[1]q
  name    = "Open tools"
  mcp_url = "https://mcp.open.example/mcp"
  auth_scheme = {
    mode = "NO_AUTH"
  }
}

resource "service_auth_config" "github" {
  toolkit = "github"
  name    = "%[2]s-gh"
}

resource "service_mcp_server" "test" {
  name            = %[3]q
  auth_config_ids = [service_auth_config.github.id]
%[4]s
}
`, slug, prefix, name, noAuth)
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckMCPServerDestroy(t),
		Steps: []resource.TestStep{
			{
				Config: cfg(`  no_auth_toolkits = [service_custom_toolkit.open.id]`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccMCPServerName, tfjsonpath.New("toolkits"), testAccStrings("github", "CUSTOM_"+strings.ToUpper(slug))),
					statecheck.ExpectKnownValue(testAccMCPServerName, tfjsonpath.New("no_auth_toolkits"), testAccStrings("CUSTOM_"+strings.ToUpper(slug))),
				},
			},
			testAccImportStep(testAccMCPServerName),
			{
				Config: cfg(""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccMCPServerName, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(testAccMCPServerName, tfjsonpath.New("toolkits"), testAccStrings("github")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccMCPServerName, tfjsonpath.New("toolkits"), testAccStrings("github")),
					statecheck.ExpectKnownValue(testAccMCPServerName, tfjsonpath.New("no_auth_toolkits"), knownvalue.Null()),
				},
			},
		},
	})
}

// TestAccMCPServer_toolsOnNewAuthConfig: allowed_tools are checked at plan
// even when the auth configs are created in the same apply (their ids
// unknown): a tool whose prefix names a catalog toolkit that has no such tool
// fails the plan with zero writes (the auth config is not created); tools the
// named toolkits have (GITHUB_APP_ names github_app, not github), tools of
// no catalog toolkit and custom toolkits' tools plan without an error or a
// warning, and are left to the final plan. Not parallel: it compares the
// emulator's write counter.
func TestAccMCPServer_toolsOnNewAuthConfig(t *testing.T) {
	testAccRequireEmulator(t)
	prefix := acctest.RandomWithPrefix("tfacc-mcpnew")
	cfg := func(tools string) string {
		return fmt.Sprintf(`
resource "service_auth_config" "gh" {
  toolkit = "github"
  name    = "%[1]s-gh"
}

resource "service_mcp_server" "test" {
  name            = %[2]q
  auth_config_ids = [service_auth_config.gh.id]
  allowed_tools   = [%[3]s]
}
`, prefix, testAccMCPName(), tools)
	}
	testAccNoWritesTest(t, []resource.TestStep{
		{
			// Not PlanOnly: an apply whose plan fails writes nothing.
			Config: cfg(`"GITHUB_CREATE_ISSUE"`),
			ExpectError: testAccErrRe(`Unknown tool`, `allowed_tools`, `toolkit "github" has no tool`, `"GITHUB_CREATE_ISSUE"`,
				`Did you mean "GITHUB_CREATE_AN_ISSUE"\?`),
		},
		{
			Config:      cfg(`"GITHUB_CREATE_AN_ISSUE", "GITHUB_APP_NOPE"`),
			ExpectError: testAccErrRe(`toolkit "github_app" has no tool`, `"GITHUB_APP_NOPE"`),
		},
		{
			Config:             cfg(`"GITHUB_CREATE_AN_ISSUE", "GITHUB_APP_LIST_REPOSITORIES", "NOSUCHKIT_DO_IT", "CUSTOM_ACME_DO_IT"`),
			PlanOnly:           true,
			ExpectNonEmptyPlan: true,
		},
	})
}

// TestToolkitsPrefixing: the toolkits a tool slug names, longest first, on
// underscore boundaries only.
func TestToolkitsPrefixing(t *testing.T) {
	cat := []string{"github", "github_app", "gmail", "googlecalendar", "CUSTOM_ACME", "git"}
	for tool, want := range map[string]string{
		"GITHUB_APP_CREATE_ISSUE":   "github_app,github",
		"GITHUB_CREATE_AN_ISSUE":    "github",
		"GITHUBX_DO":                "",
		"GOOGLECALENDAR_LIST_ITEMS": "googlecalendar",
		"CUSTOM_ACME_DO":            "custom_acme",
		"NOSUCH_TOOL":               "",
	} {
		if got := strings.Join(toolkitsPrefixing(tool, cat), ","); got != want {
			t.Errorf("toolkitsPrefixing(%s) = %q, want %q", tool, got, want)
		}
	}
}

func TestAccIdentity_mcpServer(t *testing.T) {
	t.Parallel()
	prefix := acctest.RandomWithPrefix("tfacc-ident-mcp")
	name := testAccMCPName()
	testAccIdentity(t, identityCase{
		addr: testAccMCPServerName, idRe: importid.UUIDRe,
		create: testAccMCPServerTwoACs(prefix, name, `  allowed_tools = ["GITHUB_CREATE_AN_ISSUE", "GMAIL_SEND_EMAIL"]`),
		update: testAccMCPServerTwoACs(prefix, name+"-b", `  allowed_tools = ["GITHUB_CREATE_AN_ISSUE", "GMAIL_SEND_EMAIL"]`),
		remove: func(ctx context.Context, c *client.Client, id string) error { return c.DeleteMCPServer(ctx, id) },
		gone:   testAccCheckMCPServerDestroy,
	})
}

// TestAccE2E_mcpServerCost counts requests per terraform command for two MCP
// servers over the same two auth configs: plan reads each auth config and
// each toolkit's tools once per provider run, lists the project's servers
// once (the name check) and writes nothing; create is
// one write and no read per server; a refresh is one GET per server and no
// lookups. Not parallel: it reads process-wide counters.
func TestAccE2E_mcpServerCost(t *testing.T) {
	w := newE2EWorkspace(t)
	testAccRequireEmulator(t)
	gh, gm := testAccMCPExistingACs(t)
	w.WriteFile("main.tf", fmt.Sprintf(`
resource "service_mcp_server" "a" {
  name            = %[1]q
  auth_config_ids = [%[3]q, %[4]q]
  allowed_tools   = ["GITHUB_CREATE_AN_ISSUE", "GMAIL_SEND_EMAIL"]
}

resource "service_mcp_server" "b" {
  name            = %[2]q
  auth_config_ids = [%[3]q, %[4]q]
  allowed_tools   = ["GITHUB_GET_A_REPOSITORY"]
}
`, testAccMCPName(), testAccMCPName(), gh, gm))
	t.Cleanup(func() { w.Run(nil, "destroy", "-auto-approve", "-no-color") })

	type counts struct{ acGet, tools, create, get, list, writes int }
	snap := func() counts {
		s := testAccEmulatorStatsNow(t)
		return counts{s.Requests[routeGetAuthConfig], s.Requests[routeListTools], s.Requests[routeCreateMCPServer],
			s.Requests[routeGetMCPServer], s.Requests[routeListMCPServers], s.Writes}
	}
	delta := func(a, b counts) counts {
		return counts{b.acGet - a.acGet, b.tools - a.tools, b.create - a.create, b.get - a.get, b.list - a.list, b.writes - a.writes}
	}

	c0 := snap()
	w.RunOK("plan", "-out=tfplan", "-no-color")
	c1 := snap()
	if d := delta(c0, c1); d != (counts{acGet: 2, tools: 2, list: 1}) {
		t.Errorf("plan: want 2 auth config GETs, 2 tool lists (one per toolkit) and 1 MCP server list (names), nothing else; got %+v", d)
	}
	w.RunOK("apply", "-no-color", "tfplan")
	c2 := snap()
	// The apply re-plans in a new provider process (its lookups are the
	// plan's, cached once per run); the creates themselves read nothing.
	if d := delta(c1, c2); d.create != 2 || d.writes != 2 || d.get != 0 || d.list > 1 || d.acGet > 2 || d.tools > 2 {
		t.Errorf("apply: want 2 creates (2 writes), no MCP server GET, <=1 MCP server list, <=2 auth config GETs and tool lists; got %+v", d)
	}
	res := w.Run(nil, "plan", "-detailed-exitcode", "-no-color")
	if res.ExitCode != 0 {
		t.Fatalf("plan after apply not empty (exit %d):\n%s\n%s", res.ExitCode, res.Stdout, res.Stderr)
	}
	c3 := snap()
	if d := delta(c2, c3); d != (counts{get: 2}) {
		t.Errorf("refresh+plan: want exactly one GET per server and nothing else; got %+v", d)
	}
}
