package emulator

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"
)

const wep = v + "/webhook_endpoints"

// TestWebhookEndpointLifecycle: create (201, then 200 with the same
// endpoint), retrieve, list, replace, patch, with secrets masked.
func TestWebhookEndpointLifecycle(t *testing.T) {
	e := newEnv(t, Options{})
	if l := e.must(200, "GET", wep, nil); len(l.items()) != 0 || l.raw != `{"items":[]}` {
		t.Fatalf("empty list: %s", l.raw)
	}
	c := e.must(201, "POST", wep, map[string]any{"toolkit_slug": "slack", "client_id": "123.456"})
	id := c.str("id")
	if !strings.HasPrefix(id, "we_") || c.str("toolkit_slug") != "slack" || c.str("client_id") != "123.456" ||
		c.get("data") != nil || c.str("created_at") == "" || c.str("webhook_url") != e.ts.URL+"/webhook_ingress/"+id || len(c.body) != 6 {
		t.Fatalf("create: %s", c.raw)
	}
	// idempotent per (toolkit, client_id); the slug is matched case-insensitively
	again := e.must(200, "POST", wep, map[string]any{"toolkit_slug": "Slack", "client_id": "123.456"})
	if again.raw != c.raw {
		t.Fatalf("second create: %s, want %s", again.raw, c.raw)
	}
	other := e.must(201, "POST", wep, map[string]any{"toolkit_slug": "slack", "client_id": "789"}).str("id")
	discord := e.must(201, "POST", wep, map[string]any{"toolkit_slug": "discord", "client_id": "d1"}).str("id")
	if other == id || discord == id {
		t.Fatal("new endpoints reuse an id")
	}
	if g := e.must(200, "GET", wep+"/"+id, nil); g.raw != c.raw {
		t.Fatalf("retrieve: %s", g.raw)
	}
	l := e.must(200, "GET", wep, nil).items()
	if len(l) != 3 || l[0]["id"] != id || l[1]["id"] != other || l[2]["id"] != discord || len(l[0]) != 3 || l[0]["client_id"] != "123.456" {
		t.Fatalf("list: %v", l)
	}
	if l := e.must(200, "GET", wep+"?toolkit_slug=discord", nil).items(); len(l) != 1 || l[0]["id"] != discord {
		t.Fatalf("list discord: %v", l)
	}
	if l := e.must(200, "GET", wep+"?toolkit_slug=notion", nil).items(); len(l) != 0 {
		t.Fatalf("list notion: %v", l)
	}

	// replace: every required field, secrets masked on the way out
	r := e.must(200, "POST", wep+"/"+id, map[string]any{"data": map[string]any{"signing_secret": "s3cr3t", "app_id": "A1"}})
	if r.get("data", "signing_secret") != masked || r.get("data", "app_id") != "A1" || r.str("id") != id {
		t.Fatalf("replace: %s", r.raw)
	}
	if strings.Contains(e.must(200, "GET", wep+"/"+id, nil).raw, "s3cr3t") {
		t.Fatal("retrieve shows the secret")
	}
	e.mustErr(400, "data.signing_secret is required", "POST", wep+"/"+id, map[string]any{"data": map[string]any{"app_id": "A2"}})
	e.mustErr(400, "data.verification_token is not a setup field of toolkit slack (fields: signing_secret (required, secret), app_id)",
		"POST", wep+"/"+id, map[string]any{"data": map[string]any{"signing_secret": "x", "verification_token": "y"}})
	e.mustErr(400, "data.app_id must be a string", "POST", wep+"/"+id, map[string]any{"data": map[string]any{"signing_secret": "x", "app_id": 7}})
	e.mustErr(400, "data is required", "POST", wep+"/"+id, map[string]any{})
	e.mustErr(400, "unknown field signing_secret", "POST", wep+"/"+id, map[string]any{"signing_secret": "x"})
	// replace drops an optional field it does not give
	if r := e.must(200, "POST", wep+"/"+id, map[string]any{"data": map[string]any{"signing_secret": "s2"}}); r.get("data", "app_id") != nil {
		t.Fatalf("replace kept app_id: %s", r.raw)
	}

	// patch: omitted fields are kept, "" clears an optional one, never a required one
	p := e.must(200, "PATCH", wep+"/"+id, map[string]any{"data": map[string]any{"app_id": "A3"}})
	if p.get("data", "signing_secret") != masked || p.get("data", "app_id") != "A3" {
		t.Fatalf("patch: %s", p.raw)
	}
	if p := e.must(200, "PATCH", wep+"/"+id, map[string]any{"data": map[string]any{"app_id": ""}}); p.get("data", "app_id") != nil || p.get("data", "signing_secret") != masked {
		t.Fatalf("patch clearing app_id: %s", p.raw)
	}
	e.mustErr(400, "a required field cannot be cleared", "PATCH", wep+"/"+id, map[string]any{"data": map[string]any{"signing_secret": ""}})
	e.mustErr(400, "not a setup field", "PATCH", wep+"/"+id, map[string]any{"data": map[string]any{"public_key": "k"}})
	// an endpoint never configured takes a PATCH only with every required field
	e.mustErr(400, "not configured yet", "PATCH", wep+"/"+discord, map[string]any{"data": map[string]any{"application_id": "1"}})
	if p := e.must(200, "PATCH", wep+"/"+discord, map[string]any{"data": map[string]any{"public_key": "pk"}}); p.get("data", "public_key") != "pk" {
		t.Fatalf("discord public_key is not secret: %s", p.raw)
	}
	if g := e.must(200, "GET", wep+"/"+other, nil); g.get("data") != nil {
		t.Fatalf("another endpoint changed: %s", g.raw)
	}

	e.mustErr(404, `webhook endpoint "we_missing" not found`, "GET", wep+"/we_missing", nil)
	e.mustErr(404, "not found", "POST", wep+"/we_missing", map[string]any{"data": map[string]any{"signing_secret": "x"}})
	e.mustErr(404, "not found", "PATCH", wep+"/we_missing", map[string]any{"data": map[string]any{}})
	// the v3 alias serves the same endpoints
	e.must(200, "GET", "/api/v3/webhook_endpoints/"+id, nil)
}

