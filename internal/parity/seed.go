package parity

import (
	"context"
	"encoding/json"
	"errors"
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
// here and nowhere else. It returns the ids of what no list names (the
// tool-router sessions), by the read operation that reads them: the
// emulator's side reads them by id, so that their answers are compared
// with the recording too (the service's side, which cannot list them, reads
// only a missing one).
func seedEmulator(ctx context.Context, baseURL, apiKey, orgKey string) (unlisted map[string][]string, err error) {
	c, err := client.New(client.Config{BaseURL: baseURL, APIKey: apiKey, OrgAPIKey: orgKey, HTTPClient: &http.Client{}})
	if err != nil {
		return nil, err
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
		return nil, err
	}
	github, err := c.CreateAuthConfig(ctx, client.CreateAuthConfigRequest{ToolkitSlug: "github", Type: client.AuthConfigTypeManaged,
		Name: "parity github"})
	if err := step("managed auth config", err); err != nil {
		return nil, err
	}
	active, err := c.InitiateConnectedAccount(ctx, client.InitiateConnectedAccountRequest{AuthConfigID: stripe.ID, UserID: "parity-user-1",
		State: &client.ConnectionState{AuthScheme: "API_KEY", Val: map[string]any{"api_key": "sk_test_parity_seed"}}})
	if err := step("connected account", err); err != nil {
		return nil, err
	}
	_, err = c.InitiateConnectedAccount(ctx, client.InitiateConnectedAccountRequest{AuthConfigID: github.ID, UserID: "parity-user-2"})
	if err := step("OAuth connected account", err); err != nil {
		return nil, err
	}
	_, err = c.UpsertTrigger(ctx, "STRIPE_CHARGE_SUCCEEDED_TRIGGER", client.UpsertTriggerRequest{ConnectedAccountID: active.ID,
		UserID: "parity-user-1", TriggerConfig: map[string]any{"min_amount": 10000}})
	if err := step("trigger instance", err); err != nil {
		return nil, err
	}
	paused, err := c.UpsertTrigger(ctx, "STRIPE_PAYMENT_FAILED_TRIGGER", client.UpsertTriggerRequest{ConnectedAccountID: active.ID,
		UserID: "parity-user-1"})
	if err := step("second trigger instance", err); err != nil {
		return nil, err
	}
	if err := step("disabling a trigger instance", c.DisableTrigger(ctx, paused)); err != nil {
		return nil, err
	}
	for i, ac := range []string{stripe.ID, github.ID} {
		_, err := c.CreateMCPServer(ctx, client.CreateMCPServerRequest{Name: fmt.Sprintf("parity-mcp-%d", i+1), AuthConfigIDs: []string{ac}})
		if err := step("MCP server", err); err != nil {
			return nil, err
		}
	}
	_, err = c.CreateWebhookSubscription(ctx, client.CreateWebhookSubscriptionRequest{WebhookURL: "https://hooks.example.com/parity",
		EnabledEvents: []string{"composio.trigger.message"}, Version: "V3"})
	if err := step("webhook subscription", err); err != nil {
		return nil, err
	}
	slack, err := c.CreateWebhookEndpoint(ctx, "slack", "1234567890.1234567890123")
	if err := step("webhook endpoint", err); err != nil {
		return nil, err
	}
	_, err = c.ReplaceWebhookEndpoint(ctx, slack.ID, map[string]string{"signing_secret": "parity-seed-signing-secret", "app_id": "A0123456789"}) //nolint:gosec // G101: a made-up value the parity seed writes, no real secret
	if err := step("webhook endpoint data", err); err != nil {
		return nil, err
	}
	_, err = c.CreateWebhookEndpoint(ctx, "notion", "parity-notion-client")
	if err := step("second webhook endpoint", err); err != nil {
		return nil, err
	}
	_, err = c.CreateCustomToolkit(ctx, "PARITY", client.CustomToolkitConfig{Name: "Parity", MCPURL: "https://mcp.parity.example/mcp",
		AuthSchemes: []client.CustomAuthScheme{{Mode: "API_KEY", Headers: map[string]string{"Authorization": "Bearer {{generic_api_key}}"}}}})
	if err := step("custom toolkit", err); err != nil {
		return nil, err
	}
	// Session configs are written only in the service's dashboard: the
	// emulator's control route stands in for it.
	configID, err := seedSessionConfig(ctx, baseURL, apiKey)
	if err := step("session config", err); err != nil {
		return nil, err
	}
	if orgKey != "" {
		_, err = c.CreateProject(ctx, client.CreateProjectRequest{Name: "parity-project"})
		if err := step("project", err); err != nil {
			return nil, err
		}
	}
	sessions, err := seedSessions(ctx, c, configID, active.ID)
	if err := step("tool-router session", err); err != nil {
		return nil, err
	}
	return map[string][]string{
		"getApiV31ToolRouterSessionBySessionId":              sessions,
		"getApiV31ToolRouterSessionBySessionIdConfigHistory": sessions,
	}, nil
}

// seedSessions creates two tool-router sessions: one with every member the
// provider sets (changed once, so that its config history holds two
// versions), and one from the session config configID.
func seedSessions(ctx context.Context, c *client.Client, configID, accountID string) ([]string, error) {
	yes, limit := true, int64(2)
	full, err := c.CreateSession(ctx, client.CreateSessionRequest{UserID: "parity-user-1",
		Toolkits:          &client.SessionToolkitsParam{Slugs: []string{"stripe", "github"}},
		ConnectedAccounts: map[string][]string{"stripe": {accountID}},
		ManageConnections: &client.SessionManageConnectionsParam{Enable: &yes, CallbackURL: "https://app.parity.example/callback"},
		Tools:             map[string]client.SessionToolRuleParam{"github": {Disable: []string{"GITHUB_CREATE_AN_ISSUE"}}},
		Tags:              &client.SessionTagsParam{Enable: []string{"readOnlyHint"}},
		Workbench:         &client.SessionWorkbenchParam{Enable: &yes, AutoOffloadThreshold: &limit, SandboxSize: "medium"},
		MultiAccount:      &client.SessionMultiAccount{Enable: &yes, MaxAccountsPerToolkit: &limit},
	})
	if err != nil {
		return nil, err
	}
	if _, err := c.UpdateSession(ctx, full.SessionID, client.UpdateSessionRequest{Tags: &client.SessionTagsParam{Disable: []string{"destructiveHint"}}}); err != nil {
		return nil, err
	}
	fromConfig, err := c.CreateSession(ctx, client.CreateSessionRequest{UserID: "parity-user-2", SessionConfigID: configID})
	if err != nil {
		return nil, err
	}
	return []string{full.SessionID, fromConfig.SessionID}, nil
}

// seedSessionConfig stores a session config through the emulator's control
// route (POST /_emulator/session_configs) and returns its id.
func seedSessionConfig(ctx context.Context, baseURL, apiKey string) (string, error) {
	body := `{"name":"parity policy","description":"Parity","config":{"toolkits":{"enable":["github"]},"tags":["readOnlyHint"],` +
		`"tools":{"github":{"disable":["GITHUB_CREATE_AN_ISSUE"]}}}}`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimSuffix(baseURL, "/")+"/_emulator/session_configs", strings.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("content-type", "application/json")
	req.Header.Set(client.HeaderAPIKey, apiKey)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusCreated {
		return "", fmt.Errorf("POST /_emulator/session_configs: status %d", res.StatusCode)
	}
	var created struct {
		ID string `json:"id"`
	}
	if err := json.NewDecoder(res.Body).Decode(&created); err != nil {
		return "", fmt.Errorf("POST /_emulator/session_configs: the answer: %w", err)
	}
	if created.ID == "" {
		return "", errors.New("POST /_emulator/session_configs: no id in the answer")
	}
	return created.ID, nil
}
