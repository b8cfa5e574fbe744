package emulator

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBuiltinCatalogLoads(t *testing.T) {
	c, err := loadCatalog("")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.toolkits) != 22 || len(c.tools) != 58 || len(c.triggers) != 20 || len(c.categories) != 6 {
		t.Fatalf("built-in catalog: %d toolkits, %d tools, %d trigger types, %d categories; want 22, 58, 20, 6",
			len(c.toolkits), len(c.tools), len(c.triggers), len(c.categories))
	}
	for i, tk := range c.toolkits {
		if strings.Join(tk.Versions, ",") != VersionLatest+","+VersionOld {
			t.Errorf("%s: versions %v", tk.Slug, tk.Versions)
		}
		if i > 0 && c.toolkits[i-1].Popularity < tk.Popularity {
			t.Errorf("toolkits not in popularity order at %s", tk.Slug)
		}
	}
	if c.toolkits[0].Slug != "github" {
		t.Errorf("first toolkit %s, want github", c.toolkits[0].Slug)
	}
}

const exampleCatalog = "../../examples/emulator-catalog"

// TestCatalogDirExample serves the example catalog: its toolkit, category,
// tools and versioned trigger type answer like built-in ones.
func TestCatalogDirExample(t *testing.T) {
	e := newEnv(t, Options{CatalogDir: exampleCatalog})
	tk := e.must(200, "GET", v+"/toolkits/acme", nil)
	if tk.str("name") != "Acme Tickets" || tk.str("meta", "version") != "20260301_00" {
		t.Fatalf("toolkit acme: %s", tk.raw)
	}
	if got := e.must(200, "GET", v+"/toolkits?category=internal-tools", nil).items(); len(got) != 1 || got[0]["slug"] != "acme" {
		t.Fatalf("category internal-tools lists %v", got)
	}
	if len(e.must(200, "GET", v+"/toolkits?limit=100", nil).items()) != 23 {
		t.Fatal("built-in toolkits are not kept beside the added one")
	}
	e.must(200, "GET", v+"/toolkits/github", nil)
	if got := e.must(200, "GET", v+"/tools?toolkit_slug=acme", nil).items(); len(got) != 2 {
		t.Fatalf("acme tools: %v", got)
	}
	old := e.must(200, "GET", v+"/triggers_types/ACME_TICKET_CREATED?toolkit_versions=20260115_01", nil)
	if _, has := old.get("config", "properties").(map[string]any)["priority"]; has {
		t.Fatalf("version 20260115_01 config has priority: %s", old.raw)
	}
	latest := e.must(200, "GET", v+"/triggers_types/ACME_TICKET_CREATED", nil)
	if _, has := latest.get("config", "properties").(map[string]any)["priority"]; !has {
		t.Fatalf("latest config lacks priority: %s", latest.raw)
	}
	e.mustErr(400, "toolkit acme has no version 20250901_00", "GET", v+"/triggers_types/ACME_TICKET_CREATED?toolkit_versions=20250901_00", nil)

	// the added toolkit works end to end: custom auth config, API key account
	ac := e.createCustomAC("acme", "API_KEY", map[string]any{})
	acct := e.must(201, "POST", v+"/connected_accounts", map[string]any{
		"auth_config": map[string]any{"id": ac},
		"connection":  map[string]any{"user_id": "u1", "state": map[string]any{"authScheme": "API_KEY", "val": map[string]any{"status": "ACTIVE", "api_key": "k", "workspace": "ops"}}},
	})
	if acct.str("status") != "ACTIVE" {
		t.Fatalf("acme account: %s", acct.raw)
	}
	e.must(200, "POST", v+"/trigger_instances/ACME_TICKET_CREATED/upsert", map[string]any{
		"connected_account_id": acct.str("id"), "trigger_config": map[string]any{"queue": "OPS", "priority": "high"},
	})
}

