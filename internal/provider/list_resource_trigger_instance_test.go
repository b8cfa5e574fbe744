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

// Acceptance tests of the service_trigger_instance list resource (helpers
// in list_resource_helpers_test.go).

const (
	tiListType           = "service_trigger_instance"
	tiListCharge         = "STRIPE_CHARGE_SUCCEEDED_TRIGGER"
	tiListPaymentFailure = "STRIPE_PAYMENT_FAILED_TRIGGER"
)

// tiListTrigger creates a trigger instance of slug on account ca.
func tiListTrigger(t *testing.T, c *client.Client, slug, ca string, cfg map[string]any) string {
	t.Helper()
	id, err := c.UpsertTrigger(context.Background(), slug, client.UpsertTriggerRequest{ConnectedAccountID: ca, TriggerConfig: cfg})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// The filters (each alone, combined, none, show_disabled), identities,
// display names and limit, in a project of its own holding 24 trigger
// instances (more than the service's page of 20), one of them disabled: one
// list request per page, and no trigger type read without include_resource.
func TestAccTriggerInstanceList_query(t *testing.T) {
	t.Parallel()
	key, c := testAccIsolatedProject(t)
	ac1 := testAccStripeAPIKeyAuthConfig(t, c, "Billing").ID
	ac2 := testAccStripeAPIKeyAuthConfig(t, c, "Payments").ID
	ca1 := caListFixtureAccount(t, c, ac1, "user-1")
	ca2 := caListFixtureAccount(t, c, ac1, "user-2")
	ca3 := caListFixtureAccount(t, c, ac2, "user-3")
	var charges []string
	for i := range 21 {
		charges = append(charges, tiListTrigger(t, c, tiListCharge, ca1, map[string]any{"min_amount": i}))
	}
	failed := tiListTrigger(t, c, tiListPaymentFailure, ca2, nil)
	other := tiListTrigger(t, c, tiListCharge, ca3, nil)
	disabled := tiListTrigger(t, c, tiListCharge, ca1, map[string]any{"min_amount": 1000})
	if err := c.DisableTrigger(context.Background(), disabled); err != nil {
		t.Fatal(err)
	}
	blocks, lengths := listQueries(tiListType,
		listQuery{"all", "", "", 23},
		listQuery{"with_disabled", "    show_disabled = true\n", "", 24},
		listQuery{"user1", `    user_ids = ["user-1"]` + "\n", "", 21},
		listQuery{"users", "    user_ids = [\"user-2\", \"user-3\"]\n    show_disabled = false\n", "", 2},
		listQuery{"accounts", fmt.Sprintf("    connected_account_ids = [%q, %q]\n", ca2, ca3), "", 2},
		listQuery{"auth_config", fmt.Sprintf("    auth_config_ids = [%q]\n", ac2), "", 1},
		listQuery{"names", fmt.Sprintf("    trigger_names = [%q]\n", tiListPaymentFailure), "", 1},
		listQuery{"ids", fmt.Sprintf("    trigger_ids = [%q, %q]\n", disabled, failed), "", 1},
		listQuery{"ids_disabled", fmt.Sprintf("    trigger_ids = [%q, %q]\n    show_disabled = true\n", disabled, failed), "", 2},
		listQuery{"combined", fmt.Sprintf("    user_ids = [\"user-1\", \"user-3\"]\n    auth_config_ids = [%q]\n    trigger_names = [%q]\n", ac1, tiListCharge), "", 21},
		listQuery{"nobody", `    user_ids = ["nobody"]` + "\n", "", 0},
		listQuery{"limited", "", "  limit = 3\n", 3},
	)
	addr := func(name string) string { return tiListType + "." + name }
	counter := &requestCounter{t: t, key: key, routes: []string{routeListTriggers, routeGetTriggerType}}
	testAccListTest(t, []resource.TestStep{
		{Config: `data "service_toolkit_categories" "any" {}`},
		{
			PreConfig: counter.start,
			Query:     true,
			Config:    listProvider(key) + blocks,
			QueryResultChecks: append(lengths,
				querycheck.ExpectNoIdentity(addr("all"), listIDCheck(disabled)),
				querycheck.ExpectIdentity(addr("with_disabled"), listIDCheck(disabled)),
				querycheck.ExpectIdentity(addr("ids_disabled"), listIDCheck(disabled)),
				querycheck.ExpectIdentity(addr("ids"), listIDCheck(failed)),
				querycheck.ExpectIdentity(addr("names"), listIDCheck(failed)),
				querycheck.ExpectIdentity(addr("auth_config"), listIDCheck(other)),
				querycheck.ExpectIdentity(addr("accounts"), listIDCheck(other)),
				querycheck.ExpectNoIdentity(addr("combined"), listIDCheck(other)),
				// The oldest instance is on the second page.
				querycheck.ExpectIdentity(addr("all"), listIDCheck(charges[0])),
				querycheck.ExpectIdentity(addr("user1"), listIDCheck(charges[0])),
				// Newest first: a limit keeps the newest.
				querycheck.ExpectIdentity(addr("limited"), listIDCheck(other)),
				querycheck.ExpectNoIdentity(addr("limited"), listIDCheck(charges[0])),

				querycheck.ExpectResourceDisplayName(addr("names"), queryfilter.ByResourceIdentity(listIDCheck(failed)),
					knownvalue.StringRegexp(regexp.MustCompile(`^STRIPE_PAYMENT_FAILED_TRIGGER · user-2 \(`+listShortID(failed)+`\)$`))),
				querycheck.ExpectResourceDisplayName(addr("with_disabled"), queryfilter.ByResourceIdentity(listIDCheck(disabled)),
					knownvalue.StringRegexp(regexp.MustCompile(`^STRIPE_CHARGE_SUCCEEDED_TRIGGER · user-1 · disabled \(`+listShortID(disabled)+`\)$`))),
			),
		},
	})
	// One list request per page: "all", "with_disabled", "user1" and
	// "combined" read two pages (20 + the rest), the 8 others one.
	counter.expect(routeListTriggers, 16, "list requests (one per page)")
	counter.expect(routeGetTriggerType, 0, "trigger type reads without include_resource")
}

// include_resource: each result holds the instance exactly as the
// resource's Read sets it after an import of the same object (enabled,
// disabled, another trigger type), from the listing and one lookup of each
// trigger type (its toolkit), as the Read does.
func TestAccTriggerInstanceList_includeResource(t *testing.T) {
	t.Parallel()
	key, c := testAccIsolatedProject(t)
	ac := testAccStripeAPIKeyAuthConfig(t, c, "Billing").ID
	ca := caListFixtureAccount(t, c, ac, "user-1")
	enabled := tiListTrigger(t, c, tiListCharge, ca, map[string]any{"min_amount": 5})
	disabled := tiListTrigger(t, c, tiListCharge, ca, map[string]any{"min_amount": 10})
	if err := c.DisableTrigger(context.Background(), disabled); err != nil {
		t.Fatal(err)
	}
	failed := tiListTrigger(t, c, tiListPaymentFailure, ca, nil)
	ti, err := c.GetTriggerInstance(context.Background(), disabled)
	if err != nil || ti.DisabledAt == nil {
		t.Fatalf("disabled trigger instance: %+v, %v", ti, err)
	}
	counter := &requestCounter{t: t, key: key, routes: []string{routeListTriggers, routeGetTriggerType}}
	imported := importCapture{}
	importBody := fmt.Sprintf("  user_id = \"user-1\"\n  slug    = %q\n", tiListCharge)
	testAccListTest(t, append(imported.steps(key, tiListType, importBody, enabled, disabled, failed),
		resource.TestStep{
			PreConfig: counter.start,
			Query:     true,
			Config:    listBlock(tiListType, "all", "    show_disabled = true\n", "  include_resource = true\n"),
			QueryResultChecks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength(tiListType+".all", 3),
				imported.matches(tiListType+".all", 3),
				querycheck.ExpectResourceKnownValues(tiListType+".all", listByID(enabled), []querycheck.KnownValueCheck{
					listValue("id", knownvalue.StringExact(enabled)),
					listValue("user_id", knownvalue.StringExact("user-1")),
					listValue("slug", knownvalue.StringExact(tiListCharge)),
					listValue("connected_account_id", knownvalue.StringExact(ca)),
					listValue("trigger_config", knownvalue.StringExact(`{"min_amount":5}`)),
					listValue("enabled", knownvalue.Bool(true)),
					listValue("disabled_at", knownvalue.Null()),
					listValue("toolkit", knownvalue.StringExact("stripe")),
					listValue("toolkit_version", knownvalue.NotNull()),
					listValue("updated_at", testAccTimestamp),
				}),
				querycheck.ExpectResourceKnownValues(tiListType+".all", listByID(disabled), []querycheck.KnownValueCheck{
					listValue("enabled", knownvalue.Bool(false)),
					listValue("disabled_at", knownvalue.StringExact(*ti.DisabledAt)),
				}),
				querycheck.ExpectResourceKnownValues(tiListType+".all", listByID(failed), []querycheck.KnownValueCheck{
					listValue("slug", knownvalue.StringExact(tiListPaymentFailure)),
					listValue("trigger_config", knownvalue.StringExact(`{}`)),
					listValue("toolkit", knownvalue.StringExact("stripe")),
				}),
			},
		},
	))
	counter.expect(routeListTriggers, 1, "list requests (one page)")
	// The toolkit of each trigger type, once per type (two types).
	counter.expect(routeGetTriggerType, 2, "trigger type reads with include_resource (one per distinct type)")
}

