package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

// Acceptance tests of the service_connected_account list resource; the
// helpers below (list blocks, the comparison of include_resource results
// with imported states, request counting) serve the trigger instance list
// tests too.

// listVersionChecks: list resources and `terraform query` need Terraform
// 1.14.
var listVersionChecks = []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)}

// listProvider configures the provider with an isolated project's API key.
func listProvider(key string) string {
	return fmt.Sprintf("provider \"service\" {\n  api_key = %q\n}\n", key)
}

// listBlock renders a list block of resourceType named name: config holds
// the filter lines, extra the block's own arguments (limit,
// include_resource).
func listBlock(resourceType, name, config, extra string) string {
	return fmt.Sprintf("list %q %q {\n  provider = service\n%s  config {\n%s  }\n}\n", resourceType, name, extra, config)
}

// listIDCheck is the identity check of the object id.
func listIDCheck(id string) map[string]knownvalue.Check {
	return map[string]knownvalue.Check{"id": knownvalue.StringExact(id)}
}

// listShortID is the id as a display name ends: the first 10 characters and
// an ellipsis (service ids are longer than 12).
func listShortID(id string) string { return regexp.QuoteMeta(id[:10]) + "…" }

// importCapture keeps the state each import step read back, by id, for a
// later query step to compare its include_resource results with.
type importCapture map[string]map[string]string

// step is an import (terraform import, not persisted) of id into addr,
// whose configuration is config, capturing the imported attributes.
func (c importCapture) step(config, addr, id string) resource.TestStep {
	return resource.TestStep{
		Config:        config,
		ResourceName:  addr,
		ImportState:   true,
		ImportStateId: id,
		ImportStateCheck: func(states []*terraform.InstanceState) error {
			for _, s := range states {
				if s.ID == id {
					c[id] = s.Attributes
					return nil
				}
			}
			return fmt.Errorf("import of %s read back no state of it", id)
		},
	}
}

// matches is a query check: every result of the list block at address (want
// of them) carries a resource object equal to the state an import of the
// same object read back.
func (c importCapture) matches(address string, want int) querycheck.QueryResultCheck {
	return importMatch{address: address, want: want, imported: c}
}

type importMatch struct {
	address  string
	want     int
	imported importCapture
}

func (m importMatch) CheckQuery(_ context.Context, req querycheck.CheckQueryRequest, resp *querycheck.CheckQueryResponse) {
	var problems []string
	n := 0
	for _, res := range req.Query {
		if strings.TrimPrefix(res.Address, "list.") != m.address {
			continue
		}
		n++
		id, _ := res.Identity["id"].(string)
		want, ok := m.imported[id]
		if !ok {
			problems = append(problems, fmt.Sprintf("result %s: no import of it to compare with", id))
			continue
		}
		if res.ResourceObject == nil {
			problems = append(problems, fmt.Sprintf("result %s: no resource object (include_resource)", id))
			continue
		}
		got := map[string]string{}
		for k, v := range res.ResourceObject {
			flattenQueryValue(got, k, v)
		}
		for _, k := range sortedUnion(got, want) {
			if k == "%" { // the flatmap's count of the root's attributes
				continue
			}
			g, gok := got[k]
			w, wok := want[k]
			if g != w || gok != wok {
				problems = append(problems, fmt.Sprintf("result %s: %s is %s in the listing, %s after the import", id, k, quoteOrAbsent(g, gok), quoteOrAbsent(w, wok)))
			}
		}
	}
	if n != m.want {
		problems = append(problems, fmt.Sprintf("%d results compared, want %d", n, m.want))
	}
	if len(problems) > 0 {
		resp.Error = fmt.Errorf("%s: include_resource differs from the imported state:\n%s", m.address, strings.Join(problems, "\n"))
	}
}

