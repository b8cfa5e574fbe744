package emulator

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// addNoAuthToolkit adds a NO_AUTH toolkit with one tool (<SLUG>_LIST_ITEMS)
// to this server's catalog.
func addNoAuthToolkit(e *testEnv, slug string) {
	tk := &toolkitDef{Slug: slug, Name: slug, Schemes: []schemeDef{{Mode: "NO_AUTH", Name: "No auth"}}}
	t := &toolDef{Slug: strings.ToUpper(slug) + "_LIST_ITEMS", Name: "List items", Input: map[string]any{"type": "object"},
		Tags: []string{}, Scopes: []string{}, toolkit: tk}
	tk.Tools = []*toolDef{t}
	e.srv.cat.tools[t.Slug] = t
	e.srv.cat.toolkits = append(e.srv.cat.toolkits, tk)
	e.srv.cat.bySlug[slug] = tk
}

func strs(v any) []string {
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, x := range list {
		out = append(out, fmt.Sprint(x))
	}
	return out
}

func TestMCPServerLifecycle(t *testing.T) {
	e := newEnv(t, Options{})
	gh, gm := e.createManagedAC("github"), e.createManagedAC("gmail")
	r := e.must(201, "POST", v+"/mcp/servers", map[string]any{
		"name": "Team Server 1", "auth_config_ids": []string{gh, gm},
		"allowed_tools": []string{"GITHUB_CREATE_AN_ISSUE", "gmail_send_email"},
	})
	id := r.str("id")
	if len(id) != 36 || r.str("name") != "Team Server 1" || r.get("managed_auth_via_composio") != false ||
		r.get("server_instance_count") != 0.0 || r.get("deleted") != nil {
		t.Fatalf("create: %s", r.raw)
	}
	if got := strs(r.get("allowed_tools")); !slices.Equal(got, []string{"GITHUB_CREATE_AN_ISSUE", "GMAIL_SEND_EMAIL"}) {
		t.Fatalf("allowed_tools %v", got)
	}
	if got := strs(r.get("toolkits")); !slices.Equal(got, []string{"github", "gmail"}) {
		t.Fatalf("toolkits %v", got)
	}
	if r.str("mcp_url") != e.ts.URL+"/v3/mcp/"+id+"/mcp" || !strings.Contains(r.str("commands", "cursor"), r.str("mcp_url")) ||
		r.str("toolkit_icons", "gmail") == "" || r.str("created_at") == "" || r.str("updated_at") != r.str("created_at") {
		t.Fatalf("create: %s", r.raw)
	}

	g := e.must(200, "GET", v+"/mcp/"+id, nil)
	if g.get("deleted") != false || g.str("name") != "Team Server 1" {
		t.Fatalf("get: %s", g.raw)
	}

	// drop gmail: its tool goes; name changes; updated_at moves
	u := e.must(200, "PATCH", v+"/mcp/"+id, map[string]any{"name": "Renamed", "auth_config_ids": []string{gh}, "managed_auth_via_composio": true})
	if got := strs(u.get("allowed_tools")); !slices.Equal(got, []string{"GITHUB_CREATE_AN_ISSUE"}) || u.str("name") != "Renamed" ||
		u.get("managed_auth_via_composio") != true || u.str("updated_at") <= u.str("created_at") {
		t.Fatalf("update: %s", u.raw)
	}
	// empty allowed_tools: every tool of the toolkits
	u = e.must(200, "PATCH", v+"/mcp/"+id, map[string]any{"allowed_tools": []string{}})
	if got := strs(u.get("allowed_tools")); len(got) != 3 || !strings.HasPrefix(got[0], "GITHUB_") {
		t.Fatalf("all tools: %v", got)
	}

	d := e.must(200, "DELETE", v+"/mcp/"+id, nil)
	if d.str("id") != id || d.get("deleted") != true {
		t.Fatalf("delete: %s", d.raw)
	}
	e.mustErr(404, id, "GET", v+"/mcp/"+id, nil)
	e.mustErr(404, id, "PATCH", v+"/mcp/"+id, map[string]any{"name": "Other name"})
	e.mustErr(404, id, "DELETE", v+"/mcp/"+id, nil)
}

