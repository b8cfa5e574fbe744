package contract

import (
	"fmt"
	"net/url"
)

// walkMCP drives every mcp operation: servers over managed auth configs
// (restricted and all tools), a custom server, generated URLs, lists with
// filters over several pages, the per-app list, updates, per-user instances,
// deletes, and requests the service refuses.
func (w *walker) walkMCP() {
	w.t.Helper()
	ac := func(toolkit string) string {
		return w.must("POST", "/auth_configs", nil, map[string]any{
			"toolkit": map[string]any{"slug": toolkit}, "auth_config": map[string]any{"type": "use_composio_managed_auth"},
		}).str("auth_config", "id")
	}
	gh, gm := ac("github"), ac("gmail")
	var ids []string
	for i, body := range []map[string]any{
		{"name": "walk mcp 0", "auth_config_ids": []string{gh, gm}, "allowed_tools": []string{"GITHUB_CREATE_AN_ISSUE", "GMAIL_SEND_EMAIL"}},
		{"name": "walk mcp 1", "auth_config_ids": []string{gh}, "managed_auth_via_composio": true, "no_auth_apps": []string{}},
		{"name": "walk mcp 2", "auth_config_ids": []string{gm}},
	} {
		r := w.must("POST", "/mcp/servers", nil, body)
		ids = append(ids, r.str("id"))
		if r.str("id") == "" {
			w.t.Fatalf("walk: MCP server %d has no id", i)
		}
	}
	custom := w.must("POST", "/mcp/servers/custom", nil, map[string]any{
		"name": "walk mcp custom", "toolkits": []string{"slack"}, "auth_config_ids": []string{gh}, "allowed_tools": []string{"SLACK_SEND_MESSAGE"},
	}).str("id")

	for page := 1; page <= 4; page++ {
		w.must("GET", "/mcp/servers", url.Values{"limit": {"1"}, "page_no": {fmt.Sprint(page)}, "order_by": {"updated_at"}, "order_direction": {"asc"}}, nil)
	}
	w.must("GET", "/mcp/servers", url.Values{"name": {"walk"}, "toolkits": {"github,gmail"}, "auth_config_ids": {gh}}, nil)
	w.must("GET", "/mcp/app/github", url.Values{"limit": {"2"}, "order_by": {"created_at"}}, nil)
	w.must("GET", "/mcp/"+ids[0], nil, nil)
	w.must("PATCH", "/mcp/"+ids[0], nil, map[string]any{"name": "walk mcp renamed", "allowed_tools": []string{"GITHUB_GET_A_REPOSITORY"}})
	w.must("PATCH", "/mcp/"+ids[1], nil, map[string]any{"auth_config_ids": []string{gh, gm}, "toolkits": []string{"github", "gmail"}, "managed_auth_via_composio": false})

	w.must("POST", "/mcp/servers/"+ids[0]+"/instances", nil, map[string]any{"user_id": "walk-mcp-user"})
	w.must("POST", "/mcp/servers/"+ids[0]+"/instances", nil, map[string]any{"user_id": "walk-mcp-user-2"})
	w.must("GET", "/mcp/servers/"+ids[0]+"/instances", url.Values{"limit": {"1"}, "page_no": {"2"}}, nil)
	w.must("GET", "/mcp/servers/"+ids[0]+"/instances", url.Values{"search": {"user-2"}, "order_direction": {"desc"}}, nil)
	w.must("POST", "/mcp/servers/generate", nil, map[string]any{"mcp_server_id": ids[0], "user_ids": []string{"walk-mcp-user"}, "managed_auth_by_composio": false})
	w.must("DELETE", "/mcp/servers/"+ids[0]+"/instances/walk-mcp-user", nil, nil)
	w.must("GET", "/mcp/"+ids[0], nil, nil) // server_instance_count 1

	w.reject("a too short MCP server name", "POST", "/mcp/servers", nil, map[string]any{"name": "abc", "auth_config_ids": []string{gh}})
	w.reject("an MCP server name with underscores", "POST", "/mcp/servers", nil, map[string]any{"name": "bad_name", "auth_config_ids": []string{gh}})
	w.reject("an MCP server without auth_config_ids", "POST", "/mcp/servers", nil, map[string]any{"name": "no configs"})
	w.reject("an unknown auth config", "POST", "/mcp/servers", nil, map[string]any{"name": "unknown config", "auth_config_ids": []string{"ac_missing"}})
	w.reject("a tool of another toolkit", "POST", "/mcp/servers", nil, map[string]any{"name": "wrong tool", "auth_config_ids": []string{gh}, "allowed_tools": []string{"SLACK_SEND_MESSAGE"}})
	w.reject("a taken MCP server name", "POST", "/mcp/servers", nil, map[string]any{"name": "walk mcp 2", "auth_config_ids": []string{gh}})
	w.reject("an instance without user_id", "POST", "/mcp/servers/"+ids[0]+"/instances", nil, map[string]any{})
	w.reject("generate without mcp_server_id", "POST", "/mcp/servers/generate", nil, map[string]any{})
	w.do("GET", "/mcp/00000000-0000-4000-8000-000000000000", nil, nil)
	w.do("DELETE", "/mcp/servers/"+ids[0]+"/instances/nobody", nil, nil)

	for _, id := range append(ids, custom) {
		w.must("DELETE", "/mcp/"+id, nil, nil)
	}
}
