package emulator

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const projectsPath = v + "/org/owner/project"

func orgHeaders(key string) map[string]string { return map[string]string{"x-org-api-key": key} }

// org sends a request with an organization key and requires a 200.
func (e *testEnv) org(key, method, path string, body any) resp {
	e.t.Helper()
	r := e.doHeaders(orgHeaders(key), method, path, body)
	if r.status != http.StatusOK {
		e.t.Fatalf("%s %s: status %d, want 200; body %s", method, path, r.status, r.raw)
	}
	return r
}

func TestProjectCreateRetrieve(t *testing.T) {
	e := newEnv(t, Options{})
	ok := DefaultOrgAPIKey
	r := e.org(ok, "POST", projectsPath+"/new", map[string]any{"name": "alpha", "should_create_api_key": true, "config": map[string]any{
		"is_2FA_enabled": false, "mask_secret_keys_in_connected_account": true, "log_visibility_setting": "dont_store_data",
		"display_name": "Alpha", "signed_url_file_expiry_in_seconds": 60}})
	id, key := r.str("id"), r.str("api_key")
	if !strings.HasPrefix(id, "pr_") || r.str("name") != "alpha" || key == "" {
		t.Fatalf("create: %s", r.raw)
	}
	// the new key works at once, on the new project's own (empty) data
	e.createManagedAC("github")
	if got := e.doKey(key, "GET", v+"/auth_configs", nil); got.status != 200 || len(got.items()) != 0 {
		t.Fatalf("new project's key: %d %s", got.status, got.raw)
	}
	g := e.org(ok, "GET", projectsPath+"/"+id, nil)
	for k, want := range map[string]any{"id": id, "org_id": DefaultOrgID, "name": "alpha", "webhook_url": nil, "event_webhook_url": nil,
		"webhook_secret": nil, "webhook_version": "V3", "deleted": false, "triggers_enabled": true} {
		if got := g.get(k); got != want {
			t.Errorf("retrieve %s = %v, want %v", k, got, want)
		}
	}
	if g.str("email") == "" || g.str("created_at") == "" || g.str("updated_at") == "" || g.get("config") != nil {
		t.Errorf("retrieve: %s", g.raw)
	}
	keys, _ := g.get("api_keys").([]any)
	if len(keys) != 1 {
		t.Fatalf("api_keys: %s", g.raw)
	}
	k0 := keys[0].(map[string]any)
	if masked, _ := k0["key"].(string); masked == key || !strings.HasPrefix(masked, key[:4]+"****") || k0["id"] == "" || k0["name"] == "" || k0["created_at"] == "" {
		t.Errorf("api key not masked or incomplete: %v", k0)
	}
	// without a key: asked for, and by default (the documents default
	// should_create_api_key to false)
	for name, body := range map[string]map[string]any{
		"no key":         {"name": "no key", "should_create_api_key": false},
		"no key default": {"name": "no key default"},
	} {
		nk := e.org(ok, "POST", projectsPath+"/new", body)
		if nk.get("api_key") != nil || !strings.Contains(nk.raw, `"api_key":null`) {
			t.Errorf("%s: %s", name, nk.raw)
		}
		if ks, _ := e.org(ok, "GET", projectsPath+"/"+nk.str("id"), nil).get("api_keys").([]any); len(ks) != 0 {
			t.Errorf("%s: project without key has keys: %v", name, ks)
		}
	}
	// name clash, blank and malformed names, strict bodies
	clash := e.doHeaders(orgHeaders(ok), "POST", projectsPath+"/new", map[string]any{"name": "alpha"})
	checkErr(t, clash, http.StatusConflict, `a project named "alpha" already exists`)
	// the configured project's name is taken too
	checkErr(t, e.doHeaders(orgHeaders(ok), "POST", projectsPath+"/new", map[string]any{"name": "default"}), http.StatusConflict, `"default"`)
	for what, body := range map[string]any{
		"blank name":                 map[string]any{"name": "  "},
		"empty name":                 map[string]any{"name": ""},
		"malformed name":             map[string]any{"name": "no/slashes!"},
		"no name":                    map[string]any{},
		"name not a string":          map[string]any{"name": 5},
		"unknown field":              map[string]any{"name": "ok", "region": "eu"},
		"should_create_api_key text": map[string]any{"name": "ok", "should_create_api_key": "yes"},
		"config without required":    map[string]any{"name": "ok", "config": map[string]any{"is_2FA_enabled": true}},
		"config bad visibility": map[string]any{"name": "ok", "config": map[string]any{"is_2FA_enabled": true,
			"mask_secret_keys_in_connected_account": true, "log_visibility_setting": "hide"}},
		"config unknown field": map[string]any{"name": "ok", "config": map[string]any{"is_2FA_enabled": true,
			"mask_secret_keys_in_connected_account": true, "log_visibility_setting": "show_all", "color": "red"}},
	} {
		if r := e.doHeaders(orgHeaders(ok), "POST", projectsPath+"/new", body); r.status != 400 || r.str("error", "message") == "" {
			t.Errorf("%s: status %d, want 400; %s", what, r.status, r.raw)
		}
	}
	checkErr(t, e.doHeaders(orgHeaders(ok), "GET", projectsPath+"/pr_nope", nil), http.StatusNotFound, `project "pr_nope" not found`)
}