func TestMCPServerValidation(t *testing.T) {
	e := newEnv(t, Options{})
	gh := e.createManagedAC("github")
	ok := map[string]any{"name": "Valid name", "auth_config_ids": []string{gh}}
	with := func(k string, val any) map[string]any {
		b := map[string]any{}
		for kk, vv := range ok {
			b[kk] = vv
		}
		b[k] = val
		return b
	}
	for _, tc := range []struct {
		body map[string]any
		want string
	}{
		{with("name", ""), "name must be 4-30"},
		{with("name", "abc"), "name must be 4-30"},
		{with("name", "bad_name!"), "name must be 4-30"},
		{with("name", strings.Repeat("a", 31)), "name must be 4-30"},
		{map[string]any{"name": "No configs"}, "auth_config_ids is required"},
		{with("auth_config_ids", []string{}), "at least one auth config"},
		{with("auth_config_ids", []string{"ac_missing"}), `auth config "ac_missing" not found`},
		{with("allowed_tools", []string{"GITHUB_NOPE"}), `tool "GITHUB_NOPE" not found`},
		{with("allowed_tools", []string{"SLACK_SEND_MESSAGE"}), "belongs to toolkit slack, which is not among the server's toolkits [github]"},
		{with("no_auth_apps", []string{"slack"}), "needs authentication"},
		{with("no_auth_apps", []string{"nosuch"}), `toolkit "nosuch" not found`},
		{with("name", 5), "not valid JSON"},
	} {
		e.mustErr(400, tc.want, "POST", v+"/mcp/servers", tc.body)
	}
	e.must(201, "POST", v+"/mcp/servers", ok)
	e.mustErr(409, `name "valid NAME" already exists`, "POST", v+"/mcp/servers", with("name", "valid NAME"))
	other := e.must(201, "POST", v+"/mcp/servers", with("name", "Other"))
	e.mustErr(409, "already exists", "PATCH", v+"/mcp/"+other.str("id"), map[string]any{"name": "Valid name"})
	e.mustErr(400, "belongs to toolkit slack", "PATCH", v+"/mcp/"+other.str("id"), map[string]any{"allowed_tools": []string{"SLACK_SEND_MESSAGE"}})
	e.mustErr(400, "needs authentication", "PATCH", v+"/mcp/"+other.str("id"), map[string]any{"toolkits": []string{"github", "slack"}})
	// refused requests wrote nothing: 1 auth config and 2 servers
	if w := e.must(200, "GET", "/_emulator/stats", nil).get("writes"); w != 3.0 {
		t.Fatalf("writes %v, want 3", w)
	}
}

func TestMCPServerNoAuthToolkitsAndCustom(t *testing.T) {
	e := newEnv(t, Options{})
	addNoAuthToolkit(e, "weather")
	gh := e.createManagedAC("github")
	r := e.must(201, "POST", v+"/mcp/servers", map[string]any{
		"name": "With weather", "auth_config_ids": []string{gh}, "no_auth_apps": []string{"weather"},
		"allowed_tools": []string{"WEATHER_LIST_ITEMS", "GITHUB_GET_A_REPOSITORY"},
	})
	if got := strs(r.get("toolkits")); !slices.Equal(got, []string{"github", "weather"}) {
		t.Fatalf("toolkits %v", got)
	}
	id := r.str("id")
	// toolkits on PATCH replaces the NO_AUTH toolkits; the weather tool goes
	u := e.must(200, "PATCH", v+"/mcp/"+id, map[string]any{"toolkits": []string{"github"}})
	if got := strs(u.get("toolkits")); !slices.Equal(got, []string{"github"}) || !slices.Equal(strs(u.get("allowed_tools")), []string{"GITHUB_GET_A_REPOSITORY"}) {
		t.Fatalf("update: %s", u.raw)
	}

	c := e.must(201, "POST", v+"/mcp/servers/custom", map[string]any{
		"name": "Custom one", "toolkits": []string{"slack"}, "custom_tools": []string{"SLACK_SEND_MESSAGE"},
	})
	if c.str("mcp_url") == "" || c.str("commands", "claude") == "" || !slices.Equal(strs(c.get("allowed_tools")), []string{"SLACK_SEND_MESSAGE"}) ||
		c.get("toolkits") != nil {
		t.Fatalf("custom: %s", c.raw)
	}
	e.mustErr(400, "toolkits", "POST", v+"/mcp/servers/custom", map[string]any{"name": "Empty one"})
	e.mustErr(400, `toolkit "nope" not found`, "POST", v+"/mcp/servers/custom", map[string]any{"name": "Bad one", "toolkits": []string{"nope"}})
}

