package client

import (
	"context"
	"testing"
)

const sessionJSON = `{"session_id":"trs_1","mcp":{"type":"http","url":"http://127.0.0.1/tool_router/trs_1/mcp"},"tool_router_tools":["COMPOSIO_SEARCH_TOOLS"],"config":{"user_id":"u1"}}`

func TestToolRouterOperations(t *testing.T) {
	runOpCases(t, []opCase{
		{
			name: "create",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.CreateToolRouterSession(ctx, ToolRouterSessionRequest{UserID: "u1", Toolkits: []string{"github", "slack"}, ManageConnections: ptr(false)})
			},
			status: 201, reply: sessionJSON,
			method: "POST", path: "/api/v3.1/tool_router/session",
			body: `{"user_id":"u1","toolkits":{"enable":["github","slack"]},"manage_connections":{"enable":false}}`,
			checkResp: func(t *testing.T, got any) {
				s := got.(*ToolRouterSession)
				if s.SessionID != "trs_1" || s.MCP.Type != "http" || s.MCP.URL != "http://127.0.0.1/tool_router/trs_1/mcp" || s.ToolRouterTools[0] != "COMPOSIO_SEARCH_TOOLS" || s.Config["user_id"] != "u1" {
					t.Errorf("%+v", s)
				}
			},
		},
		{
			name: "create minimal",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.CreateToolRouterSession(ctx, ToolRouterSessionRequest{UserID: "u1"})
			},
			status: 201, reply: sessionJSON,
			method: "POST", path: "/api/v3.1/tool_router/session",
			body: `{"user_id":"u1"}`,
		},
		{
			name:   "get",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.GetToolRouterSession(ctx, "trs_1") },
			reply:  sessionJSON,
			method: "GET", path: "/api/v3.1/tool_router/session/trs_1",
			checkResp: func(t *testing.T, got any) {
				if got.(*ToolRouterSession).MCP.URL == "" {
					t.Error("no MCP url")
				}
			},
		},
	})
}
