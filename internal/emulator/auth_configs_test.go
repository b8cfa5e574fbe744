package emulator

import (
	"strings"
	"testing"
	"time"
)

func TestAuthConfigManagedAndCustom(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.must(201, "POST", v+"/auth_configs", map[string]any{"toolkit": map[string]any{"slug": "github"}})
	if r.str("toolkit", "slug") != "github" || r.get("auth_config", "is_composio_managed") != true || r.str("auth_config", "auth_scheme") != "OAUTH2" {
		t.Fatalf("managed create: %s", r.raw)
	}
	managed := r.str("auth_config", "id")
	g := e.must(200, "GET", v+"/auth_configs/"+managed, nil)
	if g.str("type") != "default" || g.str("name") != "GitHub Auth Config" || g.str("status") != "ENABLED" || g.str("uuid") == "" {
		t.Fatalf("managed get: %s", g.raw)
	}
	// second default name is unique-ish
	second := e.createManagedAC("github")
	if n := e.must(200, "GET", v+"/auth_configs/"+second, nil).str("name"); n != "GitHub Auth Config 2" {
		t.Fatalf("second name %q", n)
	}

	custom := e.must(201, "POST", v+"/auth_configs", map[string]any{
		"toolkit": map[string]any{"slug": "linear"},
		"auth_config": map[string]any{"type": "use_custom_auth", "authScheme": "OAUTH2", "name": "mine",
			"credentials":                map[string]any{"client_id": "cid", "client_secret": "shh", "scopes": []any{"read", "write"}},
			"tool_access_config":         map[string]any{"tools_for_connected_account_creation": []any{"LINEAR_LIST_ITEMS"}},
			"is_enabled_for_tool_router": true},
	}).str("auth_config", "id")
	g = e.must(200, "GET", v+"/auth_configs/"+custom, nil)
	if g.str("type") != "custom" || g.str("name") != "mine" || g.str("credentials", "client_id") != "cid" ||
		g.str("credentials", "client_secret") != "********" || g.get("is_enabled_for_tool_router") != true {
		t.Fatalf("custom get: %s", g.raw)
	}
	if sc, _ := g.get("credentials", "scopes").([]any); len(sc) != 2 {
		t.Fatalf("scopes: %s", g.raw)
	}
	tac, _ := g.get("tool_access_config").(map[string]any)
	if _, ok := tac["tools_available_for_execution"]; !ok || len(tac["tools_for_connected_account_creation"].([]any)) != 1 {
		t.Fatalf("tool_access_config: %s", g.raw)
	}
	if _, err := time.Parse(time.RFC3339, g.str("created_at")); err != nil {
		t.Fatalf("created_at: %v", err)
	}
}

func TestAuthConfigValidation(t *testing.T) {
	e := newEnv(t, Options{})
	create := func(tk string, ac map[string]any) resp {
		return e.do("POST", v+"/auth_configs", map[string]any{"toolkit": map[string]any{"slug": tk}, "auth_config": ac})
	}
	checkErr(t, create("nope", nil), 404, "toolkit \"nope\" not found")
	checkErr(t, e.do("POST", v+"/auth_configs", map[string]any{}), 400, "toolkit.slug")
	checkErr(t, create("stripe", map[string]any{"type": "use_composio_managed_auth"}), 400, "no service-managed auth scheme")
	checkErr(t, create("github", map[string]any{"type": "use_custom_auth", "authScheme": "OAUTH2",
		"credentials": map[string]any{"client_id": "x"}}), 400, "credentials.client_secret is required")
	checkErr(t, create("github", map[string]any{"type": "use_custom_auth", "authScheme": "OAUTH2",
		"credentials": map[string]any{"client_id": "x", "client_secret": "y", "colour": "blue"}}), 400, "credentials.colour is not a field")
	checkErr(t, create("github", map[string]any{"type": "use_custom_auth", "authScheme": "API_KEY"}), 400, "does not support auth scheme API_KEY")
	checkErr(t, create("github", map[string]any{"type": "use_custom_auth", "authScheme": "MAGIC"}), 400, "unknown auth scheme")
	checkErr(t, create("github", map[string]any{"type": "use_custom_auth"}), 400, "authScheme is required")
	checkErr(t, create("github", map[string]any{"type": "weird"}), 400, "type must be")
	checkErr(t, create("github", map[string]any{"type": "use_composio_managed_auth", "credentials": map[string]any{"client_id": "x"}}), 400, "credentials.client_id")
	r := create("github", map[string]any{"type": "use_custom_auth", "authScheme": "OAUTH2",
		"credentials": map[string]any{"client_id": "x"}})
	if errs, _ := r.get("error", "errors").([]any); len(errs) == 0 {
		t.Fatalf("errors[] missing: %s", r.raw)
	}
	// API_KEY custom config needs nothing; BASIC on jira needs nothing at creation
	e.createCustomAC("stripe", "API_KEY", nil)
	e.createCustomAC("jira", "BASIC", map[string]any{})
	e.createCustomAC("slack", "BEARER_TOKEN", map[string]any{})
}

