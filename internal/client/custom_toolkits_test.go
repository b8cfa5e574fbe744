package client

import (
	"context"
	"encoding/json"
	"maps"
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
					Name: "Acme", MCPURL: "https://mcp.example.com/mcp",
					AuthSchemes: []CustomAuthScheme{{Mode: CustomAuthAPIKey, Headers: map[string]string{"Authorization": "Bearer " + CustomAPIKeyPlaceholder}}},
				})
			},
			reply:  `{"slug":"CUSTOM_ACME"}`,
			method: "POST", path: "/api/v3.1/custom/toolkits/upsert",
			body: `{"slug":"acme","toolkit_config":{"name":"Acme","mcp_url":"https://mcp.example.com/mcp","auth_schemes":[{"mode":"API_KEY","headers":{"Authorization":"Bearer {{generic_api_key}}"}}]}}`,
			checkResp: func(t *testing.T, got any) {
				if got.(string) != "CUSTOM_ACME" {
					t.Errorf("slug = %v", got)
				}
			},
		},
		{
			name: "create sends the URL as mcp_url only, shared with every user",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.CreateCustomToolkit(ctx, "acme", CustomToolkitConfig{Name: "Acme", MCPURL: "https://mcp.example.com/mcp",
					AuthSchemes: []CustomAuthScheme{{Mode: CustomAuthNoAuth}}})
			},
			reply:  `{"slug":"CUSTOM_ACME"}`,
			method: "POST", path: "/api/v3.1/custom/toolkits",
			body: `{"slug":"acme","user_id":"all","toolkit_config":{"name":"Acme","mcp_url":"https://mcp.example.com/mcp","auth_schemes":[{"mode":"NO_AUTH"}]}}`,
		},
		{
			name: "upsert dcr toolkit",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.UpsertCustomToolkit(ctx, "x", CustomToolkitConfig{Name: "X", MCPURL: "https://x.example/mcp",
					AuthSchemes: []CustomAuthScheme{{Mode: CustomAuthDCROAuth, DiscoveryURL: "https://x.example/.well-known/oauth-authorization-server"}}})
			},
			reply:  `{"slug":"CUSTOM_X"}`,
			method: "POST", path: "/api/v3.1/custom/toolkits/upsert",
			body: `{"slug":"x","toolkit_config":{"name":"X","mcp_url":"https://x.example/mcp","auth_schemes":[{"mode":"DCR_OAUTH","discovery_url":"https://x.example/.well-known/oauth-authorization-server"}]}}`,
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
// adopts it instead of creating again (which would answer 409), whichever
// name the service reports the MCP server URL under.
func TestCreateCustomToolkitReconciles(t *testing.T) {
	for name, meta := range map[string]map[string]any{
		"mcp_url":      {"mcp_url": "https://mcp.example.com/mcp"},
		"app_url only": {"app_url": "https://mcp.example.com/mcp"},
		"both":         {"mcp_url": "https://mcp.example.com/mcp", "app_url": "https://mcp.example.com/mcp"},
	} {
		t.Run(name, func(t *testing.T) {
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
					m := maps.Clone(meta)
					m["created_at"] = created
					writeJSON(w, 200, map[string]any{"slug": "CUSTOM_ACME", "name": "Acme", "type": "custom", "meta": m})
				}
			})
			slug, err := c.CreateCustomToolkit(context.Background(), "acme", CustomToolkitConfig{Name: "Acme", MCPURL: "https://mcp.example.com/mcp",
				AuthSchemes: []CustomAuthScheme{{Mode: CustomAuthNoAuth}}})
			if err != nil {
				t.Fatal(err)
			}
			if slug != "CUSTOM_ACME" || posts != 1 {
				t.Fatalf("slug %q after %d POSTs, want CUSTOM_ACME after 1", slug, posts)
			}
		})
	}
}

// The toolkit's URL is meta.mcp_url when the service reports it, else
// meta.app_url.
func TestToolkitMetaURL(t *testing.T) {
	for _, tc := range []struct{ meta, want string }{
		{`{"mcp_url":"https://new.example/mcp"}`, "https://new.example/mcp"},
		{`{"app_url":"https://old.example/mcp"}`, "https://old.example/mcp"},
		{`{"app_url":"https://old.example/mcp","mcp_url":"https://new.example/mcp"}`, "https://new.example/mcp"},
		{`{"app_url":null,"mcp_url":null}`, ""},
	} {
		var m ToolkitMeta
		if err := json.Unmarshal([]byte(tc.meta), &m); err != nil {
			t.Fatal(err)
		}
		if got := m.URL(); got != tc.want {
			t.Errorf("%s: URL() = %q, want %q", tc.meta, got, tc.want)
		}
	}
}

// UpsertCustomToolkit registers a custom toolkit under slug (POST
// /custom/toolkits/upsert) and returns the slug the service gives it
// (CUSTOM_ + the upper-cased slug). Repeating it with the same MCP server
// URL and auth schemes is a no-op that may rename the toolkit, so it is safe
// to retry; a different URL or auth scheme answers 409.
func (c *Client) UpsertCustomToolkit(ctx context.Context, slug string, cfg CustomToolkitConfig) (string, error) {
	var out struct {
		Slug string `json:"slug"`
	}
	// Idempotent (write policy, transport.go): retried like a read.
	if err := c.doKind(ctx, opIdempotent, http.MethodPost, "/custom/toolkits/upsert", nil, customToolkitBody{Slug: slug, ToolkitConfig: cfg}, &out); err != nil {
		return "", err
	}
	return out.Slug, nil
}

// CustomToolkitSync is the answer of SyncCustomToolkit.
type CustomToolkitSync struct {
	Slug        string `json:"slug"`
	Version     string `json:"version"`
	SyncedCount int    `json:"synced_count"`
}

// SyncCustomToolkit re-reads a custom toolkit's tools from its MCP server
// (POST /custom/toolkits/sync); connectedAccountID is needed for toolkits
// with auth ("" sends none).
func (c *Client) SyncCustomToolkit(ctx context.Context, slug, connectedAccountID string) (*CustomToolkitSync, error) {
	body := struct {
		Slug               string `json:"slug"`
		ConnectedAccountID string `json:"connected_account_id,omitempty"`
	}{slug, connectedAccountID}
	var out CustomToolkitSync
	// Idempotent: it re-reads the tools, so it is retried like a read.
	if err := c.doKind(ctx, opIdempotent, http.MethodPost, "/custom/toolkits/sync", nil, body, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
