package emulator

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// isolationFixture holds one object of every kind an id route reaches,
// created in project alpha.
type isolationFixture struct {
	authConfig, account, trigger, mcpServer, mcpUser, session, webhookSub, customToolkit string
	webhookEndpoint, sessionConfig                                                       string
}

// isolationCase is how an id route is called with another project's key and
// what that project must get.
type isolationCase struct {
	path string // below the version prefix, or a /_emulator control path
	body any
	// emptyList: the route lists the caller's own objects (200, no items)
	// instead of answering 404.
	emptyList bool
	// global, when set, says why the route's parameter names nothing a
	// project owns (the catalog is the same in every project); the route is
	// not called.
	global string
}

// isolationCases has one entry per route that takes an id, keyed by
// "METHOD /path-template" as in the operation table (control routes:
// "METHOD /_emulator/path-template").
func isolationCases(fx isolationFixture) map[string]isolationCase {
	ac, ca, ti, m, sess, ws, ct := fx.authConfig, fx.account, fx.trigger, fx.mcpServer, fx.session, fx.webhookSub, fx.customToolkit
	return map[string]isolationCase{
		"GET /auth_configs/{nanoid}":            {path: "/auth_configs/" + ac},
		"PATCH /auth_configs/{nanoid}":          {path: "/auth_configs/" + ac, body: map[string]any{"type": "custom", "name": "stolen"}},
		"DELETE /auth_configs/{nanoid}":         {path: "/auth_configs/" + ac},
		"PATCH /auth_configs/{nanoid}/{status}": {path: "/auth_configs/" + ac + "/DISABLED"},

		"GET /connected_accounts/{nanoid}": {path: "/connected_accounts/" + ca},
		"PATCH /connected_accounts/{nanoid}": {path: "/connected_accounts/" + ca, body: map[string]any{
			"connection": map[string]any{"state": map[string]any{"authScheme": "API_KEY", "val": map[string]any{"api_key": "stolen"}}}}},
		"DELETE /connected_accounts/{nanoid}":              {path: "/connected_accounts/" + ca},
		"POST /connected_accounts/{nanoid}/refresh":        {path: "/connected_accounts/" + ca + "/refresh", body: map[string]any{}},
		"POST /connected_accounts/{nanoid}/revoke":         {path: "/connected_accounts/" + ca + "/revoke"},
		"PATCH /connected_accounts/{nanoId}/status":        {path: "/connected_accounts/" + ca + "/status", body: map[string]any{"enabled": false}},
		"POST /_emulator/connected_accounts/{id}/complete": {path: "/_emulator/connected_accounts/" + ca + "/complete"},
		"POST /_emulator/connected_accounts/{id}/fail":     {path: "/_emulator/connected_accounts/" + ca + "/fail"},
		"POST /_emulator/connected_accounts/{id}/expire":   {path: "/_emulator/connected_accounts/" + ca + "/expire"},

		"PATCH /trigger_instances/manage/{triggerId}":  {path: "/trigger_instances/manage/" + ti, body: map[string]any{"status": "disable"}},
		"DELETE /trigger_instances/manage/{triggerId}": {path: "/trigger_instances/manage/" + ti},
		// The slug is the catalog's trigger type; the account is the project's.
		"POST /trigger_instances/{slug}/upsert": {path: "/trigger_instances/STRIPE_CHARGE_SUCCEEDED_TRIGGER/upsert",
			body: map[string]any{"connected_account_id": ca}},
		"POST /_emulator/trigger_instances/{id}/fire": {path: "/_emulator/trigger_instances/" + ti + "/fire", body: map[string]any{"k": "v"}},
		"GET /triggers_types/{slug}":                  {global: "trigger types are the catalog's"},

		"GET /mcp/{id}":                                         {path: "/mcp/" + m},
		"PATCH /mcp/{id}":                                       {path: "/mcp/" + m, body: map[string]any{"name": "stolen server"}},
		"DELETE /mcp/{id}":                                      {path: "/mcp/" + m},
		"POST /mcp/servers/{serverId}/instances":                {path: "/mcp/servers/" + m + "/instances", body: map[string]any{"user_id": "intruder"}},
		"GET /mcp/servers/{serverId}/instances":                 {path: "/mcp/servers/" + m + "/instances"},
		"DELETE /mcp/servers/{serverId}/instances/{instanceId}": {path: "/mcp/servers/" + m + "/instances/" + fx.mcpUser},
		// appKey is a toolkit: the route lists the caller's servers using it.
		"GET /mcp/app/{appKey}": {path: "/mcp/app/stripe", emptyList: true},

		"GET /tool_router/session/{session_id}":                {path: "/tool_router/session/" + sess},
		"DELETE /tool_router/session/{session_id}":             {path: "/tool_router/session/" + sess},
		"GET /tool_router/session/{session_id}/toolkits":       {path: "/tool_router/session/" + sess + "/toolkits"},
		"PATCH /tool_router/session/{session_id}":              {path: "/tool_router/session/" + sess, body: map[string]any{"tags": []string{"readOnlyHint"}}},
		"GET /tool_router/session/{session_id}/config_history": {path: "/tool_router/session/" + sess + "/config_history"},
		// The other project has the feature too: a 404, not its 403.
		"GET /session_configs/{session_config_id}":    {path: "/session_configs/" + fx.sessionConfig},
		"GET /tool_router/session/{session_id}/tools": {path: "/tool_router/session/" + sess + "/tools"},
		"POST /tool_router/session/{session_id}/link": {path: "/tool_router/session/" + sess + "/link", body: map[string]any{"toolkit": "stripe"}},
		"POST /tool_router/session/{session_id}/execute": {path: "/tool_router/session/" + sess + "/execute",
			body: map[string]any{"tool_slug": "STRIPE_LIST_ITEMS", "arguments": map[string]any{}}},

		// A catalog tool; the account it runs with is the project's.
		"POST /tools/execute/{tool_slug}": {path: "/tools/execute/STRIPE_LIST_ITEMS",
			body: map[string]any{"connected_account_id": ca, "arguments": map[string]any{}}},
		"GET /tools/{tool_slug}": {global: "tools are the catalog's (a custom toolkit has none)"},
		// A custom toolkit's slug is the project's; catalog slugs are global.
		"GET /toolkits/{slug}":           {path: "/toolkits/" + ct},
		"PATCH /custom/toolkits/{slug}":  {path: "/custom/toolkits/" + ct, body: map[string]any{"name": "Stolen"}},
		"DELETE /custom/toolkits/{slug}": {path: "/custom/toolkits/" + ct},

		"GET /webhook_subscriptions/{id}":                {path: "/webhook_subscriptions/" + ws},
		"PATCH /webhook_subscriptions/{id}":              {path: "/webhook_subscriptions/" + ws, body: map[string]any{"webhook_url": "https://evil.example/h"}},
		"DELETE /webhook_subscriptions/{id}":             {path: "/webhook_subscriptions/" + ws},
		"POST /webhook_subscriptions/{id}/rotate_secret": {path: "/webhook_subscriptions/" + ws + "/rotate_secret"},

		"GET /webhook_endpoints/{nano_id}":   {path: "/webhook_endpoints/" + fx.webhookEndpoint},
		"POST /webhook_endpoints/{nano_id}":  {path: "/webhook_endpoints/" + fx.webhookEndpoint, body: map[string]any{"data": map[string]any{"signing_secret": "stolen"}}},
		"PATCH /webhook_endpoints/{nano_id}": {path: "/webhook_endpoints/" + fx.webhookEndpoint, body: map[string]any{"data": map[string]any{"app_id": "stolen"}}},
	}
}

