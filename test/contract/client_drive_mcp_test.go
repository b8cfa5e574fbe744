package contract

import (
	"context"
	"net/http"
	"net/url"
	"testing"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

// driveMCPClient calls every MCP operation of the Go client as the
// provider's service_mcp_server resource and data sources send them.
func driveMCPClient(t *testing.T, baseURL string) {
	t.Helper()
	ctx := context.Background()
	c, must := newDriveClient(t, baseURL)
	no, name := false, "client mcp renamed"
	gh, err := c.CreateAuthConfig(ctx, client.CreateAuthConfigRequest{ToolkitSlug: "github", Name: "client mcp github"})
	must("create auth config", err)
	gm, err := c.CreateAuthConfig(ctx, client.CreateAuthConfigRequest{ToolkitSlug: "gmail", Name: "client mcp gmail"})
	must("create auth config", err)

	m, err := c.CreateMCPServer(ctx, client.CreateMCPServerRequest{
		Name: "client mcp", AuthConfigIDs: []string{gh.ID, gm.ID}, AllowedTools: []string{"GITHUB_CREATE_AN_ISSUE"}, ManagedAuthViaComposio: &no,
	})
	must("create MCP server", err)
	_, err = c.GetMCPServer(ctx, m.ID)
	must("get MCP server", err)
	_, err = c.UpdateMCPServer(ctx, m.ID, client.UpdateMCPServerRequest{
		Name: &name, AuthConfigIDs: []string{gh.ID}, Toolkits: []string{"github"}, AllowedTools: []string{}, ManagedAuthViaComposio: &no,
	})
	must("update MCP server", err)
	_, err = c.ListMCPServers(ctx, client.MCPServerListParams{Name: "client", Toolkits: []string{"github"}, AuthConfigIDs: []string{gh.ID}, OrderBy: "created_at", OrderDirection: "desc", Limit: 1})
	must("list MCP servers", err)

	// The servers of an app, custom servers and instances: the provider does
	// not use them, so the Go client has no method for them; the same
	// requests are sent raw.
	raw := rawDriver(t, baseURL)
	raw.must(http.MethodGet, "/mcp/app/github", url.Values{"limit": {"5"}, "page_no": {"1"}}, nil)

	custom := raw.must(http.MethodPost, "/mcp/servers/custom", nil, map[string]any{
		"name": "client mcp custom", "toolkits": []string{"slack"}, "managed_auth_via_composio": false})

	instances := "/mcp/servers/" + url.PathEscape(m.ID) + "/instances"
	raw.must(http.MethodPost, instances, nil, map[string]any{"user_id": "client-mcp-user"})
	raw.must(http.MethodGet, instances, url.Values{"search": {"client"}, "order_by": {"created_at"}, "order_direction": {"asc"}, "limit": {"1"}, "page_no": {"1"}}, nil)
	raw.must(http.MethodPost, "/mcp/servers/generate", nil, map[string]any{
		"mcp_server_id": m.ID, "managed_auth_by_composio": false, "user_ids": []string{"client-mcp-user"}})
	raw.must(http.MethodDelete, instances+"/client-mcp-user", nil, nil)

	must("delete MCP server", c.DeleteMCPServer(ctx, m.ID))
	must("delete custom MCP server", c.DeleteMCPServer(ctx, custom.str("id")))
}
