package emulator

import "testing"

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
