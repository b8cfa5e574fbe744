package client

import (
	"context"
	"testing"
)

func TestToolOperations(t *testing.T) {
	runOpCases(t, []opCase{
		{
			name: "list by toolkit with version",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.ListTools(ctx, ToolListParams{ToolkitSlug: "github", Versions: &ToolkitVersions{PerToolkit: map[string]string{"github": "20251015_00"}}, Limit: 200})
			},
			reply:  `{"items":[{"slug":"GITHUB_CREATE_ISSUE","name":"Create issue","description":"d","version":"20251015_00","toolkit":{"slug":"github","name":"GitHub"},"input_parameters":{"type":"object"},"output_parameters":{},"tags":["write"],"scopes":["repo"],"available_versions":["20251015_00"],"no_auth":false,"is_deprecated":false}],"next_cursor":null}`,
			method: "GET", path: "/api/v3.1/tools",
			query: map[string]string{"toolkit_slug": "github", "toolkit_versions[github]": "20251015_00", "limit": "200"},
			checkResp: func(t *testing.T, got any) {
				l := got.([]Tool)
				if len(l) != 1 || l[0].Slug != "GITHUB_CREATE_ISSUE" || l[0].Tags[0] != "write" || l[0].InputParameters["type"] != "object" {
					t.Errorf("%+v", l)
				}
			},
		},
		{
			name: "list default version latest",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.ListTools(ctx, ToolListParams{ToolkitSlug: "slack"})
			},
			reply:  `{"items":[]}`,
			method: "GET", path: "/api/v3.1/tools",
			query: map[string]string{"toolkit_slug": "slack", "toolkit_versions": "latest"},
		},
	})
}