// flattenQueryValue writes v (a value of a query result's resource object,
// as JSON decodes it) into out the way terraform.InstanceState.Attributes
// holds it: a null is absent, a list is key.# and key.N, a map or object
// key.% and key.K.
func flattenQueryValue(out map[string]string, key string, v any) {
	switch x := v.(type) {
	case nil:
	case string:
		out[key] = x
	case bool:
		out[key] = strconv.FormatBool(x)
	case float64:
		out[key] = strconv.FormatFloat(x, 'f', -1, 64)
	case json.Number:
		out[key] = x.String()
	case []any:
		out[key+".#"] = strconv.Itoa(len(x))
		for i, e := range x {
			flattenQueryValue(out, key+"."+strconv.Itoa(i), e)
		}
	case map[string]any:
		out[key+".%"] = strconv.Itoa(len(x))
		for k, e := range x {
			flattenQueryValue(out, key+"."+k, e)
		}
	default:
		out[key] = fmt.Sprintf("%v (%T)", x, x)
	}
}

func sortedUnion(a, b map[string]string) []string {
	var keys []string
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

func quoteOrAbsent(s string, ok bool) string {
	if !ok {
		return "absent (null)"
	}
	return strconv.Quote(s)
}

// requestCounter counts an isolated project's requests per route between
// two points of a test.
type requestCounter struct {
	t      *testing.T
	key    string
	routes []string
	before map[string]int
}

func (r *requestCounter) start() {
	r.before = map[string]int{}
	for _, route := range r.routes {
		r.before[route] = testAccProjectRequests(r.t, r.key, route)
	}
}

// since returns the requests to route since start.
func (r *requestCounter) since(route string) int {
	return testAccProjectRequests(r.t, r.key, route) - r.before[route]
}

const caListType = "service_connected_account"

// caListFixtureAccount creates an ACTIVE API key account of user through the
// stripe API_KEY auth config ac.
func caListFixtureAccount(t *testing.T, c *client.Client, ac, user string) string {
	t.Helper()
	cr, err := c.InitiateConnectedAccount(context.Background(), client.InitiateConnectedAccountRequest{
		AuthConfigID: ac, UserID: user,
		State: &client.ConnectionState{AuthScheme: "API_KEY", Val: map[string]any{"status": "ACTIVE", "api_key": "sk_list"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return cr.ID
}

// caListAuthConfigs creates a custom stripe API_KEY auth config and a
// service-managed github (OAuth) one.
func caListAuthConfigs(t *testing.T, c *client.Client) (stripe, github string) {
	t.Helper()
	ctx := context.Background()
	s, err := c.CreateAuthConfig(ctx, client.CreateAuthConfigRequest{ToolkitSlug: "stripe", Type: client.AuthConfigTypeCustom, Name: "Billing", AuthScheme: "API_KEY"})
	if err != nil {
		t.Fatal(err)
	}
	g, err := c.CreateAuthConfig(ctx, client.CreateAuthConfigRequest{ToolkitSlug: "github", Type: client.AuthConfigTypeManaged, Name: "GitHub"})
	if err != nil {
		t.Fatal(err)
	}
	return s.ID, g.ID
}

// The filters (each alone, combined, none), identities, display names and
// limit, in a project of its own holding 25 accounts (more than the
// service's page of 20): one list request per page.
func TestAccConnectedAccountList_query(t *testing.T) {
	t.Parallel()
	key, c := testAccIsolatedProject(t)
	stripe, github := caListAuthConfigs(t, c)
	a1 := caListFixtureAccount(t, c, stripe, "user-1")
	a2 := caListFixtureAccount(t, c, stripe, "user-2")
	g1, err := c.InitiateConnectedAccount(context.Background(), client.InitiateConnectedAccountRequest{AuthConfigID: github, UserID: "user-1"})
	if err != nil {
		t.Fatal(err)
	}
	var bulk []string
	for i := range 22 {
		bulk = append(bulk, caListFixtureAccount(t, c, stripe, fmt.Sprintf("bulk-%02d", i)))
	}
	list := func(name, config, extra string) string { return listBlock(caListType, name, config, extra) }
	addr := func(name string) string { return caListType + "." + name }
	counter := &requestCounter{t: t, key: key, routes: []string{routeListAccounts, routeGetAccount}}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		TerraformVersionChecks:   listVersionChecks,
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				// A query step follows a configuration step; this one reads
				// the catalog (with the shared project's key).
				Config: `data "service_toolkit_categories" "any" {}`,
			},
			{
				PreConfig: counter.start,
				Query:     true,
				Config: listProvider(key) +
					list("all", "", "") +
					list("users", `    user_ids = ["user-1", "user-2"]`+"\n", "") +
					list("user1", `    user_ids = ["user-1"]`+"\n", "") +
					list("github", `    toolkit_slugs = ["github"]`+"\n", "") +
					list("stripe", fmt.Sprintf("    auth_config_ids = [%q]\n", stripe), "") +
					list("both_acs", fmt.Sprintf("    auth_config_ids = [%q, %q]\n    user_ids = [\"user-1\"]\n", stripe, github), "") +
					list("active", `    statuses = ["ACTIVE"]`+"\n", "") +
					list("initiated", `    statuses = ["INITIATED", "FAILED"]`+"\n", "") +
					list("combined", "    user_ids = [\"user-1\"]\n    toolkit_slugs = [\"stripe\"]\n    statuses = [\"ACTIVE\"]\n", "") +
					list("nobody", `    user_ids = ["nobody"]`+"\n", "") +
					list("limited", "", "  limit = 5\n") +
					list("limited_pages", "", "  limit = 21\n"),
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength(addr("all"), 25),
					querycheck.ExpectLength(addr("users"), 3),
					querycheck.ExpectLength(addr("user1"), 2),
					querycheck.ExpectLength(addr("github"), 1),
					querycheck.ExpectLength(addr("stripe"), 24),
					querycheck.ExpectLength(addr("both_acs"), 2),
					querycheck.ExpectLength(addr("active"), 24),
					querycheck.ExpectLength(addr("initiated"), 1),
					querycheck.ExpectLength(addr("combined"), 1),
					querycheck.ExpectLength(addr("nobody"), 0),
					querycheck.ExpectLength(addr("limited"), 5),
					querycheck.ExpectLength(addr("limited_pages"), 21),

					querycheck.ExpectIdentity(addr("users"), listIDCheck(a1)),
					querycheck.ExpectIdentity(addr("users"), listIDCheck(a2)),
					querycheck.ExpectIdentity(addr("users"), listIDCheck(g1.ID)),
					querycheck.ExpectIdentity(addr("github"), listIDCheck(g1.ID)),
					querycheck.ExpectIdentity(addr("initiated"), listIDCheck(g1.ID)),
					querycheck.ExpectIdentity(addr("combined"), listIDCheck(a1)),
					querycheck.ExpectNoIdentity(addr("active"), listIDCheck(g1.ID)),
					querycheck.ExpectNoIdentity(addr("user1"), listIDCheck(a2)),
					// The oldest account is on the second page.
					querycheck.ExpectIdentity(addr("all"), listIDCheck(a1)),
					querycheck.ExpectIdentity(addr("stripe"), listIDCheck(a1)),
					querycheck.ExpectIdentity(addr("limited_pages"), listIDCheck(bulk[1])),
					// Newest first: a limit keeps the newest.
					querycheck.ExpectIdentity(addr("limited"), listIDCheck(bulk[21])),
					querycheck.ExpectNoIdentity(addr("limited"), listIDCheck(bulk[16])),
					querycheck.ExpectNoIdentity(addr("limited_pages"), listIDCheck(bulk[0])),

					querycheck.ExpectResourceDisplayName(addr("users"), queryfilter.ByResourceIdentity(listIDCheck(a1)),
						knownvalue.StringRegexp(regexp.MustCompile(`^stripe · user-1 · ACTIVE \(`+listShortID(a1)+`\)$`))),
					querycheck.ExpectResourceDisplayName(addr("github"), queryfilter.ByResourceIdentity(listIDCheck(g1.ID)),
						knownvalue.StringRegexp(regexp.MustCompile(`^github · user-1 · INITIATED \(`+listShortID(g1.ID)+`\)$`))),
				},
			},
		},
	})
	// One list request per page: "all", "stripe", "active" and
	// "limited_pages" read two pages (20 + the rest), the 8 others one;
	// "limited" stops within the first page. No account is read on its own.
	if got := counter.since(routeListAccounts); got != 16 {
		t.Errorf("the query made %d list requests, want 16 (one per page)", got)
	}
	if got := counter.since(routeGetAccount); got != 0 {
		t.Errorf("the query read %d accounts on their own, want 0", got)
	}
}

