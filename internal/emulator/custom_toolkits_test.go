package emulator

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// customBody is a create/upsert body as the SDKs send it since 2026-11-09
// (the MCP server URL as toolkit_config.mcp_url).
func customBody(slug, mcpURL string, scheme map[string]any) map[string]any {
	return map[string]any{"slug": slug, "toolkit_config": map[string]any{
		"name": "Acme", "mcp_url": mcpURL, "auth_schemes": []any{scheme},
	}}
}

var customAPIKeyScheme = map[string]any{"mode": "API_KEY", "headers": map[string]any{"Authorization": "Bearer {{generic_api_key}}"}}

func TestCustomToolkitLifecycle(t *testing.T) {
	e := newEnv(t, Options{APIKeys: map[string]string{testKey: "default", "other": "beta"}})
	r := e.must(200, "POST", v+"/custom/toolkits/upsert", customBody("acme", "https://mcp.example.com/mcp", customAPIKeyScheme))
	if r.str("slug") != "CUSTOM_ACME" {
		t.Fatalf("slug %q", r.str("slug"))
	}
	// same mcp_url and scheme: idempotent, renames
	b := customBody("ACME", "https://mcp.example.com/mcp", customAPIKeyScheme)
	b["toolkit_config"].(map[string]any)["name"] = "Acme Two"
	e.must(200, "POST", v+"/custom/toolkits/upsert", b)
	tk := e.must(200, "GET", v+"/toolkits/CUSTOM_ACME", nil)
	if tk.str("type") != "custom" || tk.str("name") != "Acme Two" || tk.get("meta", "mcp_url") != nil ||
		tk.str("meta", "app_url") != "https://mcp.example.com/mcp" {
		t.Fatalf("toolkit %s", tk.raw)
	}
	details := tk.get("auth_config_details").([]any)
	if len(details) != 1 || details[0].(map[string]any)["mode"] != "API_KEY" {
		t.Fatalf("details %v", details)
	}
	// immutable fields
	e.mustErr(409, "mcp_url cannot be changed", "POST", v+"/custom/toolkits/upsert", customBody("acme", "https://other.example.com/mcp", customAPIKeyScheme))
	e.mustErr(409, "auth_schemes cannot be changed", "POST", v+"/custom/toolkits/upsert", customBody("acme", "https://mcp.example.com/mcp", map[string]any{"mode": "NO_AUTH"}))
	e.mustErr(409, "already exists", "POST", v+"/custom/toolkits", map[string]any{"slug": "acme", "user_id": "all",
		"toolkit_config": customBody("x", "https://mcp.example.com/mcp", customAPIKeyScheme)["toolkit_config"]})
	// listed as custom, not as native
	found := false
	for _, it := range e.must(200, "GET", v+"/toolkits?type=custom", nil).items() {
		found = found || it["slug"] == "CUSTOM_ACME"
	}
	if !found {
		t.Fatal("CUSTOM_ACME not listed with type=custom")
	}
	for _, it := range e.must(200, "GET", v+"/toolkits?type=native&limit=100", nil).items() {
		if it["slug"] == "CUSTOM_ACME" {
			t.Fatal("CUSTOM_ACME listed as native")
		}
	}
	// other projects do not see it
	if r := e.doKey("other", "GET", v+"/toolkits/CUSTOM_ACME", nil); r.status != 404 {
		t.Fatalf("other project: %d", r.status)
	}
	// usable by auth configs and connected accounts
	ac := e.createCustomAC("CUSTOM_ACME", "API_KEY", map[string]any{})
	e.mustErr(400, "does not support auth scheme", "POST", v+"/auth_configs", map[string]any{
		"toolkit": map[string]any{"slug": "CUSTOM_ACME"}, "auth_config": map[string]any{"type": "use_custom_auth", "authScheme": "OAUTH2"}})
	acct := e.must(201, "POST", v+"/connected_accounts", map[string]any{
		"auth_config": map[string]any{"id": ac},
		"connection": map[string]any{"user_id": "u1", "state": map[string]any{
			"authScheme": "API_KEY", "val": map[string]any{"status": "ACTIVE", "generic_api_key": "k"}}},
	}).str("id")
	e.mustErr(400, "connected_account_id", "POST", v+"/custom/toolkits/sync", map[string]any{"slug": "CUSTOM_ACME"})
	s := e.must(200, "POST", v+"/custom/toolkits/sync", map[string]any{"slug": "CUSTOM_ACME", "connected_account_id": acct})
	if s.str("slug") != "CUSTOM_ACME" || s.str("version") == "" {
		t.Fatalf("sync %s", s.raw)
	}
	// PATCH changes the name (the same description, URL and schemes may be
	// repeated); the URL under either name and the description are refused
	e.must(200, "PATCH", v+"/custom/toolkits/CUSTOM_ACME", map[string]any{"name": "Acme 3", "description": "",
		"mcp_url": "https://mcp.example.com/mcp", "app_url": "https://mcp.example.com/mcp"})
	if tk := e.must(200, "GET", v+"/toolkits/CUSTOM_ACME", nil); tk.str("name") != "Acme 3" || tk.str("meta", "description") != "" {
		t.Fatalf("after patch %s", tk.raw)
	}
	e.mustErr(409, "mcp_url", "PATCH", v+"/custom/toolkits/CUSTOM_ACME", map[string]any{"mcp_url": "https://x.example/mcp"})
	e.mustErr(409, "app_url", "PATCH", v+"/custom/toolkits/CUSTOM_ACME", map[string]any{"app_url": "https://x.example/mcp"})
	e.mustErr(409, "description cannot be changed", "PATCH", v+"/custom/toolkits/CUSTOM_ACME", map[string]any{"description": "d"})
	e.mustErr(403, "managed by the service", "DELETE", v+"/custom/toolkits/github", nil)
	// delete removes its auth configs and accounts
	d := e.must(200, "DELETE", v+"/custom/toolkits/CUSTOM_ACME", nil)
	if d.get("deleted") != true || d.get("auth_configs_soft_deleted") != float64(1) || d.get("connected_accounts_soft_deleted") != float64(1) {
		t.Fatalf("delete %s", d.raw)
	}
	e.must(404, "GET", v+"/toolkits/CUSTOM_ACME", nil)
	e.must(404, "GET", v+"/auth_configs/"+ac, nil)
	e.must(404, "DELETE", v+"/custom/toolkits/CUSTOM_ACME", nil)
}

