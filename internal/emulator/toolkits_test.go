package emulator

import (
	"strings"
	"testing"
)

func TestToolkitsCatalog(t *testing.T) {
	e := newEnv(t, Options{})
	all := e.must(200, "GET", v+"/toolkits?limit=100", nil)
	items := all.items()
	if len(items) < 12 {
		t.Fatalf("only %d toolkits", len(items))
	}
	cats := map[string]bool{}
	multi := 0
	for _, it := range items {
		meta := it["meta"].(map[string]any)
		for _, c := range meta["categories"].([]any) {
			cats[c.(map[string]any)["id"].(string)] = true
		}
		if len(it["auth_schemes"].([]any)) > 1 {
			multi++
		}
	}
	for _, c := range []string{"developer-tools", "communication", "productivity", "crm", "marketing", "finance"} {
		if !cats[c] {
			t.Errorf("category %s not covered", c)
		}
	}
	if multi < 3 {
		t.Errorf("only %d toolkits with several schemes", multi)
	}
	if n := len(e.must(200, "GET", v+"/toolkits?category=finance", nil).items()); n < 1 {
		t.Fatal("finance empty")
	}
	for _, it := range e.must(200, "GET", v+"/toolkits?managed_by=composio&limit=100", nil).items() {
		if it["slug"] == "stripe" {
			t.Fatal("stripe listed as managed")
		}
	}
	alpha := e.must(200, "GET", v+"/toolkits?sort_by=alphabetically&limit=2", nil)
	if alpha.items()[0]["name"] != "Airtable" || alpha.get("next_cursor") == nil {
		t.Fatalf("alphabetical: %s", alpha.raw)
	}
	e.mustErr(400, "sort_by", "GET", v+"/toolkits?sort_by=random", nil)
	e.mustErr(400, "managed_by", "GET", v+"/toolkits?managed_by=me", nil)
	e.mustErr(400, "category", "GET", v+"/toolkits?category=games", nil)
	if n := len(e.must(200, "GET", v+"/toolkits?type=native&limit=100", nil).items()); n != len(items) {
		t.Fatalf("type=native: %d toolkits", n)
	}
	if r := e.must(200, "GET", v+"/toolkits?type=custom", nil); len(r.items()) != 0 || r.get("total_items") != 0.0 {
		t.Fatalf("type=custom: %s", r.raw)
	}
	e.mustErr(400, "type", "GET", v+"/toolkits?type=local", nil)
	ac := e.createCustomAC("stripe", "API_KEY", nil)
	_ = ac
	if it := e.must(200, "GET", v+"/toolkits?managed_by=project", nil).items(); len(it) != 1 || it[0]["slug"] != "stripe" {
		t.Fatalf("managed_by=project: %v", it)
	}
	multiRes := e.must(200, "POST", v+"/toolkits/multi", map[string]any{"toolkits": []any{"github", "slack"}})
	if len(multiRes.items()) != 2 {
		t.Fatal(multiRes.raw)
	}

	cats2 := e.must(200, "GET", v+"/toolkits/categories", nil)
	if len(cats2.items()) != 6 || cats2.items()[0]["id"] != "developer-tools" || cats2.get("total_items").(float64) != 6 {
		t.Fatal(cats2.raw)
	}
}

func TestToolkitGet(t *testing.T) {
	e := newEnv(t, Options{})
	g := e.must(200, "GET", v+"/toolkits/jira", nil)
	if g.str("meta", "version") != VersionLatest || len(g.get("meta", "available_versions").([]any)) != 2 || g.get("enabled") != true {
		t.Fatal(g.raw)
	}
	details := g.get("auth_config_details").([]any)
	modes := []string{}
	var basic map[string]any
	for _, d := range details {
		dm := d.(map[string]any)
		modes = append(modes, dm["mode"].(string))
		if dm["mode"] == "BASIC" {
			basic = dm
		}
	}
	if strings.Join(modes, ",") != "OAUTH2,BASIC" || basic == nil {
		t.Fatalf("modes %v", modes)
	}
	init := basic["fields"].(map[string]any)["connected_account_initiation"].(map[string]any)
	req := init["required"].([]any)
	// is_secret is left out of initiation fields (absent from the newest
	// document), sent on creation fields
	_, initSecret := req[1].(map[string]any)["is_secret"]
	if len(req) != 2 || req[0].(map[string]any)["name"] != "username" || initSecret ||
		req[0].(map[string]any)["displayName"] != "Username" || init["optional"].([]any)[0].(map[string]any)["name"] != "subdomain" {
		t.Fatalf("basic fields: %v", init)
	}
	gh := e.must(200, "GET", v+"/toolkits/github?version=20250901_00", nil)
	if gh.str("meta", "version") != VersionOld || gh.get("composio_managed_auth_schemes").([]any)[0] != "OAUTH2" {
		t.Fatal(gh.raw)
	}
	oauth := gh.get("auth_config_details").([]any)[0].(map[string]any)["fields"].(map[string]any)["auth_config_creation"].(map[string]any)
	if r := oauth["required"].([]any); len(r) != 2 || r[0].(map[string]any)["name"] != "client_id" || r[1].(map[string]any)["name"] != "client_secret" {
		t.Fatalf("oauth creation: %v", oauth)
	}
	if o := oauth["optional"].([]any); o[0].(map[string]any)["name"] != "scopes" {
		t.Fatalf("oauth optional: %v", o)
	}
	e.mustErr(404, "not found", "GET", v+"/toolkits/nope", nil)
	e.mustErr(400, "invalid toolkit version", "GET", v+"/toolkits/github?version=latest-ish", nil)
	e.mustErr(400, "has no version", "GET", v+"/toolkits/github?version=20200101_00", nil)
	st := e.must(200, "GET", v+"/toolkits/stripe", nil)
	if len(st.get("composio_managed_auth_schemes").([]any)) != 0 {
		t.Fatal(st.raw)
	}
}