// include_resource: each result holds the account exactly as the
// resource's Read sets it after an import of the same object (an ACTIVE API
// key account, a disabled one with its reason, an OAuth account waiting for
// approval with its callback and redirect URLs), from the listing alone.
func TestAccConnectedAccountList_includeResource(t *testing.T) {
	t.Parallel()
	key, c := testAccIsolatedProject(t)
	ctx := context.Background()
	stripe, github := caListAuthConfigs(t, c)
	active := caListFixtureAccount(t, c, stripe, "user-1")
	disabled := caListFixtureAccount(t, c, stripe, "user-2")
	if err := c.UpdateConnectedAccountStatus(ctx, disabled, false, "paused for the audit"); err != nil {
		t.Fatal(err)
	}
	oauth, err := c.InitiateConnectedAccount(ctx, client.InitiateConnectedAccountRequest{
		AuthConfigID: github, UserID: "user-1", CallbackURL: "https://app.example/connected"})
	if err != nil {
		t.Fatal(err)
	}
	provider := listProvider(key)
	importConfig := provider + fmt.Sprintf(`resource "service_connected_account" "imported" {
  user_id        = "user-1"
  auth_config_id = %q
}
`, stripe)
	imported := importCapture{}
	const imp = "service_connected_account.imported"
	counter := &requestCounter{t: t, key: key, routes: []string{routeListAccounts, routeGetAccount}}
	byID := func(id string) queryfilter.QueryFilter { return queryfilter.ByResourceIdentity(listIDCheck(id)) }
	value := func(attr string, v knownvalue.Check) querycheck.KnownValueCheck {
		return querycheck.KnownValueCheck{Path: tfjsonpath.New(attr), KnownValue: v}
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		TerraformVersionChecks:   listVersionChecks,
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: provider + `data "service_toolkit_categories" "any" {}`},
			imported.step(importConfig, imp, active),
			imported.step(importConfig, imp, disabled),
			imported.step(importConfig, imp, oauth.ID),
			{
				PreConfig: counter.start,
				Query:     true,
				Config: listBlock(caListType, "all", "", "  include_resource = true\n") +
					listBlock(caListType, "disabled", `    user_ids = ["user-2"]`+"\n", "  include_resource = true\n"),
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength(caListType+".all", 3),
					imported.matches(caListType+".all", 3),
					imported.matches(caListType+".disabled", 1),
					querycheck.ExpectResourceKnownValues(caListType+".all", byID(active), []querycheck.KnownValueCheck{
						value("id", knownvalue.StringExact(active)),
						value("user_id", knownvalue.StringExact("user-1")),
						value("auth_config_id", knownvalue.StringExact(stripe)),
						value("toolkit", knownvalue.StringExact("stripe")),
						value("auth_scheme", knownvalue.StringExact("API_KEY")),
						value("status", knownvalue.StringExact("ACTIVE")),
						value("enabled", knownvalue.Bool(true)),
						value("is_disabled", knownvalue.Bool(false)),
						value("allow_multiple", knownvalue.Bool(false)),
						value("hosted_link", knownvalue.Bool(false)),
						value("wait_for_connection", knownvalue.Bool(false)),
						value("redirect_url", knownvalue.Null()),
						value("callback_url", knownvalue.Null()),
						value("credentials", knownvalue.Null()),
						value("credentials_wo", knownvalue.Null()),
						value("credentials_wo_version", knownvalue.Null()),
						value("timeouts", knownvalue.Null()),
						value("created_at", testAccTimestamp),
						value("updated_at", testAccTimestamp),
					}),
					querycheck.ExpectResourceKnownValues(caListType+".disabled", byID(disabled), []querycheck.KnownValueCheck{
						value("enabled", knownvalue.Bool(false)),
						value("is_disabled", knownvalue.Bool(true)),
						value("disabled_reason", knownvalue.StringExact("paused for the audit")),
						value("status_reason", knownvalue.StringExact("paused for the audit")),
					}),
					querycheck.ExpectResourceKnownValues(caListType+".all", byID(oauth.ID), []querycheck.KnownValueCheck{
						value("status", knownvalue.StringExact("INITIATED")),
						value("auth_scheme", knownvalue.StringExact("OAUTH2")),
						value("toolkit", knownvalue.StringExact("github")),
						value("callback_url", knownvalue.StringExact("https://app.example/connected")),
						value("redirect_url", knownvalue.StringExact(oauth.RedirectURL)),
					}),
				},
			},
		},
	})
	if got := counter.since(routeListAccounts); got != 2 {
		t.Errorf("the query made %d list requests, want 2 (one page per list block)", got)
	}
	if got := counter.since(routeGetAccount); got != 0 {
		t.Errorf("include_resource read %d accounts on their own, want 0: the listing holds the state", got)
	}
}