func TestAuthConfigUpdateStatusDelete(t *testing.T) {
	e := newEnv(t, Options{})
	id := e.createCustomAC("github", "OAUTH2", map[string]any{"client_id": "a", "client_secret": "b"})
	before := e.must(200, "GET", v+"/auth_configs/"+id, nil).str("last_updated_at")
	e.must(200, "PATCH", v+"/auth_configs/"+id, map[string]any{"type": "custom", "name": "renamed",
		"credentials":                map[string]any{"client_id": "a2", "client_secret": "b2", "scopes": "repo"},
		"is_enabled_for_tool_router": true,
		"tool_access_config":         map[string]any{"tools_available_for_execution": []any{"GITHUB_GET_A_REPOSITORY"}}})
	g := e.must(200, "GET", v+"/auth_configs/"+id, nil)
	if g.str("name") != "renamed" || g.str("credentials", "client_id") != "a2" || g.str("credentials", "scopes") != "repo" ||
		g.get("is_enabled_for_tool_router") != true || g.str("last_updated_at") <= before {
		t.Fatalf("after update: %s (before %s)", g.raw, before)
	}
	if l := g.get("tool_access_config", "tools_available_for_execution").([]any); len(l) != 1 {
		t.Fatalf("tools: %s", g.raw)
	}
	e.mustErr(400, "credentials.client_secret is required", "PATCH", v+"/auth_configs/"+id,
		map[string]any{"type": "custom", "credentials": map[string]any{"client_id": "only"}})
	e.mustErr(400, "type must be", "PATCH", v+"/auth_configs/"+id, map[string]any{"name": "x"})

	m := e.createManagedAC("slack")
	e.must(200, "PATCH", v+"/auth_configs/"+m, map[string]any{"type": "default", "scopes": []any{"chat:write"}})
	if sc := e.must(200, "GET", v+"/auth_configs/"+m, nil).get("credentials", "scopes").([]any); sc[0] != "chat:write" {
		t.Fatalf("default scopes: %v", sc)
	}

	// status
	e.must(200, "PATCH", v+"/auth_configs/"+id+"/DISABLED", nil)
	if g := e.must(200, "GET", v+"/auth_configs/"+id, nil); g.str("status") != "DISABLED" {
		t.Fatal(g.raw)
	}
	e.mustErr(400, "status must be", "PATCH", v+"/auth_configs/"+id+"/PAUSED", nil)
	if n := len(e.must(200, "GET", v+"/auth_configs", nil).items()); n != 1 {
		t.Fatalf("disabled config listed without show_disabled: %d", n)
	}
	if n := len(e.must(200, "GET", v+"/auth_configs?show_disabled=true", nil).items()); n != 2 {
		t.Fatalf("show_disabled: %d", n)
	}
	e.mustErr(400, "is disabled", "POST", v+"/connected_accounts", map[string]any{"auth_config": map[string]any{"id": id}})
	e.must(200, "PATCH", v+"/auth_configs/"+id+"/ENABLED", nil)

	// delete makes accounts stop working
	acct, _ := e.oauthAccount(id, "u1", "")
	e.must(200, "POST", "/_emulator/connected_accounts/"+acct+"/complete", nil)
	e.must(200, "DELETE", v+"/auth_configs/"+id, nil)
	e.mustErr(404, "not found", "GET", v+"/auth_configs/"+id, nil)
	a := e.must(200, "GET", v+"/connected_accounts/"+acct, nil)
	if a.str("status") != "INACTIVE" || a.str("status_reason") != "auth config "+id+" was deleted" || a.get("auth_config", "is_disabled") != true {
		t.Fatalf("account after auth config delete: %s", a.raw)
	}
	e.mustErr(400, "was deleted", "POST", v+"/connected_accounts/"+acct+"/refresh", nil)
	e.mustErr(400, "was deleted", "PATCH", v+"/connected_accounts/"+acct+"/status", map[string]any{"enabled": true})
	e.mustErr(404, "not found", "POST", v+"/connected_accounts", map[string]any{"auth_config": map[string]any{"id": id}})
	e.mustErr(404, "not found", "DELETE", v+"/auth_configs/"+id, nil)
}

