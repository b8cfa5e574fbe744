package provider

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

// TestAccE2E_RequestBudget holds the request budget of every resource (see
// "Request budget" in provider_data.go) through the real CLI, phase by
// phase, with the emulator's request counters compared exactly, route by
// route: budgetN service-managed auth configs, budgetN API-key connected
// accounts of one existing auth config and budgetN trigger instances on one
// existing connected account. With budgetN > 1, a referenced object read more
// than once per provider process shows up as a count that grows with N.
//
// Not parallel: it compares process-wide counters. New resources: add their
// objects to the configuration and their routes to the expectations
// (TestRegistrationsRequestBudget fails until they are, or until
// budgetElsewhere names the test that holds their budget).
func TestAccE2E_RequestBudget(t *testing.T) {
	const budgetN = 3
	w := newE2EWorkspace(t)
	testAccRequireEmulator(t)
	fx := testAccStripeAccountFixture(t, acctest.RandomWithPrefix("tf-budget"))
	testAccNoWebhookSubscription(t) // one per project: the configuration's must be the only one

	w.WriteFile("main.tf", fmt.Sprintf(`
resource "service_auth_config" "gh" {
  count   = %[1]d
  toolkit = "github"
  name    = "%[2]s-${count.index}"
  tool_access_config = {
    tools_available_for_execution = ["GITHUB_CREATE_AN_ISSUE"]
  }
}

resource "service_connected_account" "ca" {
  count          = %[1]d
  user_id        = "%[2]s-${count.index}"
  auth_config_id = %[3]q
  credentials    = { api_key = "sk_${count.index}" }
  alias          = "budget"
}

resource "service_trigger_instance" "ti" {
  count                = %[1]d
  user_id              = "%[2]s-trig"
  slug                 = "STRIPE_CHARGE_SUCCEEDED_TRIGGER"
  connected_account_id = %[4]q
  trigger_config       = jsonencode({ min_amount = 100 + count.index })
}

resource "service_tool_router_session" "agent" {
  count    = %[1]d
  user_id  = "%[2]s-${count.index}"
  toolkits = ["github"]
}

resource "service_webhook_subscription" "hook" {
  webhook_url    = "https://hooks.example.com/%[2]s"
  enabled_events = ["composio.trigger.message"]
}
`, budgetN, fx.user, fx.stripeAuthConfig, fx.stripeAccount))

	const (
		getToolkit     = "GET /api/v3.1/toolkits/{slug}"
		getTriggerType = "GET /api/v3.1/triggers_types/{slug}"
		listTools      = "GET /api/v3.1/tools"
		createAC       = "POST /api/v3.1/auth_configs"
		listAC         = "GET /api/v3.1/auth_configs"
		getAC          = "GET /api/v3.1/auth_configs/{nanoid}"
		deleteAC       = "DELETE /api/v3.1/auth_configs/{nanoid}"
		initiateCA     = "POST /api/v3.1/connected_accounts"
		listCA         = "GET /api/v3.1/connected_accounts"
		getCA          = "GET /api/v3.1/connected_accounts/{nanoid}"
		deleteCA       = "DELETE /api/v3.1/connected_accounts/{nanoid}"
		upsertTI       = "POST /api/v3.1/trigger_instances/{slug}/upsert"
		listTI         = "GET /api/v3.1/trigger_instances/active"
		deleteTI       = "DELETE /api/v3.1/trigger_instances/manage/{triggerId}"
		eventTypes     = "GET /api/v3.1/webhook_subscriptions/event_types"
		listWHS        = "GET /api/v3.1/webhook_subscriptions"
		createWHS      = "POST /api/v3.1/webhook_subscriptions"
		getWHS         = "GET /api/v3.1/webhook_subscriptions/{id}"
		deleteWHS      = "DELETE /api/v3.1/webhook_subscriptions/{id}"
		createTRS      = "POST /api/v3.1/tool_router/session"
		getTRS         = "GET /api/v3.1/tool_router/session/{session_id}"
		deleteTRS      = "DELETE /api/v3.1/tool_router/session/{session_id}"
		historyTRS     = "GET /api/v3.1/tool_router/session/{session_id}/config_history"
	)
	const n = budgetN
	phases := []struct {
		name string
		args []string
		want map[string]int
	}{
		// Plan: no writes; each referenced object read once (github and
		// stripe toolkits, github's tools for tool_access_config, the trigger
		// type, the existing auth config and connected account), whatever n;
		// the alias check lists each user's accounts once (n users); the
		// (single) webhook subscription reads the event types and lists the
		// project's subscription; the trigger instances' account is listed
		// once for instances their upsert would answer.
		{"plan", []string{"plan", "-out=tfplan", "-no-color"}, map[string]int{
			getToolkit: 2, listTools: 1, getTriggerType: 1, getAC: 1, getCA: 1, listCA: n, eventTypes: 1, listWHS: 1, listTI: 1,
		}},
		// Apply of the saved plan: the final plan reads each referenced
		// object (and lists each user's accounts) once again (a new provider
		// process); each Create makes one write, and the n creates of a type
		// share their reads (coalesced, budgetCoalesce): one listing for the
		// n accounts' alias and duplicate checks, one read-back list per type
		// (accounts by connected_account_ids, auth configs by the toolkit's
		// page, trigger instances by trigger_ids); the trigger instances' account listing of the final
		// plan serves their Creates; a session's create is its one write (its
		// answer holds everything, created_at too).
		{"apply", []string{"apply", "-no-color", "tfplan"}, map[string]int{
			getToolkit: 2, listTools: 1, getTriggerType: 1, getAC: 1, getCA: 1, listAC: 1,
			createAC: n, initiateCA: n, listCA: n + 2, upsertTI: n, listTI: 1 + 1,
			eventTypes: 1, listWHS: 1, createWHS: 1, createTRS: n, historyTRS: n,
		}},
		// Refresh and plan with nothing to change: one GET per resource, no
		// plan-time read at all.
		{"refresh plan", []string{"plan", "-detailed-exitcode", "-no-color"}, map[string]int{
			getAC: n, getCA: n, listTI: n, getWHS: 1, getTRS: n,
		}},
		// Destroy: the refresh GET and one DELETE per resource.
		{"destroy", []string{"destroy", "-auto-approve", "-no-color"}, map[string]int{
			getAC: n, getCA: n, listTI: n, deleteAC: n, deleteCA: n, deleteTI: n, getWHS: 1, deleteWHS: 1,
			getTRS: n, deleteTRS: n,
		}},
	}
	for _, ph := range phases {
		before := testAccEmulatorStatsNow(t).Requests
		res := w.Run(budgetCoalesce, ph.args...)
		if res.ExitCode != 0 {
			t.Fatalf("%s: terraform %s: exit %d\n%s\n%s", ph.name, strings.Join(ph.args, " "), res.ExitCode, res.Stdout, res.Stderr)
		}
		got := requestDelta(before, testAccEmulatorStatsNow(t).Requests)
		if !maps.Equal(got, ph.want) {
			t.Errorf("%s: requests differ from the budget (n = %d)\n got: %s\nwant: %s", ph.name, n, formatCounts(got), formatCounts(ph.want))
		}
	}
}

