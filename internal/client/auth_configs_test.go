package client

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

const authConfigJSON = `{"id":"ac_1","uuid":"u-1","type":"custom","toolkit":{"slug":"linear","logo":"https://l/logo.png"},"name":"Linear","auth_scheme":"OAUTH2","is_composio_managed":false,"credentials":{"client_id":"cid","client_secret":"********","scopes":"read,write issues"},"status":"ENABLED","created_at":"2026-01-01T00:00:00Z","last_updated_at":"2026-01-02T00:00:00Z","no_of_connections":3,"tool_access_config":{"tools_for_connected_account_creation":["A"],"tools_available_for_execution":["B","C"]},"is_enabled_for_tool_router":true}`

func TestAuthConfigOperations(t *testing.T) {
	runOpCases(t, []opCase{
		{
			name: "list with filters",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.ListAuthConfigs(ctx, AuthConfigListParams{ToolkitSlug: "linear", IsComposioManaged: ptr(false), ShowDisabled: true, Search: "lin", Limit: 50})
			},
			reply:  `{"items":[` + authConfigJSON + `],"next_cursor":null,"total_pages":1,"current_page":1,"total_items":1}`,
			method: "GET", path: "/api/v3.1/auth_configs",
			query: map[string]string{"toolkit_slug": "linear", "is_composio_managed": "false", "show_disabled": "true", "search": "lin", "limit": "50"},
			checkResp: func(t *testing.T, got any) {
				l := got.([]AuthConfig)
				if len(l) != 1 || l[0].ID != "ac_1" {
					t.Errorf("%+v", l)
				}
			},
		},
		{
			name: "list without filters asks for pages of 200 only",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.ListAuthConfigs(ctx, AuthConfigListParams{})
			},
			reply:  `{"items":[]}`,
			method: "GET", path: "/api/v3.1/auth_configs",
			query: map[string]string{"limit": "200"},
		},
		{
			name: "list never asks for more than 200 (the service answers 400)",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.ListAuthConfigs(ctx, AuthConfigListParams{Limit: 500})
			},
			reply:  `{"items":[]}`,
			method: "GET", path: "/api/v3.1/auth_configs",
			query: map[string]string{"limit": "200"},
		},
		{
			name:   "get",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.GetAuthConfig(ctx, "ac_1") },
			reply:  authConfigJSON,
			method: "GET", path: "/api/v3.1/auth_configs/ac_1",
			checkResp: func(t *testing.T, got any) {
				a := got.(*AuthConfig)
				want := AuthConfig{ID: "ac_1", UUID: "u-1", Type: "custom", Name: "Linear", AuthScheme: "OAUTH2", Status: "ENABLED",
					CreatedAt: "2026-01-01T00:00:00Z", LastUpdatedAt: "2026-01-02T00:00:00Z", Toolkit: ToolkitRef{Slug: "linear", Logo: "https://l/logo.png"},
					IsEnabledForToolRouter: true, Credentials: map[string]any{"client_id": "cid", "client_secret": "********", "scopes": "read,write issues"},
					ToolAccessConfig: ToolAccessConfig{ToolsForConnectedAccountCreation: []string{"A"}, ToolsAvailableForExecution: []string{"B", "C"}},
					NoOfConnections:  3, Scopes: []string{"read", "write", "issues"}}
				if !reflect.DeepEqual(*a, want) {
					t.Errorf("got  %+v\nwant %+v", *a, want)
				}
			},
		},
		{
			name: "create managed",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.CreateAuthConfig(ctx, CreateAuthConfigRequest{ToolkitSlug: "github", Type: AuthConfigTypeManaged, Name: "gh",
					Credentials: map[string]any{"scopes": []string{"repo"}}, ToolAccessConfig: &ToolAccessConfig{ToolsForConnectedAccountCreation: []string{"GITHUB_X"}}, IsEnabledForToolRouter: ptr(true)})
			},
			status: 201,
			reply:  `{"toolkit":{"slug":"github"},"auth_config":{"id":"ac_2","auth_scheme":"OAUTH2","is_composio_managed":true}}`,
			method: "POST", path: "/api/v3.1/auth_configs",
			body: `{"toolkit":{"slug":"github"},"auth_config":{"type":"use_composio_managed_auth","name":"gh","credentials":{"scopes":["repo"]},"tool_access_config":{"tools_for_connected_account_creation":["GITHUB_X"]},"is_enabled_for_tool_router":true}}`,
			checkResp: func(t *testing.T, got any) {
				if *got.(*CreatedAuthConfig) != (CreatedAuthConfig{ID: "ac_2", AuthScheme: "OAUTH2", IsComposioManaged: true, ToolkitSlug: "github"}) {
					t.Errorf("%+v", got)
				}
			},
		},
		{
			name: "create managed default type",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.CreateAuthConfig(ctx, CreateAuthConfigRequest{ToolkitSlug: "github", AuthScheme: "ignored-for-managed"})
			},
			status: 201, reply: `{"toolkit":{"slug":"github"},"auth_config":{"id":"ac_3"}}`,
			method: "POST", path: "/api/v3.1/auth_configs",
			body: `{"toolkit":{"slug":"github"},"auth_config":{"type":"use_composio_managed_auth"}}`,
		},
		{
			name: "create custom",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.CreateAuthConfig(ctx, CreateAuthConfigRequest{ToolkitSlug: "linear", Type: AuthConfigTypeCustom, AuthScheme: "OAUTH2", Name: "mine",
					Credentials: map[string]any{"client_id": "cid", "client_secret": "cs"}, ProxyConfig: &ProxyConfig{ProxyURL: "https://proxy"}})
			},
			status: 201, reply: `{"toolkit":{"slug":"linear"},"auth_config":{"id":"ac_4","auth_scheme":"OAUTH2","is_composio_managed":false}}`,
			method: "POST", path: "/api/v3.1/auth_configs",
			body: `{"toolkit":{"slug":"linear"},"auth_config":{"type":"use_custom_auth","authScheme":"OAUTH2","name":"mine","credentials":{"client_id":"cid","client_secret":"cs"},"proxy_config":{"proxy_url":"https://proxy"}}}`,
		},
		{
			name: "update custom merges scopes into credentials",
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.UpdateAuthConfig(ctx, "ac_1", UpdateAuthConfigRequest{Type: AuthConfigUpdateCustom, Name: ptr("new"),
					Credentials: map[string]any{"client_id": "cid"}, Scopes: []string{"a", "b"}, IsEnabledForToolRouter: ptr(false),
					ToolAccessConfig: &ToolAccessConfig{ToolsAvailableForExecution: []string{"X"}}})
			},
			method: "PATCH", path: "/api/v3.1/auth_configs/ac_1",
			body: `{"type":"custom","name":"new","credentials":{"client_id":"cid","scopes":["a","b"]},"is_enabled_for_tool_router":false,"tool_access_config":{"tools_available_for_execution":["X"]}}`,
		},
		{
			name: "update default sends scopes",
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.UpdateAuthConfig(ctx, "ac_1", UpdateAuthConfigRequest{Type: AuthConfigUpdateDefault, Scopes: []string{"repo"}})
			},
			method: "PATCH", path: "/api/v3.1/auth_configs/ac_1",
			body: `{"type":"default","scopes":["repo"]}`,
		},
		{
			name: "update default: nil scopes and tool lists are left out",
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.UpdateAuthConfig(ctx, "ac_1", UpdateAuthConfigRequest{Type: AuthConfigUpdateDefault, Name: ptr("n"),
					ToolAccessConfig: &ToolAccessConfig{}})
			},
			method: "PATCH", path: "/api/v3.1/auth_configs/ac_1",
			body: `{"type":"default","name":"n","tool_access_config":{}}`,
		},
		{
			name: "update default: empty scopes and tool list are sent as [] (clear)",
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.UpdateAuthConfig(ctx, "ac_1", UpdateAuthConfigRequest{Type: AuthConfigUpdateDefault, Scopes: []string{},
					ToolAccessConfig: &ToolAccessConfig{ToolsForConnectedAccountCreation: []string{}}})
			},
			method: "PATCH", path: "/api/v3.1/auth_configs/ac_1",
			body: `{"type":"default","scopes":[],"tool_access_config":{"tools_for_connected_account_creation":[]}}`,
		},
		{
			name: "update default: both tool lists cleared",
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.UpdateAuthConfig(ctx, "ac_1", UpdateAuthConfigRequest{Type: AuthConfigUpdateDefault,
					ToolAccessConfig: &ToolAccessConfig{ToolsForConnectedAccountCreation: []string{}, ToolsAvailableForExecution: []string{}}})
			},
			method: "PATCH", path: "/api/v3.1/auth_configs/ac_1",
			body: `{"type":"default","tool_access_config":{"tools_for_connected_account_creation":[],"tools_available_for_execution":[]}}`,
		},
		{
			name: "update custom: empty scopes are sent as credentials.scopes []",
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.UpdateAuthConfig(ctx, "ac_1", UpdateAuthConfigRequest{Type: AuthConfigUpdateCustom,
					Credentials: map[string]any{"client_id": "cid", "client_secret": "cs"}, Scopes: []string{}})
			},
			method: "PATCH", path: "/api/v3.1/auth_configs/ac_1",
			body: `{"type":"custom","credentials":{"client_id":"cid","client_secret":"cs","scopes":[]}}`,
		},
		{
			name: "update custom: nil scopes leave credentials.scopes out",
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.UpdateAuthConfig(ctx, "ac_1", UpdateAuthConfigRequest{Type: AuthConfigUpdateCustom,
					Credentials: map[string]any{"client_id": "cid", "client_secret": "cs"}})
			},
			method: "PATCH", path: "/api/v3.1/auth_configs/ac_1",
			body: `{"type":"custom","credentials":{"client_id":"cid","client_secret":"cs"}}`,
		},
		{
			name: "update custom: only empty scopes",
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.UpdateAuthConfig(ctx, "ac_1", UpdateAuthConfigRequest{Type: AuthConfigUpdateCustom, Scopes: []string{}})
			},
			method: "PATCH", path: "/api/v3.1/auth_configs/ac_1",
			body: `{"type":"custom","credentials":{"scopes":[]}}`,
		},
		{
			name: "create with an empty tool list sends []",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.CreateAuthConfig(ctx, CreateAuthConfigRequest{ToolkitSlug: "github",
					Credentials: map[string]any{"scopes": []string{}}, ToolAccessConfig: &ToolAccessConfig{ToolsForConnectedAccountCreation: []string{}}})
			},
			status: 201, reply: `{"toolkit":{"slug":"github"},"auth_config":{"id":"ac_5"}}`,
			method: "POST", path: "/api/v3.1/auth_configs",
			body: `{"toolkit":{"slug":"github"},"auth_config":{"type":"use_composio_managed_auth","credentials":{"scopes":[]},"tool_access_config":{"tools_for_connected_account_creation":[]}}}`,
		},
		{
			name:   "delete",
			call:   func(ctx context.Context, c *Client) (any, error) { return nil, c.DeleteAuthConfig(ctx, "ac_1") },
			method: "DELETE", path: "/api/v3.1/auth_configs/ac_1",
		},
		{
			name: "delete revoking",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.DeleteAuthConfigWith(ctx, "ac_1", DeleteOptions{RevokeOnDelete: true})
			},
			reply:  `{"revoke_job_id":"rvk_2"}`,
			method: "DELETE", path: "/api/v3.1/auth_configs/ac_1",
			query:     map[string]string{"revoke_on_delete": "true"},
			checkResp: checkRevokeJobID("rvk_2"),
		},
		{
			name:   "enable",
			call:   func(ctx context.Context, c *Client) (any, error) { return nil, c.EnableAuthConfig(ctx, "ac_1") },
			method: "PATCH", path: "/api/v3.1/auth_configs/ac_1/ENABLED",
		},
		{
			name:   "disable",
			call:   func(ctx context.Context, c *Client) (any, error) { return nil, c.DisableAuthConfig(ctx, "ac_1") },
			method: "PATCH", path: "/api/v3.1/auth_configs/ac_1/DISABLED",
		},
		{
			name: "update status",
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.UpdateAuthConfigStatus(ctx, "disabled", "ac_1")
			},
			method: "PATCH", path: "/api/v3.1/auth_configs/ac_1/DISABLED",
		},
		{
			name:   "path segments are escaped",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.GetAuthConfig(ctx, "ac/../x") },
			reply:  `{}`,
			method: "GET", path: "/api/v3.1/auth_configs/ac/../x",
		},
	})
}

