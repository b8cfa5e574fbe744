package client

import (
	"context"
	"net/http"
	"net/url"
)

// MCPInstance is one user's instance of an MCP server; InstanceID is the
// user id.
type MCPInstance struct {
	ID          string `json:"id"`
	InstanceID  string `json:"instance_id"`
	MCPServerID string `json:"mcp_server_id"`
	CreatedAt   string `json:"created_at"`
	UpdatedAt   string `json:"updated_at"`
}

// CreateMCPInstance creates the instance of serverID for userID
// (POST /mcp/servers/{serverId}/instances).
func (c *Client) CreateMCPInstance(ctx context.Context, serverID, userID string) (*MCPInstance, error) {
	var out MCPInstance
	body := map[string]string{"user_id": userID}
	if err := c.do(ctx, http.MethodPost, "/mcp/servers/"+escape(serverID)+"/instances", nil, body, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// MCPInstanceListParams filters ListMCPInstances: Search matches a part of
// the user id or instance id; Limit is the page size (0 = server default).
type MCPInstanceListParams struct {
	Search         string
	OrderBy        string
	OrderDirection string
	Limit          int
}

// ListMCPInstances returns every instance of serverID matching p.
func (c *Client) ListMCPInstances(ctx context.Context, serverID string, p MCPInstanceListParams) ([]MCPInstance, error) {
	q := url.Values{}
	setString(q, "search", p.Search)
	setString(q, "order_by", p.OrderBy)
	setString(q, "order_direction", p.OrderDirection)
	setLimit(q, p.Limit)
	return pagesByNumber[MCPInstance](ctx, c, "/mcp/servers/"+escape(serverID)+"/instances", q)
}

// DeleteMCPInstance deletes a user's instance of serverID, and with it that
// user's connected accounts on the server's auth configs; it returns how many
// connected accounts were deleted.
func (c *Client) DeleteMCPInstance(ctx context.Context, serverID, instanceID string) (int, error) {
	var out struct {
		DeletedConnectedAccounts int `json:"deleted_connected_accounts"`
	}
	err := c.do(ctx, http.MethodDelete, "/mcp/servers/"+escape(serverID)+"/instances/"+escape(instanceID), nil, nil, &out)
	return out.DeletedConnectedAccounts, err
}

// GenerateMCPURLRequest is the body of POST /mcp/servers/generate.
type GenerateMCPURLRequest struct {
	MCPServerID           string   `json:"mcp_server_id"`
	ManagedAuthByComposio *bool    `json:"managed_auth_by_composio,omitempty"`
	UserIDs               []string `json:"user_ids,omitempty"`
	ConnectedAccountIDs   []string `json:"connected_account_ids,omitempty"`
}

// GeneratedMCPURLs are the server's base URL and one URL per user id and per
// connected account id, in request order.
type GeneratedMCPURLs struct {
	MCPURL               string   `json:"mcp_url"`
	ConnectedAccountURLs []string `json:"connected_account_urls"`
	UserIDsURL           []string `json:"user_ids_url"`
}

// GenerateMCPURL asks for the connection URLs of an MCP server. The service
// computes them and stores nothing, so the POST is an idempotent write under
// the write policy (transport.go): retried like a read.
func (c *Client) GenerateMCPURL(ctx context.Context, r GenerateMCPURLRequest) (*GeneratedMCPURLs, error) {
	var out GeneratedMCPURLs
	if err := c.doKind(ctx, opIdempotent, http.MethodPost, "/mcp/servers/generate", nil, r, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// CustomMCPServerRequest is the body of POST /mcp/servers/custom.
type CustomMCPServerRequest struct {
	Name                   string   `json:"name"`
	AuthConfigIDs          []string `json:"auth_config_ids,omitempty"`
	Toolkits               []string `json:"toolkits,omitempty"`
	AllowedTools           []string `json:"allowed_tools,omitempty"`
	ManagedAuthViaComposio *bool    `json:"managed_auth_via_composio,omitempty"`
}

// CreatedCustomMCPServer is the answer of POST /mcp/servers/custom.
type CreatedCustomMCPServer struct {
	ID            string      `json:"id"`
	Name          string      `json:"name"`
	AuthConfigIDs []string    `json:"auth_config_ids"`
	AllowedTools  []string    `json:"allowed_tools"`
	MCPURL        string      `json:"mcp_url"`
	Commands      MCPCommands `json:"commands"`
}

// CreateCustomMCPServer creates an MCP server over toolkits and/or auth
// configs (POST /mcp/servers/custom).
func (c *Client) CreateCustomMCPServer(ctx context.Context, r CustomMCPServerRequest) (*CreatedCustomMCPServer, error) {
	var out CreatedCustomMCPServer
	if err := c.do(ctx, http.MethodPost, "/mcp/servers/custom", nil, r, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
