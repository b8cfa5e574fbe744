package contract

import (
	"context"
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
	_, err = c.ListMCPServersForApp(ctx, "github", client.MCPServerListParams{Limit: 5})
	must("list MCP servers for app", err)

	custom, err := c.CreateCustomMCPServer(ctx, client.CustomMCPServerRequest{Name: "client mcp custom", Toolkits: []string{"slack"}, ManagedAuthViaComposio: &no})
	must("create custom MCP server", err)

	_, err = c.CreateMCPInstance(ctx, m.ID, "client-mcp-user")
	must("create MCP instance", err)
	_, err = c.ListMCPInstances(ctx, m.ID, client.MCPInstanceListParams{Search: "client", OrderBy: "created_at", OrderDirection: "asc", Limit: 1})
	must("list MCP instances", err)
	_, err = c.GenerateMCPURL(ctx, client.GenerateMCPURLRequest{MCPServerID: m.ID, UserIDs: []string{"client-mcp-user"}, ManagedAuthByComposio: &no})
	must("generate MCP URL", err)
	_, err = c.DeleteMCPInstance(ctx, m.ID, "client-mcp-user")
	must("delete MCP instance", err)

	must("delete MCP server", c.DeleteMCPServer(ctx, m.ID))
	must("delete custom MCP server", c.DeleteMCPServer(ctx, custom.ID))
}