func TestAuthConfigScopesNormalization(t *testing.T) {
	for in, want := range map[string][]string{
		`{"credentials":{"scopes":["a","b"]}}`: {"a", "b"},
		`{"credentials":{"scopes":"a b,c"}}`:   {"a", "b", "c"},
		`{"credentials":{"scopes":""}}`:        nil,
		`{"credentials":{"scopes":[]}}`:        {}, // an explicit empty list stays non-nil
		`{"credentials":{"scopes":null}}`:      nil,
		`{"credentials":{}}`:                   nil,
		`{}`:                                   nil,
	} {
		var a AuthConfig
		if err := a.UnmarshalJSON([]byte(in)); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a.Scopes, want) {
			t.Errorf("%s: scopes %q, want %q", in, a.Scopes, want)
		}
	}
}

// TestAuthConfigWireListsNilVersusEmpty pins the exact bytes: a nil list is
// omitted (keep the service's value), a non-nil empty list is [] (clear).
func TestAuthConfigWireListsNilVersusEmpty(t *testing.T) {
	for _, tc := range []struct {
		name string
		v    any
		want string
	}{
		{"tool access nil", ToolAccessConfig{}, `{}`},
		{"tool access empty", ToolAccessConfig{ToolsForConnectedAccountCreation: []string{}, ToolsAvailableForExecution: []string{}},
			`{"tools_for_connected_account_creation":[],"tools_available_for_execution":[]}`},
		{"tool access mixed", ToolAccessConfig{ToolsForConnectedAccountCreation: []string{}, ToolsAvailableForExecution: []string{"X"}},
			`{"tools_for_connected_account_creation":[],"tools_available_for_execution":["X"]}`},
		{"update scopes nil", updateAuthConfigWire{Type: "default"}, `{"type":"default"}`},
		{"update scopes empty", updateAuthConfigWire{Type: "default", Scopes: []string{}}, `{"type":"default","scopes":[]}`},
		{"update scopes set", updateAuthConfigWire{Type: "default", Scopes: []string{"a"}}, `{"type":"default","scopes":["a"]}`},
	} {
		b, err := json.Marshal(tc.v)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, b, tc.want)
		}
	}
}

