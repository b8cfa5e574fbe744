package client

import (
	"context"
	"errors"
	"net/http"
	"reflect"
	"sync/atomic"
	"testing"
)

const sessionJSON = `{"session_id":"trs_abc","mcp":{"type":"http","url":"https://h/tool_router/trs_abc/mcp"},
"tool_router_tools":["COMPOSIO_SEARCH_TOOLS"],"config_version":2,"created_at":"2026-01-01T00:00:00.000Z",
"config":{"user_id":"u1","toolkits":{"disabled":["gmail"]},"auth_configs":{"github":"ac_1"},
"connected_accounts":{"github":["ca_1"],"slack":"ca_2"},
"manage_connections":{"enabled":true,"callback_url":"https://e/cb","enable_wait_for_connections":false},
"tools":{"github":{"enabled":["GITHUB_A"]},"slack":{"tags":{"enabled":["readOnlyHint"]}},"gmail":{"disabled":["GMAIL_B"]}},
"tags":{"enabled":["readOnlyHint"],"disabled":["destructiveHint"]},
"workbench":{"enable":true,"proxy_execution_enabled":false,"auto_offload_threshold":20000,"sandbox_size":"large"},
"multi_account":{"enable":true,"max_accounts_per_toolkit":3},"preload":{"tools":[]},"search":{},"execute":{}},
"experimental":{"source_session_config":{"id":"sc_1"}}}`

func checkSession(t *testing.T, got any) {
	t.Helper()
	s := got.(*ToolRouterSession)
	c := s.Config
	if s.SessionID != "trs_abc" || s.MCP.Type != "http" || s.MCP.URL == "" || s.ConfigVersion != 2 || s.CreatedAt == "" ||
		c.UserID != "u1" || !c.Toolkits.HasDisabled || c.Toolkits.Disabled[0] != "gmail" || c.Toolkits.HasEnabled ||
		c.AuthConfigs["github"] != "ac_1" || !reflect.DeepEqual(c.ConnectedAccounts["slack"], SessionAccountIDs{"ca_2"}) ||
		*c.ManageConnections.CallbackURL != "https://e/cb" || *c.ManageConnections.WaitForConnections ||
		c.Tools["github"].Enabled[0] != "GITHUB_A" || c.Tools["slack"].Tags.Enabled[0] != "readOnlyHint" || c.Tools["gmail"].Disabled[0] != "GMAIL_B" ||
		c.Tags.Disabled[0] != "destructiveHint" || *c.Workbench.ProxyExecution || *c.Workbench.AutoOffloadThreshold != 20000 ||
		*c.Workbench.SandboxSize != "large" || *c.MultiAccount.MaxAccountsPerToolkit != 3 || s.Experimental.SourceSessionConfig.ID != "sc_1" {
		t.Errorf("%+v", s)
	}
}