func TestCustomToolkitBadInputs(t *testing.T) {
	e := newEnv(t, Options{})
	for _, tc := range []struct {
		name, want string
		body       map[string]any
	}{
		{"no slug", "slug is required", map[string]any{"toolkit_config": map[string]any{}}},
		{"bad slug", "slug may contain", customBody("a-b", "https://x.example/mcp", customAPIKeyScheme)},
		{"no config", "toolkit_config is required", map[string]any{"slug": "x"}},
		{"bad url", "toolkit_config.mcp_url must be", customBody("x", "ftp://x", customAPIKeyScheme)},
		{"no url", "toolkit_config.mcp_url (the MCP server URL) is required", map[string]any{"slug": "x", "toolkit_config": map[string]any{
			"name": "X", "auth_schemes": []any{customAPIKeyScheme}}}},
		{"both urls", "send the MCP server URL once", map[string]any{"slug": "x", "toolkit_config": map[string]any{
			"name": "X", "mcp_url": "https://x.example/mcp", "app_url": "https://x.example/mcp", "auth_schemes": []any{customAPIKeyScheme}}}},
		{"bad old url", "toolkit_config.app_url must be", map[string]any{"slug": "x", "toolkit_config": map[string]any{
			"name": "X", "app_url": "x.example/mcp", "auth_schemes": []any{customAPIKeyScheme}}}},
		{"long slug", "slug is at most 30 characters, got 31", customBody(strings.Repeat("a", 31), "https://x.example/mcp", customAPIKeyScheme)},
		{"no placeholder", "{{generic_api_key}}", customBody("x", "https://x.example/mcp", map[string]any{"mode": "API_KEY", "headers": map[string]any{"X-Key": "k"}})},
		{"no discovery", "discovery_url", customBody("x", "https://x.example/mcp", map[string]any{"mode": "DCR_OAUTH"})},
		{"bad mode", "mode must be one of", customBody("x", "https://x.example/mcp", map[string]any{"mode": "OAUTH2"})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.mustErr(400, tc.want, "POST", v+"/custom/toolkits/upsert", tc.body)
		})
	}
	e.mustErr(400, "user_id is required", "POST", v+"/custom/toolkits", customBody("x", "https://x.example/mcp", customAPIKeyScheme))
	b := customBody("x", "https://x.example/mcp", map[string]any{"mode": "NO_AUTH"})
	b["user_id"] = "all"
	if r := e.must(201, "POST", v+"/custom/toolkits", b); r.str("slug") != "CUSTOM_X" {
		t.Fatalf("create %s", r.raw)
	}
	// a no-auth toolkit syncs without an account
	e.must(200, "POST", v+"/custom/toolkits/sync", map[string]any{"slug": "CUSTOM_X"})
}

