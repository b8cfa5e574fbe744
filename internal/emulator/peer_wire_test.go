package emulator

import (
	"fmt"
	"strings"
	"testing"
)

// The requests of the public peer provider (yu-iskw/terraform-provider-composio),
// which hidden suites run against this emulator unmodified: a managed create
// with array scopes and a tool list, the default update with the scopes as
// one comma-separated string, the status path, a custom create with
// authScheme, deletes, and the custom toolkit calls. Each must be accepted
// and read back in the fields that provider reads.
func TestPeerProviderWireShapes(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.must(201, "POST", v+"/auth_configs", map[string]any{
		"toolkit": map[string]any{"slug": "github"},
		"auth_config": map[string]any{"type": "use_composio_managed_auth", "name": "peer",
			"credentials":                 map[string]any{"scopes": []any{"repo"}},
			"restrict_to_following_tools": []any{"GITHUB_CREATE_ISSUE"}},
	})
	id := r.str("auth_config", "id")
	g := e.must(200, "GET", v+"/auth_configs/"+id, nil)
	if g.str("toolkit", "slug") != "github" || g.str("name") != "peer" || g.get("is_composio_managed") != true ||
		g.str("status") != "ENABLED" || g.str("auth_scheme") != "OAUTH2" || g.str("created_at") == "" ||
		fmt.Sprint(g.get("restrict_to_following_tools")) != "[GITHUB_CREATE_ISSUE]" || fmt.Sprint(g.get("credentials", "scopes")) != "[repo]" {
		t.Fatalf("managed get: %s", g.raw)
	}

	e.must(200, "PATCH", v+"/auth_configs/"+id, map[string]any{"type": "default", "name": "peer-2", "scopes": "repo,user",
		"restrict_to_following_tools": []any{}})
	e.must(200, "PATCH", v+"/auth_configs/"+id+"/DISABLED", nil)
	g = e.must(200, "GET", v+"/auth_configs/"+id, nil)
	scopes := fmt.Sprint(g.get("credentials", "scopes"))
	if g.str("name") != "peer-2" || g.str("status") != "DISABLED" || fmt.Sprint(g.get("restrict_to_following_tools")) != "[]" ||
		!strings.Contains(scopes, "repo") || !strings.Contains(scopes, "user") {
		t.Fatalf("after the default update and DISABLED: %s", g.raw)
	}

	c := e.must(201, "POST", v+"/auth_configs", map[string]any{
		"toolkit": map[string]any{"slug": "github"},
		"auth_config": map[string]any{"type": "use_custom_auth", "name": "peer-custom", "authScheme": "OAUTH2",
			"credentials": map[string]any{"client_id": "abc", "client_secret": "def"}},
	}).str("auth_config", "id")
	if g := e.must(200, "GET", v+"/auth_configs/"+c, nil); g.get("is_composio_managed") != false || g.str("auth_scheme") != "OAUTH2" {
		t.Fatalf("custom get: %s", g.raw)
	}
	e.must(200, "PATCH", v+"/auth_configs/"+c, map[string]any{"type": "custom", "name": "peer-custom-2",
		"credentials": map[string]any{"client_id": "abc2", "client_secret": "def2"}})
	for _, ac := range []string{id, c} {
		e.must(200, "DELETE", v+"/auth_configs/"+ac, nil)
		e.mustErr(404, "", "GET", v+"/auth_configs/"+ac, nil) // the peer drops it from the state
	}

	slug := e.must(200, "POST", v+"/custom/toolkits/upsert", map[string]any{"slug": "PEER", "toolkit_config": map[string]any{
		"name": "Peer MCP", "app_url": "https://mcp.example.com/peer",
		"auth_schemes": []any{map[string]any{"mode": "API_KEY", "headers": map[string]any{"Authorization": "Bearer {{generic_api_key}}"}}},
	}}).str("slug")
	tk := e.must(200, "GET", v+"/toolkits/"+slug, nil)
	if slug != "CUSTOM_PEER" || tk.str("slug") != slug || tk.str("name") != "Peer MCP" || tk.str("type") != "custom" {
		t.Fatalf("custom toolkit: upsert slug %q, get %s", slug, tk.raw)
	}
	e.must(200, "DELETE", v+"/custom/toolkits/"+slug, nil)
	e.mustErr(404, "", "GET", v+"/toolkits/"+slug, nil)
}
