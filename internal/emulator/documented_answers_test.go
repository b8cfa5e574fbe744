package emulator

import (
	"slices"
	"sort"
	"strings"
	"testing"
)

// keysOf is the sorted member names of an object answer.
func keysOf(t *testing.T, what string, v any) []string {
	t.Helper()
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("%s: %T, want an object", what, v)
	}
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func wantKeys(t *testing.T, what string, v any, want ...string) {
	t.Helper()
	sort.Strings(want)
	if got := keysOf(t, what, v); !slices.Equal(got, want) {
		t.Errorf("%s has members %v, want exactly %v (service-documents.md, \"Answers\")", what, got, want)
	}
}

func lacks(t *testing.T, what string, v any, members ...string) {
	t.Helper()
	got := keysOf(t, what, v)
	for _, m := range members {
		if slices.Contains(got, m) {
			t.Errorf("%s carries %s, which no document has (service-documents.md, \"Answers\")", what, m)
		}
	}
}

// The answers carry the members the service's documents give them, member
// for member, where the emulator used to be kinder: categories as {id, name}
// in the lists and {name, slug} on a toolkit by slug, no meta.mcp_url (a
// custom toolkit's URL is meta.app_url), no toolkit.name on auth configs and
// accounts, no uuid or deprecated on accounts, no auth_config_id or toolkit
// on trigger instance list items, required_scopes on every auth config
// detail, is_secret on some auth fields only.
func TestAnswersShapedAsDocumented(t *testing.T) {
	e := newEnv(t, Options{})
	e.must(200, "POST", v+"/custom/toolkits/upsert", customBody("acme", "https://mcp.example.com/mcp", customAPIKeyScheme))

	for _, c := range e.must(200, "GET", v+"/toolkits/categories", nil).items() {
		wantKeys(t, "GET /toolkits/categories item", c, "id", "name")
	}
	for _, it := range e.must(200, "GET", v+"/toolkits?limit=1000", nil).items() {
		meta := it["meta"]
		lacks(t, "toolkit list item meta", meta, "mcp_url")
		lacks(t, "toolkit list item", it, "is_deprecated")
		if _, ok := it["deprecated"].(map[string]any); !ok {
			t.Errorf("toolkit list item %v: no deprecated object", it["slug"])
		}
		for _, c := range meta.(map[string]any)["categories"].([]any) {
			wantKeys(t, "toolkit list item meta.categories[]", c, "id", "name")
		}
		if it["type"] == "custom" && meta.(map[string]any)["app_url"] != "https://mcp.example.com/mcp" {
			t.Errorf("custom toolkit meta %v: want its MCP server URL as app_url", meta)
		}
	}
	sawSecret, sawNoSecret := false, false
	for _, slug := range []string{"github", "jira", "CUSTOM_ACME"} {
		tk := e.must(200, "GET", v+"/toolkits/"+slug, nil)
		lacks(t, "toolkit "+slug, tk.body, "is_deprecated")
		lacks(t, "toolkit "+slug+" meta", tk.get("meta"), "mcp_url")
		if _, ok := tk.get("deprecated").(map[string]any)["toolkitId"].(string); !ok {
			t.Errorf("toolkit %s: deprecated %v, want the required {toolkitId, ...}", slug, tk.get("deprecated"))
		}
		for _, c := range tk.get("meta", "categories").([]any) {
			wantKeys(t, "toolkit "+slug+" meta.categories[]", c, "name", "slug")
		}
		for _, d := range tk.get("auth_config_details").([]any) {
			dm := d.(map[string]any)
			if _, ok := dm["required_scopes"].([]any); !ok {
				t.Errorf("toolkit %s %v: required_scopes %v, want a list", slug, dm["mode"], dm["required_scopes"])
			}
			for _, group := range dm["fields"].(map[string]any) {
				for _, fs := range group.(map[string]any) {
					for _, f := range fs.([]any) {
						if _, ok := f.(map[string]any)["is_secret"]; ok {
							sawSecret = true
						} else {
							sawNoSecret = true
						}
					}
				}
			}
		}
	}
	if !sawSecret || !sawNoSecret {
		t.Errorf("auth fields with is_secret: %v, without: %v; want both forms", sawSecret, sawNoSecret)
	}

	ac := e.createCustomAC("stripe", "API_KEY", nil)
	ca := e.apiKeyAccount(ac, "u1")
	acAnswer := e.must(200, "GET", v+"/auth_configs/"+ac, nil)
	lacks(t, "auth config toolkit", acAnswer.get("toolkit"), "name")
	for _, path := range []string{v + "/connected_accounts/" + ca} {
		a := e.must(200, "GET", path, nil)
		lacks(t, "connected account", a.body, "uuid", "deprecated")
		wantKeys(t, "connected account toolkit", a.get("toolkit"), "slug")
	}
	for _, a := range e.must(200, "GET", v+"/connected_accounts", nil).items() {
		lacks(t, "connected account list item", a, "uuid", "deprecated")
		wantKeys(t, "connected account list item toolkit", a["toolkit"], "slug")
	}
	up := e.must(200, "POST", v+"/trigger_instances/STRIPE_CHARGE_SUCCEEDED_TRIGGER/upsert", map[string]any{"connected_account_id": ca})
	wantKeys(t, "trigger instance upsert answer", up.body, "trigger_id")
	items := e.must(200, "GET", v+"/trigger_instances/active?show_disabled=true", nil).items()
	if len(items) == 0 {
		t.Fatal("no trigger instance listed")
	}
	for _, it := range items {
		lacks(t, "trigger instance list item", it, "auth_config_id", "toolkit")
		if !strings.HasPrefix(it["connected_account_id"].(string), "ca_") {
			t.Errorf("trigger instance %v: connected_account_id %v", it["id"], it["connected_account_id"])
		}
	}
}
