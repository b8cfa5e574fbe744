package provider

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

// testAccQRConfigCatalog is a configuration step that reads the catalog.
const testAccQRConfigCatalog = `data "service_toolkit_categories" "any" {}` + "\n"

// testAccQRExpectIDs checks that the list block addr found exactly the
// objects ids (in any order).
func testAccQRExpectIDs(addr string, ids ...string) []querycheck.QueryResultCheck {
	checks := []querycheck.QueryResultCheck{querycheck.ExpectLength(addr, len(ids))}
	for _, id := range ids {
		checks = append(checks, querycheck.ExpectIdentity(addr, listIDCheck(id)))
	}
	return checks
}

// testAccQRImported is the state an import step left for one resource
// (ImportStateCheck captures it).
type testAccQRImported struct{ attrs map[string]string }

func (c *testAccQRImported) capture(states []*terraform.InstanceState) error {
	if len(states) != 1 {
		return fmt.Errorf("want one imported resource, got %d", len(states))
	}
	c.attrs = states[0].Attributes
	return nil
}

// testAccQRExpectImported checks that the list block addr found the
// imported object (same id) with include_resource, and that its resource
// is exactly the imported state: every attribute, null ones included.
type testAccQRExpectImported struct {
	addr     string
	imported *testAccQRImported
}

func (e testAccQRExpectImported) CheckQuery(_ context.Context, req querycheck.CheckQueryRequest, resp *querycheck.CheckQueryResponse) {
	want := e.imported.attrs
	if want == nil {
		resp.Error = fmt.Errorf("%s: nothing was imported to compare with", e.addr)
		return
	}
	for _, res := range req.Query {
		if strings.TrimPrefix(res.Address, "list.") != e.addr || res.Identity["id"] != want["id"] {
			continue
		}
		if res.ResourceObject == nil {
			resp.Error = fmt.Errorf("%s: %s listed without its resource (include_resource)", e.addr, want["id"])
			return
		}
		got := flattenQueryObject(res.ResourceObject)
		var diffs []string
		for _, k := range slices.Sorted(maps.Keys(maps.Collect(func(yield func(string, bool) bool) {
			for k := range got {
				yield(k, true)
			}
			for k := range want {
				yield(k, true)
			}
		}))) {
			if got[k] != want[k] {
				diffs = append(diffs, fmt.Sprintf("%s: listed %q, imported %q", k, got[k], want[k]))
			}
		}
		if len(diffs) > 0 {
			resp.Error = fmt.Errorf("%s: %s differs from its import:\n%s", e.addr, want["id"], strings.Join(diffs, "\n"))
		}
		return
	}
	resp.Error = fmt.Errorf("%s: %s not listed", e.addr, want["id"])
}

// testAccQRMCPFixtures creates, through the client, auth configs of github,
// slack and gmail and an MCP server per name over the auth configs of the
// toolkits given for it; it returns the servers' ids by name and the auth
// config ids by toolkit.
func testAccQRMCPFixtures(t *testing.T, c *client.Client, servers [][2]string) (ids map[string]string, acs map[string]string) {
	t.Helper()
	ctx := context.Background()
	acs = map[string]string{}
	for _, tk := range []string{"github", "slack", "gmail"} {
		ac, err := c.CreateAuthConfig(ctx, client.CreateAuthConfigRequest{ToolkitSlug: tk, Type: client.AuthConfigTypeManaged, Name: "qr-" + tk})
		if err != nil {
			t.Fatal(err)
		}
		acs[tk] = ac.ID
	}
	ids = map[string]string{}
	for _, s := range servers {
		var acIDs []string
		for _, tk := range strings.Split(s[1], ",") {
			acIDs = append(acIDs, acs[tk])
		}
		m, err := c.CreateMCPServer(ctx, client.CreateMCPServerRequest{Name: s[0], AuthConfigIDs: acIDs})
		if err != nil {
			t.Fatal(err)
		}
		ids[s[0]] = m.ID
	}
	return ids, acs
}

