package emulator

import (
	"net/url"
	"reflect"
	"strings"
	"testing"

	"github.com/integration-service/terraform-provider-service/internal/testutil"
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
		"user_id": "u1", "toolkits": []any{"github"}, "tags": map[string]any{"disable": []any{"readOnlyHint"}}, "preload": map[string]any{"tools": "all"},
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
	// Session tags are the four annotation hints; sandbox sizes an enum.
	e.mustErr(400, "tags.enable[0]", "POST", v+"/tool_router/session", map[string]any{"user_id": "u1", "tags": map[string]any{"enable": []any{"issues"}}})
	e.mustErr(400, "tags[0]", "POST", v+"/tool_router/session", map[string]any{"user_id": "u1", "tags": []any{"readonlyhint"}})
	e.mustErr(400, "sandbox_size", "POST", v+"/tool_router/session", map[string]any{"user_id": "u1", "workbench": map[string]any{"sandbox_size": "huge"}})
	e.mustErr(400, "tools.github.tags", "POST", v+"/tool_router/session", map[string]any{"user_id": "u1",
		"tools": map[string]any{"github": map[string]any{"tags": []any{"fastHint"}}}})
}

// The answer carries config.preload.tools ([] by default), the per-toolkit
// tools rules in the answer's shape, experimental (custom tools with their
// original_slug) when asked, and a warning when many tools are preloaded.
func TestSessionAnswerShape(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.must(201, "POST", v+"/tool_router/session", map[string]any{"user_id": "u1"})
	if tools, ok := r.get("config", "preload", "tools").([]any); !ok || len(tools) != 0 {
		t.Fatalf("default preload: %s", r.raw)
	}
	if r.get("experimental") != nil || r.get("warnings") != nil {
		t.Fatalf("experimental/warnings without cause: %s", r.raw)
	}
	// The members the documents give a session, none more: no created_at
	// (C1 and S3 name none), search, execute and workbench with their
	// documented members only.
	wantKeys(t, "session answer", r.body, "session_id", "mcp", "tool_router_tools", "config", "config_version")
	got := e.must(200, "GET", v+"/tool_router/session/"+r.str("session_id"), nil)
	lacks(t, "GET /tool_router/session/{id}", got.body, "created_at")
	r = e.must(201, "POST", v+"/tool_router/session", map[string]any{"user_id": "u1",
		"search": map[string]any{"enable": false, "extra": 1}, "execute": map[string]any{"enable_multi_execute": false, "extra": 1},
		"workbench": map[string]any{"enable": true, "extra": 1}})
	wantKeys(t, "config.search", r.get("config", "search"), "enable")
	wantKeys(t, "config.execute", r.get("config", "execute"), "enable_multi_execute")
	wantKeys(t, "config.workbench", r.get("config", "workbench"), "enable", "proxy_execution_enabled")
	e.mustErr(400, "search.enable", "POST", v+"/tool_router/session", map[string]any{"user_id": "u1", "search": map[string]any{"enable": "no"}})
	r = e.must(201, "POST", v+"/tool_router/session", map[string]any{
		"user_id": "u1",
		"tools":   map[string]any{"github": map[string]any{"enable": []any{"GITHUB_GET_A_REPOSITORY"}}, "slack": map[string]any{"tags": map[string]any{"disable": []any{"destructiveHint"}}}},
		"experimental": map[string]any{
			"assistive_prompt_config": map[string]any{"user_timezone": "Europe/Paris"},
			"custom_tools":            []any{map[string]any{"slug": "MY_TOOL", "name": "My tool", "description": "d", "input_schema": map[string]any{"type": "object"}}},
		},
		"workbench": map[string]any{"sandbox_size": "large", "enable_proxy_execution": false},
	})
	if got := r.get("config", "tools", "github", "enabled"); len(got.([]any)) != 1 {
		t.Fatalf("tools rule: %s", r.raw)
	}
	if got := r.get("config", "tools", "slack", "tags", "disabled"); len(got.([]any)) != 1 {
		t.Fatalf("tools tags rule: %s", r.raw)
	}
	if r.get("config", "workbench", "sandbox_size") != "large" || r.get("config", "workbench", "proxy_execution_enabled") != false {
		t.Fatalf("workbench: %s", r.raw)
	}
	tools, _ := r.get("experimental", "custom_tools").([]any)
	if len(tools) != 1 || tools[0].(map[string]any)["original_slug"] != "MY_TOOL" || !strings.Contains(r.str("experimental", "assistive_prompt"), "Europe/Paris") {
		t.Fatalf("experimental: %s", r.raw)
	}
	id := r.str("session_id")
	if got := e.must(200, "GET", v+"/tool_router/session/"+id, nil).get("experimental", "custom_tools"); got == nil {
		t.Fatal("retrieve lost experimental")
	}
	e.mustErr(400, "input_schema", "POST", v+"/tool_router/session", map[string]any{"user_id": "u1",
		"experimental": map[string]any{"custom_tools": []any{map[string]any{"slug": "X", "name": "X", "description": "d"}}}})

	// Preloading every tool of every toolkit warns about the context.
	all := []any{}
	for _, tk := range e.srv.cat.toolkits {
		all = append(all, tk.Slug)
	}
	r = e.must(201, "POST", v+"/tool_router/session", map[string]any{"user_id": "u1", "toolkits": all, "preload": map[string]any{"tools": "all"}})
	w, _ := r.get("warnings").([]any)
	if len(w) != 1 || w[0].(map[string]any)["code"] != "PRELOAD_TOOLS_HIGH_CONTEXT_USAGE" {
		t.Fatalf("warnings: %s", r.raw)
	}
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

func newSession(t *testing.T, e *testEnv, body map[string]any) string {
	t.Helper()
	return e.must(201, "POST", v+"/tool_router/session", body).str("session_id")
}

// session.authorize: POST /tool_router/session/{id}/link picks the config's
// auth config, else the project's first enabled one, else creates a managed one.
func TestSessionLink(t *testing.T) {
	e := newEnv(t, Options{APIKeys: map[string]string{testKey: "default", "other": "beta"}})
	id := newSession(t, e, map[string]any{"user_id": "u1", "toolkits": []any{"github", "stripe", "gmail"},
		"manage_connections": map[string]any{"enable": true, "callback_url": "https://app/cb"}})
	for _, prefix := range []string{"/api/v3", "/api/v3.1"} {
		// (aliases are unique per user and toolkit: one for each link)
		alias := "work" + strings.TrimPrefix(prefix, "/api/v3")
		l := e.must(201, "POST", prefix+"/tool_router/session/"+id+"/link", map[string]any{"toolkit": "github", "alias": alias})
		if !strings.HasPrefix(l.str("link_token"), "lt_") || l.str("redirect_url") != e.ts.URL+"/link/"+l.str("link_token") ||
			!strings.HasPrefix(l.str("connected_account_id"), "ca_") {
			t.Fatalf("link: %s", l.raw)
		}
		a := e.must(200, "GET", v+"/connected_accounts/"+l.str("connected_account_id"), nil)
		if a.str("status") != "INITIATED" || a.str("user_id") != "u1" || a.str("toolkit", "slug") != "github" ||
			a.str("alias") != alias || a.str("state", "val", "callback_url") != "https://app/cb" || a.get("auth_config", "is_composio_managed") != true {
			t.Fatalf("linked account: %s", a.raw)
		}
	}
	// No GitHub auth config existed: one managed config was created, then reused.
	acs := e.must(200, "GET", v+"/auth_configs?toolkit_slug=github", nil).items()
	if len(acs) != 1 || acs[0]["name"] != "GitHub Auth Config" || acs[0]["is_composio_managed"] != true {
		t.Fatalf("auth configs: %v", acs)
	}

	// An existing enabled auth config is used; the config's auth_configs entry wins.
	first := e.createCustomAC("gmail", "OAUTH2", map[string]any{"client_id": "c", "client_secret": "s"})
	second := e.createCustomAC("gmail", "OAUTH2", map[string]any{"client_id": "c2", "client_secret": "s2"})
	l := e.must(201, "POST", v+"/tool_router/session/"+id+"/link", map[string]any{"toolkit": "gmail", "callback_url": "https://x/cb"})
	a := e.must(200, "GET", v+"/connected_accounts/"+l.str("connected_account_id"), nil)
	if a.str("auth_config", "id") != first || a.str("state", "val", "callback_url") != "https://x/cb" {
		t.Fatalf("first auth config not used: %s", a.raw)
	}
	pinned := newSession(t, e, map[string]any{"user_id": "u2", "auth_configs": map[string]any{"gmail": second}})
	l = e.must(201, "POST", v+"/tool_router/session/"+pinned+"/link", map[string]any{"toolkit": "gmail"})
	if a := e.must(200, "GET", v+"/connected_accounts/"+l.str("connected_account_id"), nil); a.str("auth_config", "id") != second || a.str("user_id") != "u2" {
		t.Fatalf("session auth_configs not used: %s", a.raw)
	}

	// The hosted link page completes the connection.
	stripeAC := e.createCustomAC("stripe", "API_KEY", map[string]any{})
	l = e.must(201, "POST", v+"/tool_router/session/"+id+"/link", map[string]any{"toolkit": "stripe"})
	if a := e.must(200, "GET", v+"/connected_accounts/"+l.str("connected_account_id"), nil); a.str("auth_config", "id") != stripeAC {
		t.Fatalf("stripe auth config: %s", a.raw)
	}
	res, err := httpDo(noRedirectClient(), "POST", l.str("redirect_url")+"/approve", "application/x-www-form-urlencoded", url.Values{"api_key": {"sk"}}.Encode())
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if a := e.must(200, "GET", v+"/connected_accounts/"+l.str("connected_account_id"), nil); a.str("status") != "ACTIVE" {
		t.Fatalf("after approve: %s", a.raw)
	}

	// Errors.
	open := newSession(t, e, map[string]any{"user_id": "u1"})
	e.mustErr(400, "no service-managed auth scheme", "POST", v+"/tool_router/session/"+open+"/link", map[string]any{"toolkit": "mailchimp"})
	e.mustErr(400, "toolkit is required", "POST", v+"/tool_router/session/"+id+"/link", map[string]any{})
	e.mustErr(400, "not enabled", "POST", v+"/tool_router/session/"+id+"/link", map[string]any{"toolkit": "slack"})
	e.mustErr(404, "not found", "POST", v+"/tool_router/session/"+open+"/link", map[string]any{"toolkit": "nope"})
	e.mustErr(404, "not found", "POST", v+"/tool_router/session/trs_nope/link", map[string]any{"toolkit": "github"})
	e.mustErr(400, "trs_", "POST", v+"/tool_router/session/bad/link", map[string]any{"toolkit": "github"})
	e.must(200, "PATCH", v+"/auth_configs/"+second+"/DISABLED", nil)
	e.mustErr(400, "disabled", "POST", v+"/tool_router/session/"+pinned+"/link", map[string]any{"toolkit": "gmail"})
	// Another project's session is not found.
	e.key = "other"
	e.mustErr(404, "not found", "POST", v+"/tool_router/session/"+id+"/link", map[string]any{"toolkit": "github"})
}

// session.toolkits(): GET /tool_router/session/{id}/toolkits.
func TestSessionToolkits(t *testing.T) {
	e := newEnv(t, Options{APIKeys: map[string]string{testKey: "default", "other": "beta"}})
	id := newSession(t, e, map[string]any{"user_id": "u1", "toolkits": []any{"github", "stripe", "gmail"}})
	stripeAC := e.createCustomAC("stripe", "API_KEY", map[string]any{})
	ca := e.apiKeyAccount(stripeAC, "u1")
	e.apiKeyAccount(stripeAC, "someone-else")
	link := e.must(201, "POST", v+"/tool_router/session/"+id+"/link", map[string]any{"toolkit": "gmail"}).str("connected_account_id")
	for _, prefix := range []string{"/api/v3", "/api/v3.1"} {
		r := e.must(200, "GET", prefix+"/tool_router/session/"+id+"/toolkits", nil)
		items := r.items()
		if len(items) != 3 || r.get("total_items") != float64(3) || r.get("next_cursor") != nil {
			t.Fatalf("toolkits page: %s", r.raw)
		}
		got := map[string]map[string]any{}
		for _, it := range items {
			meta, _ := it["meta"].(map[string]any)
			if it["name"] == "" || it["enabled"] != true || it["is_no_auth"] != false || meta["logo"] == "" || meta["description"] == "" {
				t.Fatalf("toolkit shape: %v", it)
			}
			got[it["slug"].(string)] = it
		}
		if got["github"]["connected_account"] != nil {
			t.Fatalf("github: %v", got["github"])
		}
		sa, _ := got["stripe"]["connected_account"].(map[string]any)
		sac, _ := sa["auth_config"].(map[string]any)
		if sa["id"] != ca || sa["status"] != "ACTIVE" || sa["user_id"] != "u1" || sac["id"] != stripeAC || sac["auth_scheme"] != "API_KEY" {
			t.Fatalf("stripe: %v", got["stripe"])
		}
		if ga, _ := got["gmail"]["connected_account"].(map[string]any); ga["id"] != link || ga["status"] != "INITIATED" {
			t.Fatalf("gmail: %v", got["gmail"])
		}
	}
	// Pagination, filters.
	p1 := e.must(200, "GET", v+"/tool_router/session/"+id+"/toolkits?limit=2", nil)
	if len(p1.items()) != 2 || p1.str("next_cursor") == "" || p1.get("total_pages") != float64(2) {
		t.Fatalf("page 1: %s", p1.raw)
	}
	if p2 := e.must(200, "GET", v+"/tool_router/session/"+id+"/toolkits?limit=2&cursor="+p1.str("next_cursor"), nil); len(p2.items()) != 1 || p2.get("next_cursor") != nil {
		t.Fatalf("page 2: %s", p2.raw)
	}
	if r := e.must(200, "GET", v+"/tool_router/session/"+id+"/toolkits?is_connected=true", nil).items(); len(r) != 1 || r[0]["slug"] != "stripe" {
		t.Fatalf("is_connected: %v", r)
	}
	if r := e.must(200, "GET", v+"/tool_router/session/"+id+"/toolkits?toolkits=slack,github", nil).items(); len(r) != 2 || r[0]["slug"] != "slack" || r[0]["enabled"] != false {
		t.Fatalf("toolkits filter: %v", r)
	}
	if r := e.must(200, "GET", v+"/tool_router/session/"+id+"/toolkits?search=e-mail", nil).items(); len(r) != 1 || r[0]["slug"] != "gmail" {
		t.Fatalf("search: %v", r)
	}
	// Without a toolkits config every catalog toolkit but the disabled ones.
	all := newSession(t, e, map[string]any{"user_id": "u1", "toolkits": map[string]any{"disable": []any{"github"}}})
	r := e.must(200, "GET", v+"/tool_router/session/"+all+"/toolkits?limit=50", nil)
	if n := int(r.get("total_items").(float64)); n != len(e.srv.cat.toolkits)-1 {
		t.Fatalf("total_items %d", n)
	}
	for _, it := range r.items() {
		if it["slug"] == "github" {
			t.Fatalf("disabled toolkit listed")
		}
	}
	e.mustErr(400, "is_connected", "GET", v+"/tool_router/session/"+id+"/toolkits?is_connected=maybe", nil)
	e.mustErr(400, "limit", "GET", v+"/tool_router/session/"+id+"/toolkits?limit=-1", nil)
	e.mustErr(404, "not found", "GET", v+"/tool_router/session/trs_nope/toolkits", nil)
	e.mustErr(400, "trs_", "GET", v+"/tool_router/session/bad/toolkits", nil)
	e.key = "other"
	e.mustErr(404, "not found", "GET", v+"/tool_router/session/"+id+"/toolkits", nil)
}

// session.execute: POST /tool_router/session/{id}/execute.
func TestSessionExecute(t *testing.T) {
	e := newEnv(t, Options{APIKeys: map[string]string{testKey: "default", "other": "beta"}})
	id := newSession(t, e, map[string]any{"user_id": "u1", "toolkits": []any{"stripe", "github"}})
	stripeAC := e.createCustomAC("stripe", "API_KEY", map[string]any{})
	e.apiKeyAccount(stripeAC, "someone-else")
	body := map[string]any{"tool_slug": "STRIPE_GET_ITEM", "arguments": map[string]any{"id": "ch_1"}}
	e.mustErr(400, "no ACTIVE connected account", "POST", v+"/tool_router/session/"+id+"/execute", body)
	ca := e.apiKeyAccount(stripeAC, "u1")
	for _, prefix := range []string{"/api/v3", "/api/v3.1"} {
		r := e.must(200, "POST", prefix+"/tool_router/session/"+id+"/execute", body)
		if r.get("error") != nil || !strings.HasPrefix(r.str("log_id"), "log_") || r.str("data", "tool") != "STRIPE_GET_ITEM" ||
			r.get("data", "arguments", "id") != "ch_1" || len(r.body) != 3 {
			t.Fatalf("execute: %s", r.raw)
		}
	}
	// account by id or alias.
	e.must(200, "PATCH", v+"/connected_accounts/"+ca, map[string]any{"alias": "main"})
	for _, acct := range []string{ca, "main"} {
		body["account"] = acct
		if r := e.must(200, "POST", v+"/tool_router/session/"+id+"/execute", body); r.get("error") != nil {
			t.Fatalf("account %s: %s", acct, r.raw)
		}
	}
	body["account"] = "ca_nope"
	e.mustErr(400, "not a connected account", "POST", v+"/tool_router/session/"+id+"/execute", body)
	delete(body, "account")
	// Invalid arguments are a failed execution, not an HTTP error.
	r := e.must(200, "POST", v+"/tool_router/session/"+id+"/execute", map[string]any{"tool_slug": "STRIPE_GET_ITEM", "arguments": map[string]any{}})
	if msg, _ := r.get("error").(string); !strings.Contains(msg, "id") {
		t.Fatalf("bad arguments: %s", r.raw)
	}
	// A disabled account is 400 (no ACTIVE account).
	e.must(200, "PATCH", v+"/connected_accounts/"+ca+"/status", map[string]any{"enabled": false})
	e.mustErr(400, "no ACTIVE connected account", "POST", v+"/tool_router/session/"+id+"/execute", body)
	// Meta tools answer without an account.
	if r := e.must(200, "POST", v+"/tool_router/session/"+id+"/execute", map[string]any{"tool_slug": "COMPOSIO_SEARCH_TOOLS", "arguments": map[string]any{"query": "x"}}); r.get("error") != nil {
		t.Fatalf("meta tool: %s", r.raw)
	}
	e.mustErr(404, "not found", "POST", v+"/tool_router/session/"+id+"/execute", map[string]any{"tool_slug": "NOPE_TOOL"})
	e.mustErr(400, "tool_slug is required", "POST", v+"/tool_router/session/"+id+"/execute", map[string]any{})
	e.mustErr(400, "not enabled", "POST", v+"/tool_router/session/"+id+"/execute", map[string]any{"tool_slug": "SLACK_LIST_ALL_CHANNELS"})
	e.mustErr(404, "not found", "POST", v+"/tool_router/session/trs_nope/execute", body)
	e.mustErr(400, "trs_", "POST", v+"/tool_router/session/bad/execute", body)
	e.key = "other"
	e.mustErr(404, "not found", "POST", v+"/tool_router/session/"+id+"/execute", body)
}

// PATCH changes the members it is sent and keeps the others; maps replace
// the stored ones; null resets a nullable member; config_version goes up by
// one per PATCH and config_history lists every version, newest first.
func TestSessionPatch(t *testing.T) {
	e := newEnv(t, Options{})
	gh := e.createCustomAC("stripe", "API_KEY", map[string]any{})
	gm := e.createCustomAC("linear", "API_KEY", map[string]any{})
	acct := e.apiKeyAccount(gh, "u1")
	other := e.apiKeyAccount(gh, "u2")
	r := e.must(201, "POST", v+"/tool_router/session", map[string]any{
		"user_id": "u1", "toolkits": map[string]any{"enable": []any{"stripe", "linear"}},
		"auth_configs": map[string]any{"stripe": gh, "linear": gm}, "tags": []any{"readOnlyHint"},
		"manage_connections": map[string]any{"enable": true, "callback_url": "https://example.com/cb"},
	})
	id := r.str("session_id")
	if r.get("config_version") != float64(1) {
		t.Fatalf("create: config_version %v", r.get("config_version"))
	}
	p := e.must(200, "PATCH", v+"/tool_router/session/"+id, map[string]any{
		"toolkits":           map[string]any{"disable": []any{"slack"}},
		"auth_configs":       map[string]any{"stripe": gh},
		"connected_accounts": map[string]any{"stripe": []any{acct}},
		"workbench":          map[string]any{"sandbox_size": "large"},
	})
	if p.get("config_version") != float64(2) || p.str("session_id") != id || p.str("mcp", "url") != r.str("mcp", "url") {
		t.Fatalf("patch answer: %s", p.raw)
	}
	cfg := e.must(200, "GET", v+"/tool_router/session/"+id, nil)
	if got := cfg.get("config", "toolkits"); !reflect.DeepEqual(got, map[string]any{"disabled": []any{"slack"}}) {
		t.Errorf("toolkits = %v, want disabled [slack]", got)
	}
	if got := cfg.get("config", "auth_configs"); !reflect.DeepEqual(got, map[string]any{"stripe": gh}) {
		t.Errorf("auth_configs = %v: the map replaces, it is not merged", got)
	}
	if got := cfg.get("config", "tags"); !reflect.DeepEqual(got, map[string]any{"enabled": []any{"readOnlyHint"}}) {
		t.Errorf("tags = %v: a member left out is kept", got)
	}
	if cfg.str("config", "manage_connections", "callback_url") != "https://example.com/cb" || cfg.str("config", "workbench", "sandbox_size") != "large" {
		t.Errorf("config: %s", cfg.raw)
	}
	// null resets: the connected accounts go, manage_connections is the default again.
	e.must(200, "PATCH", v+"/tool_router/session/"+id, map[string]any{"connected_accounts": nil, "manage_connections": nil})
	cfg = e.must(200, "GET", v+"/tool_router/session/"+id, nil)
	if cfg.get("config", "connected_accounts") != nil || !reflect.DeepEqual(cfg.get("config", "manage_connections"), map[string]any{"enabled": true}) {
		t.Errorf("after null: %s", cfg.raw)
	}
	h := e.must(200, "GET", v+"/tool_router/session/"+id+"/config_history", nil)
	items := h.items()
	if len(items) != 3 || items[0]["version"] != float64(3) || items[0]["is_current"] != true || items[2]["version"] != float64(1) || items[2]["is_current"] != false {
		t.Fatalf("history: %s", h.raw)
	}
	if got := testutil.Dig(items[2], "config", "toolkits"); !reflect.DeepEqual(got, map[string]any{"enabled": []any{"stripe", "linear"}}) {
		t.Errorf("version 1's toolkits = %v", got)
	}
	// What the service refuses, and nothing changes.
	for _, tc := range []struct {
		body map[string]any
		want string
	}{
		{map[string]any{"user_id": "u2"}, "user_id cannot be changed"},
		{map[string]any{"toolkits": map[string]any{"enable": []any{"stripe"}, "disable": []any{"linear"}}}, "mutually exclusive"},
		{map[string]any{"auth_configs": map[string]any{"linear": gh}}, "is for toolkit stripe"},
		{map[string]any{"connected_accounts": map[string]any{"stripe": []any{other}}}, "belongs to user \"u2\""},
		{map[string]any{"connected_accounts": map[string]any{"stripe": []any{acct, acct}}}, "at most one"},
		{map[string]any{"tags": []any{"fastHint"}}, "fastHint"},
		{map[string]any{"workbench": map[string]any{"sandbox_size": "huge"}}, "sandbox_size"},
		{map[string]any{"multi_account": map[string]any{"max_accounts_per_toolkit": 11}}, "2 to 10"},
		{map[string]any{"tags": nil}, "cannot be null"},
	} {
		e.mustErr(400, tc.want, "PATCH", v+"/tool_router/session/"+id, tc.body)
	}
	e.mustErr(404, "strpe", "PATCH", v+"/tool_router/session/"+id, map[string]any{"toolkits": map[string]any{"enable": []any{"strpe"}}})
	e.mustErr(404, "not found", "PATCH", v+"/tool_router/session/"+id, map[string]any{"auth_configs": map[string]any{"stripe": "ac_missing00000"}})
	if got := e.must(200, "GET", v+"/tool_router/session/"+id, nil).get("config_version"); got != float64(3) {
		t.Errorf("refused patches changed the version: %v", got)
	}
	// With multi_account on, two accounts of the user may be pinned.
	second := e.apiKeyAccount(gh, "u1")
	e.must(200, "PATCH", v+"/tool_router/session/"+id, map[string]any{
		"multi_account":      map[string]any{"enable": true, "max_accounts_per_toolkit": 3},
		"connected_accounts": map[string]any{"stripe": []any{acct, second}},
	})
	e.mustErr(404, "not found", "PATCH", v+"/tool_router/session/trs_missing0000", map[string]any{})
	e.mustErr(404, "not found", "GET", v+"/tool_router/session/trs_missing0000/config_history", nil)
}
