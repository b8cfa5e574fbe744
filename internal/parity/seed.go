package parity

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

// seedEmulator creates, through the provider's own client, objects of every
// kind the provider manages (two where a list can hold two, so that a page
// of one item has a next page), in the emulator at baseURL: every route of
// the read plan then has a sample on the emulator's side. These writes go to
// the check's own in-process emulator only; the client is made for its URL
// here and nowhere else.
func seedEmulator(ctx context.Context, baseURL, apiKey, orgKey string) error {
	c, err := client.New(client.Config{BaseURL: baseURL, APIKey: apiKey, OrgAPIKey: orgKey, HTTPClient: &http.Client{}})
	if err != nil {
		return err
	}
	step := func(what string, err error) error {
		if err != nil {
			return fmt.Errorf("seeding the emulator: %s: %w", what, err)
		}
		return nil
	}
	stripe, err := c.CreateAuthConfig(ctx, client.CreateAuthConfigRequest{ToolkitSlug: "stripe", Type: client.AuthConfigTypeCustom,
		AuthScheme: "API_KEY", Name: "parity stripe"})
	if err := step("auth config", err); err != nil {
		return err
	}
	github, err := c.CreateAuthConfig(ctx, client.CreateAuthConfigRequest{ToolkitSlug: "github", Type: client.AuthConfigTypeManaged,
		Name: "parity github"})
	if err := step("managed auth config", err); err != nil {
		return err
	}
	active, err := c.InitiateConnectedAccount(ctx, client.InitiateConnectedAccountRequest{AuthConfigID: stripe.ID, UserID: "parity-user-1",
		State: &client.ConnectionState{AuthScheme: "API_KEY", Val: map[string]any{"api_key": "sk_test_parity_seed"}}})
	if err := step("connected account", err); err != nil {
		return err
	}
	_, err = c.InitiateConnectedAccount(ctx, client.InitiateConnectedAccountRequest{AuthConfigID: github.ID, UserID: "parity-user-2"})
	if err := step("OAuth connected account", err); err != nil {
		return err
	}
	_, err = c.UpsertTrigger(ctx, "STRIPE_CHARGE_SUCCEEDED_TRIGGER", client.UpsertTriggerRequest{ConnectedAccountID: active.ID,
		UserID: "parity-user-1", TriggerConfig: map[string]any{"min_amount": 10000}})
	if err := step("trigger instance", err); err != nil {
		return err
	}
	paused, err := c.UpsertTrigger(ctx, "STRIPE_PAYMENT_FAILED_TRIGGER", client.UpsertTriggerRequest{ConnectedAccountID: active.ID,
		UserID: "parity-user-1"})
	if err := step("second trigger instance", err); err != nil {
		return err
	}
	if err := step("disabling a trigger instance", c.DisableTrigger(ctx, paused)); err != nil {
		return err
	}
	for i, ac := range []string{stripe.ID, github.ID} {
		_, err := c.CreateMCPServer(ctx, client.CreateMCPServerRequest{Name: fmt.Sprintf("parity-mcp-%d", i+1), AuthConfigIDs: []string{ac}})
		if err := step("MCP server", err); err != nil {
			return err
		}
	}
	_, err = c.CreateWebhookSubscription(ctx, client.CreateWebhookSubscriptionRequest{WebhookURL: "https://hooks.example.com/parity",
		EnabledEvents: []string{"composio.trigger.message"}, Version: "V3"})
	if err := step("webhook subscription", err); err != nil {
		return err
	}
	slack, err := c.CreateWebhookEndpoint(ctx, "slack", "1234567890.1234567890123")
	if err := step("webhook endpoint", err); err != nil {
		return err
	}
	_, err = c.ReplaceWebhookEndpoint(ctx, slack.ID, map[string]string{"signing_secret": "parity-seed-signing-secret", "app_id": "A0123456789"}) //nolint:gosec // G101: a made-up value the parity seed writes, no real secret
	if err := step("webhook endpoint data", err); err != nil {
		return err
	}
	_, err = c.CreateWebhookEndpoint(ctx, "notion", "parity-notion-client")
	if err := step("second webhook endpoint", err); err != nil {
		return err
	}
	_, err = c.CreateCustomToolkit(ctx, "PARITY", client.CustomToolkitConfig{Name: "Parity", MCPURL: "https://mcp.parity.example/mcp",
		AuthSchemes: []client.CustomAuthScheme{{Mode: "API_KEY", Headers: map[string]string{"Authorization": "Bearer {{generic_api_key}}"}}}})
	if err := step("custom toolkit", err); err != nil {
		return err
	}
	// Session configs are written only in the service's dashboard: the
	// emulator's control route stands in for it.
	if err := step("session config", seedSessionConfig(ctx, baseURL, apiKey)); err != nil {
		return err
	}
	if orgKey != "" {
		_, err = c.CreateProject(ctx, client.CreateProjectRequest{Name: "parity-project"})
		if err := step("project", err); err != nil {
			return err
		}
	}
	return nil
}

// seedSessionConfig stores a session config through the emulator's control
// route (POST /_emulator/session_configs).
func seedSessionConfig(ctx context.Context, baseURL, apiKey string) error {
	body := `{"name":"parity policy","description":"Parity","config":{"toolkits":{"enable":["github"]},"tags":["readOnlyHint"],` +
		`"tools":{"github":{"disable":["GITHUB_CREATE_AN_ISSUE"]}}}}`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimSuffix(baseURL, "/")+"/_emulator/session_configs", strings.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("content-type", "application/json")
	req.Header.Set(client.HeaderAPIKey, apiKey)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusCreated {
		return fmt.Errorf("POST /_emulator/session_configs: status %d", res.StatusCode)
	}
	return nil
}