func TestTools(t *testing.T) {
	e := newEnv(t, Options{})
	l := e.must(200, "GET", v+"/tools?toolkit_slug=github,slack", nil)
	if len(l.items()) != 6 {
		t.Fatal(l.raw)
	}
	for _, it := range l.items() {
		for _, k := range []string{"slug", "name", "description", "version"} {
			if _, ok := it[k].(string); !ok {
				t.Fatalf("tool %v: %s not a string", it["slug"], k)
			}
		}
		if it["input_parameters"].(map[string]any)["type"] != "object" || it["toolkit"].(map[string]any)["name"] == nil {
			t.Fatalf("tool shape: %v", it)
		}
		for _, k := range []string{"scopes", "tags", "available_versions"} {
			if _, ok := it[k].([]any); !ok {
				t.Fatalf("tool %v: %s not a list", it["slug"], k)
			}
		}
	}
	if n := len(e.must(200, "GET", v+"/tools?tool_slugs=GITHUB_GET_A_REPOSITORY,SLACK_SEND_MESSAGE&limit=9999", nil).items()); n != 2 {
		t.Fatalf("tool_slugs: %d", n)
	}
	g := e.must(200, "GET", v+"/tools/GITHUB_CREATE_AN_ISSUE?toolkit_versions[github]=20250901_00", nil)
	if g.str("version") != VersionOld {
		t.Fatal(g.raw)
	}
	e.mustErr(404, "not found", "GET", v+"/tools/NOPE", nil)
	if en := e.must(200, "GET", v+"/tools/enum", nil); len(en.list) < 36 {
		t.Fatal(en.raw)
	}
	ac := e.createCustomAC("stripe", "API_KEY", nil)
	ca := e.apiKeyAccount(ac, "u1")
	x := e.must(200, "POST", v+"/tools/execute/STRIPE_GET_ITEM", map[string]any{"connected_account_id": ca, "arguments": map[string]any{"id": "ch_1"}, "version": VersionOld})
	if x.get("successful") != true || x.get("error") != nil {
		t.Fatal(x.raw)
	}
	x = e.must(200, "POST", v+"/tools/execute/STRIPE_GET_ITEM", map[string]any{"user_id": "u1", "arguments": map[string]any{}})
	if x.get("successful") != false || !strings.Contains(x.str("error"), "id") {
		t.Fatal(x.raw)
	}
}

func TestToolRouterSession(t *testing.T) {
	e := newEnv(t, Options{})
	s := e.must(201, "POST", v+"/tool_router/session", map[string]any{"user_id": "u1", "toolkits": map[string]any{"enable": []any{"github"}}, "manage_connections": map[string]any{"enable": true}})
	id := s.str("session_id")
	if !strings.HasPrefix(id, "trs_") || s.str("mcp", "type") != "http" || s.str("mcp", "url") != e.ts.URL+"/tool_router/"+id+"/mcp" ||
		s.str("config", "user_id") != "u1" || s.get("config", "toolkits", "enabled") == nil || s.get("config", "manage_connections", "enabled") != true {
		t.Fatal(s.raw)
	}
	g := e.must(200, "GET", v+"/tool_router/session/"+id, nil)
	if g.str("session_id") != id {
		t.Fatal(g.raw)
	}
	e.mustErr(400, "not a tool-router session id", "GET", v+"/tool_router/session/abc", nil)
	e.mustErr(404, "not found", "GET", v+"/tool_router/session/trs_missing", nil)
	e.mustErr(400, "user_id is required", "POST", v+"/tool_router/session", map[string]any{})
	e.mustErr(404, "not found", "POST", v+"/tool_router/session", map[string]any{"user_id": "u", "toolkits": []any{"nope"}})
	e.must(201, "POST", v+"/tool_router/session", map[string]any{"user_id": "u", "toolkits": []any{"slack"}, "manage_connections": false})
	rc := e.must(200, "GET", "/api/v3/internal/sdk/realtime/credentials", nil)
	if rc.str("pusher_key") == "" || rc.str("project_id") != "default" || rc.str("pusher_cluster") == "" {
		t.Fatal(rc.raw)
	}
}