func TestWebhookEndpointCreateErrors(t *testing.T) {
	e := newEnv(t, Options{})
	for _, tc := range []struct {
		body   any
		status int
		want   string
	}{
		{map[string]any{"client_id": "c"}, 400, "toolkit_slug is required"},
		{map[string]any{"toolkit_slug": "slack"}, 400, "client_id is required"},
		{map[string]any{"toolkit_slug": "slack", "client_id": ""}, 400, "client_id must not be empty"},
		{map[string]any{"toolkit_slug": "slack", "client_id": 5}, 400, "client_id must be a string"},
		{map[string]any{"toolkit_slug": "slack", "client_id": "c", "name": "x"}, 400, "unknown field name"},
		{"[1]", 400, "not valid JSON"},
		{map[string]any{"toolkit_slug": "no-such-toolkit", "client_id": "c"}, 404, `toolkit "no-such-toolkit" not found`},
		// stripe's webhook triggers need no endpoint; github has none
		{map[string]any{"toolkit_slug": "stripe", "client_id": "c"}, 400, "toolkit stripe does not need a webhook endpoint"},
		{map[string]any{"toolkit_slug": "gmail", "client_id": "c"}, 400, "toolkit gmail does not need a webhook endpoint"},
	} {
		e.mustErr(tc.status, tc.want, "POST", wep, tc.body)
	}
	if r := e.do("POST", wep, nil); r.status != 400 {
		t.Fatalf("empty body: %s", r.raw)
	}
	if l := e.must(200, "GET", wep, nil).items(); len(l) != 0 {
		t.Fatalf("a refused create stored an endpoint: %v", l)
	}
	r := e.do("GET", wep, nil)
	if r.header.Get("x-request-id") == "" {
		t.Fatal("no request id")
	}
	e.key = ""
	e.mustErr(401, "missing API key", "GET", wep, nil)
}