func TestAuthConfigListFiltersAndPagination(t *testing.T) {
	e := newEnv(t, Options{})
	for i := 0; i < 5; i++ {
		e.createManagedAC("github")
	}
	e.createCustomAC("stripe", "API_KEY", nil)
	e.createCustomAC("linear", "API_KEY", nil)
	if n := len(e.must(200, "GET", v+"/auth_configs?toolkit_slug=stripe,linear", nil).items()); n != 2 {
		t.Fatalf("comma filter %d", n)
	}
	if n := len(e.must(200, "GET", v+"/auth_configs?toolkit_slug=stripe&toolkit_slug=linear", nil).items()); n != 2 {
		t.Fatalf("repeated filter %d", n)
	}
	if n := len(e.must(200, "GET", v+"/auth_configs?is_composio_managed=true", nil).items()); n != 5 {
		t.Fatalf("managed filter %d", n)
	}
	if n := len(e.must(200, "GET", v+"/auth_configs?search=stripe", nil).items()); n != 1 {
		t.Fatalf("search %d", n)
	}
	seen := map[string]bool{}
	pages := 0
	e.eachPage(v+"/auth_configs?limit=3", func(r resp) {
		pages++
		if r.get("total_items").(float64) != 7 || r.get("total_pages").(float64) != 3 || int(r.get("current_page").(float64)) != pages {
			t.Fatalf("page meta: %s", r.raw)
		}
		for _, it := range r.items() {
			seen[it["id"].(string)] = true
		}
	})
	if len(seen) != 7 || pages != 3 {
		t.Fatalf("pagination saw %d items in %d pages", len(seen), pages)
	}
	e.mustErr(400, "cursor", "GET", v+"/auth_configs?cursor=garbage!", nil)
	e.mustErr(400, "limit", "GET", v+"/auth_configs?limit=-1", nil)
	if r := e.must(200, "GET", v+"/auth_configs?limit=200", nil); len(r.items()) != 7 {
		t.Fatal(r.raw)
	}
	e.mustErr(400, "limit must be at most 200, got 500", "GET", v+"/auth_configs?limit=500", nil)
}

// The auth config list serves pages of up to 200 (the service's limit since
// 2026-09-21) and answers 400 naming limit beyond, in the envelope of the
// project list's limit; the other lists keep their maxima.
func TestAuthConfigListPagesOf200(t *testing.T) {
	e := newEnv(t, Options{})
	for range 250 {
		e.createManagedAC("github")
	}
	first := e.must(200, "GET", v+"/auth_configs?limit=200", nil)
	if n := len(first.items()); n != 200 || first.get("next_cursor") == nil || first.get("total_pages") != float64(2) {
		t.Fatalf("first page: %d items, next_cursor %v, total_pages %v", n, first.get("next_cursor"), first.get("total_pages"))
	}
	second := e.must(200, "GET", v+"/auth_configs?cursor="+first.str("next_cursor"), nil)
	if n := len(second.items()); n != 50 || second.get("next_cursor") != nil {
		t.Fatalf("second page: %d items, next_cursor %v", n, second.get("next_cursor"))
	}
	if n := len(e.must(200, "GET", v+"/auth_configs", nil).items()); n != 20 {
		t.Errorf("default page: %d items, want 20", n)
	}
	for _, path := range []string{v + "/auth_configs?limit=201", "/api/v3/auth_configs?limit=1000"} {
		r := e.do("GET", path, nil)
		checkErr(t, r, 400, "limit must be at most 200")
		if r.str("error", "slug") != "ValidationError" {
			t.Errorf("%s: slug %q", path, r.str("error", "slug"))
		}
		if errs, _ := r.get("error", "errors").([]any); len(errs) != 1 || !strings.HasPrefix(errs[0].(string), "limit: ") {
			t.Errorf("%s: errors %v, want one naming limit", path, r.get("error", "errors"))
		}
	}
	// Other lists keep theirs: trigger instances serve at most 50 (no
	// error), connected accounts up to 1000.
	e.must(200, "GET", v+"/trigger_instances/active?limit=200", nil)
	e.must(200, "GET", v+"/connected_accounts?limit=1000", nil)
}

