package emulator

import (
	"strings"
	"testing"
)

func TestSessionTools(t *testing.T) {
	e := newEnv(t, Options{})
	id := e.must(201, "POST", v+"/tool_router/session", map[string]any{"user_id": "u1", "toolkits": []any{"github"}}).str("session_id")
	for _, prefix := range []string{"/api/v3", "/api/v3.1"} {
		r := e.must(200, "GET", prefix+"/tool_router/session/"+id+"/tools", nil)
		items := r.items()
		if len(items) != len(toolRouterTools) || r.get("next_cursor") != nil {
			t.Fatalf("tools page: %s", r.raw)
		}
		for _, it := range items {
			in, _ := it["input_parameters"].(map[string]any)
			if it["slug"] == "" || it["name"] == "" || it["description"] == "" || in["type"] != "object" || it["toolkit"] == nil {
				t.Fatalf("tool shape: %v", it)
			}
		}
	}
	e.mustErr(404, "not found", "GET", v+"/tool_router/session/trs_nope/tools", nil)
	e.mustErr(400, "trs_", "GET", v+"/tool_router/session/bad/tools", nil)
	e.key = "other"
	if r := e.do("GET", v+"/tool_router/session/"+id+"/tools", nil); r.status != 401 {
		t.Fatalf("unknown key: %d", r.status)
	}
}

func sessionToolSlugs(t *testing.T, e *testEnv, id string) []string {
	t.Helper()
	var slugs []string
	for _, it := range e.must(200, "GET", v+"/tool_router/session/"+id+"/tools?limit=500", nil).items() {
		in, _ := it["input_parameters"].(map[string]any)
		if in["type"] != "object" || it["toolkit"] == nil {
			t.Fatalf("tool shape: %v", it)
		}
		slugs = append(slugs, it["slug"].(string))
	}
	return slugs
}

// The create body's preload, search and execute are echoed in config (the SDK
// reads config.preload), and session.tools() lists the preloaded app tools
// after the meta tools.
func TestSessionPreloadSearchExecute(t *testing.T) {
	e := newEnv(t, Options{})
	// What @composio/core sends for sessionPreset 'direct_tools'.
	r := e.must(201, "POST", v+"/tool_router/session", map[string]any{
		"user_id": "u1", "toolkits": map[string]any{"enable": []any{"github"}},
		"manage_connections": map[string]any{"enable": false}, "workbench": map[string]any{"enable": false, "enable_proxy_execution": false},
		"preload": map[string]any{"tools": "all"}, "search": map[string]any{"enable": false},
		"execute": map[string]any{"enable_multi_execute": false},
	})
	if got := r.get("config", "preload", "tools"); got != "all" {
		t.Fatalf("config.preload.tools = %v: %s", got, r.raw)
	}
	if r.get("config", "search", "enable") != false || r.get("config", "execute", "enable_multi_execute") != false {
		t.Fatalf("search/execute not echoed: %s", r.raw)
	}
	if r.get("config", "workbench", "proxy_execution_enabled") != false || r.get("config", "workbench", "enable_proxy_execution") != nil {
		t.Fatalf("workbench: %s", r.raw)
	}
	id := r.str("session_id")
	if got := e.must(200, "GET", v+"/tool_router/session/"+id, nil).get("config", "preload", "tools"); got != "all" {
		t.Fatalf("retrieved config.preload.tools = %v", got)
	}
	got := sessionToolSlugs(t, e, id)
	want := append(append([]string{}, toolRouterTools...),
		"GITHUB_CREATE_AN_ISSUE", "GITHUB_GET_A_REPOSITORY", "GITHUB_LIST_REPOSITORIES_FOR_THE_AUTHENTICATED_USER")
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("session tools = %v, want %v", got, want)
	}

	// A slug list preloads exactly those tools; tags filter "all".
	id = e.must(201, "POST", v+"/tool_router/session", map[string]any{
		"user_id": "u1", "preload": map[string]any{"tools": []any{"slack_send_message"}},
	}).str("session_id")
	if got := sessionToolSlugs(t, e, id); got[len(got)-1] != "SLACK_SEND_MESSAGE" || len(got) != len(toolRouterTools)+1 {
		t.Fatalf("slug preload: %v", got)
	}
	id = e.must(201, "POST", v+"/tool_router/session", map[string]any{
		"user_id": "u1", "toolkits": []any{"github"}, "tags": map[string]any{"enable": []any{"issues"}}, "preload": map[string]any{"tools": "all"},
	}).str("session_id")
	if got := sessionToolSlugs(t, e, id); got[len(got)-1] != "GITHUB_CREATE_AN_ISSUE" || len(got) != len(toolRouterTools)+1 {
		t.Fatalf("tag-filtered preload: %v", got)
	}
	// Without preload only the meta tools.
	id = e.must(201, "POST", v+"/tool_router/session", map[string]any{"user_id": "u1", "toolkits": []any{"github"}}).str("session_id")
	if got := sessionToolSlugs(t, e, id); len(got) != len(toolRouterTools) {
		t.Fatalf("no preload: %v", got)
	}

	e.mustErr(400, "positive filter", "POST", v+"/tool_router/session", map[string]any{"user_id": "u1", "preload": map[string]any{"tools": "all"}})
	e.mustErr(400, "NO_SUCH_TOOL", "POST", v+"/tool_router/session", map[string]any{"user_id": "u1", "preload": map[string]any{"tools": []any{"NO_SUCH_TOOL"}}})
	e.mustErr(400, "preload.tools", "POST", v+"/tool_router/session", map[string]any{"user_id": "u1", "preload": map[string]any{"tools": "some"}})
	e.mustErr(400, "search", "POST", v+"/tool_router/session", map[string]any{"user_id": "u1", "search": true})
}

// DELETE /tool_router/session/{id} answers {session_id, deleted: true} (the SDK
// zod-parses it); the session is gone afterwards.
func TestSessionDelete(t *testing.T) {
	e := newEnv(t, Options{})
	id := e.must(201, "POST", v+"/tool_router/session", map[string]any{"user_id": "u1"}).str("session_id")
	r := e.must(200, "DELETE", "/api/v3/tool_router/session/"+id, nil)
	if r.str("session_id") != id || r.get("deleted") != true || !strings.HasPrefix(r.header.Get("content-type"), "application/json") {
		t.Fatalf("delete: %s", r.raw)
	}
	e.mustErr(404, "not found", "GET", v+"/tool_router/session/"+id, nil)
	e.mustErr(404, "not found", "GET", v+"/tool_router/session/"+id+"/tools", nil)
	e.mustErr(404, "not found", "DELETE", v+"/tool_router/session/"+id, nil)
	e.mustErr(400, "trs_", "DELETE", v+"/tool_router/session/bad", nil)
	other := e.must(201, "POST", v+"/tool_router/session", map[string]any{"user_id": "u2"}).str("session_id")
	e.key = "other"
	if r := e.do("DELETE", v+"/tool_router/session/"+other, nil); r.status != 401 {
		t.Fatalf("unknown key: %d", r.status)
	}
}
