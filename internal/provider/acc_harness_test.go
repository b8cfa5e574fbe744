package provider

import (
	"context"
	"testing"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

// TestAccHarness checks the shared acceptance helpers themselves: the raw
// client, the stats reader and the fault control route. Not parallel: it
// compares process-wide counters.
func TestAccHarness(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode")
	}
	testAccRequireEmulator(t)
	ctx := context.Background()
	c := testAccClient(t)

	before := testAccEmulatorWrites(t)
	if _, err := c.ListToolkitCategories(ctx); err != nil {
		t.Fatal(err)
	}
	testAccAssertNoWritesSince(t, before)

	created, err := c.CreateAuthConfig(ctx, client.CreateAuthConfigRequest{
		ToolkitSlug: "github", Type: client.AuthConfigTypeManaged, Name: "harness",
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := testAccDeleteAuthConfig(ctx, c, created.ID); err != nil {
		t.Fatal(err)
	}
	if got := testAccEmulatorWrites(t) - before; got != 2 {
		t.Fatalf("want 2 writes counted, got %d", got)
	}
	if stats := testAccEmulatorStatsNow(t); len(stats.Requests) == 0 {
		t.Fatal("no per-route request counters")
	}

	// Control routes: complete an OAuth connection, fire a trigger.
	ac := testAccCreateAuthConfig(t, c, client.CreateAuthConfigRequest{ToolkitSlug: "github", Type: client.AuthConfigTypeManaged})
	conn, err := c.InitiateConnectedAccount(ctx, client.InitiateConnectedAccountRequest{AuthConfigID: ac.ID, UserID: "harness-user"})
	if err != nil {
		t.Fatal(err)
	}
	testAccEmulatorPost(t, "/_emulator/connected_accounts/"+conn.ID+"/complete")
	acct, err := c.GetConnectedAccount(ctx, conn.ID)
	if err != nil || acct.Status != "ACTIVE" {
		t.Fatalf("after complete: %+v, %v", acct, err)
	}
	triggerID, err := c.UpsertTrigger(ctx, "GITHUB_COMMIT_EVENT", client.UpsertTriggerRequest{
		ConnectedAccountID: conn.ID, UserID: "harness-user",
		TriggerConfig: map[string]any{"owner": "octo", "repo": "hello"},
	})
	if err != nil {
		t.Fatal(err)
	}
	testAccEmulatorPostJSON(t, "trigger_instances/"+triggerID+"/fire", map[string]any{"commit": "abc"})

	testAccEmulatorSetFaults(t, "status=503:1")
	noRetry, err := client.New(client.Config{BaseURL: testAccEnvironment(t).BaseURL, APIKey: testAccAPIKey, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := noRetry.ListToolkitCategories(ctx); !client.IsStatus(err, 503) {
		t.Fatalf("want an injected 503, got %v", err)
	}
}
