package client

import (
	"context"
	"net/http"
)

// ToolRouterSessionRequest creates a tool-router session. Toolkits nil
// leaves the server default (all); ManageConnections nil leaves the server
// default (enabled).
type ToolRouterSessionRequest struct {
	UserID            string
	Toolkits          []string
	ManageConnections *bool
}

// SessionMCP is a session's MCP endpoint.
type SessionMCP struct {
	Type string `json:"type"`
	URL  string `json:"url"`
}

// ToolRouterSession is a tool-router session.
type ToolRouterSession struct {
	SessionID       string         `json:"session_id"`
	MCP             SessionMCP     `json:"mcp"`
	ToolRouterTools []string       `json:"tool_router_tools"`
	Config          map[string]any `json:"config"`
}

type enableList struct {
	Enable []string `json:"enable"`
}

type enableFlag struct {
	Enable bool `json:"enable"`
}

// CreateToolRouterSession sends POST /tool_router/session.
func (c *Client) CreateToolRouterSession(ctx context.Context, r ToolRouterSessionRequest) (*ToolRouterSession, error) {
	body := struct {
		UserID            string      `json:"user_id"`
		Toolkits          *enableList `json:"toolkits,omitempty"`
		ManageConnections *enableFlag `json:"manage_connections,omitempty"`
	}{UserID: r.UserID}
	if r.Toolkits != nil {
		body.Toolkits = &enableList{Enable: r.Toolkits}
	}
	if r.ManageConnections != nil {
		body.ManageConnections = &enableFlag{Enable: *r.ManageConnections}
	}
	var out ToolRouterSession
	if err := c.do(ctx, http.MethodPost, "/tool_router/session", nil, body, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// GetToolRouterSession sends GET /tool_router/session/{id}.
func (c *Client) GetToolRouterSession(ctx context.Context, id string) (*ToolRouterSession, error) {
	var out ToolRouterSession
	if err := c.do(ctx, http.MethodGet, "/tool_router/session/"+escape(id), nil, nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