func TestSessionOperations(t *testing.T) {
	runOpCases(t, []opCase{
		{
			name: "create sends only what is set, the session config under experimental",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.CreateSession(ctx, CreateSessionRequest{UserID: "u1", Toolkits: &SessionToolkitsParam{Slugs: []string{"github"}},
					AuthConfigs: map[string]string{"github": "ac_1"}, ConnectedAccounts: map[string][]string{"github": {"ca_1"}},
					ManageConnections: &SessionManageConnectionsParam{Enable: ptr(true), CallbackURL: "https://e/cb", EnableConnectionRemoval: ptr(false)},
					Tools:             map[string]SessionToolRuleParam{"github": {Disable: []string{"GITHUB_A"}}, "slack": {Tags: &SessionTagsParam{Enable: []string{"readOnlyHint"}}}},
					Tags:              &SessionTagsParam{Disable: []string{"destructiveHint"}}, Workbench: &SessionWorkbenchParam{EnableProxyExecution: ptr(false), SandboxSize: "medium"},
					MultiAccount: &SessionMultiAccount{Enable: ptr(true)}, SessionConfigID: "sc_1"})
			},
			status: 201, reply: sessionJSON, method: "POST", path: "/api/v3.1/tool_router/session",
			body: `{"user_id":"u1","toolkits":{"enable":["github"]},"auth_configs":{"github":"ac_1"},"connected_accounts":{"github":["ca_1"]},
"manage_connections":{"enable":true,"callback_url":"https://e/cb","enable_connection_removal":false},
"tools":{"github":{"disable":["GITHUB_A"]},"slack":{"tags":{"enable":["readOnlyHint"]}}},"tags":{"disable":["destructiveHint"]},
"workbench":{"enable_proxy_execution":false,"sandbox_size":"medium"},"multi_account":{"enable":true},"experimental":{"session_config_id":"sc_1"}}`,
			checkResp: checkSession,
		},
		{
			name: "create minimal",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.CreateSession(ctx, CreateSessionRequest{UserID: "u1", Toolkits: &SessionToolkitsParam{Disable: true}})
			},
			status: 201, reply: sessionJSON, method: "POST", path: "/api/v3.1/tool_router/session",
			body: `{"user_id":"u1","toolkits":{"disable":[]}}`,
		},
		{
			name: "get", call: func(ctx context.Context, c *Client) (any, error) { return c.GetSession(ctx, "trs_abc") },
			reply: sessionJSON, method: "GET", path: "/api/v3.1/tool_router/session/trs_abc", checkResp: checkSession,
		},
		{
			name: "patch sends what is set, empty maps and the resets as null",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.UpdateSession(ctx, "trs_abc", UpdateSessionRequest{Toolkits: &SessionToolkitsParam{Slugs: []string{}},
					AuthConfigs: map[string]string{}, Tags: &SessionTagsParam{}, Reset: []string{"connected_accounts", "workbench"}})
			},
			reply: sessionJSON, method: "PATCH", path: "/api/v3.1/tool_router/session/trs_abc",
			body: `{"toolkits":{"enable":[]},"auth_configs":{},"tags":{},"connected_accounts":null,"workbench":null}`, checkResp: checkSession,
		},
		{
			name: "delete", call: func(ctx context.Context, c *Client) (any, error) { return nil, c.DeleteSession(ctx, "trs_abc") },
			reply: `{"session_id":"trs_abc","deleted":true}`, method: "DELETE", path: "/api/v3.1/tool_router/session/trs_abc",
		},
		{
			name: "execute a tool",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.ExecuteTool(ctx, "GITHUB_A", ExecuteToolRequest{UserID: "u1", Version: "20250909_00"})
			},
			reply:  `{"data":{"x":1},"error":"upstream said no","successful":false,"log_id":"log_1"}`,
			method: "POST", path: "/api/v3.1/tools/execute/GITHUB_A", body: `{"user_id":"u1","version":"20250909_00","arguments":{}}`,
			checkResp: func(t *testing.T, got any) {
				x := got.(*ToolExecution)
				if x.Successful || *x.Error != "upstream said no" || x.LogID != "log_1" || x.Data["x"] != float64(1) {
					t.Errorf("%+v", x)
				}
			},
		},
		{
			name: "session config",
			call: func(ctx context.Context, c *Client) (any, error) { return c.GetSessionConfig(ctx, "sc_1") },
			reply: `{"id":"sc_1","name":"Support","archived":false,"created_at":"a","updated_at":"b","description":null,
"config":{"toolkits":{"enable":["github"]},"tags":["readOnlyHint"],"tools":{"github":{"disable":["GITHUB_A"]}}}}`,
			method: "GET", path: "/api/v3.1/session_configs/sc_1",
			checkResp: func(t *testing.T, got any) {
				sc := got.(*SavedSessionConfig)
				p, err := sc.Policy()
				if err != nil || sc.ID != "sc_1" || sc.Name != "Support" || sc.Description != nil || p.Toolkits.Enabled[0] != "github" ||
					p.Tags.Enabled[0] != "readOnlyHint" || p.Tools["github"].Disabled[0] != "GITHUB_A" {
					t.Errorf("%+v %v", sc, err)
				}
			},
		},
	})
}

func TestSessionUpdateRefusesABadReset(t *testing.T) {
	for _, r := range []UpdateSessionRequest{{Reset: []string{"tags"}}, {Workbench: &SessionWorkbenchParam{}, Reset: []string{"workbench"}}} {
		if _, err := r.MarshalJSON(); err == nil {
			t.Errorf("%+v marshalled", r)
		}
	}
	if !(UpdateSessionRequest{}).Empty() || (UpdateSessionRequest{Reset: []string{"workbench"}}).Empty() {
		t.Error("Empty")
	}
}

// A tool execution is never repeated: a 502 is answered as the error, with
// one request sent.
func TestExecuteToolIsNotRetried(t *testing.T) {
	var n atomic.Int32
	c, _ := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		writeJSON(w, http.StatusBadGateway, map[string]any{"error": map[string]any{"message": "bad gateway"}})
	})
	_, err := c.ExecuteTool(context.Background(), "GITHUB_A", ExecuteToolRequest{UserID: "u1"})
	var amb *AmbiguousWriteError
	if err == nil || n.Load() != 1 || !errors.As(err, &amb) && !IsStatus(err, http.StatusBadGateway) {
		t.Fatalf("err %v after %d requests", err, n.Load())
	}
}

// The session configs' list follows next_cursor and sends search and
// archived.
func TestListSessionConfigsPages(t *testing.T) {
	var calls atomic.Int32
	c, rec := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			writeJSON(w, 200, map[string]any{"items": []any{map[string]any{"id": "sc_1", "name": "a"}}, "next_cursor": "c2"})
			return
		}
		writeJSON(w, 200, map[string]any{"items": []any{map[string]any{"id": "sc_2", "name": "b", "archived": true}}, "next_cursor": nil})
	})
	got, err := c.ListSessionConfigs(context.Background(), SessionConfigListParams{Search: "sup", Archived: true})
	if err != nil || len(got) != 2 || got[1].ID != "sc_2" || !got[1].Archived {
		t.Fatalf("%v %+v", err, got)
	}
	first := rec.all()[0]
	assertQuery(t, first.Query, map[string]string{"search": "sup", "archived": "true"})
	if rec.all()[1].Query.Get("cursor") != "c2" {
		t.Errorf("second page: %v", rec.all()[1].Query)
	}
}