// TestAccMCPServerList_filters: the service_mcp_servers data source's
// filters, alone and together, in a project of its own; identities and
// display names; invalid filters rejected before any request; one list
// request per list block (a page each), no server or auth config read.
func TestAccMCPServerList_filters(t *testing.T) {
	t.Parallel()
	key, c := testAccIsolatedProject(t)
	ids, acs := testAccQRMCPFixtures(t, c, [][2]string{
		{"Support bot", "github,slack"}, {"Support desk", "slack"}, {"Release notes", "github"}, {"Mail room", "gmail"},
	})
	a, b, cc, d := ids["Support bot"], ids["Support desk"], ids["Release notes"], ids["Mail room"]
	provider := listProvider(key)
	list := func(name, config string) string { return listBlock(mcpServerType, name, config, "") }
	reqs := &requestCounter{t: t, key: key, routes: []string{routeListMCPServers, routeGetMCPServer, routeGetAuthConfig}}

	var checks []querycheck.QueryResultCheck
	checks = append(checks, testAccQRExpectIDs("service_mcp_server.all", a, b, cc, d)...)
	checks = append(checks, testAccQRExpectIDs("service_mcp_server.by_name", a, b)...)
	checks = append(checks, testAccQRExpectIDs("service_mcp_server.by_toolkit", a, b)...)
	checks = append(checks, testAccQRExpectIDs("service_mcp_server.by_toolkits", a, cc, d)...)
	checks = append(checks, testAccQRExpectIDs("service_mcp_server.by_auth_config", a, cc)...)
	checks = append(checks, testAccQRExpectIDs("service_mcp_server.by_auth_configs", a, b, d)...)
	checks = append(checks, testAccQRExpectIDs("service_mcp_server.combined", a)...)
	checks = append(checks, testAccQRExpectIDs("service_mcp_server.none")...)
	checks = append(checks,
		querycheck.ExpectResourceDisplayName("service_mcp_server.all", listByID(a),
			knownvalue.StringExact("Support bot · github, slack ("+a[:10]+"…)")),
		querycheck.ExpectResourceDisplayName("service_mcp_server.all", listByID(d),
			knownvalue.StringExact("Mail room · gmail ("+d[:10]+"…)")),
	)
	testAccListTest(t, []resource.TestStep{
		{
			Config: provider + testAccQRConfigCatalog,
			Check:  func(*terraform.State) error { reqs.start(); return nil },
		},
		{
			Query: true,
			Config: list("all", "") +
				list("by_name", `    name = "SUPPORT"`+"\n") + // case-insensitive substring
				list("by_toolkit", `    toolkits = ["slack"]`+"\n") +
				list("by_toolkits", `    toolkits = ["gmail", "github"]`+"\n") +
				list("by_auth_config", fmt.Sprintf("    auth_config_ids = [%q]\n", acs["github"])) +
				list("by_auth_configs", fmt.Sprintf("    auth_config_ids = [%q, %q]\n", acs["gmail"], acs["slack"])) +
				list("combined", fmt.Sprintf("    name = \"support\"\n    toolkits = [\"github\"]\n    auth_config_ids = [%q, %q]\n", acs["github"], acs["slack"])) +
				list("none", `    name = "nothing here"`+"\n"),
			QueryResultChecks: checks,
		},
		{
			// The data source's validators.
			PreConfig:   reqs.expectSteps("eight list blocks", map[string]int{routeListMCPServers: 8}),
			Query:       true,
			Config:      list("empty", `    toolkits = []`+"\n"),
			ExpectError: testAccErrRe(`toolkits`, `at least 1`),
		},
		{
			Query:       true,
			Config:      list("bad", `    auth_config_ids = ["github"]`+"\n"),
			ExpectError: testAccErrRe(`must be an auth config id such as ac_`),
		},
		{
			Query:       true,
			Config:      list("bad", `    toolkits = ["git hub"]`+"\n"),
			ExpectError: testAccErrRe(`Invalid toolkit slug`),
		},
		{
			PreConfig: reqs.expectSteps("invalid filters", nil),
			Config:    provider + testAccQRConfigCatalog,
		},
	})
}