// budgetCoalesce widens the coalescing window (EnvCoalesce) so that the n
// concurrent creates of a type always meet, whatever the machine's load:
// the exact counts then hold. The default window's batches depend on how
// fast Terraform starts the creates (PERFORMANCE.md).
var budgetCoalesce = []string{EnvCoalesce + "=2s/10s"}

// requestDelta returns the API requests counted between two emulator stats
// snapshots, by route (routes with no request left out, control routes of
// the emulator ignored).
func requestDelta(before, after map[string]int) map[string]int {
	out := map[string]int{}
	for route, v := range after {
		if d := v - before[route]; d != 0 && !strings.Contains(route, "/_emulator/") {
			out[route] = d
		}
	}
	return out
}

func formatCounts(m map[string]int) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(m)) {
		fmt.Fprintf(&b, "%s=%d; ", k, m[k])
	}
	return b.String()
}

// TestAccE2E_RequestBudgetAtScale holds the request budget of applies at
// scale (PERFORMANCE.md, "Requests per resource" and "Coalesced reads"): an apply of
// scaleAccounts API-key connected accounts (one user each, one existing
// auth config) and one of scaleAuthConfigs auth configs cost at most 1.2
// requests per object through the emulator's counters, their creates'
// read-backs coalesced and the accounts' duplicate checks answered by
// listing; their destroys one DELETE per object plus the refresh by
// listing's few pages. The CLI runs as a user runs it: Terraform's default
// -parallelism (10) and the client's default coalescing windows.
//
// Not parallel: it compares process-wide counters.
func TestAccE2E_RequestBudgetAtScale(t *testing.T) {
	const (
		scaleAccounts    = 300
		scaleAuthConfigs = 200
		perObject        = 1.2
	)
	testAccRequireEmulator(t)
	user := acctest.RandomWithPrefix("tf-scale")
	fx := testAccStripeAccountFixture(t, user)
	cases := []struct {
		name, config string
		n            int
		write        string
	}{
		{"connected accounts", apiKeyAccountsConfig(scaleAccounts, user, fx.stripeAuthConfig), scaleAccounts, "POST /api/v3.1/connected_accounts"},
		{"auth configs", fmt.Sprintf(`resource "service_auth_config" "ac" {
  count   = %d
  toolkit = "github"
  name    = "%s-${count.index}"
}
`, scaleAuthConfigs, user), scaleAuthConfigs, "POST /api/v3.1/auth_configs"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := newE2EWorkspace(t)
			w.WriteFile("main.tf", tc.config)
			for _, ph := range []struct {
				name string
				args []string
			}{
				{"apply", []string{"apply", "-auto-approve", "-no-color"}},
				{"destroy", []string{"destroy", "-auto-approve", "-no-color"}},
			} {
				before := testAccEmulatorStatsNow(t).Requests
				start := time.Now()
				res := w.Run(nil, ph.args...)
				took := time.Since(start)
				if res.ExitCode != 0 {
					t.Fatalf("%s: exit %d\n%s\n%s", ph.name, res.ExitCode, res.Stdout, res.Stderr)
				}
				got := requestDelta(before, testAccEmulatorStatsNow(t).Requests)
				total := 0
				for _, v := range got {
					total += v
				}
				t.Logf("%s of %d in %s: %d requests (%.3f per object): %s", ph.name, tc.n, took.Round(time.Millisecond), total,
					float64(total)/float64(tc.n), formatCounts(got))
				if ph.name == "apply" && got[tc.write] != tc.n {
					t.Errorf("apply: %d writes %s, want %d", got[tc.write], tc.write, tc.n)
				}
				if per := float64(total) / float64(tc.n); per > perObject {
					t.Errorf("%s of %d: %.3f requests per object, want at most %.1f: %s", ph.name, tc.n, per, perObject, formatCounts(got))
				}
			}
		})
	}
}