// TestAuthConfigUpdateClearsLists: an explicit empty list clears scopes and
// tool lists (both update types) and reads back as []; a list left out of
// the body keeps the stored value.
func TestAuthConfigUpdateClearsLists(t *testing.T) {
	e := newEnv(t, Options{})
	list := func(g resp, path ...string) []any {
		t.Helper()
		l, ok := g.get(path...).([]any)
		if !ok {
			t.Fatalf("%v is not a list: %s", path, g.raw)
		}
		return l
	}

	// default (managed): scopes [] and tools_for_connected_account_creation [].
	m := e.createManagedAC("github")
	e.must(200, "PATCH", v+"/auth_configs/"+m, map[string]any{"type": "default", "scopes": []any{"repo"},
		"tool_access_config": map[string]any{"tools_for_connected_account_creation": []any{"GITHUB_CREATE_AN_ISSUE"},
			"tools_available_for_execution": []any{"GITHUB_GET_A_REPOSITORY"}}})
	g := e.must(200, "GET", v+"/auth_configs/"+m, nil)
	if len(list(g, "credentials", "scopes")) != 1 || len(list(g, "tool_access_config", "tools_for_connected_account_creation")) != 1 {
		t.Fatalf("after set: %s", g.raw)
	}
	// Lists left out (and a tool_access_config without the field) keep their values.
	e.must(200, "PATCH", v+"/auth_configs/"+m, map[string]any{"type": "default", "name": "kept", "tool_access_config": map[string]any{}})
	g = e.must(200, "GET", v+"/auth_configs/"+m, nil)
	if len(list(g, "credentials", "scopes")) != 1 || len(list(g, "tool_access_config", "tools_for_connected_account_creation")) != 1 ||
		len(list(g, "tool_access_config", "tools_available_for_execution")) != 1 {
		t.Fatalf("omitted lists changed: %s", g.raw)
	}
	e.must(200, "PATCH", v+"/auth_configs/"+m, map[string]any{"type": "default", "scopes": []any{},
		"tool_access_config": map[string]any{"tools_for_connected_account_creation": []any{}}})
	g = e.must(200, "GET", v+"/auth_configs/"+m, nil)
	if len(list(g, "credentials", "scopes")) != 0 || len(list(g, "tool_access_config", "tools_for_connected_account_creation")) != 0 {
		t.Fatalf("default update did not clear: %s", g.raw)
	}
	if len(list(g, "tool_access_config", "tools_available_for_execution")) != 1 {
		t.Fatalf("execution tools cleared though not sent: %s", g.raw)
	}

	// custom: credentials.scopes [] (with the other credentials) and tool list [].
	c := e.createCustomAC("github", "OAUTH2", map[string]any{"client_id": "a", "client_secret": "b", "scopes": []any{"repo", "user"}})
	e.must(200, "PATCH", v+"/auth_configs/"+c, map[string]any{"type": "custom",
		"credentials":        map[string]any{"client_id": "a", "client_secret": "b", "scopes": []any{}},
		"tool_access_config": map[string]any{"tools_for_connected_account_creation": []any{}}})
	g = e.must(200, "GET", v+"/auth_configs/"+c, nil)
	if len(list(g, "credentials", "scopes")) != 0 || g.str("credentials", "client_id") != "a" ||
		len(list(g, "tool_access_config", "tools_for_connected_account_creation")) != 0 {
		t.Fatalf("custom update did not clear: %s", g.raw)
	}
}