func writeCatalogFile(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

const minimalToolkit = `{"slug": "github", "name": "GitHub Enterprise", "base_url": "https://ghe.example/api/v3",
 "categories": ["developer-tools"], "popularity": 1, "versions": ["20260101_00"],
 "auth_schemes": [{"mode": "BEARER_TOKEN", "name": "Token", "auth_config_creation": {},
   "connected_account_initiation": {"required": [{"name": "token", "display_name": "Token", "type": "string", "secret": true}]}}],
 "tools": [{"slug": "GITHUB_PING", "name": "Ping", "input_parameters": {"type": "object", "properties": {}}}]}`

func withTriggers(triggers string) string {
	return strings.TrimSuffix(minimalToolkit, "}") + `, "triggers": [` + triggers + `]}`
}

// TestCatalogDirReplaces: a file with a built-in slug replaces that toolkit
// with its tools and trigger types.
func TestCatalogDirReplaces(t *testing.T) {
	dir := t.TempDir()
	writeCatalogFile(t, dir, "ghe.json", minimalToolkit)
	e := newEnv(t, Options{CatalogDir: dir})
	tk := e.must(200, "GET", v+"/toolkits/github", nil)
	if tk.str("name") != "GitHub Enterprise" || tk.str("base_url") != "https://ghe.example/api/v3" {
		t.Fatalf("github not replaced: %s", tk.raw)
	}
	e.must(200, "GET", v+"/tools/GITHUB_PING", nil)
	e.mustErr(404, "GITHUB_CREATE_AN_ISSUE", "GET", v+"/tools/GITHUB_CREATE_AN_ISSUE", nil)
	e.mustErr(404, "GITHUB_COMMIT_EVENT", "GET", v+"/triggers_types/GITHUB_COMMIT_EVENT", nil)
	e.must(200, "GET", v+"/toolkits/slack", nil)
}

// TestCatalogDirErrors: bad files fail New with an error naming the file and the field.
func TestCatalogDirErrors(t *testing.T) {
	for name, tc := range map[string]struct{ file, content, want string }{
		"syntax":         {"a.json", "{\n\"slug\": \"a\",,}", "a.json: line 2"},
		"unknown field":  {"a.json", `{"slug": "a", "title": "A"}`, `a.json: json: unknown field "title"`},
		"wrong type":     {"a.json", `{"slug": "a", "popularity": "high"}`, "a.json: json: cannot unmarshal string into Go struct field toolkitFile.popularity of type int"},
		"missing name":   {"a.json", strings.Replace(minimalToolkit, `"name": "GitHub Enterprise", `, "", 1), "a.json: name: is required"},
		"bad version":    {"a.json", strings.Replace(minimalToolkit, "20260101_00", "2026-01-01", 1), `a.json: versions[0]: "2026-01-01" is not YYYYMMDD_NN`},
		"category":       {"a.json", strings.Replace(minimalToolkit, "developer-tools", "games", 1), `a.json: categories[0]: unknown category "games"`},
		"scheme":         {"a.json", strings.Replace(minimalToolkit, "BEARER_TOKEN", "TOKEN", 1), `a.json: auth_schemes[0].mode: "TOKEN" is not one of`},
		"field type":     {"a.json", strings.Replace(minimalToolkit, `"type": "string", "secret"`, `"type": "text", "secret"`, 1), `a.json: auth_schemes[0].connected_account_initiation.required[0].type: "text"`},
		"tool prefix":    {"a.json", strings.Replace(minimalToolkit, "GITHUB_PING", "PING", 1), `a.json: tools[0].slug: "PING" must be upper case and start with GITHUB_`},
		"tool schema":    {"a.json", strings.Replace(minimalToolkit, `"properties": {}}`, `"properties": {}, "required": ["x"]}`, 1), "a.json: tools[0].input_parameters.required[0]: x is not a property"},
		"trigger config": {"a.json", withTriggers(`{"slug": "GITHUB_X", "name": "X", "type": "poll", "payload": {"type": "object"}}`), "a.json: triggers[0].config: is required"},
		"trigger schema": {"a.json", withTriggers(`{"slug": "GITHUB_X", "name": "X", "type": "poll", "config": {"type": "object", "properties": {"q": {"$ref": "#/$defs/q"}}}, "payload": {"type": "object"}}`), "a.json: triggers[0].config: is not a JSON Schema the emulator can check documents against"},
		"trigger type":   {"a.json", withTriggers(`{"slug": "GITHUB_X", "name": "X", "type": "push", "config": {"type": "object"}, "payload": {"type": "object"}}`), `a.json: triggers[0].type: must be "webhook" or "poll"`},
		"categories":     {"categories.json", `[{"slug": "x"}]`, "categories.json: [0]: slug and name are required"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeCatalogFile(t, dir, tc.file, tc.content)
			if tc.file == "categories.json" {
				writeCatalogFile(t, dir, "ok.json", strings.Replace(minimalToolkit, `"github"`, `"ok"`, 1))
			}
			_, err := New(Options{CatalogDir: dir})
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), dir) {
				t.Fatalf("error %v, want one naming %s and containing %q", err, dir, tc.want)
			}
		})
	}
	t.Run("duplicate slug", func(t *testing.T) {
		dir := t.TempDir()
		writeCatalogFile(t, dir, "a.json", minimalToolkit)
		writeCatalogFile(t, dir, "b.json", minimalToolkit)
		if _, err := New(Options{CatalogDir: dir}); err == nil || !strings.Contains(err.Error(), `b.json: slug: toolkit "github" is also defined in`) {
			t.Fatalf("error %v", err)
		}
	})
	t.Run("empty or missing dir", func(t *testing.T) {
		if _, err := New(Options{CatalogDir: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "no *.json files") {
			t.Fatalf("empty dir: %v", err)
		}
		missing := filepath.Join(t.TempDir(), "nope")
		if _, err := New(Options{CatalogDir: missing}); err == nil || !strings.Contains(err.Error(), "catalog "+missing+": stat") ||
			!strings.Contains(err.Error(), "give a directory") {
			t.Fatalf("missing dir: %v", err)
		}
		file := filepath.Join(t.TempDir(), "a.json")
		writeCatalogFile(t, filepath.Dir(file), "a.json", minimalToolkit)
		if _, err := New(Options{CatalogDir: file}); err == nil || !strings.Contains(err.Error(), "not a directory") {
			t.Fatalf("file as dir: %v", err)
		}
	})
}