// TestProjectConfigZDR: the service's v3 document adds zdr_enabled and
// oauth_callback_verifier_url to a project's create config; zdr_enabled
// replaces log_visibility_setting (never both: 400 naming both; one of them
// required, as the contract requires log_visibility_setting), and the
// verifier URL must be https and pass the SSRF checks. The config is kept.
func TestProjectConfigZDR(t *testing.T) {
	e := newEnv(t, Options{})
	ok := DefaultOrgAPIKey
	cfg := func(extra map[string]any) map[string]any {
		c := map[string]any{"is_2FA_enabled": false, "mask_secret_keys_in_connected_account": true}
		for k, v := range extra {
			c[k] = v
		}
		return map[string]any{"name": "zdr " + randString(6), "config": c}
	}
	checkErr(t, e.doHeaders(orgHeaders(ok), "POST", projectsPath+"/new", cfg(map[string]any{"zdr_enabled": true, "log_visibility_setting": "show_all"})),
		400, "config.zdr_enabled and config.log_visibility_setting must not be sent together")
	checkErr(t, e.doHeaders(orgHeaders(ok), "POST", projectsPath+"/new", cfg(nil)), 400, "config.log_visibility_setting is required (or config.zdr_enabled)")
	checkErr(t, e.doHeaders(orgHeaders(ok), "POST", projectsPath+"/new", cfg(map[string]any{"zdr_enabled": "yes"})), 400, "zdr_enabled")
	for _, bad := range []string{"http://verify.example.com/cb", "https://127.0.0.1/cb", "https://10.1.2.3/cb", "https://localhost/cb", "verify.example.com"} {
		checkErr(t, e.doHeaders(orgHeaders(ok), "POST", projectsPath+"/new", cfg(map[string]any{"zdr_enabled": false, "oauth_callback_verifier_url": bad})),
			400, "config.oauth_callback_verifier_url")
	}
	r := e.org(ok, "POST", projectsPath+"/new", cfg(map[string]any{"zdr_enabled": true, "oauth_callback_verifier_url": "https://verify.example.com/cb"}))
	p := e.srv.projects[r.str("id")]
	if p == nil || p.Config["zdr_enabled"] != true || p.Config["oauth_callback_verifier_url"] != "https://verify.example.com/cb" {
		t.Fatalf("config not kept: %+v", p)
	}
	e.org(ok, "POST", projectsPath+"/new", cfg(map[string]any{"log_visibility_setting": "dont_store_data"}))
}