func TestMCPServerListAndApp(t *testing.T) {
	e := newEnv(t, Options{})
	gh, sl := e.createManagedAC("github"), e.createManagedAC("slack")
	for i, acs := range [][]string{{gh}, {sl}, {gh, sl}} {
		e.must(201, "POST", v+"/mcp/servers", map[string]any{"name": fmt.Sprintf("server %d", i), "auth_config_ids": acs})
	}
	names := func(r resp) []string {
		var out []string
		for _, it := range r.items() {
			out = append(out, it["name"].(string))
		}
		return out
	}
	all := e.must(200, "GET", v+"/mcp/servers", nil)
	if got := names(all); !slices.Equal(got, []string{"server 2", "server 1", "server 0"}) || all.get("total_pages") != 1.0 || all.get("current_page") != 1.0 {
		t.Fatalf("list: %s", all.raw)
	}
	if got := names(e.must(200, "GET", v+"/mcp/servers?order_direction=asc&limit=2&page_no=2", nil)); !slices.Equal(got, []string{"server 2"}) {
		t.Fatalf("page 2: %v", got)
	}
	if got := names(e.must(200, "GET", v+"/mcp/servers?toolkits=slack&order_direction=asc", nil)); !slices.Equal(got, []string{"server 1", "server 2"}) {
		t.Fatalf("toolkits filter: %v", got)
	}
	if got := names(e.must(200, "GET", v+"/mcp/servers?auth_config_ids="+gh+"&name=ER%200", nil)); !slices.Equal(got, []string{"server 0"}) {
		t.Fatalf("auth_config_ids+name filter: %v", got)
	}
	if got := names(e.must(200, "GET", v+"/mcp/app/github?order_direction=asc", nil)); !slices.Equal(got, []string{"server 0", "server 2"}) {
		t.Fatalf("app: %v", got)
	}
	e.mustErr(404, "toolkit", "GET", v+"/mcp/app/nosuch", nil)
	e.mustErr(400, "order_by", "GET", v+"/mcp/servers?order_by=name", nil)
	e.mustErr(400, "page_no", "GET", v+"/mcp/servers?page_no=0", nil)
	// other projects see nothing
	e2 := newEnv(t, Options{APIKeys: map[string]string{testKey: "default", "other": "beta"}})
	ac := e2.createManagedAC("github")
	e2.must(201, "POST", v+"/mcp/servers", map[string]any{"name": "mine", "auth_config_ids": []string{ac}})
	if r := e2.doKey("other", "GET", v+"/mcp/servers", nil); r.status != 200 || len(r.items()) != 0 {
		t.Fatalf("other project: %s", r.raw)
	}
	if r := e2.doKey("other", "POST", v+"/mcp/servers", map[string]any{"name": "theirs", "auth_config_ids": []string{ac}}); r.status != 400 {
		t.Fatalf("other project's auth config accepted: %s", r.raw)
	}
}