// TestAccE2E_DuplicateChecksAtScale: when many accounts of one auth config
// are created at once, their duplicate checks are answered by a listing of
// the auth config's ACTIVE accounts (client.ActiveConnectedAccountsOf),
// and they still refuse exactly the creates whose user already has an
// ACTIVE account there, made outside Terraform: of 40 accounts, the two of
// users 7 and 23 fail naming the existing account, the 38 others are
// created, and every user ends with one ACTIVE account on the auth config.
func TestAccE2E_DuplicateChecksAtScale(t *testing.T) {
	const n = 40
	testAccRequireEmulator(t)
	user := acctest.RandomWithPrefix("tf-dupscale")
	fx := testAccStripeAccountFixture(t, user)
	c := testAccClient(t)
	ctx := context.Background()
	taken := map[string]string{}
	for _, i := range []int{7, 23} {
		u := fmt.Sprintf("%s-%d", user, i)
		acct, err := c.InitiateConnectedAccount(ctx, client.InitiateConnectedAccountRequest{AuthConfigID: fx.stripeAuthConfig, UserID: u,
			State: &client.ConnectionState{AuthScheme: "API_KEY", Val: map[string]any{"status": client.StatusActive, "api_key": "sk_outside"}}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.DeleteConnectedAccount(context.Background(), acct.ID) })
		taken[u] = acct.ID
	}
	w := newE2EWorkspace(t)
	w.WriteFile("main.tf", apiKeyAccountsConfig(n, user, fx.stripeAuthConfig))
	res := w.Run(nil, "apply", "-auto-approve", "-no-color")
	t.Cleanup(func() { w.Run(nil, "destroy", "-auto-approve", "-no-color") })
	if res.ExitCode == 0 {
		t.Fatalf("apply of %d accounts, two of whose users already have one: want an error, got success\n%s", n, res.Stdout)
	}
	out := strings.Join(strings.Fields(res.Stderr), " ")
	if got := strings.Count(out, "already has an ACTIVE connected account"); got != len(taken) {
		t.Errorf("%d refusals, want %d:\n%s", got, len(taken), res.Stderr)
	}
	for u, id := range taken {
		if want := fmt.Sprintf("user %q already has an ACTIVE connected account for auth config %s: %s", u, fx.stripeAuthConfig, id); !strings.Contains(out, want) {
			t.Errorf("no refusal %q in:\n%s", want, res.Stderr)
		}
	}
	accounts, err := c.ListConnectedAccounts(ctx, client.ConnectedAccountListParams{AuthConfigIDs: []string{fx.stripeAuthConfig},
		Statuses: []string{client.StatusActive}})
	if err != nil {
		t.Fatal(err)
	}
	per := map[string]int{}
	for _, a := range accounts {
		per[a.UserID]++
	}
	for i := range n {
		if u := fmt.Sprintf("%s-%d", user, i); per[u] != 1 {
			t.Errorf("user %s has %d ACTIVE accounts on the auth config, want 1", u, per[u])
		}
	}
}