// PATCH /auth_configs/{id}/{status} takes exactly ENABLED or DISABLED.
func TestAuthConfigStatusIsExact(t *testing.T) {
	e := newEnv(t, Options{})
	id := e.createManagedAC("github")
	e.mustErr(400, "ENABLED or DISABLED", "PATCH", v+"/auth_configs/"+id+"/enabled", nil)
	e.mustErr(400, "ENABLED or DISABLED", "PATCH", v+"/auth_configs/"+id+"/Disabled", nil)
	e.must(200, "PATCH", v+"/auth_configs/"+id+"/DISABLED", nil)
	if got := e.must(200, "GET", v+"/auth_configs/"+id, nil).str("status"); got != "DISABLED" {
		t.Fatalf("status = %s", got)
	}
}

// shared_credentials are stored (secret fields masked on read), replaced by
// an update, inherited by the auth config's new accounts, and checked
// against the scheme's connected account fields.
func TestAuthConfigSharedCredentials(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.must(201, "POST", v+"/auth_configs", map[string]any{
		"toolkit": map[string]any{"slug": "airtable"},
		"auth_config": map[string]any{"type": "use_custom_auth", "authScheme": "API_KEY", "credentials": map[string]any{},
			"shared_credentials": map[string]any{"api_key": "sk_shared"}},
	})
	id := r.str("auth_config", "id")
	if got := e.must(200, "GET", v+"/auth_configs/"+id, nil).get("shared_credentials", "api_key"); got != masked {
		t.Fatalf("shared api_key read back as %v, want masked", got)
	}
	// An account without its own api_key inherits the shared one.
	a := e.must(201, "POST", v+"/connected_accounts", map[string]any{
		"auth_config": map[string]any{"id": id},
		"connection":  map[string]any{"user_id": "u1", "state": map[string]any{"authScheme": "API_KEY", "val": map[string]any{"status": "ACTIVE"}}},
	})
	if a.str("status") != "ACTIVE" {
		t.Fatalf("account with inherited api_key: %s", a.raw)
	}
	e.mustErr(400, "shared_credentials.client_id", "PATCH", v+"/auth_configs/"+id, map[string]any{
		"type": "custom", "shared_credentials": map[string]any{"client_id": "x"},
	})
	e.must(200, "PATCH", v+"/auth_configs/"+id, map[string]any{"type": "default", "shared_credentials": map[string]any{}})
	if got := e.must(200, "GET", v+"/auth_configs/"+id, nil).get("shared_credentials"); len(got.(map[string]any)) != 0 {
		t.Fatalf("shared credentials after clearing: %v", got)
	}
}

// revoke_on_delete=true answers a revoke_job_id and leaves the accounts
// REVOKED; without it the delete answers {} and the accounts are INACTIVE.
func TestAuthConfigDeleteRevoke(t *testing.T) {
	e := newEnv(t, Options{})
	plain := e.createCustomAC("airtable", "API_KEY", map[string]any{})
	a1 := e.apiKeyAccount(plain, "u1")
	e.deleteWithoutRevoking(v + "/auth_configs/" + plain)
	if got := e.must(200, "GET", v+"/connected_accounts/"+a1, nil); got.str("status") != "INACTIVE" || got.str("state", "val", "status") != "INACTIVE" {
		t.Fatalf("after plain delete: %s", got.raw)
	}
	revoked := e.createCustomAC("airtable", "API_KEY", map[string]any{})
	a2 := e.apiKeyAccount(revoked, "u1")
	if r := e.must(200, "DELETE", v+"/auth_configs/"+revoked+"?revoke_on_delete=true", nil); !strings.HasPrefix(r.str("revoke_job_id"), "rvk_") {
		t.Fatalf("revoking delete: %s", r.raw)
	}
	if got := e.must(200, "GET", v+"/connected_accounts/"+a2, nil); got.str("status") != "REVOKED" || got.str("state", "val", "status") != "INACTIVE" {
		t.Fatalf("after revoking delete: %s", got.raw)
	}
	e.mustErr(400, "revoke_on_delete", "DELETE", v+"/auth_configs/"+e.createManagedAC("github")+"?revoke_on_delete=maybe", nil)
}