// TestWebhookEndpointProjects: endpoints are per project (the same
// toolkit and client_id in two projects are two endpoints; another project's
// endpoint answers 404 and is not listed).
func TestWebhookEndpointProjects(t *testing.T) {
	e := newEnv(t, Options{APIKeys: map[string]string{"key-a": "alpha", "key-b": "beta"}})
	body := map[string]any{"toolkit_slug": "notion", "client_id": "c"}
	e.key = "key-a"
	a := e.must(201, "POST", wep, body).str("id")
	e.key = "key-b"
	b := e.must(201, "POST", wep, body).str("id")
	if a == b {
		t.Fatal("two projects share an endpoint")
	}
	if l := e.must(200, "GET", wep, nil).items(); len(l) != 1 || l[0]["id"] != b {
		t.Fatalf("beta lists %v", l)
	}
	e.mustErr(404, "not found", "GET", wep+"/"+a, nil)
	e.mustErr(404, "not found", "PATCH", wep+"/"+a, map[string]any{"data": map[string]any{"verification_token": "t"}})
	e.mustErr(404, "not found", "POST", wep+"/"+a, map[string]any{"data": map[string]any{"verification_token": "t"}})
}

// TestWebhookEndpointPersists: endpoints and their data survive a restart
// on the same data file.
func TestWebhookEndpointPersists(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	e := newEnv(t, Options{DataPath: path})
	id := e.must(201, "POST", wep, map[string]any{"toolkit_slug": "slack", "client_id": "c"}).str("id")
	e.must(200, "POST", wep+"/"+id, map[string]any{"data": map[string]any{"signing_secret": "s", "app_id": "A"}})
	if err := e.srv.Close(); err != nil {
		t.Fatal(err)
	}
	e2 := newEnv(t, Options{DataPath: path})
	g := e2.must(200, "GET", wep+"/"+id, nil)
	if g.get("data", "app_id") != "A" || g.get("data", "signing_secret") != masked || g.str("webhook_url") != e2.ts.URL+"/webhook_ingress/"+id {
		t.Fatalf("after restart: %s", g.raw)
	}
	e2.must(200, "POST", wep, map[string]any{"toolkit_slug": "slack", "client_id": "c"})
}

// TestWebhookIngress: the endpoint's URL takes the provider's calls without
// an API key: Slack's url_verification challenge is echoed, Discord's PING
// answered; an unknown endpoint is a 404; calls count in the stats.
func TestWebhookIngress(t *testing.T) {
	e := newEnv(t, Options{})
	slack := e.must(201, "POST", wep, map[string]any{"toolkit_slug": "slack", "client_id": "c"}).str("webhook_url")
	discord := e.must(201, "POST", wep, map[string]any{"toolkit_slug": "discord", "client_id": "c"}).str("webhook_url")
	slackPath, discordPath := strings.TrimPrefix(slack, e.ts.URL), strings.TrimPrefix(discord, e.ts.URL)
	e.key = ""
	if r := e.must(200, "POST", slackPath, map[string]any{"type": "url_verification", "token": "t", "challenge": "abc123"}); r.raw != `{"challenge":"abc123"}` {
		t.Fatalf("url_verification: %s", r.raw)
	}
	if r := e.must(200, "POST", slackPath, map[string]any{"type": "event_callback", "event": map[string]any{"type": "message", "text": "hi"}}); r.get("ok") != true {
		t.Fatalf("event: %s", r.raw)
	}
	if r := e.must(200, "POST", discordPath, map[string]any{"type": 1}); r.raw != `{"type":1}` {
		t.Fatalf("discord PING: %s", r.raw)
	}
	if r := e.must(200, "POST", slackPath, "not json"); r.get("ok") != true {
		t.Fatalf("non-JSON event: %s", r.raw)
	}
	checkErr(t, e.do("POST", "/webhook_ingress/we_missing", map[string]any{}), 404, "not found")
	checkErr(t, e.do(http.MethodGet, slackPath, nil), 404, "no route for GET") // providers POST
	e.key = testKey
	st := e.must(200, "GET", "/_emulator/stats", nil)
	if n := st.get("requests", "POST /webhook_ingress/{id}"); n != 5.0 {
		t.Fatalf("ingress count %v: %s", n, st.raw)
	}
}

