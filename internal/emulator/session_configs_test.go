package emulator

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// A project without the feature is answered 403 on both routes; the control
// route seeds configs (and turns the feature on); the list answers the
// active configs (archived=true: only the archived ones), matches search on
// names, pages at most 100 at a time; the retrieve adds description and the
// policy; a session created from a config gets its policy and names it.
func TestSessionConfigs(t *testing.T) {
	e := newEnv(t, Options{})
	e.mustErr(403, "not enabled", "GET", v+"/session_configs", nil)
	e.mustErr(403, "not enabled", "GET", v+"/session_configs/sc_abc123abc123", nil)
	desc := "Support agents"
	policy := map[string]any{"toolkits": map[string]any{"enable": []any{"github"}}, "tags": map[string]any{"disable": []any{"destructiveHint"}}}
	support := e.must(201, "POST", "/_emulator/session_configs", map[string]any{"name": "Support bot", "description": desc, "config": policy}).str("id")
	old := e.must(201, "POST", "/_emulator/session_configs", map[string]any{"name": "Old support", "archived": true}).str("id")
	for i := range 3 {
		e.must(201, "POST", "/_emulator/session_configs", map[string]any{"name": fmt.Sprintf("Ops %d", i)})
	}
	e.mustErr(400, "not tools_x", "POST", "/_emulator/session_configs", map[string]any{"name": "bad", "config": map[string]any{"tools_x": 1}})
	e.mustErr(400, "fastHint", "POST", "/_emulator/session_configs", map[string]any{"name": "bad", "config": map[string]any{"tags": []any{"fastHint"}}})

	list := e.must(200, "GET", v+"/session_configs", nil)
	if n := len(list.items()); n != 4 {
		t.Fatalf("active configs: %d, want 4: %s", n, list.raw)
	}
	if first := list.items()[0]; first["name"] != "Ops 2" || first["description"] != nil || first["config"] != nil {
		t.Errorf("newest first, summaries only: %v", first)
	}
	if r := e.must(200, "GET", v+"/session_configs?archived=true", nil); len(r.items()) != 1 || r.items()[0]["id"] != old || r.items()[0]["archived"] != true {
		t.Errorf("archived: %s", r.raw)
	}
	if r := e.must(200, "GET", v+"/session_configs?search=support", nil); len(r.items()) != 1 || r.items()[0]["id"] != support {
		t.Errorf("search: %s", r.raw)
	}
	page := e.must(200, "GET", v+"/session_configs?limit=3", nil)
	next := page.str("next_cursor")
	if len(page.items()) != 3 || next == "" {
		t.Fatalf("page of 3: %s", page.raw)
	}
	if r := e.must(200, "GET", v+"/session_configs?cursor="+next, nil); len(r.items()) != 1 || r.get("next_cursor") != nil {
		t.Errorf("second page: %s", r.raw)
	}
	e.mustErr(400, "limit", "GET", v+"/session_configs?limit=101", nil)

	got := e.must(200, "GET", v+"/session_configs/"+support, nil)
	if got.str("description") != desc || !reflect.DeepEqual(got.get("config"), policy) || got.get("archived") != false {
		t.Errorf("retrieve: %s", got.raw)
	}
	e.mustErr(404, "not found", "GET", v+"/session_configs/sc_missing0000", nil)

	// A session from the config: its policy replaces the body's toolkits.
	s := e.must(201, "POST", v+"/tool_router/session", map[string]any{"user_id": "u1", "toolkits": map[string]any{"enable": []any{"slack"}},
		"experimental": map[string]any{"session_config_id": support}})
	if s.str("experimental", "source_session_config", "id") != support ||
		!reflect.DeepEqual(s.get("config", "toolkits"), map[string]any{"enabled": []any{"github"}}) ||
		!reflect.DeepEqual(s.get("config", "tags"), map[string]any{"disabled": []any{"destructiveHint"}}) {
		t.Errorf("session from config: %s", s.raw)
	}
	e.mustErr(400, "archived", "POST", v+"/tool_router/session", map[string]any{"user_id": "u1", "experimental": map[string]any{"session_config_id": old}})
	e.mustErr(404, "not found", "POST", v+"/tool_router/session", map[string]any{"user_id": "u1", "experimental": map[string]any{"session_config_id": "sc_missing0000"}})

	// The control route turns the feature off again: 403.
	e.must(200, "PUT", "/_emulator/session_configs/feature", map[string]any{"enabled": false})
	e.mustErr(403, "not enabled", "GET", v+"/session_configs", nil)
	e.mustErr(403, "not enabled", "POST", v+"/tool_router/session", map[string]any{"user_id": "u1", "experimental": map[string]any{"session_config_id": support}})
}

// The catalog's session_configs.json gives every project its configs and
// the feature.
func TestSessionConfigsFromCatalog(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, sessionConfigsFile), []byte(`{"session_configs": [
		{"id": "sc_catalog000001", "name": "Read only", "description": null, "config": {"tags": ["readOnlyHint"]}}
	]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, Options{CatalogDir: dir})
	r := e.must(200, "GET", v+"/session_configs", nil)
	if len(r.items()) != 1 || r.items()[0]["id"] != "sc_catalog000001" {
		t.Fatalf("catalog configs: %s", r.raw)
	}
	e.must(200, "GET", v+"/session_configs/sc_catalog000001", nil)

	if err := os.WriteFile(filepath.Join(dir, sessionConfigsFile), []byte(`{"session_configs": [{"id": "bad", "name": "x"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := New(Options{CatalogDir: dir}); err == nil {
		t.Fatal("a config without an sc_ id was loaded")
	}
}
