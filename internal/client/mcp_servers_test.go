package client

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"
)

const mcpServerJSON = `{"id":"6f1c2c9e-1111-4111-8111-111111111111","name":"Team","auth_config_ids":["ac_1","ac_2"],
"allowed_tools":["GITHUB_GET_A_REPOSITORY"],"mcp_url":"https://x/v3/mcp/6f1c/mcp","toolkits":["github","gmail"],
"toolkit_icons":{"github":"https://l/github"},"commands":{"cursor":"c","claude":"cl","windsurf":"w"},
"updated_at":"2026-01-02T00:00:00.000Z","created_at":"2026-01-01T00:00:00.000Z","server_instance_count":2,
"managed_auth_via_composio":true,"deleted":false}`

func checkMCPServer(t *testing.T, got any) {
	t.Helper()
	m := got.(*MCPServer)
	if m.ID == "" || m.Name != "Team" || len(m.AuthConfigIDs) != 2 || m.AllowedTools[0] != "GITHUB_GET_A_REPOSITORY" ||
		m.Toolkits[1] != "gmail" || m.ToolkitIcons["github"] == "" || m.Commands.Claude != "cl" || m.ServerInstanceCount != 2 ||
		!m.ManagedAuthViaComposio || m.CreatedAt == "" || m.UpdatedAt == "" || m.MCPURL == "" {
		t.Errorf("%+v", m)
	}
}

func TestMCPServerOperations(t *testing.T) {
	runOpCases(t, []opCase{
		{
			name: "create",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.CreateMCPServer(ctx, CreateMCPServerRequest{Name: "Team", AuthConfigIDs: []string{"ac_1", "ac_2"},
					AllowedTools: []string{"GITHUB_GET_A_REPOSITORY"}, NoAuthApps: []string{"weather"}, ManagedAuthViaComposio: ptr(true)})
			},
			status: 201, reply: mcpServerJSON, method: "POST", path: "/api/v3.1/mcp/servers",
			body:      `{"name":"Team","auth_config_ids":["ac_1","ac_2"],"no_auth_apps":["weather"],"allowed_tools":["GITHUB_GET_A_REPOSITORY"],"managed_auth_via_composio":true}`,
			checkResp: checkMCPServer,
		},
		{
			name: "create minimal sends auth_config_ids",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.CreateMCPServer(ctx, CreateMCPServerRequest{Name: "Only weather", NoAuthApps: []string{"weather"}})
			},
			status: 201, reply: mcpServerJSON, method: "POST", path: "/api/v3.1/mcp/servers",
			body: `{"name":"Only weather","auth_config_ids":[],"no_auth_apps":["weather"]}`,
		},
		{
			name:   "get",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.GetMCPServer(ctx, "a/b") },
			reply:  mcpServerJSON,
			method: "GET", path: "/api/v3.1/mcp/a/b", checkResp: checkMCPServer,
		},
		{
			name: "update sends only what is set; empty allowed_tools is sent",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.UpdateMCPServer(ctx, "s1", UpdateMCPServerRequest{Name: ptr("New"), Toolkits: []string{"github"}, AllowedTools: []string{}})
			},
			reply: mcpServerJSON, method: "PATCH", path: "/api/v3.1/mcp/s1",
			body: `{"name":"New","toolkits":["github"],"allowed_tools":[]}`, checkResp: checkMCPServer,
		},
		{
			name:   "delete",
			call:   func(ctx context.Context, c *Client) (any, error) { return nil, c.DeleteMCPServer(ctx, "s1") },
			reply:  `{"id":"s1","deleted":true}`,
			method: "DELETE", path: "/api/v3.1/mcp/s1",
		},
		{
			name: "list with filters",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.ListMCPServers(ctx, MCPServerListParams{Name: "Te", Toolkits: []string{"github", "gmail"}, AuthConfigIDs: []string{"ac_1"},
					OrderBy: "updated_at", OrderDirection: "asc", Limit: 5})
			},
			reply:  `{"items":[` + mcpServerJSON + `],"total_pages":1,"current_page":1}`,
			method: "GET", path: "/api/v3.1/mcp/servers",
			query: map[string]string{"name": "Te", "toolkits": "github,gmail", "auth_config_ids": "ac_1", "order_by": "updated_at",
				"order_direction": "asc", "limit": "5", "page_no": "1"},
			checkResp: func(t *testing.T, got any) {
				l := got.([]MCPServer)
				if len(l) != 1 {
					t.Fatalf("%+v", l)
				}
				checkMCPServer(t, &l[0])
			},
		},
	})
}

func TestListMCPServersReadsEveryPage(t *testing.T) {
	c, rec := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		page := r.URL.Query().Get("page_no")
		writeJSON(w, http.StatusOK, map[string]any{
			"items":       []map[string]any{{"id": "s" + page, "name": "n" + page}},
			"total_pages": 3, "current_page": page,
		})
	})
	got, err := c.ListMCPServers(context.Background(), MCPServerListParams{Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0].ID != "s1" || got[2].ID != "s3" || rec.count() != 3 {
		t.Fatalf("got %+v after %d requests", got, rec.count())
	}
}