// TestAccMCPServerList_pages: 45 servers, more than two pages of the
// service's 20 (the emulator's page size): every page read once, a filter
// over two pages, and a limit that stops the paging (20 results: one page,
// 21: two).
func TestAccMCPServerList_pages(t *testing.T) {
	t.Parallel()
	key, c := testAccIsolatedProject(t)
	var servers [][2]string
	for i := range 45 {
		tk := "github"
		if i%2 == 1 {
			tk = "slack"
		}
		servers = append(servers, [2]string{fmt.Sprintf("Page %02d", i), tk})
	}
	ids, _ := testAccQRMCPFixtures(t, c, servers)
	var all, slack, newest []string
	for i := range 45 {
		id := ids[fmt.Sprintf("Page %02d", i)]
		all = append(all, id)
		if i%2 == 1 {
			slack = append(slack, id)
		}
		if i >= 40 {
			newest = append(newest, id) // the listing is newest first
		}
	}
	provider := listProvider(key)
	list := func(name, args, config string) string { return listBlock(mcpServerType, name, config, args) }
	reqs := &requestCounter{t: t, key: key, routes: []string{routeListMCPServers, routeGetMCPServer, routeGetAuthConfig}}
	query := func(preConfig func(), block string, checks ...querycheck.QueryResultCheck) resource.TestStep {
		return resource.TestStep{PreConfig: preConfig, Query: true, Config: block, QueryResultChecks: checks}
	}
	lists := func(n int) map[string]int { return map[string]int{routeListMCPServers: n} }
	testAccListTest(t, []resource.TestStep{
		{
			Config: provider + testAccQRConfigCatalog,
			Check:  func(*terraform.State) error { reqs.start(); return nil },
		},
		query(nil, list("all", "", ""), testAccQRExpectIDs("service_mcp_server.all", all...)...),
		query(reqs.expectSteps("45 servers", lists(3)), list("slack", "", `    toolkits = ["slack"]`+"\n"),
			testAccQRExpectIDs("service_mcp_server.slack", slack...)...),
		query(reqs.expectSteps("22 slack servers", lists(2)), list("first5", "  limit = 5\n", ""),
			testAccQRExpectIDs("service_mcp_server.first5", newest...)...),
		query(reqs.expectSteps("limit 5", lists(1)), list("first20", "  limit = 20\n", ""),
			querycheck.ExpectLength("service_mcp_server.first20", 20)),
		query(reqs.expectSteps("limit 20", lists(1)), list("first21", "  limit = 21\n", ""),
			querycheck.ExpectLength("service_mcp_server.first21", 21)),
		{
			PreConfig: reqs.expectSteps("limit 21", lists(2)),
			Config:    provider + testAccQRConfigCatalog,
		},
	})
}

// TestAccMCPServerList_includeResource: servers created by Terraform (one
// over two auth configs with chosen tools, one with managed auth and a
// NO_AUTH custom toolkit), each imported; with include_resource the listed
// resource is exactly the imported state. One list request; the auth
// configs' toolkits read once each (as an import does), no server read.
func TestAccMCPServerList_includeResource(t *testing.T) {
	t.Parallel()
	key, _ := testAccIsolatedProject(t)
	provider := listProvider(key)
	cfg := provider + testAccQROpenToolkit + `
resource "service_auth_config" "github" {
  toolkit = "github"
  name    = "qr-gh"
}

resource "service_auth_config" "gmail" {
  toolkit = "gmail"
  name    = "qr-gm"
}

resource "service_mcp_server" "team" {
  name            = "Support bot"
  auth_config_ids = [service_auth_config.github.id, service_auth_config.gmail.id]
  allowed_tools   = ["GITHUB_CREATE_AN_ISSUE", "GMAIL_SEND_EMAIL"]
}

resource "service_mcp_server" "open" {
  name                     = "Open desk"
  auth_config_ids          = [service_auth_config.github.id]
  no_auth_toolkits         = [service_custom_toolkit.open.id]
  managed_auth_via_service = true
  depends_on               = [service_mcp_server.team] # the newest
}
`
	var team, open testAccQRImported
	var openID string
	reqs := &requestCounter{t: t, key: key, routes: []string{routeListMCPServers, routeGetMCPServer, routeGetAuthConfig}}
	testAccListTest(t, []resource.TestStep{
		{
			Config: cfg,
			Check:  testAccQRCapture("service_mcp_server.open", "id", &openID),
		},
		testAccQRImportStep("service_mcp_server.team", &team, true),
		testAccQRImportStep("service_mcp_server.open", &open, true),
		{
			PreConfig: reqs.start,
			Query:     true,
			Config:    listBlock(mcpServerType, "all", "", "  include_resource = true\n"),
			QueryResultChecks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("service_mcp_server.all", 2),
				testAccQRExpectImported{addr: "service_mcp_server.all", imported: &team},
				testAccQRExpectImported{addr: "service_mcp_server.all", imported: &open},
				querycheck.ExpectResourceKnownValues("service_mcp_server.all",
					queryfilter.ByResourceIdentity(map[string]knownvalue.Check{"id": testAccQRLazy{&openID}}),
					[]querycheck.KnownValueCheck{
						{Path: tfjsonpath.New("name"), KnownValue: knownvalue.StringExact("Open desk")},
						{Path: tfjsonpath.New("no_auth_toolkits"), KnownValue: knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("CUSTOM_QR_OPEN")})},
						{Path: tfjsonpath.New("toolkits"), KnownValue: knownvalue.ListSizeExact(2)},
						{Path: tfjsonpath.New("managed_auth_via_service"), KnownValue: knownvalue.Bool(true)},
					}),
			},
		},
		{
			PreConfig: reqs.expectSteps("include_resource", map[string]int{routeListMCPServers: 1, routeGetAuthConfig: 2}),
			Query:     true,
			Config:    listBlock(mcpServerType, "one", "", "  include_resource = true\n  limit = 1\n"),
			QueryResultChecks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("service_mcp_server.one", 1),
				// The newest server (depends_on: created after the other).
				testAccQRExpectImported{addr: "service_mcp_server.one", imported: &open},
			},
		},
		{
			PreConfig: reqs.expectSteps("include_resource, limit 1", map[string]int{routeListMCPServers: 1, routeGetAuthConfig: 1}),
			Config:    cfg,
		},
	})
}

