package provider

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/testutil"
)

// TestAccE2E_adoptProject adopts a project made outside Terraform, as the
// guide "Adopting an existing project" does, through the CLI: objects of
// every kind made through the API (more than one page of connected
// accounts); `terraform query -generate-config-out`; a plan of imports only
// with the generated blocks as written (what the service never returns stays
// null, as documented); apply; an empty plan. The listing costs one request
// per page.
func TestAccE2E_adoptProject(t *testing.T) {
	w := newE2EWorkspace(t)
	requireQueryCLI(t)
	key, c := testAccIsolatedProject(t)
	ctx := context.Background()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}

	gh, err := c.CreateAuthConfig(ctx, client.CreateAuthConfigRequest{ToolkitSlug: "github", Type: client.AuthConfigTypeManaged, Name: "Support bot"})
	must(err)
	billing, err := c.CreateAuthConfig(ctx, client.CreateAuthConfigRequest{ToolkitSlug: "stripe", Type: client.AuthConfigTypeCustom, Name: "Billing", AuthScheme: "API_KEY"})
	must(err)
	const accounts = 22 // more than the service's page of 20
	var firstAccount string
	for i := range accounts {
		a, err := c.InitiateConnectedAccount(ctx, client.InitiateConnectedAccountRequest{AuthConfigID: billing.ID, UserID: fmt.Sprintf("customer-%02d", i),
			State: &client.ConnectionState{AuthScheme: "API_KEY", Val: map[string]any{"status": "ACTIVE", "api_key": "sk_live_adopt"}}})
		must(err)
		if i == 0 {
			firstAccount = a.ID
		}
	}
	_, err = c.UpsertTrigger(ctx, "STRIPE_CHARGE_SUCCEEDED_TRIGGER", client.UpsertTriggerRequest{ConnectedAccountID: firstAccount, TriggerConfig: map[string]any{"min_amount": 100}})
	must(err)
	_, err = c.CreateWebhookSubscription(ctx, client.CreateWebhookSubscriptionRequest{WebhookURL: "https://hooks.example.com/adopt", EnabledEvents: []string{"composio.trigger.message"}, Version: "V3"})
	must(err)
	_, err = c.CreateMCPServer(ctx, client.CreateMCPServerRequest{Name: "support-tools", AuthConfigIDs: []string{gh.ID}, AllowedTools: []string{"GITHUB_CREATE_AN_ISSUE"}})
	must(err)
	_, err = c.CreateCustomToolkit(ctx, "acme docs", client.CustomToolkitConfig{Name: "Acme docs", MCPURL: "https://mcp.acme.example/docs",
		AuthSchemes: []client.CustomAuthScheme{{Mode: "NO_AUTH"}}})
	must(err)

	w.WriteFile("provider.tf", listProvider(key))
	var q strings.Builder
	for _, typ := range []string{"service_auth_config", "service_connected_account", "service_trigger_instance",
		"service_webhook_subscription", "service_mcp_server", "service_custom_toolkit"} {
		fmt.Fprintf(&q, "list %q \"all\" {\n  provider = service\n  config {}\n}\n\n", typ)
	}
	w.WriteFile("adopt.tfquery.hcl", q.String())

	before := testAccProjectRequests(t, key, routeListAccounts)
	res := w.Run(nil, "query", "-no-color", "-generate-config-out=generated.tf")
	if res.ExitCode != 0 {
		t.Fatalf("terraform query -generate-config-out failed:\n%s\n%s", res.Stdout, res.Stderr)
	}
	if got := testAccProjectRequests(t, key, routeListAccounts) - before; got != 2 {
		t.Errorf("listing %d connected accounts took %d requests, want 2 (one per page)", accounts, got)
	}
	generated := string(w.ReadFile("generated.tf"))
	const objects = 2 + accounts + 1 + 1 + 1 + 1
	if n := len(regexp.MustCompile(`(?m)^import \{`).FindAllString(generated, -1)); n != objects {
		t.Fatalf("generated %d import blocks, want %d:\n%s", n, objects, generated)
	}

	// What the service never returns is null in the generated blocks, and
	// an import leaves it so: the API keys of the connected accounts
	// (credentials_wo, write-only: set it with credentials_wo_version when
	// the key is to be managed, which sends it once), the webhook
	// subscription's secret_rotation (the first value set after an import
	// is a baseline, not a rotation). The blocks are valid as written.
	for _, want := range []string{"credentials_wo         = null", "secret_rotation = null"} {
		if !strings.Contains(generated, want) {
			t.Errorf("generated.tf has no %q", want)
		}
	}
	filled := generated
	plan := w.Run(nil, "plan", "-no-color", "-input=false")
	if plan.ExitCode != 0 {
		t.Fatalf("plan of the generated configuration failed:\n%s\n%s\n--- generated.tf:\n%s", plan.Stdout, plan.Stderr, filled)
	}
	want := fmt.Sprintf("Plan: %d to import, 0 to add, 0 to change, 0 to destroy.", objects)
	if !strings.Contains(plan.Stdout, want) {
		t.Fatalf("the plan is not imports only (want %q):\n%s\n--- generated.tf:\n%s", want, plan.Stdout, filled)
	}
	if apply := w.Run(nil, "apply", "-no-color", "-input=false", "-auto-approve"); apply.ExitCode != 0 {
		t.Fatalf("apply failed:\n%s\n%s", apply.Stdout, apply.Stderr)
	}
	again := w.Run(nil, "plan", "-no-color", "-input=false", "-detailed-exitcode")
	if again.ExitCode != 0 {
		t.Fatalf("the plan after the import is not empty (exit %d):\n%s\n%s", again.ExitCode, again.Stdout, again.Stderr)
	}
}

// requireQueryCLI skips a test of `terraform query` on a CLI without it.
func requireQueryCLI(t *testing.T) {
	t.Helper()
	cli := testutil.RequireTerraform(t)
	if testutil.CLIName(cli) == "tofu" {
		t.Skip("OpenTofu has no list resources or `query` command")
	}
	if ok, version := testutil.TerraformAtLeast(t, cli, 1, 14); !ok {
		t.Skipf("%s: terraform query needs Terraform 1.14+", version)
	}
}