// The MCP server URL under its old name (toolkit_config.app_url, what SDKs
// before 2026-11-09 and other clients send) still registers a toolkit, on
// create and upsert; either way GET reports it as meta.app_url, the one name
// the documents give it (no meta.mcp_url). A slug of 30 characters is taken. An upsert of an existing
// toolkit keeps its description.
func TestCustomToolkitMCPURLTransition(t *testing.T) {
	e := newEnv(t, Options{})
	old := map[string]any{"slug": "legacy", "user_id": "all", "toolkit_config": map[string]any{
		"name": "Legacy", "description": "first", "app_url": "https://old.example/mcp", "auth_schemes": []any{map[string]any{"mode": "NO_AUTH"}}}}
	e.must(201, "POST", v+"/custom/toolkits", old)
	long := strings.Repeat("b", 30)
	b := customBody(long, "https://new.example/mcp", map[string]any{"mode": "NO_AUTH"})
	b["user_id"] = "all"
	e.must(201, "POST", v+"/custom/toolkits", b)
	upserted := map[string]any{"slug": "old_upsert", "toolkit_config": map[string]any{
		"name": "Old upsert", "app_url": "https://old.example/up", "auth_schemes": []any{map[string]any{"mode": "NO_AUTH"}}}}
	e.must(200, "POST", v+"/custom/toolkits/upsert", upserted)
	for slug, want := range map[string]string{
		"CUSTOM_LEGACY": "https://old.example/mcp", "CUSTOM_" + strings.ToUpper(long): "https://new.example/mcp",
		"CUSTOM_OLD_UPSERT": "https://old.example/up",
	} {
		tk := e.must(200, "GET", v+"/toolkits/"+slug, nil)
		if tk.get("meta", "mcp_url") != nil || tk.str("meta", "app_url") != want {
			t.Errorf("%s: meta %v, want app_url %s and no mcp_url", slug, tk.get("meta"), want)
		}
		found := false
		for _, it := range e.must(200, "GET", v+"/toolkits?type=custom", nil).items() {
			if meta, _ := it["meta"].(map[string]any); it["slug"] == slug {
				_, hasMCP := meta["mcp_url"]
				found = !hasMCP && meta["app_url"] == want
			}
		}
		if !found {
			t.Errorf("%s: not listed with meta.app_url %s alone", slug, want)
		}
	}
	// The same URL under the new name is the same toolkit to an upsert.
	again := customBody("legacy", "https://old.example/mcp", map[string]any{"mode": "NO_AUTH"})
	again["toolkit_config"].(map[string]any)["description"] = "second"
	e.must(200, "POST", v+"/custom/toolkits/upsert", again)
	if tk := e.must(200, "GET", v+"/toolkits/CUSTOM_LEGACY", nil); tk.str("name") != "Acme" || tk.str("meta", "description") != "first" {
		t.Errorf("after upsert: name %q, description %q; want Acme, first", tk.str("name"), tk.str("meta", "description"))
	}
	// Catalog toolkits report no mcp_url.
	if tk := e.must(200, "GET", v+"/toolkits/github", nil); tk.get("meta", "mcp_url") != nil {
		t.Errorf("github: meta.mcp_url %v", tk.get("meta", "mcp_url"))
	}
}

func TestToolAccessRestrictionEnforced(t *testing.T) {
	e := newEnv(t, Options{})
	ac := e.createCustomAC("stripe", "API_KEY", map[string]any{})
	acct := e.apiKeyAccount(ac, "u1")
	var allowed, other string // other: a tool needing no arguments
	for _, tl := range e.must(200, "GET", v+"/tools?toolkit_slug=stripe&limit=100", nil).items() {
		req, _ := tl["input_parameters"].(map[string]any)["required"].([]any)
		if other == "" && len(req) == 0 {
			other = tl["slug"].(string)
		} else if allowed == "" {
			allowed = tl["slug"].(string)
		}
	}
	if allowed == "" || other == "" {
		t.Fatal("stripe needs two tools, one without required arguments")
	}
	e.must(200, "PATCH", v+"/auth_configs/"+ac, map[string]any{"type": "default",
		"tool_access_config": map[string]any{"tools_available_for_execution": []any{allowed}}})
	r := e.do("POST", v+"/tools/execute/"+other, map[string]any{"connected_account_id": acct, "arguments": map[string]any{}})
	checkErr(t, r, 403, "not available for execution")
	// clearing the list lifts the restriction
	e.must(200, "PATCH", v+"/auth_configs/"+ac, map[string]any{"type": "default",
		"tool_access_config": map[string]any{"tools_available_for_execution": []any{}}})
	if r := e.do("POST", v+"/tools/execute/"+other, map[string]any{"connected_account_id": acct, "arguments": map[string]any{}}); r.status == 403 {
		t.Fatalf("still refused after clearing: %s", r.raw)
	}
}