// TestAuthConfigWireVariants pins the bodies the contract's variants allow:
// a default update carries no credentials (scopes move to the top level,
// another credential field is refused before any request), and a create
// sends the execution allow-list as restrict_to_following_tools.
func TestAuthConfigWireVariants(t *testing.T) {
	ctx := context.Background()
	c, rec := newTestClient(t, nil)

	if err := c.UpdateAuthConfig(ctx, "ac_1", UpdateAuthConfigRequest{
		Type: AuthConfigUpdateDefault, Credentials: map[string]any{"scopes": "repo", "user_scopes": []string{"u"}},
	}); err != nil {
		t.Fatal(err)
	}
	assertJSON(t, rec.last(t).Body, `{"type":"default","scopes":"repo","user_scopes":["u"]}`)

	n := rec.count()
	err := c.UpdateAuthConfig(ctx, "ac_1", UpdateAuthConfigRequest{
		Type: AuthConfigUpdateDefault, Credentials: map[string]any{"client_secret": "s3cr3t"},
	})
	if err == nil || !strings.Contains(err.Error(), "credentials.client_secret") || strings.Contains(err.Error(), "s3cr3t") {
		t.Fatalf("default update with a credential: err = %v", err)
	}
	if rec.count() != n {
		t.Fatal("a refused default update was sent")
	}

	if _, err := c.CreateAuthConfig(ctx, CreateAuthConfigRequest{
		ToolkitSlug: "github", Type: AuthConfigTypeManaged,
		ToolAccessConfig: &ToolAccessConfig{ToolsAvailableForExecution: []string{"GITHUB_X"}, ToolsForConnectedAccountCreation: []string{}},
	}); err != nil {
		t.Fatal(err)
	}
	assertJSON(t, rec.last(t).Body, `{"toolkit":{"slug":"github"},"auth_config":{"type":"use_composio_managed_auth",`+
		`"restrict_to_following_tools":["GITHUB_X"],"tool_access_config":{"tools_for_connected_account_creation":[]}}}`)
}

// EnableAuthConfig sets status ENABLED.
func (c *Client) EnableAuthConfig(ctx context.Context, id string) error {
	return c.UpdateAuthConfigStatus(ctx, AuthConfigStatusEnabled, id)
}

// DeleteAuthConfig deletes an auth config.
func (c *Client) DeleteAuthConfig(ctx context.Context, id string) error {
	_, err := c.DeleteAuthConfigWith(ctx, id, DeleteOptions{})
	return err
}