// pagedMCPServers serves total MCP servers in pages of size by page_no
// (s0, s1, ...); a page_no in failOn answers 500.
func pagedMCPServers(total, size int, failOn ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		page, _ := strconv.Atoi(r.URL.Query().Get("page_no"))
		if slices.Contains(failOn, r.URL.Query().Get("page_no")) {
			writeJSON(w, http.StatusInternalServerError, map[string]any{"error": map[string]any{"message": "boom", "status": 500}})
			return
		}
		items := []map[string]any{}
		for i := (page - 1) * size; i < page*size && i < total; i++ {
			items = append(items, map[string]any{"id": fmt.Sprintf("s%d", i), "name": fmt.Sprintf("n%d", i)})
		}
		writeJSON(w, http.StatusOK, map[string]any{"items": items, "total_pages": (total + size - 1) / size, "current_page": page})
	}
}

// MCPServersIter requests a page only when the items before it are consumed,
// sends the filters on every page, and stops after the last page.
func TestMCPServersIterFetchesLazily(t *testing.T) {
	p := MCPServerListParams{Name: "Te", Toolkits: []string{"github", "slack"}, AuthConfigIDs: []string{"ac_1"}}
	for _, tc := range []struct {
		stopAfter, wantItems, wantRequests int
	}{
		{stopAfter: 1, wantItems: 1, wantRequests: 1},
		{stopAfter: 3, wantItems: 3, wantRequests: 1}, // the whole first page: no second request
		{stopAfter: 4, wantItems: 4, wantRequests: 2},
		{stopAfter: 0, wantItems: 7, wantRequests: 3}, // 0: read everything
	} {
		c, rec := newTestClient(t, pagedMCPServers(7, 3))
		var ids []string
		for m, err := range c.MCPServersIter(context.Background(), p) {
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, m.ID)
			if len(ids) == tc.stopAfter {
				break
			}
		}
		if len(ids) != tc.wantItems || rec.count() != tc.wantRequests || ids[len(ids)-1] != fmt.Sprintf("s%d", tc.wantItems-1) {
			t.Errorf("stop after %d: got %v after %d requests; want %d items, %d requests", tc.stopAfter, ids, rec.count(), tc.wantItems, tc.wantRequests)
		}
		for i, r := range rec.all() {
			if r.Path != "/api/v3.1/mcp/servers" || r.Query.Get("page_no") != strconv.Itoa(i+1) || r.Query.Get("name") != "Te" ||
				r.Query.Get("toolkits") != "github,slack" || r.Query.Get("auth_config_ids") != "ac_1" {
				t.Errorf("request %d: %s %v", i+1, r.Path, r.Query)
			}
		}
	}
}

// An error on a later page comes after the items of the pages before it,
// once, and ends the iteration; ListMCPServers returns it.
func TestMCPServersIterErrorMidway(t *testing.T) {
	c, rec := newTestClient(t, pagedMCPServers(7, 3, "2"), func(cfg *Config) { cfg.MaxRetries = -1 })
	var ids []string
	var errs []error
	for m, err := range c.MCPServersIter(context.Background(), MCPServerListParams{}) {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		ids = append(ids, m.ID)
	}
	if len(ids) != 3 || len(errs) != 1 || !IsStatus(errs[0], 500) || rec.count() != 2 {
		t.Fatalf("ids %v, errors %v, %d requests", ids, errs, rec.count())
	}
	if got, err := c.ListMCPServers(context.Background(), MCPServerListParams{}); !IsStatus(err, 500) || got != nil {
		t.Fatalf("ListMCPServers: %v, %v", got, err)
	}
}

func TestGetMCPServerNotFound(t *testing.T) {
	c, _ := newTestClient(t, replyJSON(404, `{"error":{"message":"MCP server \"x\" not found","code":1500,"status":404,"request_id":"req_1"}}`))
	_, err := c.GetMCPServer(context.Background(), "x")
	if !IsNotFound(err) {
		t.Fatalf("want not found, got %v", err)
	}
}

// TestCreateMCPServerReconcilesByName: the create is committed and the
// connection drops; the server named exactly like the request and created
// since it was sent is adopted, one with another name is not, and nothing is
// created twice.
func TestCreateMCPServerReconcilesByName(t *testing.T) {
	var mu sync.Mutex
	var posts, lists int
	old := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339Nano)
	items := []map[string]any{
		{"id": "s-old", "name": "Team", "created_at": old},                                           // same name, made before: not ours
		{"id": "s-other", "name": "Team 2", "created_at": time.Now().UTC().Format(time.RFC3339Nano)}, // substring match only
	}
	c, _ := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if r.Method == http.MethodGet {
			lists++
			if r.URL.Query().Get("name") != "Team" {
				t.Errorf("reconcile list query = %v, want name=Team", r.URL.Query())
			}
			writeJSON(w, 200, map[string]any{"items": items, "total_pages": 1, "current_page": 1})
			return
		}
		posts++
		items = append(items, map[string]any{"id": "s-new", "name": "Team", "created_at": time.Now().UTC().Format(time.RFC3339Nano)})
		hangUp(w, r)
	})
	got, err := c.CreateMCPServer(context.Background(), CreateMCPServerRequest{Name: "Team", AuthConfigIDs: []string{"ac_1"}})
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != "s-new" || posts != 1 || lists != 1 {
		t.Fatalf("got %s after %d creates and %d lists; want s-new adopted after one create and one list", got.ID, posts, lists)
	}
}
