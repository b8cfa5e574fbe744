package emulator

import (
	"slices"
	"strings"
	"testing"
)

func TestToolProxyExecute(t *testing.T) {
	e := newEnv(t, Options{})
	ca := e.apiKeyAccount(e.createCustomAC("stripe", "API_KEY", map[string]any{}), "u1")
	for _, prefix := range []string{"/api/v3", "/api/v3.1"} {
		r := e.must(200, "POST", prefix+"/tools/execute/proxy", map[string]any{
			"endpoint": "/charges", "method": "GET", "connected_account_id": ca,
			"parameters": []any{map[string]any{"name": "limit", "type": "query", "value": "3"}, map[string]any{"name": "X-Test", "type": "header", "value": "1"}},
		})
		if st, _ := r.get("status").(float64); st != 200 {
			t.Fatalf("status member: %s", r.raw)
		}
		if r.str("data", "url") != "https://api.stripe.com/v1/charges" || r.get("data", "query", "limit") != "3" || r.get("data", "headers", "X-Test") != "1" {
			t.Fatalf("proxy data: %s", r.raw)
		}
	}
	e.mustErr(400, "method", "POST", v+"/tools/execute/proxy", map[string]any{"endpoint": "/x", "method": "TRACE", "connected_account_id": ca})
	e.mustErr(400, "endpoint", "POST", v+"/tools/execute/proxy", map[string]any{"method": "GET", "connected_account_id": ca})
	e.mustErr(400, "type", "POST", v+"/tools/execute/proxy", map[string]any{"endpoint": "/x", "method": "GET", "connected_account_id": ca,
		"parameters": []any{map[string]any{"name": "a", "type": "cookie", "value": "1"}}})
	e.mustErr(400, "connected_account_id", "POST", v+"/tools/execute/proxy", map[string]any{"endpoint": "/x", "method": "GET"})
	e.mustErr(404, "not found", "POST", v+"/tools/execute/proxy", map[string]any{"endpoint": "/x", "method": "GET", "connected_account_id": "ca_nope"})
	e.must(200, "PATCH", v+"/connected_accounts/"+ca+"/status", map[string]any{"enabled": false})
	e.mustErr(400, "not usable", "POST", v+"/tools/execute/proxy", map[string]any{"endpoint": "/x", "method": "GET", "connected_account_id": ca})
	// the proxy route does not shadow tool execution
	e.mustErr(404, "not found", "POST", v+"/tools/execute/NOPE_TOOL", map[string]any{})
}

func TestToolListAuthConfigFilter(t *testing.T) {
	e := newEnv(t, Options{})
	stripe := e.createCustomAC("stripe", "API_KEY", nil)
	gh := e.must(201, "POST", v+"/auth_configs", map[string]any{
		"toolkit":     map[string]any{"slug": "github"},
		"auth_config": map[string]any{"type": "use_composio_managed_auth", "tool_access_config": map[string]any{"tools_available_for_execution": []any{"GITHUB_GET_A_REPOSITORY"}}},
	}).str("auth_config", "id")
	slugs := func(q string) []string {
		var out []string
		for _, it := range e.must(200, "GET", v+"/tools"+q, nil).items() {
			out = append(out, it["slug"].(string))
		}
		return out
	}
	for _, s := range slugs("?auth_config_ids=" + stripe) {
		if !strings.HasPrefix(s, "STRIPE_") {
			t.Fatalf("auth_config_ids=stripe listed %s", s)
		}
	}
	if got := slugs("?auth_config_ids=" + gh); len(got) != 1 || got[0] != "GITHUB_GET_A_REPOSITORY" {
		t.Fatalf("restricted auth config: %v", got)
	}
	if got := slugs("?auth_config_ids=" + gh + "," + stripe); len(got) < 2 {
		t.Fatalf("two auth configs: %v", got)
	}
	e.mustErr(404, "not found", "GET", v+"/tools?auth_config_ids=ac_nope", nil)
}

// GET /tools applies important (only "true"/"false") and scopes.
func TestToolListImportantAndScopes(t *testing.T) {
	e := newEnv(t, Options{})
	all := len(e.must(200, "GET", v+"/tools?toolkit_slug=github", nil).items())
	if got := len(e.must(200, "GET", v+"/tools?toolkit_slug=github&important=false", nil).items()); got != all {
		t.Fatalf("important=false: %d of %d", got, all)
	}
	// A toolkit without featured tools lists them all; one with featured
	// tools lists only those.
	if got := len(e.must(200, "GET", v+"/tools?toolkit_slug=github&important=true", nil).items()); got != all {
		t.Fatalf("important=true on a toolkit without featured tools: %d of %d", got, all)
	}
	gh := e.srv.cat.bySlug["github"]
	orig := gh.Tools[0].Tags
	t.Cleanup(func() { gh.Tools[0].Tags = orig })
	gh.Tools[0].Tags = append(slices.Clone(orig), "important")
	items := e.must(200, "GET", v+"/tools?toolkit_slug=github&important=true", nil).items()
	if len(items) != 1 || items[0]["slug"] != gh.Tools[0].Slug {
		t.Fatalf("important=true with one featured tool: %v", items)
	}
	if got := len(e.must(200, "GET", v+"/tools?scopes=no:such:scope", nil).items()); got != 0 {
		t.Fatalf("scopes filter kept %d tools", got)
	}
	e.mustErr(400, "important", "GET", v+"/tools?important=yes", nil)
}
