package provider

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

// A trigger whose type requires webhook endpoint setup, on an account of the
// developer's own OAuth app, is planned with a warning naming
// service_webhook_endpoint; on a service-managed account (the service's app,
// whose endpoint the service runs) it is not.
func TestAccE2E_triggerNeedsWebhookEndpointWarning(t *testing.T) {
	t.Parallel()
	w := newE2EWorkspace(t)
	c := testAccClient(t)
	ctx := context.Background()
	rnd := acctest.RandString(10)
	account := func(custom bool) string {
		t.Helper()
		req := client.CreateAuthConfigRequest{ToolkitSlug: "slack", Type: client.AuthConfigTypeManaged, Name: "tf-acc-wh-managed-" + rnd}
		if custom {
			req = client.CreateAuthConfigRequest{ToolkitSlug: "slack", Type: client.AuthConfigTypeCustom, AuthScheme: "OAUTH2",
				Name: "tf-acc-wh-custom-" + rnd, Credentials: map[string]any{"client_id": "cid-" + rnd, "client_secret": "cs-" + rnd}}
		}
		ac, err := c.CreateAuthConfig(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		cr, err := c.InitiateConnectedAccount(ctx, client.InitiateConnectedAccountRequest{AuthConfigID: ac.ID, UserID: "tf-acc-wh-" + rnd})
		if err != nil {
			t.Fatal(err)
		}
		testAccEmulatorPost(t, "/_emulator/connected_accounts/"+cr.ID+"/complete")
		return cr.ID
	}
	config := func(accountID string) string {
		return fmt.Sprintf(`
resource "service_trigger_instance" "messages" {
  user_id              = "tf-acc-wh-%s"
  slug                 = "SLACK_RECEIVE_MESSAGE"
  connected_account_id = %q
  trigger_config       = jsonencode({ channel = "C123" })
}
`, rnd, accountID)
	}

	w.WriteFile("main.tf", config(account(true)))
	res := w.RunOK("plan", "-no-color", "-input=false")
	out := res.Stdout + res.Stderr
	for _, want := range []string{"Trigger needs a webhook endpoint", "SLACK_RECEIVE_MESSAGE", "service_webhook_endpoint", `toolkit = "slack"`} {
		if !strings.Contains(out, want) {
			t.Errorf("plan on an account of an own OAuth app lacks %q:\n%s", want, out)
		}
	}

	w.WriteFile("main.tf", config(account(false)))
	res = w.RunOK("plan", "-no-color", "-input=false")
	if out := res.Stdout + res.Stderr; strings.Contains(out, "Trigger needs a webhook endpoint") {
		t.Errorf("plan on a service-managed account warns about a webhook endpoint:\n%s", out)
	}
}