func TestMCPInstancesAndGenerate(t *testing.T) {
	e := newEnv(t, Options{})
	ac := e.createCustomAC("stripe", "API_KEY", map[string]any{})
	acct := e.apiKeyAccount(ac, "alice")
	id := e.must(201, "POST", v+"/mcp/servers", map[string]any{"name": "Payments", "auth_config_ids": []string{ac}}).str("id")
	in := e.must(201, "POST", v+"/mcp/servers/"+id+"/instances", map[string]any{"user_id": "alice"})
	if in.str("instance_id") != "alice" || in.str("mcp_server_id") != id || len(in.str("id")) != 36 {
		t.Fatalf("instance: %s", in.raw)
	}
	e.must(201, "POST", v+"/mcp/servers/"+id+"/instances", map[string]any{"user_id": "bob"})
	e.mustErr(409, "already has an instance", "POST", v+"/mcp/servers/"+id+"/instances", map[string]any{"user_id": "alice"})
	e.mustErr(400, "user_id", "POST", v+"/mcp/servers/"+id+"/instances", map[string]any{})
	e.mustErr(404, "MCP server", "POST", v+"/mcp/servers/00000000-0000-4000-8000-000000000000/instances", map[string]any{"user_id": "x"})
	l := e.must(200, "GET", v+"/mcp/servers/"+id+"/instances?search=ali", nil)
	list, _ := l.body["instances"].([]any)
	if len(list) != 1 || l.str("server_id") != id || l.str("server_name") != "Payments" || l.get("total_pages") != 1.0 {
		t.Fatalf("instances: %s", l.raw)
	}
	if g := e.must(200, "GET", v+"/mcp/"+id, nil); g.get("server_instance_count") != 2.0 {
		t.Fatalf("count: %s", g.raw)
	}

	gen := e.must(200, "POST", v+"/mcp/servers/generate", map[string]any{"mcp_server_id": id, "user_ids": []string{"alice b"}, "connected_account_ids": []string{acct}})
	base := e.ts.URL + "/v3/mcp/" + id + "/mcp"
	if gen.str("mcp_url") != base || !slices.Equal(strs(gen.get("user_ids_url")), []string{base + "?user_id=alice+b"}) ||
		!slices.Equal(strs(gen.get("connected_account_urls")), []string{base + "?connected_account_id=" + acct}) {
		t.Fatalf("generate: %s", gen.raw)
	}
	e.mustErr(400, "connected_account_ids[0]", "POST", v+"/mcp/servers/generate", map[string]any{"mcp_server_id": id, "connected_account_ids": []string{"ca_nope"}})
	e.mustErr(400, "mcp_server_id", "POST", v+"/mcp/servers/generate", map[string]any{})

	// deleting alice's instance deletes her connected account on the server's auth configs
	d := e.must(200, "DELETE", v+"/mcp/servers/"+id+"/instances/alice", nil)
	if d.get("deleted_connected_accounts") != 1.0 || d.str("message") == "" {
		t.Fatalf("delete instance: %s", d.raw)
	}
	e.mustErr(404, acct, "GET", v+"/connected_accounts/"+acct, nil)
	e.mustErr(404, "alice", "DELETE", v+"/mcp/servers/"+id+"/instances/alice", nil)
}

func TestMCPServerPersists(t *testing.T) {
	m := &MCPServer{ID: "11111111-1111-4111-8111-111111111111", Project: "default", Name: "kept", Instances: []*MCPInstance{{ID: "i", UserID: "u"}}}
	again := reopenAfter(t, t.TempDir()+"/data.db", func(st *store) error {
		return st.commit(put(bucketMCPServers, m.ID, m))
	})
	if got := again.st.mcpServers[m.ID]; got == nil || got.Name != "kept" || len(got.Instances) != 1 {
		t.Fatalf("reloaded %+v", got)
	}
}

