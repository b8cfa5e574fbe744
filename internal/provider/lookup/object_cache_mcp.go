package lookup

import (
	"context"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

// ToolkitTools returns the tools of toolkit slug at the provider's configured
// version for it (every page of GET /tools?toolkit_slug=...), fetched at most
// once per provider process. Callers must not modify the returned slice.
func (c *ObjectCache) ToolkitTools(ctx context.Context, slug string) ([]client.Tool, error) {
	return onceToolkitList(ctx, c, c.tools, slug, func(ctx context.Context, slug string, pin *client.ToolkitVersions) ([]client.Tool, error) {
		return c.fetch.Tools(ctx, client.ToolListParams{ToolkitSlug: slug, Limit: 1000, Versions: pin})
	})
}

// AuthConfigToolkit returns the toolkit slug of auth config id through the
// cached AuthConfig (an auth config never changes toolkit). The error is the
// client's (client.IsNotFound for an unknown id).
func (c *ObjectCache) AuthConfigToolkit(ctx context.Context, id string) (string, error) {
	ac, err := c.AuthConfig(ctx, id)
	if err != nil {
		return "", err
	}
	return ac.Toolkit.Slug, nil
}

// MCPServers returns the project's MCP servers (every page of GET
// /mcp/servers), listed at most once per provider process, for the plan-time
// check that a new or renamed server's name is free. Callers must not modify
// the returned slice.
func (c *ObjectCache) MCPServers(ctx context.Context) ([]client.MCPServer, error) {
	return onceList(ctx, &c.mu, c.mcpServers, "", func(ctx context.Context) ([]client.MCPServer, error) {
		if c.fetch.MCPServers == nil {
			return []client.MCPServer{}, nil
		}
		return c.fetch.MCPServers(ctx, client.MCPServerListParams{})
	})
}