// The filters are validated as in the service_trigger_instances data
// source, before any request.
func TestAccTriggerInstanceList_invalidFilters(t *testing.T) {
	t.Parallel()
	bad := func(config string) string {
		return `provider "service" {}` + "\n" + listBlock(tiListType, "bad", config, "")
	}
	testAccListTest(t, []resource.TestStep{
		{Config: `data "service_toolkit_categories" "any" {}`},
		{Query: true, Config: bad(`    trigger_names = ["github_commit_event"]` + "\n"), ExpectError: testAccErrRe(`trigger_names`, `upper snake case`)},
		{Query: true, Config: bad(`    connected_account_ids = ["ac_notAnAccount"]` + "\n"), ExpectError: testAccErrRe(`connected_account_ids`)},
		{Query: true, Config: bad(`    trigger_ids = ["ti_a", "ti_a"]` + "\n"), ExpectError: testAccErrRe(`Duplicate List Value`, `ti_a`)},
	})
}

// An error of the service reaches the user as a diagnostic of the query
// (testAccListServiceError). Not parallel: faults are global.
func TestAccTriggerInstanceList_serviceError(t *testing.T) {
	testAccRequireEmulator(t)
	c := testAccClient(t)
	ac := testAccStripeAPIKeyAuthConfig(t, c, "tf-acc-tilist-err").ID
	t.Cleanup(func() { _ = testAccDeleteAuthConfig(context.Background(), c, ac) })
	ca := caListFixtureAccount(t, c, ac, "tf-acc-tilist-err")
	id := tiListTrigger(t, c, tiListCharge, ca, nil)
	testAccListServiceError(t, tiListType, fmt.Sprintf("    connected_account_ids = [%q]\n", ca), id)
}