func TestProjectListPages(t *testing.T) {
	e := newEnv(t, Options{})
	want := []string{"default"} // the configured project comes first
	for i := range 6 {
		name := fmt.Sprintf("p%d", i)
		e.org(DefaultOrgAPIKey, "POST", projectsPath+"/new", map[string]any{"name": name})
		want = append(want, name)
	}
	var got []string
	path := projectsPath + "/list?limit=3"
	for page := 1; ; page++ {
		r := e.org(DefaultOrgAPIKey, "GET", path, nil)
		if n, _ := r.get("total_items").(float64); n != 7 {
			t.Fatalf("total_items: %s", r.raw)
		}
		if n, _ := r.get("total_pages").(float64); n != 3 {
			t.Fatalf("total_pages: %s", r.raw)
		}
		if n, _ := r.get("current_page").(float64); int(n) != page {
			t.Fatalf("current_page %v, want %d", n, page)
		}
		data, _ := r.get("data").([]any)
		for _, d := range data {
			p := d.(map[string]any)
			got = append(got, p["name"].(string))
			if p["org_id"] != DefaultOrgID || p["deleted"] != false || p["api_keys"] != nil {
				t.Errorf("list item: %v", p)
			}
		}
		next, _ := r.get("next_cursor").(string)
		if next == "" {
			if page != 3 || r.get("next_cursor") != nil {
				t.Fatalf("last page %d: %s", page, r.raw)
			}
			break
		}
		raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(next, "="))
		var cs cursorState
		if err != nil || json.Unmarshal(raw, &cs) != nil || cs.Page != page+1 || cs.Limit != 3 {
			t.Fatalf("cursor %q is not base64 of page %d and limit 3: %s", next, page+1, raw)
		}
		path = projectsPath + "/list?cursor=" + next
	}
	if !slices.Equal(got, want) {
		t.Fatalf("listed %v, want %v (creation order)", got, want)
	}
	checkErr(t, e.doHeaders(orgHeaders(DefaultOrgAPIKey), "GET", projectsPath+"/list?limit=51", nil), http.StatusBadRequest, "limit must be at most 50")
	checkErr(t, e.doHeaders(orgHeaders(DefaultOrgAPIKey), "GET", projectsPath+"/list?cursor=nope!", nil), http.StatusBadRequest, "cursor")
	if r := e.org(DefaultOrgAPIKey, "GET", projectsPath+"/list?limit=50", nil); len(r.get("data").([]any)) != 7 {
		t.Fatalf("limit 50: %s", r.raw)
	}
}

func TestProjectDelete(t *testing.T) {
	e := newEnv(t, Options{})
	ok := DefaultOrgAPIKey
	r := e.org(ok, "POST", projectsPath+"/new", map[string]any{"name": "gone", "should_create_api_key": true})
	id, key := r.str("id"), r.str("api_key")
	e.must(200, "GET", v+"/auth_configs", nil)
	if got := e.doKey(key, "GET", v+"/auth_configs", nil); got.status != 200 {
		t.Fatalf("key before delete: %s", got.raw)
	}
	d := e.org(ok, "DELETE", projectsPath+"/"+id+"?revoke_on_delete=false", nil)
	if d.str("status") != "success" || d.get("revoke_job_id") != nil {
		t.Fatalf("delete: %s", d.raw)
	}
	checkErr(t, e.doKey(key, "GET", v+"/auth_configs", nil), http.StatusUnauthorized, "invalid API key")
	checkErr(t, e.doHeaders(orgHeaders(ok), "GET", projectsPath+"/"+id, nil), http.StatusNotFound, "not found")
	checkErr(t, e.doHeaders(orgHeaders(ok), "DELETE", projectsPath+"/"+id, nil), http.StatusNotFound, "not found")
	checkErr(t, e.doHeaders(orgHeaders(ok), "POST", projectsPath+"/"+id+"/regenerate_api_key", nil), http.StatusNotFound, "not found")
	if l := e.org(ok, "GET", projectsPath+"/list", nil); strings.Contains(l.raw, id) {
		t.Fatalf("deleted project listed: %s", l.raw)
	}
	// the name is free again
	again := e.org(ok, "POST", projectsPath+"/new", map[string]any{"name": "gone", "should_create_api_key": true})
	if again.str("id") == id {
		t.Fatal("re-created project reuses the id")
	}
	d = e.org(ok, "DELETE", projectsPath+"/"+again.str("id")+"?revoke_on_delete=true", nil)
	if d.str("status") != "success" || d.str("revoke_job_id") == "" {
		t.Fatalf("delete with revoke: %s", d.raw)
	}
	checkErr(t, e.doHeaders(orgHeaders(ok), "DELETE", projectsPath+"/"+id+"?revoke_on_delete=maybe", nil), http.StatusBadRequest, "revoke_on_delete")
	// deleting the configured project refuses its configured key
	def := configuredProjectID("default")
	e.org(ok, "DELETE", projectsPath+"/"+def, nil)
	checkErr(t, e.do("GET", v+"/auth_configs", nil), http.StatusUnauthorized, "invalid API key")
}