// TestTriggerTypesRequireWebhookEndpointSetup: webhook trigger types of
// toolkits with webhook endpoint setup fields say so; the others do not.
func TestTriggerTypesRequireWebhookEndpointSetup(t *testing.T) {
	e := newEnv(t, Options{})
	for slug, want := range map[string]bool{
		"SLACK_RECEIVE_MESSAGE": true, "NOTION_PAGE_UPDATED": true, "DISCORD_NEW_MESSAGE_TRIGGER": true,
		"NOTION_PAGE_ADDED_TO_DATABASE": false, "STRIPE_CHARGE_SUCCEEDED_TRIGGER": false, "GITHUB_COMMIT_EVENT": false,
	} {
		if got := e.must(200, "GET", v+"/triggers_types/"+slug, nil).get("requires_webhook_endpoint_setup"); got != want {
			t.Errorf("%s: requires_webhook_endpoint_setup %v, want %v", slug, got, want)
		}
	}
	for _, it := range e.must(200, "GET", v+"/triggers_types?toolkit_slugs=slack,notion&limit=50", nil).items() {
		want := it["type"] == "webhook"
		if it["requires_webhook_endpoint_setup"] != want {
			t.Errorf("list: %v", it)
		}
	}
}

// TestCatalogWebhookEndpointSetup: a catalog file's webhook_endpoint_setup
// gives a toolkit its setup fields; bad ones fail New naming the field.
func TestCatalogWebhookEndpointSetup(t *testing.T) {
	const trigger = `{"slug": "GITHUB_HOOK", "name": "Hook", "type": "webhook", "config": {"type": "object"}, "payload": {"type": "object"}}`
	const poll = `{"slug": "GITHUB_POLL", "name": "Poll", "type": "poll", "config": {"type": "object"}, "payload": {"type": "object"}}`
	withSetup := func(triggers, setup string) string {
		return strings.TrimSuffix(withTriggers(triggers), "}") + `, "webhook_endpoint_setup": ` + setup + `}`
	}
	dir := t.TempDir()
	writeCatalogFile(t, dir, "ghe.json", withSetup(trigger+","+poll,
		`{"required": [{"name": "secret", "display_name": "Secret", "type": "string", "secret": true}], "optional": [{"name": "host", "display_name": "Host", "type": "string"}]}`))
	e := newEnv(t, Options{CatalogDir: dir})
	if e.must(200, "GET", v+"/triggers_types/GITHUB_HOOK", nil).get("requires_webhook_endpoint_setup") != true ||
		e.must(200, "GET", v+"/triggers_types/GITHUB_POLL", nil).get("requires_webhook_endpoint_setup") != false {
		t.Fatal("requires_webhook_endpoint_setup does not follow webhook_endpoint_setup")
	}
	id := e.must(201, "POST", wep, map[string]any{"toolkit_slug": "github", "client_id": "c"}).str("id")
	if r := e.must(200, "POST", wep+"/"+id, map[string]any{"data": map[string]any{"secret": "s", "host": "h"}}); r.get("data", "secret") != masked || r.get("data", "host") != "h" {
		t.Fatal(r.raw)
	}

	for name, tc := range map[string]struct{ content, want string }{
		"no webhook trigger": {withSetup(poll, `{"required": [{"name": "s", "display_name": "S", "type": "string"}]}`),
			`webhook_endpoint_setup: the toolkit has no trigger type of type "webhook"`},
		"no field":      {withSetup(trigger, `{}`), "webhook_endpoint_setup: lists no field"},
		"not a string":  {withSetup(trigger, `{"optional": [{"name": "n", "display_name": "N", "type": "integer"}]}`), `webhook_endpoint_setup.optional[0].type: must be "string"`},
		"twice":         {withSetup(trigger, `{"required": [{"name": "n", "display_name": "N", "type": "string"}], "optional": [{"name": "n", "display_name": "N", "type": "string"}]}`), `webhook_endpoint_setup.optional[0].name: field "n" is listed twice`},
		"unknown field": {withSetup(trigger, `{"fields": []}`), `unknown field "fields"`},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeCatalogFile(t, dir, "a.json", tc.content)
			if _, err := New(Options{CatalogDir: dir}); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}