// testAccQRCapture captures an attribute of a resource in state.
func testAccQRCapture(name, attr string, dst *string) resource.TestCheckFunc {
	return resource.TestCheckResourceAttrWith(name, attr, func(v string) error {
		*dst = v
		return nil
	})
}

// testAccQRLazy checks a string known only once an earlier step has run.
type testAccQRLazy struct{ p *string }

func (s testAccQRLazy) CheckValue(v any) error { return knownvalue.StringExact(*s.p).CheckValue(v) }

func (s testAccQRLazy) String() string { return *s.p }

// TestAccMCPServerList_serviceError: a failing list request (an injected
// HTTP 500, no retries) is the query's error diagnostic, after one request.
// Not parallel: faults are global.
func TestAccMCPServerList_serviceError(t *testing.T) {
	testAccListServiceErrorNoRetry(t, mcpServerType, routeListMCPServers)
}

// The list resource's filters are the data source's: same names,
// descriptions and validators, all optional.
func TestMCPServerListFiltersAreTheDataSources(t *testing.T) {
	ctx := context.Background()
	var ds datasource.SchemaResponse
	(&mcpServersDataSource{}).Schema(ctx, datasource.SchemaRequest{}, &ds)
	var lr list.ListResourceSchemaResponse
	(&mcpServerListResource{}).ListResourceConfigSchema(ctx, list.ListResourceSchemaRequest{}, &lr)
	if lr.Diagnostics.HasError() {
		t.Fatal(lr.Diagnostics)
	}
	if got := slices.Sorted(maps.Keys(lr.Schema.Attributes)); !slices.Equal(got, []string{"auth_config_ids", "name", "toolkits"}) {
		t.Fatalf("filters %v", got)
	}
	for name, a := range lr.Schema.Attributes {
		d := ds.Schema.Attributes[name]
		if !a.IsOptional() || a.IsRequired() || a.GetMarkdownDescription() != d.GetMarkdownDescription() ||
			!a.GetType().Equal(d.GetType()) {
			t.Errorf("%s: %+v, data source %+v", name, a, d)
		}
		describe := func(a any) []string {
			var out []string
			switch a := a.(type) {
			case interface{ StringValidators() []validator.String }:
				for _, v := range a.StringValidators() {
					out = append(out, v.MarkdownDescription(ctx))
				}
			case interface{ ListValidators() []validator.List }:
				for _, v := range a.ListValidators() {
					out = append(out, v.MarkdownDescription(ctx))
				}
			}
			return out
		}
		if got, want := describe(a), describe(d); !slices.Equal(got, want) {
			t.Errorf("%s validators: %q, data source %q", name, got, want)
		}
	}
}