func TestProjectRegenerateAPIKey(t *testing.T) {
	e := newEnv(t, Options{})
	ok := DefaultOrgAPIKey
	ac := e.createManagedAC("github")
	def := configuredProjectID("default")
	r := e.org(ok, "POST", projectsPath+"/"+def+"/regenerate_api_key", nil)
	nk := r.str("api_key", "key")
	if nk == "" || nk == testKey || r.str("api_key", "id") == "" || r.str("api_key", "name") == "" || r.str("api_key", "created_at") == "" || r.str("message") == "" {
		t.Fatalf("regenerate: %s", r.raw)
	}
	checkErr(t, e.do("GET", v+"/auth_configs", nil), http.StatusUnauthorized, "invalid API key")
	got := e.doKey(nk, "GET", v+"/auth_configs", nil)
	if got.status != 200 || len(got.items()) != 1 || got.items()[0]["id"] != ac {
		t.Fatalf("new key on the project's data: %d %s", got.status, got.raw)
	}
	// a created project: its old key stops, the new one works
	p := e.org(ok, "POST", projectsPath+"/new", map[string]any{"name": "rot", "should_create_api_key": true})
	r = e.org(ok, "POST", projectsPath+"/"+p.str("id")+"/regenerate_api_key", nil)
	checkErr(t, e.doKey(p.str("api_key"), "GET", v+"/auth_configs", nil), http.StatusUnauthorized, "invalid API key")
	if got := e.doKey(r.str("api_key", "key"), "GET", v+"/auth_configs", nil); got.status != 200 || len(got.items()) != 0 {
		t.Fatalf("regenerated key of a created project: %d %s", got.status, got.raw)
	}
	keys, _ := e.org(ok, "GET", projectsPath+"/"+p.str("id"), nil).get("api_keys").([]any)
	if len(keys) != 1 || keys[0].(map[string]any)["id"] != r.str("api_key", "id") {
		t.Fatalf("keys after regeneration: %v", keys)
	}
}

// TestOrganizationIsolationEveryOrgIDRoute: every emulated organization
// operation with a path parameter (from the operation table) called with
// another organization's key on a project answers 404 and changes nothing.
// (TestProjectIsolationEveryIDRoute covers the project-key routes.)
func TestOrganizationIsolationEveryOrgIDRoute(t *testing.T) {
	e := newEnv(t, Options{OrgAPIKeys: map[string]string{"org-key-a": "org-a", "org-key-b": "org-b"}})
	p := e.org("org-key-a", "POST", projectsPath+"/new", map[string]any{"name": "mine", "should_create_api_key": true})
	id, key := p.str("id"), p.str("api_key")
	cases := map[string]string{
		"GET /org/owner/project/{nano_id}":                     "/org/owner/project/" + id,
		"DELETE /org/owner/project/{nano_id}":                  "/org/owner/project/" + id,
		"POST /org/owner/project/{nano_id}/regenerate_api_key": "/org/owner/project/" + id + "/regenerate_api_key",
	}
	var routes []string
	for _, op := range e.srv.Operations() {
		if op.Emulated && strings.Contains(op.Path, "{") && slices.Contains(op.Schemes, SchemeOrgAPIKey) {
			routes = append(routes, op.Method+" "+op.Path)
			if _, ok := cases[op.Method+" "+op.Path]; !ok {
				t.Errorf("organization route %s takes an id but has no isolation case", op.Method+" "+op.Path)
			}
		}
	}
	if len(routes) != len(cases) {
		t.Fatalf("routes %v, cases %v", routes, cases)
	}
	for _, route := range routes {
		method := route[:strings.Index(route, " ")]
		for _, prefix := range apiPrefixes {
			if r := e.doHeaders(orgHeaders("org-key-b"), method, prefix+cases[route], nil); r.status != 404 {
				t.Errorf("%s with another organization's key: %d %s", route, r.status, r.raw)
			}
		}
	}
	if l := e.org("org-key-b", "GET", projectsPath+"/list", nil); strings.Contains(l.raw, id) || strings.Contains(l.raw, `"default"`) {
		t.Errorf("organization b lists a's projects: %s", l.raw)
	}
	// the configured project belongs to the first organization (org-a)
	if l := e.org("org-key-a", "GET", projectsPath+"/list", nil); !strings.Contains(l.raw, id) || !strings.Contains(l.raw, `"name":"default"`) {
		t.Errorf("organization a's list: %s", l.raw)
	}
	// the same name in another organization is fine
	e.org("org-key-b", "POST", projectsPath+"/new", map[string]any{"name": "mine", "should_create_api_key": true})
	if got := e.doKey(key, "GET", v+"/auth_configs", nil); got.status != 200 {
		t.Fatalf("a's project key after b's calls: %d %s", got.status, got.raw)
	}
	if g := e.org("org-key-a", "GET", projectsPath+"/"+id, nil); g.get("deleted") != false {
		t.Fatalf("a's project changed: %s", g.raw)
	}
}