// TestCatalogOffersEveryScheme: the catalog has toolkits for every auth
// scheme of the contract, and custom auth configs of the less common ones
// are created with their creation fields.
func TestCatalogOffersEveryScheme(t *testing.T) {
	e := newEnv(t, Options{})
	seen := map[string]bool{}
	for _, it := range e.must(200, "GET", v+"/toolkits?limit=100", nil).items() {
		for _, m := range it["auth_schemes"].([]any) {
			seen[m.(string)] = true
		}
	}
	for _, m := range []string{"OAUTH2", "API_KEY", "BASIC", "BEARER_TOKEN", "BILLCOM_AUTH", "GOOGLE_SERVICE_ACCOUNT",
		"BASIC_WITH_JWT", "CALCOM_AUTH", "SERVICE_ACCOUNT", "SAML", "DCR_OAUTH", "CIMD_OAUTH", "S2S_OAUTH2"} {
		if !seen[m] {
			t.Errorf("no catalog toolkit offers %s", m)
		}
	}
	e.createCustomAC("zoom", "S2S_OAUTH2", map[string]any{"client_id": "a", "client_secret": "b"})
	e.createCustomAC("googlebigquery", "GOOGLE_SERVICE_ACCOUNT", map[string]any{})
	e.createCustomAC("github_app", "SERVICE_ACCOUNT", map[string]any{})
	e.createCustomAC("bill", "BILLCOM_AUTH", map[string]any{})
	e.createCustomAC("cal", "CALCOM_AUTH", map[string]any{"client_id": "a", "client_secret": "b"})
	e.createCustomAC("okta", "SAML", map[string]any{})
	e.createCustomAC("sentry", "DCR_OAUTH", map[string]any{})
	e.createCustomAC("sentry", "CIMD_OAUTH", map[string]any{})
	e.createCustomAC("servicenow", "BASIC_WITH_JWT", map[string]any{})
	e.mustErr(400, "client_secret", "POST", v+"/auth_configs", map[string]any{"toolkit": map[string]any{"slug": "zoom"},
		"auth_config": map[string]any{"type": "use_custom_auth", "authScheme": "S2S_OAUTH2", "credentials": map[string]any{"client_id": "a"}}})
}

// The service_custom_toolkit list resource lists type=custom page by page
// (cursor): only the project's custom toolkits, each once, and a list item
// carries what the toolkit's own GET tells of it (name, description,
// app_url, the auth scheme's mode).
func TestCustomToolkitListAcrossPages(t *testing.T) {
	e := newEnv(t, Options{APIKeys: map[string]string{testKey: "default", "other": "beta"}})
	schemes := []map[string]any{customAPIKeyScheme, {"mode": "NO_AUTH"},
		{"mode": "DCR_OAUTH", "discovery_url": "https://mcp.example.com/.well-known/oauth-authorization-server"}}
	var want []string
	for i := range 5 {
		b := customBody(fmt.Sprintf("list %d", i), fmt.Sprintf("https://mcp%d.example.com/mcp", i), schemes[i%3])
		b["toolkit_config"].(map[string]any)["description"] = fmt.Sprintf("Toolkit %d", i)
		want = append(want, e.must(200, "POST", v+"/custom/toolkits/upsert", b).str("slug"))
	}
	if r := e.doKey("other", "POST", v+"/custom/toolkits/upsert", customBody("theirs", "https://x.example.com/mcp", schemes[1])); r.status != 200 {
		t.Fatalf("other project: %s", r.raw)
	}
	var got []string
	pages := 0
	e.eachPage(v+"/toolkits?type=custom&limit=2", func(r resp) {
		pages++
		if r.get("total_items") != 5.0 || r.get("total_pages") != 3.0 {
			t.Fatalf("page %d: %s", pages, r.raw)
		}
		for _, it := range r.items() {
			slug := it["slug"].(string)
			got = append(got, slug)
			tk := e.must(200, "GET", v+"/toolkits/"+slug, nil)
			meta := it["meta"].(map[string]any)
			modes := strs(it["auth_schemes"])
			details := tk.get("auth_config_details").([]any)
			if it["type"] != "custom" || it["name"] != tk.str("name") || meta["description"] != tk.str("meta", "description") ||
				meta["app_url"] != tk.str("meta", "app_url") || len(modes) != 1 || len(details) != 1 ||
				modes[0] != details[0].(map[string]any)["mode"] {
				t.Fatalf("list item %v\nGET %s", it, tk.raw)
			}
		}
		if r.get("next_cursor") != nil && pages > 5 {
			t.Fatal("no last page")
		}
	})
	if pages != 3 || !slices.Equal(got, want) {
		t.Fatalf("got %v in %d pages, want %v in 3", got, pages, want)
	}
}
