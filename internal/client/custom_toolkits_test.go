package client

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"
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

// TestCreateCustomToolkitReconciles: the service registers the toolkit and
// the connection drops before the answer; the client finds it by slug and
// adopts it instead of creating again (which would answer 409).
func TestCreateCustomToolkitReconciles(t *testing.T) {
	var mu sync.Mutex
	posts, created := 0, ""
	c, _ := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		switch r.Method {
		case http.MethodPost:
			posts++
			if created != "" {
				writeJSON(w, http.StatusConflict, map[string]any{"error": map[string]any{"message": "exists", "status": 409}})
				return
			}
			created = time.Now().UTC().Format(time.RFC3339Nano)
			hangUp(w, r)
		case http.MethodGet:
			if created == "" {
				writeJSON(w, http.StatusNotFound, map[string]any{"error": map[string]any{"message": "not found", "status": 404}})
				return
			}
			writeJSON(w, 200, map[string]any{"slug": "CUSTOM_ACME", "name": "Acme", "type": "custom",
				"meta": map[string]any{"app_url": "https://mcp.example.com/mcp", "created_at": created}})
		}
	})
	slug, err := c.CreateCustomToolkit(context.Background(), "acme", CustomToolkitConfig{Name: "Acme", AppURL: "https://mcp.example.com/mcp",
		AuthSchemes: []CustomAuthScheme{{Mode: CustomAuthNoAuth}}})
	if err != nil {
		t.Fatal(err)
	}
	if slug != "CUSTOM_ACME" || posts != 1 {
		t.Fatalf("slug %q after %d POSTs, want CUSTOM_ACME after 1", slug, posts)
	}
}