func TestProjectsPersist(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.db")
	opts := Options{DataPath: path, APIKeys: map[string]string{"key-x": "x", "key-y": "y"}}
	srv, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	e := envFor(t, srv)
	e.key = "key-x"
	ac := e.createManagedAC("github")
	created := e.org(DefaultOrgAPIKey, "POST", projectsPath+"/new", map[string]any{"name": "kept", "should_create_api_key": true, "config": map[string]any{
		"is_2FA_enabled": true, "mask_secret_keys_in_connected_account": false, "log_visibility_setting": "show_all"}})
	gone := e.org(DefaultOrgAPIKey, "POST", projectsPath+"/new", map[string]any{"name": "gone", "should_create_api_key": true})
	e.org(DefaultOrgAPIKey, "DELETE", projectsPath+"/"+gone.str("id"), nil)
	newX := e.org(DefaultOrgAPIKey, "POST", projectsPath+"/"+configuredProjectID("x")+"/regenerate_api_key", nil).str("api_key", "key")
	before := e.org(DefaultOrgAPIKey, "GET", projectsPath+"/list", nil).get("data")
	e.ts.Close()
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}

	srv2, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	e2 := envFor(t, srv2)
	after := e2.org(DefaultOrgAPIKey, "GET", projectsPath+"/list", nil).get("data")
	if fmt.Sprint(after) != fmt.Sprint(before) {
		t.Fatalf("projects after reopening:\n%v\nwant\n%v", after, before)
	}
	checkErr(t, e2.doKey("key-x", "GET", v+"/auth_configs", nil), http.StatusUnauthorized, "invalid API key")
	if r := e2.doKey(newX, "GET", v+"/auth_configs/"+ac, nil); r.status != 200 {
		t.Fatalf("regenerated key after reopening: %d %s", r.status, r.raw)
	}
	if r := e2.doKey("key-y", "GET", v+"/auth_configs", nil); r.status != 200 {
		t.Fatalf("configured key after reopening: %d %s", r.status, r.raw)
	}
	if r := e2.doKey(created.str("api_key"), "GET", v+"/auth_configs", nil); r.status != 200 {
		t.Fatalf("created key after reopening: %d %s", r.status, r.raw)
	}
	checkErr(t, e2.doKey(gone.str("api_key"), "GET", v+"/auth_configs", nil), http.StatusUnauthorized, "invalid API key")
	if p := srv2.projects[created.str("id")]; p == nil || p.Config["log_visibility_setting"] != "show_all" {
		t.Fatalf("config not stored: %+v", p)
	}
	checkErr(t, e2.doHeaders(orgHeaders(DefaultOrgAPIKey), "POST", projectsPath+"/new", map[string]any{"name": "kept"}), http.StatusConflict, "kept")
	e2.org(DefaultOrgAPIKey, "POST", projectsPath+"/new", map[string]any{"name": "gone", "should_create_api_key": true})
	e2.ts.Close()
	if err := srv2.Close(); err != nil {
		t.Fatal(err)
	}

	// a configured project dropped from the options loses its configured key
	srv3, err := New(Options{DataPath: path, APIKeys: map[string]string{"key-x2": "x"}})
	if err != nil {
		t.Fatal(err)
	}
	e3 := envFor(t, srv3)
	checkErr(t, e3.doKey("key-y", "GET", v+"/auth_configs", nil), http.StatusUnauthorized, "invalid API key")
	if r := e3.doKey("key-x2", "GET", v+"/auth_configs/"+ac, nil); r.status != 200 {
		t.Fatalf("a new configured key of project x: %d %s", r.status, r.raw)
	}
	if r := e3.doKey(newX, "GET", v+"/auth_configs", nil); r.status != 200 {
		t.Fatalf("regenerated key after reconfiguring: %d %s", r.status, r.raw)
	}
}

