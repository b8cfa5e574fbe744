package provider

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

// Acceptance tests of the service_connected_account list resource (shared
// helpers in list_resource_helpers_test.go).

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
	s := testAccStripeAPIKeyAuthConfig(t, c, "Billing")
	g := testAccCreateAuthConfig(t, c, client.CreateAuthConfigRequest{ToolkitSlug: "github", Type: client.AuthConfigTypeManaged, Name: "GitHub"})
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
	blocks, lengths := listQueries(caListType,
		listQuery{"all", "", "", 25},
		listQuery{"users", `    user_ids = ["user-1", "user-2"]` + "\n", "", 3},
		listQuery{"user1", `    user_ids = ["user-1"]` + "\n", "", 2},
		listQuery{"github", `    toolkit_slugs = ["github"]` + "\n", "", 1},
		listQuery{"stripe", fmt.Sprintf("    auth_config_ids = [%q]\n", stripe), "", 24},
		listQuery{"both_acs", fmt.Sprintf("    auth_config_ids = [%q, %q]\n    user_ids = [\"user-1\"]\n", stripe, github), "", 2},
		listQuery{"active", `    statuses = ["ACTIVE"]` + "\n", "", 24},
		listQuery{"initiated", `    statuses = ["INITIATED", "FAILED"]` + "\n", "", 1},
		listQuery{"combined", "    user_ids = [\"user-1\"]\n    toolkit_slugs = [\"stripe\"]\n    statuses = [\"ACTIVE\"]\n", "", 1},
		listQuery{"nobody", `    user_ids = ["nobody"]` + "\n", "", 0},
		listQuery{"limited", "", "  limit = 5\n", 5},
		listQuery{"limited_pages", "", "  limit = 21\n", 21},
	)
	addr := func(name string) string { return caListType + "." + name }
	counter := &requestCounter{t: t, key: key, routes: []string{routeListAccounts, routeGetAccount}}
	testAccListTest(t, []resource.TestStep{
		{
			// A query step follows a configuration step; this one reads
			// the catalog (with the shared project's key).
			Config: `data "service_toolkit_categories" "any" {}`,
		},
		{
			PreConfig: counter.start,
			Query:     true,
			Config:    listProvider(key) + blocks,
			QueryResultChecks: append(lengths,
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
			),
		},
	})
	// One list request per page: "all", "stripe", "active" and
	// "limited_pages" read two pages (20 + the rest), the 8 others one;
	// "limited" stops within the first page. No account is read on its own.
	counter.expect(routeListAccounts, 16, "list requests (one per page)")
	counter.expect(routeGetAccount, 0, "reads of one account")
}

// include_resource: each result holds the account exactly as the
// resource's Read sets it after an import of the same object (an ACTIVE API
// key account, a disabled one with its reason, an OAuth account waiting for
// approval with its callback and redirect URLs and an alias), from the
// listing alone.
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
		AuthConfigID: github, UserID: "user-1", CallbackURL: "https://app.example/connected", Alias: "work"})
	if err != nil {
		t.Fatal(err)
	}
	counter := &requestCounter{t: t, key: key, routes: []string{routeListAccounts, routeGetAccount}}
	imported := importCapture{}
	importBody := fmt.Sprintf("  user_id        = \"user-1\"\n  auth_config_id = %q\n", stripe)
	testAccListTest(t, append(imported.steps(key, caListType, importBody, active, disabled, oauth.ID),
		resource.TestStep{
			PreConfig: counter.start,
			Query:     true,
			Config: listBlock(caListType, "all", "", "  include_resource = true\n") +
				listBlock(caListType, "disabled", `    user_ids = ["user-2"]`+"\n", "  include_resource = true\n"),
			QueryResultChecks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength(caListType+".all", 3),
				imported.matches(caListType+".all", 3),
				imported.matches(caListType+".disabled", 1),
				querycheck.ExpectResourceKnownValues(caListType+".all", listByID(active), []querycheck.KnownValueCheck{
					listValue("id", knownvalue.StringExact(active)),
					listValue("user_id", knownvalue.StringExact("user-1")),
					listValue("auth_config_id", knownvalue.StringExact(stripe)),
					listValue("toolkit", knownvalue.StringExact("stripe")),
					listValue("auth_scheme", knownvalue.StringExact("API_KEY")),
					listValue("status", knownvalue.StringExact("ACTIVE")),
					listValue("enabled", knownvalue.Bool(true)),
					listValue("is_disabled", knownvalue.Bool(false)),
					listValue("allow_multiple", knownvalue.Bool(false)),
					listValue("hosted_link", knownvalue.Bool(false)),
					listValue("wait_for_connection", knownvalue.Bool(false)),
					listValue("redirect_url", knownvalue.Null()),
					listValue("callback_url", knownvalue.Null()),
					listValue("credentials", knownvalue.Null()),
					listValue("credentials_wo", knownvalue.Null()),
					listValue("credentials_wo_version", knownvalue.Null()),
					listValue("alias", knownvalue.Null()),
					listValue("revoke_on_delete", knownvalue.Bool(false)),
					listValue("timeouts", knownvalue.Null()),
					listValue("created_at", testAccTimestamp),
					listValue("updated_at", testAccTimestamp),
				}),
				querycheck.ExpectResourceKnownValues(caListType+".disabled", listByID(disabled), []querycheck.KnownValueCheck{
					listValue("enabled", knownvalue.Bool(false)),
					listValue("is_disabled", knownvalue.Bool(true)),
					listValue("disabled_reason", knownvalue.StringExact("paused for the audit")),
					listValue("status_reason", knownvalue.StringExact("paused for the audit")),
				}),
				querycheck.ExpectResourceKnownValues(caListType+".all", listByID(oauth.ID), []querycheck.KnownValueCheck{
					listValue("status", knownvalue.StringExact("INITIATED")),
					listValue("auth_scheme", knownvalue.StringExact("OAUTH2")),
					listValue("toolkit", knownvalue.StringExact("github")),
					listValue("callback_url", knownvalue.StringExact("https://app.example/connected")),
					listValue("redirect_url", knownvalue.StringExact(oauth.RedirectURL)),
					listValue("alias", knownvalue.StringExact("work")),
				}),
			},
		},
	))
	counter.expect(routeListAccounts, 2, "list requests (one page per list block)")
	counter.expect(routeGetAccount, 0, "reads of one account with include_resource (the listing holds the state)")
}

// The filters are validated as in the service_connected_accounts data
// source, before any request.
func TestAccConnectedAccountList_invalidFilters(t *testing.T) {
	t.Parallel()
	testAccListTest(t, []resource.TestStep{
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
	})
}

// An error of the service reaches the user as a diagnostic of the query
// (testAccListServiceError). Not parallel: faults are global.
func TestAccConnectedAccountList_serviceError(t *testing.T) {
	testAccRequireEmulator(t)
	user := "tf-acc-calist-err"
	c := testAccClient(t)
	stripe := testAccStripeAPIKeyAuthConfig(t, c, user)
	id := caListFixtureAccount(t, c, stripe.ID, user)
	testAccListServiceError(t, caListType, fmt.Sprintf("    auth_config_ids = [%q]\n", stripe.ID), id)
}