// The filters are validated as in the service_connected_accounts data
// source, before any request.
func TestAccConnectedAccountList_invalidFilters(t *testing.T) {
	t.Parallel()
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		TerraformVersionChecks:   listVersionChecks,
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: `data "service_toolkit_categories" "any" {}`},
			{
				Query:       true,
				Config:      `provider "service" {}` + "\n" + listBlock(caListType, "bad", `    statuses = ["HAPPY"]`+"\n", ""),
				ExpectError: testAccErrRe(`statuses`, `HAPPY`),
			},
			{
				Query:       true,
				Config:      `provider "service" {}` + "\n" + listBlock(caListType, "bad", `    auth_config_ids = ["ca_notAnAuthConfig"]`+"\n", ""),
				ExpectError: testAccErrRe(`auth_config_ids`),
			},
			{
				Query:       true,
				Config:      `provider "service" {}` + "\n" + listBlock(caListType, "bad", `    user_ids = []`+"\n", ""),
				ExpectError: testAccErrRe(`user_ids`, `at least 1`),
			},
		},
	})
}

// An error of the service (here a fault the emulator injects on every API
// request) reaches the user as a diagnostic of the query naming the list
// resource; the same query lists again once the fault is gone. Not parallel:
// faults are global.
func TestAccConnectedAccountList_serviceError(t *testing.T) {
	testAccRequireEmulator(t)
	user := "tf-acc-calist-err"
	c := testAccClient(t)
	stripe, err := c.CreateAuthConfig(context.Background(), client.CreateAuthConfigRequest{ToolkitSlug: "stripe", Type: client.AuthConfigTypeCustom, Name: user, AuthScheme: "API_KEY"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.DeleteAuthConfig(context.Background(), stripe.ID) })
	id := caListFixtureAccount(t, c, stripe.ID, user)
	query := `provider "service" {}` + "\n" + listBlock(caListType, "mine", fmt.Sprintf("    auth_config_ids = [%q]\n", stripe.ID), "")
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		TerraformVersionChecks:   listVersionChecks,
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: `data "service_toolkit_categories" "any" {}`},
			{
				PreConfig:   func() { testAccEmulatorSetFaults(t, "status=500:1") },
				Query:       true,
				Config:      query,
				ExpectError: testAccErrRe(`Error listing service_connected_account`, `injected fault: HTTP 500`, `HTTP status: 500`),
			},
			{
				PreConfig: func() { testAccEmulatorSetFaults(t, "") },
				Query:     true,
				Config:    query,
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength(caListType+".mine", 1),
					querycheck.ExpectIdentity(caListType+".mine", listIDCheck(id)),
				},
			},
		},
	})
}