// envFor serves srv in a test env (the caller closes srv).
func envFor(t *testing.T, srv *Server) *testEnv {
	t.Helper()
	e := &testEnv{t: t, srv: srv, key: testKey}
	e.ts = httptest.NewServer(srv.Handler())
	srv.SetBaseURL(e.ts.URL)
	t.Cleanup(func() { e.ts.Close(); _ = srv.Close() })
	return e
}

// TestScopedProjectKey: POST /_emulator/api_keys issues a scoped key of the
// caller's project (the service's keys with read or write per area): a
// read permission lets GETs through and answers every write 403 in the
// service's error envelope, naming the permission and the area; a write
// permission on one area leaves the others to "*"; bad permissions are 400.
func TestScopedProjectKey(t *testing.T) {
	e := newEnv(t, Options{})
	e.mustErr(400, "permissions must name at least one area", "POST", "/_emulator/api_keys", map[string]any{"permissions": map[string]any{}})
	e.mustErr(400, "permissions.auth_configs", "POST", "/_emulator/api_keys", map[string]any{"permissions": map[string]any{"auth_configs": "admin"}})
	ro := e.must(200, "POST", "/_emulator/api_keys", map[string]any{"permissions": map[string]any{"*": "read"}}).str("key")
	if r := e.doKey(ro, "GET", v+"/auth_configs", nil); r.status != 200 {
		t.Fatalf("a read-only key reads: %d %s", r.status, r.raw)
	}
	body := map[string]any{"toolkit": map[string]any{"slug": "github"}, "auth_config": map[string]any{"type": "use_composio_managed_auth"}}
	r := e.doKey(ro, "POST", v+"/auth_configs", body)
	if r.status != 403 || r.get("error", "status") != float64(403) || r.get("error", "code") != float64(CodeForbidden) ||
		!strings.Contains(r.str("error", "message"), "does not have write permission for auth_configs") || r.str("error", "request_id") == "" {
		t.Fatalf("a write with a read-only key: %d %s", r.status, r.raw)
	}
	if n := len(e.must(200, "GET", v+"/auth_configs", nil).items()); n != 0 {
		t.Fatalf("the refused write wrote: %d auth configs", n)
	}
	mixed := e.must(200, "POST", "/_emulator/api_keys", map[string]any{"permissions": map[string]any{"auth_configs": "write", "*": "read"}}).str("key")
	if r := e.doKey(mixed, "POST", v+"/auth_configs", body); r.status != 201 {
		t.Fatalf("write on auth_configs: %d %s", r.status, r.raw)
	}
	checkErr(t, e.doKey(mixed, "POST", v+"/connected_accounts", map[string]any{}), 403, "write permission for connected_accounts")
	none := e.must(200, "POST", "/_emulator/api_keys", map[string]any{"permissions": map[string]any{"toolkits": "read"}}).str("key")
	checkErr(t, e.doKey(none, "GET", v+"/auth_configs", nil), 403, "read permission for auth_configs")
	if r := e.doKey(none, "GET", v+"/toolkits", nil); r.status != 200 {
		t.Fatalf("read on toolkits: %d %s", r.status, r.raw)
	}
	// The full key is unchanged.
	e.must(201, "POST", v+"/auth_configs", body)
}
