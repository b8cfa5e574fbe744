package client

import (
	"context"
	"testing"
)

func TestCustomToolkitOperations(t *testing.T) {
	runOpCases(t, []opCase{
		{
			name: "upsert api key toolkit",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.UpsertCustomToolkit(ctx, "acme", CustomToolkitConfig{
					Name: "Acme", AppURL: "https://mcp.example.com/mcp",
					AuthSchemes: []CustomAuthScheme{{Mode: CustomAuthAPIKey, Headers: map[string]string{"Authorization": "Bearer " + CustomAPIKeyPlaceholder}}},
				})
			},
			reply:  `{"slug":"CUSTOM_ACME"}`,
			method: "POST", path: "/api/v3.1/custom/toolkits/upsert",
			body: `{"slug":"acme","toolkit_config":{"name":"Acme","app_url":"https://mcp.example.com/mcp","auth_schemes":[{"mode":"API_KEY","headers":{"Authorization":"Bearer {{generic_api_key}}"}}]}}`,
			checkResp: func(t *testing.T, got any) {
				if got.(string) != "CUSTOM_ACME" {
					t.Errorf("slug = %v", got)
				}
			},
		},
		{
			name: "upsert dcr toolkit",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.UpsertCustomToolkit(ctx, "x", CustomToolkitConfig{Name: "X", AppURL: "https://x.example/mcp",
					AuthSchemes: []CustomAuthScheme{{Mode: CustomAuthDCROAuth, DiscoveryURL: "https://x.example/.well-known/oauth-authorization-server"}}})
			},
			reply:  `{"slug":"CUSTOM_X"}`,
			method: "POST", path: "/api/v3.1/custom/toolkits/upsert",
			body: `{"slug":"x","toolkit_config":{"name":"X","app_url":"https://x.example/mcp","auth_schemes":[{"mode":"DCR_OAUTH","discovery_url":"https://x.example/.well-known/oauth-authorization-server"}]}}`,
		},
		{
			name: "rename",
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.UpdateCustomToolkit(ctx, "CUSTOM_ACME", UpdateCustomToolkitRequest{Name: ptr("Acme 2")})
			},
			reply:  `{"slug":"CUSTOM_ACME"}`,
			method: "PATCH", path: "/api/v3.1/custom/toolkits/CUSTOM_ACME",
			body: `{"name":"Acme 2"}`,
		},
		{
			name:   "sync without account",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.SyncCustomToolkit(ctx, "CUSTOM_ACME", "") },
			reply:  `{"slug":"CUSTOM_ACME","version":"20260728_00","synced_count":3}`,
			method: "POST", path: "/api/v3.1/custom/toolkits/sync",
			body: `{"slug":"CUSTOM_ACME"}`,
			checkResp: func(t *testing.T, got any) {
				if s := got.(*CustomToolkitSync); s.SyncedCount != 3 || s.Version != "20260728_00" {
					t.Errorf("%+v", s)
				}
			},
		},
		{
			name: "delete",
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.DeleteCustomToolkit(ctx, "CUSTOM_ACME")
			},
			reply:  `{"slug":"CUSTOM_ACME","deleted":true,"revoke_job_ids":[],"auth_configs_soft_deleted":0,"connected_accounts_soft_deleted":0}`,
			method: "DELETE", path: "/api/v3.1/custom/toolkits/CUSTOM_ACME",
		},
	})
}
