package provider

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

// TestAccE2E_RefreshByListing: through the CLI, the refresh plan of 300
// connected accounts finds nothing to change and costs at most 60 requests to
// the account routes (refresh by listing, package refreshlisting); with one
// account disabled and another deleted outside Terraform, the plan still
// shows 1 to change and 1 to add. Its own emulator project, so the counts
// are its own.
func TestAccE2E_RefreshByListing(t *testing.T) {
	const (
		n          = 300
		maxAccount = 60 // requests to the account routes of a refresh plan of n accounts
	)
	w := newE2EWorkspace(t)
	key, c := testAccIsolatedProject(t)
	project := "isolated-" + strings.TrimPrefix(key, "emulator-key-isolated-")
	env := []string{EnvAPIKey + "=" + key}
	ctx := context.Background()
	user := acctest.RandomWithPrefix("tf-listing")
	ac := testAccStripeAPIKeyAuthConfig(t, c, user)
	w.WriteFile("main.tf", fmt.Sprintf(`
resource "service_connected_account" "ca" {
  count                  = %d
  user_id                = "%s-${count.index}"
  auth_config_id         = %q
  credentials_wo         = { api_key = "sk_${count.index}" }
  credentials_wo_version = 1
}
`, n, user, ac.ID))
	w.RunEnvOK(env, "apply", "-auto-approve", "-input=false", "-no-color")

	projectRequests := func() map[string]int { return testAccEmulatorStatsNow(t).Projects[project] }
	accountRoutes := func(d map[string]int) int { return d[routeListAccounts] + d[routeGetAccount] }

	before := projectRequests()
	res := w.Run(env, "plan", "-detailed-exitcode", "-input=false", "-no-color")
	if res.ExitCode != 0 {
		t.Fatalf("refresh plan of %d accounts: exit %d, want 0 (no changes)\n%s\n%s", n, res.ExitCode, res.Stdout, res.Stderr)
	}
	d := requestDelta(before, projectRequests())
	t.Logf("refresh plan of %d accounts: %s", n, formatCounts(d))
	if got := accountRoutes(d); got > maxAccount || d[routeListAccounts] == 0 {
		t.Errorf("refresh plan of %d accounts: %d requests to the account routes (%d listings), want at most %d and a listing",
			n, got, d[routeListAccounts], maxAccount)
	}

	// Outside Terraform: one account disabled, another deleted.
	var ids []string
	for a, err := range c.ConnectedAccountsIter(ctx, client.ConnectedAccountListParams{AuthConfigIDs: []string{ac.ID}}) {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, a.ID)
	}
	if len(ids) != n {
		t.Fatalf("the project holds %d accounts of the auth config, want %d", len(ids), n)
	}
	if err := c.UpdateConnectedAccountStatus(ctx, ids[17], false, ""); err != nil {
		t.Fatal(err)
	}
	if err := c.DeleteConnectedAccount(ctx, ids[203]); err != nil {
		t.Fatal(err)
	}
	before = projectRequests()
	res = w.RunEnvOK(env, "plan", "-out=tfplan", "-input=false", "-no-color")
	d = requestDelta(before, projectRequests())
	t.Logf("plan after the changes outside Terraform: %s", formatCounts(d))
	if !strings.Contains(res.Stdout, "Plan: 1 to add, 1 to change, 0 to destroy.") {
		t.Errorf("plan after disabling one account and deleting another: want 1 to add and 1 to change\n%s", res.Stdout)
	}
	counts := map[string]int{}
	for _, ch := range w.PlanChanges("tfplan") {
		counts[ch.Actions]++
	}
	if counts["update"] != 1 || counts["create"] != 1 || counts["no-op"] != n-2 {
		t.Errorf("plan actions: %v, want 1 update, 1 create and %d no-op", counts, n-2)
	}
	if got := accountRoutes(d); got > maxAccount {
		t.Errorf("plan after the changes: %d requests to the account routes, want at most %d", got, maxAccount)
	}
}
