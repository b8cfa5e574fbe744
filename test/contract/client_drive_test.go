package contract

import (
	"context"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

// newDriveClient returns a Go client for the recording emulator at baseURL
// with retries off, and a must that fails the test on a client error, naming
// the call.
func newDriveClient(t *testing.T, baseURL string) (*client.Client, func(what string, err error)) {
	t.Helper()
	c, err := client.New(client.Config{BaseURL: baseURL, APIKey: apiKey, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	return c, func(what string, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("client %s: %v", what, err)
		}
	}
}

// rawDriver sends, during the client drive (recorded as the client's, checked
// as strictly), the requests of operations the provider does not use and the
// Go client therefore lacks, as the client would send them.
func rawDriver(t *testing.T, baseURL string) *walker {
	return &walker{t: t, base: baseURL, hc: &http.Client{Timeout: 30 * time.Second}}
}

// driveClient calls every operation of the Go client against the recording
// emulator, so each request it sends is checked against the params type. The
// calls mirror what the provider sends: managed and custom auth configs,
// updates of both variants, accounts of each credential kind, triggers,
// sessions, and the catalog reads.
func driveClient(t *testing.T, baseURL string) {
	t.Helper()
	ctx := context.Background()
	c, must := newDriveClient(t, baseURL)
	yes := true
	name := "client renamed"

	managed, err := c.CreateAuthConfig(ctx, client.CreateAuthConfigRequest{
		ToolkitSlug: "github", Type: client.AuthConfigTypeManaged, Name: "client managed",
		Credentials:      map[string]any{"scopes": []string{"repo"}},
		ToolAccessConfig: &client.ToolAccessConfig{ToolsAvailableForExecution: []string{}},
	})
	must("create managed auth config", err)
	custom, err := c.CreateAuthConfig(ctx, client.CreateAuthConfigRequest{
		ToolkitSlug: "github", Type: client.AuthConfigTypeCustom, AuthScheme: "OAUTH2", Name: "client custom",
		Credentials:            map[string]any{"client_id": "cid", "client_secret": "csecret"},
		IsEnabledForToolRouter: &yes,
		ProxyConfig:            &client.ProxyConfig{ProxyURL: "https://proxy.example.com", ProxyAuthKey: "k"},
	})
	must("create custom auth config", err)
	apiKeyConfig, err := c.CreateAuthConfig(ctx, client.CreateAuthConfigRequest{
		ToolkitSlug: "airtable", Type: client.AuthConfigTypeCustom, AuthScheme: "API_KEY",
		SharedCredentials: map[string]any{"api_key": "shared-key"}, ToolsAvailableForExecution: []string{},
	})
	must("create API key auth config", err)
	// CIMD_OAUTH (the service's v3 document's 15th scheme, outside the
	// contract's enum): a custom auth config of it needs no credentials.
	cimd, err := c.CreateAuthConfig(ctx, client.CreateAuthConfigRequest{
		ToolkitSlug: "sentry", Type: client.AuthConfigTypeCustom, AuthScheme: "CIMD_OAUTH", Name: "client cimd",
	})
	must("create CIMD_OAUTH auth config", err)
	_, err = c.DeleteAuthConfigWith(ctx, cimd.ID, client.DeleteOptions{})
	must("delete CIMD_OAUTH auth config", err)

	_, err = c.GetAuthConfig(ctx, managed.ID)
	must("get auth config", err)
	_, err = c.ListAuthConfigs(ctx, client.AuthConfigListParams{ToolkitSlug: "github", IsComposioManaged: &yes, ShowDisabled: true, Search: "client", Limit: 2})
	must("list auth configs", err)
	_, err = c.AuthConfigsPage(ctx, client.AuthConfigListParams{ShowDisabled: true, Limit: 50}, "")
	must("list a page of auth configs (refresh by listing)", err)
	must("update managed", c.UpdateAuthConfig(ctx, managed.ID, client.UpdateAuthConfigRequest{
		Type: client.AuthConfigUpdateDefault, Name: &name, Scopes: []string{"repo", "read:user"},
		Credentials:      map[string]any{"scopes": "repo"},
		ToolAccessConfig: &client.ToolAccessConfig{ToolsForConnectedAccountCreation: []string{}},
	}))
	must("update custom", c.UpdateAuthConfig(ctx, custom.ID, client.UpdateAuthConfigRequest{
		Type: client.AuthConfigUpdateCustom, Name: &name, Scopes: []string{"repo"},
		Credentials:            map[string]any{"client_id": "cid2", "client_secret": "csecret2"},
		IsEnabledForToolRouter: &yes,
	}))
	must("update custom proxy and shared credentials", c.UpdateAuthConfig(ctx, apiKeyConfig.ID, client.UpdateAuthConfigRequest{
		Type: client.AuthConfigUpdateCustom, Credentials: map[string]any{},
		ProxyConfig: &client.ProxyConfig{ProxyURL: "https://proxy.example.com"}, SharedCredentials: map[string]any{"api_key": "k3"},
	}))
	must("update managed user scopes", c.UpdateAuthConfig(ctx, managed.ID, client.UpdateAuthConfigRequest{
		Type: client.AuthConfigUpdateDefault, UserScopes: []string{"identify"},
	}))
	must("disable auth config", c.DisableAuthConfig(ctx, custom.ID))
	must("enable auth config", c.UpdateAuthConfigStatus(ctx, client.AuthConfigStatusEnabled, custom.ID))

	// Accounts: OAuth (INITIATED, then completed), API key (ACTIVE).
	oauth, err := c.InitiateConnectedAccount(ctx, client.InitiateConnectedAccountRequest{
		AuthConfigID: custom.ID, UserID: "client-user", CallbackURL: "https://example.com/cb",
	})
	must("initiate OAuth account", err)
	key, err := c.InitiateConnectedAccount(ctx, client.InitiateConnectedAccountRequest{
		AuthConfigID: apiKeyConfig.ID, UserID: "client-user",
		State: &client.ConnectionState{AuthScheme: "API_KEY", Val: map[string]any{"api_key": "k1"}},
	})
	must("initiate API key account", err)
	_, err = c.GetConnectedAccount(ctx, oauth.ID)
	must("get account", err)
	_, err = c.ListConnectedAccounts(ctx, client.ConnectedAccountListParams{
		UserIDs: []string{"client-user"}, ToolkitSlugs: []string{"github"}, AuthConfigIDs: []string{custom.ID},
		Statuses: []string{"INITIATED", "ACTIVE"}, OrderBy: "created_at", OrderDirection: "desc", Limit: 1,
	})
	must("list accounts", err)
	_, err = c.ConnectedAccountsPage(ctx, client.ConnectedAccountListParams{AccountType: "ALL", Limit: 1000}, "")
	must("list a page of accounts (refresh by listing)", err)
	must("rotate credentials", c.UpdateConnectedAccount(ctx, key.ID, client.ConnectedAccountUpdate{State: &client.ConnectionState{
		AuthScheme: "API_KEY", Val: map[string]any{"api_key": "k2"},
	}}))
	// refresh: the provider does not use it (no client method), sent raw
	rawDriver(t, baseURL).must(http.MethodPost, "/connected_accounts/"+url.PathEscape(oauth.ID)+"/refresh",
		url.Values{"redirect_url": {"https://example.com/cb"}}, map[string]any{"redirect_url": "https://example.com/cb", "validate_credentials": true})
	must("disable account", c.UpdateConnectedAccountStatus(ctx, key.ID, false, ""))
	must("disable account with reason", c.UpdateConnectedAccountStatus(ctx, key.ID, false, "paused by the client"))
	must("enable account", c.UpdateConnectedAccountStatus(ctx, key.ID, true, ""))
	_, err = c.CreateConnectedAccountLink(ctx, client.LinkRequest{AuthConfigID: custom.ID, UserID: "client-link", CallbackURL: "https://example.com/cb",
		Alias: "client link"})
	must("link", err)
	alias := "client alias"
	must("set alias", c.UpdateConnectedAccount(ctx, key.ID, client.ConnectedAccountUpdate{Alias: &alias}))
	cleared := ""
	must("clear alias and rotate", c.UpdateConnectedAccount(ctx, key.ID, client.ConnectedAccountUpdate{Alias: &cleared,
		State: &client.ConnectionState{AuthScheme: "API_KEY", Val: map[string]any{"api_key": "k4"}}}))
	aliased, err := c.InitiateConnectedAccount(ctx, client.InitiateConnectedAccountRequest{
		AuthConfigID: apiKeyConfig.ID, UserID: "client-revoke", Alias: "client created",
		State: &client.ConnectionState{AuthScheme: "API_KEY", Val: map[string]any{"api_key": "k5"}},
	})
	must("initiate with alias", err)
	_, err = c.RevokeConnectedAccount(ctx, aliased.ID)
	must("revoke account", err)
	_, err = c.DeleteConnectedAccountWith(ctx, aliased.ID, client.DeleteOptions{RevokeOnDelete: true})
	must("delete account revoking", err)

	// Catalog reads.
	_, err = c.ListToolkits(ctx, client.ToolkitListParams{Category: "productivity", ManagedBy: "composio", SortBy: "usage", Limit: 2})
	must("list toolkits", err)
	_, err = c.GetToolkit(ctx, "github", "")
	must("get toolkit", err)
	_, err = c.ListToolkitCategories(ctx)
	must("list categories", err)
	tools, err := c.ListTools(ctx, client.ToolListParams{ToolkitSlug: "github", Versions: &client.ToolkitVersions{Global: "latest"}, Limit: 2})
	must("list tools", err)
	_ = tools
	types, err := c.ListTriggerTypes(ctx, client.TriggerTypeListParams{ToolkitSlugs: []string{"github"}, Limit: 2})
	must("list trigger types", err)
	if len(types) > 0 {
		_, err = c.GetTriggerType(ctx, types[0].Slug, &client.ToolkitVersions{Global: "latest"})
		must("get trigger type", err)
	}

	// Triggers on an ACTIVE GitHub account (completed through the control route).
	gh, err := c.InitiateConnectedAccount(ctx, client.InitiateConnectedAccountRequest{AuthConfigID: managed.ID, UserID: "client-user"})
	must("initiate managed account", err)
	completeAccount(t, baseURL, gh.ID)
	if len(types) > 0 {
		id, err := c.UpsertTrigger(ctx, types[0].Slug, client.UpsertTriggerRequest{
			ConnectedAccountID: gh.ID, TriggerConfig: configFor(types[0].Config), ToolkitVersions: &client.ToolkitVersions{Global: "latest"},
		})
		must("upsert trigger", err)
		_, err = c.GetTriggerInstance(ctx, id)
		must("get trigger", err)
		// egress_url set and removed in place (the same instance again).
		for _, egress := range []string{"https://hooks.example.com/contract", ""} {
			_, err = c.UpsertTrigger(ctx, types[0].Slug, client.UpsertTriggerRequest{
				ConnectedAccountID: gh.ID, TriggerConfig: configFor(types[0].Config), EgressURL: &egress,
			})
			must("upsert trigger egress_url", err)
		}
		_, err = c.ListActiveTriggers(ctx, client.TriggerInstanceListParams{
			AuthConfigIDs: []string{managed.ID}, ConnectedAccountIDs: []string{gh.ID}, TriggerIDs: []string{id},
			TriggerNames: []string{types[0].Slug}, UserIDs: []string{"client-user"}, ShowDisabled: true, Limit: 1,
		})
		must("list triggers", err)
		_, err = c.TriggerInstancesPage(ctx, client.TriggerInstanceListParams{ShowDisabled: true, Limit: 50}, "")
		must("list a page of triggers (refresh by listing)", err)
		must("disable trigger", c.DisableTrigger(ctx, id))
		must("enable trigger", c.EnableTrigger(ctx, id))
		must("delete trigger", c.DeleteTrigger(ctx, id))
	}

	// Tool-router sessions: every request service_tool_router_session and
	// service_tool_execute send.
	sess, err := c.CreateSession(ctx, client.CreateSessionRequest{UserID: "client-user",
		Toolkits: &client.SessionToolkitsParam{Slugs: []string{"github"}}, Tags: &client.SessionTagsParam{Enable: []string{"readOnlyHint"}},
		ManageConnections: &client.SessionManageConnectionsParam{CallbackURL: "https://example.com/cb", EnableWaitForConnections: ptrTo(true)},
		Tools:             map[string]client.SessionToolRuleParam{"github": {Tags: &client.SessionTagsParam{Disable: []string{"destructiveHint"}}}},
		Workbench:         &client.SessionWorkbenchParam{SandboxSize: "medium"}, MultiAccount: &client.SessionMultiAccount{Enable: ptrTo(true)}})
	must("create session", err)
	_, err = c.GetSession(ctx, sess.SessionID)
	must("get session", err)
	_, err = c.UpdateSession(ctx, sess.SessionID, client.UpdateSessionRequest{Toolkits: &client.SessionToolkitsParam{Disable: true},
		Tags: &client.SessionTagsParam{}, Tools: map[string]client.SessionToolRuleParam{}, AuthConfigs: map[string]string{},
		Reset: []string{"connected_accounts", "manage_connections", "workbench", "multi_account"}})
	must("update session", err)
	_, err = c.SessionCreatedAt(ctx, sess.SessionID)
	must("session created_at from the config history", err)
	// Session configs (GetSessionConfig, ListSessionConfigs) are routes the
	// service documents outside the contract's types: not sent here (the
	// emulator's TestSessionConfigs holds them).
	must("delete session", c.DeleteSession(ctx, sess.SessionID))
	// A session that follows a session config (seeded: the service writes
	// them only in its dashboard) names it in experimental.session_config_id.
	seeded := rawDriver(t, baseURL).do("POST", "/_emulator/session_configs", nil, map[string]any{"name": "client policy"})
	if seeded.status != 201 {
		t.Fatalf("seeding a session config: %d %v", seeded.status, seeded.body)
	}
	followed, err := c.CreateSession(ctx, client.CreateSessionRequest{UserID: "client-user", SessionConfigID: seeded.str("id")})
	must("create a session from a session config", err)
	must("delete the session of the config", c.DeleteSession(ctx, followed.SessionID))
	if len(tools) > 0 {
		_, err = c.ExecuteTool(ctx, tools[0].Slug, client.ExecuteToolRequest{ConnectedAccountID: gh.ID, Version: "latest", Arguments: map[string]any{}})
		must("execute a tool", err)
		_, err = c.ExecuteTool(ctx, tools[0].Slug, client.ExecuteToolRequest{UserID: "client-user", Arguments: map[string]any{}})
		must("execute a tool as the user", err)
	}
	raw := rawDriver(t, baseURL)

	must("delete account", c.DeleteConnectedAccount(ctx, oauth.ID))
	_, err = c.DeleteAuthConfigWith(ctx, apiKeyConfig.ID, client.DeleteOptions{RevokeOnDelete: true})
	must("delete auth config revoking", err)
	driveWebhookClient(ctx, c, must)
	driveWebhookEndpointClient(ctx, c, must, raw)
	driveProjectClient(ctx, t, baseURL)
}

func ptrTo[T any](v T) *T { return &v }