// controlIDRoutes derives the control routes that take a path parameter
// from the package's source: every s.control(METHOD, PATH, ...) call.
func controlIDRoutes(t *testing.T) []string {
	t.Helper()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var routes []string
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) < 2 {
				return true
			}
			if sel, ok := call.Fun.(*ast.SelectorExpr); !ok || sel.Sel.Name != "control" {
				return true
			}
			var lits []string
			for _, a := range call.Args[:2] {
				bl, ok := a.(*ast.BasicLit)
				if !ok || bl.Kind != token.STRING {
					t.Fatalf("%s: a control route whose method or path is not a string literal: update controlIDRoutes", fset.Position(call.Pos()))
				}
				s, _ := strconv.Unquote(bl.Value)
				lits = append(lits, s)
			}
			if strings.Contains(lits[1], "{") {
				routes = append(routes, lits[0]+" /_emulator"+lits[1])
			}
			return true
		})
	}
	if len(routes) == 0 {
		t.Fatal("no control route with a path parameter found: the derivation is broken")
	}
	return routes
}

// TestProjectIsolationEveryIDRoute: every route that takes an id (every
// emulated operation of the operation table with a path parameter, every
// control route with one) is called, under both version prefixes, with the
// key of another project on an object of project alpha, and answers 404 (a
// route listing the caller's own objects answers an empty list); afterwards
// alpha's objects are unchanged and nothing was written. A new id route
// without an entry in isolationCases fails the test.
func TestProjectIsolationEveryIDRoute(t *testing.T) {
	e := newEnv(t, Options{APIKeys: map[string]string{"key-a": "alpha", "key-b": "beta"}})
	e.key = "key-a"
	var fx isolationFixture
	fx.customToolkit = e.must(200, "POST", v+"/custom/toolkits/upsert", customBody("acme", "https://mcp.example.com/mcp", customAPIKeyScheme)).str("slug")
	fx.authConfig = e.createCustomAC("stripe", "API_KEY", map[string]any{})
	fx.account = e.apiKeyAccount(fx.authConfig, "u1")
	fx.trigger = e.must(200, "POST", v+"/trigger_instances/STRIPE_CHARGE_SUCCEEDED_TRIGGER/upsert",
		map[string]any{"connected_account_id": fx.account}).str("trigger_id")
	fx.mcpServer = e.must(201, "POST", v+"/mcp/servers", map[string]any{"name": "alpha server", "auth_config_ids": []string{fx.authConfig}}).str("id")
	fx.mcpUser = "u1"
	e.must(201, "POST", v+"/mcp/servers/"+fx.mcpServer+"/instances", map[string]any{"user_id": fx.mcpUser})
	fx.session = e.must(201, "POST", v+"/tool_router/session", map[string]any{"user_id": "u1", "toolkits": []any{"stripe"}}).str("session_id")
	fx.sessionConfig = e.must(201, "POST", "/_emulator/session_configs", map[string]any{"name": "alpha policy"}).str("id")
	e.key = "key-b"
	e.must(200, "PUT", "/_emulator/session_configs/feature", map[string]any{"enabled": true})
	e.key = "key-a"
	sub := e.must(201, "POST", v+"/webhook_subscriptions", map[string]any{"webhook_url": "https://alpha.example/h", "enabled_events": []string{EventTriggerMessage}})
	fx.webhookSub = sub.str("id")
	fx.webhookEndpoint = e.must(201, "POST", v+"/webhook_endpoints", map[string]any{"toolkit_slug": "slack", "client_id": "alpha-app"}).str("id")
	e.must(200, "POST", v+"/webhook_endpoints/"+fx.webhookEndpoint, map[string]any{"data": map[string]any{"signing_secret": "alpha-secret", "app_id": "A1"}})
	for name, id := range map[string]string{"custom toolkit": fx.customToolkit, "auth config": fx.authConfig, "account": fx.account,
		"trigger": fx.trigger, "MCP server": fx.mcpServer, "session": fx.session, "webhook subscription": fx.webhookSub,
		"webhook endpoint": fx.webhookEndpoint, "session config": fx.sessionConfig} {
		if id == "" {
			t.Fatalf("fixture: no %s id", name)
		}
	}
	cases := isolationCases(fx)

	// The routes that take an id, from the operation table and the source.
	var routes []string
	for _, op := range e.srv.Operations() {
		// (organization routes: TestOrganizationIsolationEveryOrgIDRoute)
		if op.Emulated && strings.Contains(op.Path, "{") && slices.Contains(op.Schemes, SchemeAPIKey) {
			routes = append(routes, op.Method+" "+op.Path)
		}
	}
	routes = append(routes, controlIDRoutes(t)...)
	for _, r := range routes {
		if _, ok := cases[r]; !ok {
			t.Errorf("route %s takes an id but has no project isolation case: add one to isolationCases", r)
		}
	}
	for r := range cases {
		if !slices.Contains(routes, r) {
			t.Errorf("isolationCases has %s, which is not an emulated route with a path parameter (renamed or removed?)", r)
		}
	}
	if t.Failed() {
		t.FailNow()
	}

	writesBefore := e.must(200, "GET", "/_emulator/stats", nil).get("writes")
	e.key = "key-b"
	// Deletes last, so that every other route meets a live object (a leaked
	// delete would otherwise turn the later calls into honest 404s).
	slices.SortFunc(routes, func(a, b string) int {
		if da, db := strings.HasPrefix(a, "DELETE "), strings.HasPrefix(b, "DELETE "); da != db {
			if da {
				return 1
			}
			return -1
		}
		return strings.Compare(a, b)
	})
	for _, route := range routes {
		tc := cases[route]
		if tc.global != "" {
			continue
		}
		method := route[:strings.Index(route, " ")]
		prefixes := apiPrefixes
		if strings.HasPrefix(tc.path, "/_emulator/") {
			prefixes = []string{""}
		}
		for _, p := range prefixes {
			r := e.do(method, p+tc.path, tc.body)
			switch {
			case tc.emptyList:
				if r.status != 200 || len(r.items()) != 0 {
					t.Errorf("%s (%s%s) with another project's key: status %d, want 200 and no items; body %s", route, p, tc.path, r.status, r.raw)
				}
			case r.status != 404:
				t.Errorf("%s (%s%s) with another project's key: status %d, want 404; body %s", route, p, tc.path, r.status, r.raw)
			}
		}
	}

	// Project alpha's objects are unchanged, and nothing was written.
	e.key = "key-a"
	if w := e.must(200, "GET", "/_emulator/stats", nil).get("writes"); w != writesBefore {
		t.Errorf("another project's calls wrote: writes %v -> %v", writesBefore, w)
	}
	if r := e.must(200, "GET", v+"/auth_configs/"+fx.authConfig, nil); r.str("status") != "ENABLED" || r.str("name") == "stolen" {
		t.Errorf("auth config changed: %s", r.raw)
	}
	if r := e.must(200, "GET", v+"/connected_accounts/"+fx.account, nil); r.str("status") != "ACTIVE" || r.get("is_disabled") != false {
		t.Errorf("connected account changed: %s", r.raw)
	}
	if r := e.must(200, "GET", v+"/trigger_instances/active?trigger_ids="+fx.trigger, nil); len(r.items()) != 1 {
		t.Errorf("trigger instance changed: %s", r.raw)
	}
	if r := e.must(200, "GET", v+"/mcp/"+fx.mcpServer, nil); r.str("name") != "alpha server" {
		t.Errorf("MCP server changed: %s", r.raw)
	}
	if r := e.must(200, "GET", v+"/mcp/servers/"+fx.mcpServer+"/instances", nil); !strings.Contains(r.raw, `"instance_id":"u1"`) || strings.Contains(r.raw, "intruder") {
		t.Errorf("MCP instances changed: %s", r.raw)
	}
	e.must(200, "GET", v+"/tool_router/session/"+fx.session, nil)
	if r := e.must(200, "GET", v+"/webhook_subscriptions/"+fx.webhookSub, nil); r.str("webhook_url") != "https://alpha.example/h" || r.str("secret") != sub.str("secret") {
		t.Errorf("webhook subscription changed: %s (created as %s)", r.raw, sub.raw)
	}
	if r := e.must(200, "GET", v+"/toolkits/"+fx.customToolkit, nil); r.str("name") != "Acme" {
		t.Errorf("custom toolkit changed: %s", r.raw)
	}
	if r := e.must(200, "GET", v+"/webhook_endpoints/"+fx.webhookEndpoint, nil); r.str("data", "app_id") != "A1" {
		t.Errorf("webhook endpoint changed: %s", r.raw)
	}
}