// The filters the service_mcp_server list resource sends (name, toolkits,
// auth_config_ids; several values comma-joined) hold on every page_no page:
// total_pages counts the matching servers, the pages together hold each of
// them once, and a list item carries every field of the server's own GET
// but deleted.
func TestMCPServerListFiltersAcrossPages(t *testing.T) {
	e := newEnv(t, Options{})
	gh, sl, gm := e.createManagedAC("github"), e.createManagedAC("slack"), e.createManagedAC("gmail")
	acsOf := [][]string{{gh}, {sl}, {gh, sl}, {gm}}
	for i := range 9 {
		prefix := "Alpha"
		if i%3 == 2 {
			prefix = "beta"
		}
		e.must(201, "POST", v+"/mcp/servers", map[string]any{"name": fmt.Sprintf("%s %d", prefix, i), "auth_config_ids": acsOf[i%4]})
	}
	// pageThroughNumbers reads every page of size 2 and returns the names
	// and the total_pages of the first page.
	pageThroughNumbers := func(query string) (names []string, totalPages int) {
		t.Helper()
		for page := 1; ; page++ {
			r := e.must(200, "GET", fmt.Sprintf("%s/mcp/servers?limit=2&page_no=%d&order_direction=asc&%s", v, page, query), nil)
			if page == 1 {
				totalPages = int(r.get("total_pages").(float64))
			}
			if r.get("current_page") != float64(page) {
				t.Fatalf("%s page %d: current_page %v", query, page, r.get("current_page"))
			}
			for _, it := range r.items() {
				names = append(names, it["name"].(string))
			}
			if page >= totalPages {
				if len(r.items()) == 0 && len(names) > 0 {
					t.Fatalf("%s: last page %d empty", query, page)
				}
				return names, totalPages
			}
		}
	}
	//   i: 0 Alpha gh, 1 Alpha sl, 2 beta gh+sl, 3 Alpha gm, 4 Alpha gh, 5 beta sl, 6 Alpha gh+sl, 7 Alpha gm, 8 beta gh
	cases := []struct {
		query string
		want  []string
	}{
		{"", []string{"Alpha 0", "Alpha 1", "beta 2", "Alpha 3", "Alpha 4", "beta 5", "Alpha 6", "Alpha 7", "beta 8"}},
		{"name=ALPHA", []string{"Alpha 0", "Alpha 1", "Alpha 3", "Alpha 4", "Alpha 6", "Alpha 7"}},
		{"name=ta%20", []string{"beta 2", "beta 5", "beta 8"}},
		{"toolkits=SLACK", []string{"Alpha 1", "beta 2", "beta 5", "Alpha 6"}},
		{"toolkits=slack,gmail", []string{"Alpha 1", "beta 2", "Alpha 3", "beta 5", "Alpha 6", "Alpha 7"}},
		{"auth_config_ids=" + gm, []string{"Alpha 3", "Alpha 7"}},
		{"auth_config_ids=" + gm + "," + sl, []string{"Alpha 1", "beta 2", "Alpha 3", "beta 5", "Alpha 6", "Alpha 7"}},
		{"name=alpha&toolkits=github&auth_config_ids=" + gh + "," + gm, []string{"Alpha 0", "Alpha 4", "Alpha 6"}},
		{"name=nobody", nil},
	}
	for _, tc := range cases {
		got, pages := pageThroughNumbers(tc.query)
		if !slices.Equal(got, tc.want) || pages != max((len(tc.want)+1)/2, 1) {
			t.Errorf("%q: got %v in %d pages, want %v", tc.query, got, pages, tc.want)
		}
	}
	// A page past the last is empty, not an error.
	if r := e.must(200, "GET", v+"/mcp/servers?limit=2&page_no=9&toolkits=gmail", nil); len(r.items()) != 0 || r.get("total_pages") != 1.0 {
		t.Fatalf("page past the last: %s", r.raw)
	}
	// A list item is the server's GET without deleted.
	for _, it := range e.must(200, "GET", v+"/mcp/servers?limit=100", nil).items() {
		got := e.must(200, "GET", v+"/mcp/"+it["id"].(string), nil)
		var one map[string]any
		if err := json.Unmarshal([]byte(got.raw), &one); err != nil {
			t.Fatal(err)
		}
		if one["deleted"] != false {
			t.Fatalf("GET without deleted: %s", got.raw)
		}
		delete(one, "deleted")
		if !reflect.DeepEqual(one, it) {
			t.Fatalf("list item %v\nGET %v", it, one)
		}
	}
}
