package emulator

import (
	"strings"
	"testing"
)

func TestConnectedAccountCredentialSchemes(t *testing.T) {
	e := newEnv(t, Options{})
	stripe := e.createCustomAC("stripe", "API_KEY", nil)
	id := e.apiKeyAccount(stripe, "alice")
	a := e.must(200, "GET", v+"/connected_accounts/"+id, nil)
	if a.str("status") != "ACTIVE" || a.str("user_id") != "alice" || a.str("toolkit", "slug") != "stripe" ||
		a.str("state", "authScheme") != "API_KEY" || a.str("state", "val", "api_key") != "********" ||
		a.str("auth_config", "id") != stripe || a.get("is_disabled") != false || a.get("params") == nil {
		t.Fatalf("api key account: %s", a.raw)
	}
	post := func(ac string, state map[string]any) resp {
		return e.do("POST", v+"/connected_accounts", map[string]any{"auth_config": map[string]any{"id": ac},
			"connection": map[string]any{"user_id": "u", "state": state}})
	}
	checkErr(t, post(stripe, map[string]any{"authScheme": "API_KEY", "val": map[string]any{"status": "ACTIVE"}}), 400, "connection.state.val.api_key is required")
	checkErr(t, post(stripe, map[string]any{"authScheme": "API_KEY", "val": map[string]any{"api_key": "k", "pin": "1"}}), 400, "connection.state.val.pin is not a field")
	checkErr(t, post(stripe, map[string]any{"authScheme": "BASIC", "val": map[string]any{"api_key": "k"}}), 400, "authScheme is BASIC")
	checkErr(t, post("", nil), 400, "auth_config.id is required")

	jira := e.createCustomAC("jira", "BASIC", nil)
	checkErr(t, post(jira, map[string]any{"authScheme": "BASIC", "val": map[string]any{"username": "u"}}), 400, "password is required")
	r := post(jira, map[string]any{"authScheme": "BASIC", "val": map[string]any{"status": "ACTIVE", "username": "u", "password": "p", "subdomain": "acme"}})
	if r.status != 201 || r.str("status") != "ACTIVE" || r.str("connectionData", "val", "status") != "ACTIVE" || r.get("redirect_url") != nil {
		t.Fatalf("basic: %s", r.raw)
	}
	slack := e.createCustomAC("slack", "BEARER_TOKEN", nil)
	checkErr(t, post(slack, map[string]any{"authScheme": "BEARER_TOKEN", "val": map[string]any{}}), 400, "token is required")
	checkErr(t, post(slack, map[string]any{"authScheme": "BEARER_TOKEN", "val": map[string]any{"token": "xoxb"}}), 400, "val.status is required")
	checkErr(t, post(slack, map[string]any{"authScheme": "BEARER_TOKEN", "val": map[string]any{"status": "EXPIRED", "token": "xoxb"}}), 400, `"EXPIRED" is not a state of BEARER_TOKEN`)
	if r := post(slack, map[string]any{"authScheme": "BEARER_TOKEN", "val": map[string]any{"status": "ACTIVE", "token": "xoxb"}}); r.status != 201 || r.str("status") != "ACTIVE" {
		t.Fatalf("bearer: %s", r.raw)
	}
}

func TestConnectedAccountOAuthAndControl(t *testing.T) {
	e := newEnv(t, Options{})
	ac := e.createManagedAC("github")
	r := e.must(201, "POST", v+"/connected_accounts", map[string]any{"auth_config": map[string]any{"id": ac},
		"connection": map[string]any{"user_id": "bob", "callback_url": "https://app.example/cb"}})
	id := r.str("id")
	if r.str("status") != "INITIATED" || !strings.HasPrefix(r.str("redirect_url"), e.ts.URL+"/oauth/consent/") ||
		r.str("connectionData", "val", "redirectUrl") != r.str("redirect_url") || !strings.HasPrefix(id, "ca_") {
		t.Fatalf("oauth initiate: %s", r.raw)
	}
	a := e.must(200, "GET", v+"/connected_accounts/"+id, nil)
	created := a.str("updated_at")
	c := e.must(200, "POST", "/_emulator/connected_accounts/"+id+"/complete", nil)
	if c.str("status") != "ACTIVE" || !strings.HasPrefix(c.str("state", "val", "access_token"), "emu_at_") ||
		c.str("state", "val", "token_type") != "Bearer" || c.str("updated_at") <= created {
		t.Fatalf("complete: %s", c.raw)
	}
	x := e.must(200, "POST", "/_emulator/connected_accounts/"+id+"/expire", nil)
	if x.str("status") != "EXPIRED" || x.str("status_reason") == "" {
		t.Fatalf("expire: %s", x.raw)
	}
	// refresh an expired OAuth account restarts consent
	rf := e.must(200, "POST", v+"/connected_accounts/"+id+"/refresh?redirect_url=https://app.example/again", map[string]any{})
	if rf.str("status") != "INITIATED" || !strings.Contains(rf.str("redirect_url"), "/oauth/consent/") {
		t.Fatalf("refresh expired: %s", rf.raw)
	}
	f := e.must(200, "POST", "/_emulator/connected_accounts/"+id+"/fail", map[string]any{"reason": "user closed window"})
	if f.str("status") != "FAILED" || f.str("status_reason") != "user closed window" {
		t.Fatalf("fail: %s", f.raw)
	}
	e.must(200, "POST", "/_emulator/connected_accounts/"+id+"/complete", nil)
	rf = e.must(200, "POST", v+"/connected_accounts/"+id+"/refresh", nil)
	if rf.str("status") != "ACTIVE" || rf.get("redirect_url") != nil {
		t.Fatalf("refresh active: %s", rf.raw)
	}
	e.mustErr(404, "not found", "POST", "/_emulator/connected_accounts/ca_missing/complete", nil)

	// OAuth with an access token is ACTIVE at once
	r = e.must(201, "POST", v+"/connected_accounts", map[string]any{"auth_config": map[string]any{"id": ac},
		"connection": map[string]any{"user_id": "carol", "state": map[string]any{"authScheme": "OAUTH2", "val": map[string]any{"status": "ACTIVE", "access_token": "t"}}}})
	if r.str("status") != "ACTIVE" {
		t.Fatalf("oauth with token: %s", r.raw)
	}
}

func TestConnectedAccountLinkStatusDelete(t *testing.T) {
	e := newEnv(t, Options{})
	ac := e.createCustomAC("stripe", "API_KEY", nil)
	l := e.must(201, "POST", v+"/connected_accounts/link", map[string]any{"auth_config_id": ac, "user_id": "dana", "callback_url": "https://x/cb"})
	if !strings.HasPrefix(l.str("link_token"), "lt_") || l.str("redirect_url") != e.ts.URL+"/link/"+l.str("link_token") ||
		l.str("expires_at") == "" || l.str("connected_account_id") == "" {
		t.Fatalf("link: %s", l.raw)
	}
	if a := e.must(200, "GET", v+"/connected_accounts/"+l.str("connected_account_id"), nil); a.str("status") != "INITIATED" {
		t.Fatalf("link account: %s", a.raw)
	}
	e.mustErr(400, "user_id is required", "POST", v+"/connected_accounts/link", map[string]any{"auth_config_id": ac})
	e.mustErr(404, "not found", "POST", v+"/connected_accounts/link", map[string]any{"auth_config_id": "ac_nope", "user_id": "x"})

	id := e.apiKeyAccount(ac, "erin")
	before := e.must(200, "GET", v+"/connected_accounts/"+id, nil).str("updated_at")
	if r := e.must(200, "PATCH", v+"/connected_accounts/"+id+"/status", map[string]any{"enabled": false, "reason": "offboarded"}); r.get("success") != true {
		t.Fatal(r.raw)
	}
	a := e.must(200, "GET", v+"/connected_accounts/"+id, nil)
	if a.get("is_disabled") != true || a.str("status_reason") != "offboarded" || a.str("updated_at") <= before {
		t.Fatalf("disabled: %s", a.raw)
	}
	e.must(200, "PATCH", v+"/connected_accounts/"+id+"/status", map[string]any{"enabled": true})
	if a := e.must(200, "GET", v+"/connected_accounts/"+id, nil); a.get("is_disabled") != false || a.get("status_reason") != nil {
		t.Fatalf("enabled: %s", a.raw)
	}
	e.mustErr(400, "enabled", "PATCH", v+"/connected_accounts/"+id+"/status", map[string]any{})
	// v3.1 PATCH replaces credentials
	p := e.must(200, "PATCH", v+"/connected_accounts/"+id, map[string]any{"alias": "work",
		"connection": map[string]any{"state": map[string]any{"authScheme": "API_KEY", "val": map[string]any{"api_key": "new"}}}})
	if p.get("success") != true {
		t.Fatal(p.raw)
	}
	// delete cascades trigger instances
	ti := e.must(200, "POST", v+"/trigger_instances/STRIPE_CHARGE_SUCCEEDED_TRIGGER/upsert", map[string]any{"connected_account_id": id}).str("trigger_id")
	if r := e.must(200, "DELETE", v+"/connected_accounts/"+id, nil); r.get("success") != true {
		t.Fatal(r.raw)
	}
	e.mustErr(404, "not found", "GET", v+"/connected_accounts/"+id, nil)
	e.mustErr(410, "was deleted", "PATCH", v+"/trigger_instances/manage/"+ti, map[string]any{"status": "disable"})
	e.mustErr(404, "not found", "DELETE", v+"/connected_accounts/"+id, nil)
}

func TestConnectedAccountListFilters(t *testing.T) {
	e := newEnv(t, Options{})
	stripe := e.createCustomAC("stripe", "API_KEY", nil)
	gh := e.createManagedAC("github")
	a1 := e.apiKeyAccount(stripe, "u1")
	a2 := e.apiKeyAccount(stripe, "u2")
	g1, _ := e.oauthAccount(gh, "u1", "")
	count := func(q string) int { return len(e.must(200, "GET", v+"/connected_accounts"+q, nil).items()) }
	cases := map[string]int{
		"":                             3,
		"?user_ids=u1":                 2,
		"?user_ids=u1,u2":              3,
		"?user_ids=u1&user_ids=u2":     3,
		"?toolkit_slugs=github":        1,
		"?auth_config_ids=" + stripe:   2,
		"?statuses=ACTIVE":             2,
		"?statuses=INITIATED,ACTIVE":   3,
		"?connected_account_ids=" + a2: 1,
		"?user_ids=u1&statuses=ACTIVE": 1,
		"?limit=1":                     1,
		"?order_by=updated_at":         3,
		"?order_direction=asc":         3,
	}
	for q, want := range cases {
		if got := count(q); got != want {
			t.Errorf("%q: %d items, want %d", q, got, want)
		}
	}
	items := e.must(200, "GET", v+"/connected_accounts?order_direction=asc", nil).items()
	if items[0]["id"] != a1 || items[2]["id"] != g1 {
		t.Fatalf("asc order: %v %v", items[0]["id"], items[2]["id"])
	}
	items = e.must(200, "GET", v+"/connected_accounts", nil).items()
	if items[0]["id"] != g1 {
		t.Fatalf("default order newest first: %v", items[0]["id"])
	}
	e.mustErr(400, "unknown status", "GET", v+"/connected_accounts?statuses=HAPPY", nil)
	e.mustErr(400, "order_by", "GET", v+"/connected_accounts?order_by=name", nil)
}

// state.val.status stays within what the contract allows for the scheme:
// an API key account that FAILED or EXPIRED reads INACTIVE there (the
// top-level status keeps FAILED / EXPIRED); an OAuth account whose auth
// config was deleted before it got a token reads INITIALIZING (INACTIVE
// would need an access_token).
func TestConnectedAccountValStatusPerScheme(t *testing.T) {
	e := newEnv(t, Options{})
	ac := e.createCustomAC("airtable", "API_KEY", map[string]any{})
	for _, ctl := range []string{"fail", "expire"} {
		id := e.apiKeyAccount(ac, "u1")
		e.must(200, "POST", "/_emulator/connected_accounts/"+id+"/"+ctl, nil)
		r := e.must(200, "GET", v+"/connected_accounts/"+id, nil)
		if r.str("state", "val", "status") != "INACTIVE" || r.str("status") == "INACTIVE" {
			t.Fatalf("%s: status %s, val.status %s", ctl, r.str("status"), r.str("state", "val", "status"))
		}
	}
	oac := e.createCustomAC("github", "OAUTH2", map[string]any{"client_id": "c", "client_secret": "s"})
	pending, _ := e.oauthAccount(oac, "u1", "https://example.com/cb")
	done, _ := e.oauthAccount(oac, "u1", "https://example.com/cb")
	e.must(200, "POST", "/_emulator/connected_accounts/"+done+"/complete", nil)
	e.must(200, "DELETE", v+"/auth_configs/"+oac, nil)
	if r := e.must(200, "GET", v+"/connected_accounts/"+pending, nil); r.str("status") != "INACTIVE" || r.str("state", "val", "status") != "INITIALIZING" {
		t.Fatalf("pending OAuth account after delete: %s", r.raw)
	}
	if r := e.must(200, "GET", v+"/connected_accounts/"+done, nil); r.str("state", "val", "status") != "INACTIVE" || r.str("state", "val", "access_token") == "" {
		t.Fatalf("completed OAuth account after delete: %s", r.raw)
	}
}

// account_type is PRIVATE (default), SHARED or ALL; every emulated account
// is PRIVATE; revoke_on_delete on an account answers a revoke_job_id.
func TestConnectedAccountTypeAndRevoke(t *testing.T) {
	e := newEnv(t, Options{})
	ac := e.createCustomAC("airtable", "API_KEY", map[string]any{})
	id := e.apiKeyAccount(ac, "u1")
	for q, want := range map[string]int{"": 1, "?account_type=PRIVATE": 1, "?account_type=ALL": 1, "?account_type=SHARED": 0} {
		if got := len(e.must(200, "GET", v+"/connected_accounts"+q, nil).items()); got != want {
			t.Errorf("list%s: %d items, want %d", q, got, want)
		}
	}
	e.mustErr(400, "account_type", "GET", v+"/connected_accounts?account_type=shared", nil)
	e.mustErr(400, "order_direction", "GET", v+"/connected_accounts?order_direction=ASC", nil)
	if got := e.must(200, "GET", v+"/connected_accounts/"+id, nil).get("experimental", "account_type"); got != "PRIVATE" {
		t.Fatalf("experimental.account_type = %v", got)
	}
	r := e.must(200, "DELETE", v+"/connected_accounts/"+id+"?revoke_on_delete=true", nil)
	if r.get("success") != true || !strings.HasPrefix(r.str("revoke_job_id"), "rvk_") {
		t.Fatalf("revoking delete: %s", r.raw)
	}
}

// TestCreateRequiresStateFields: a connected account's state.val carries the
// fields the contract's state type requires for its scheme and status, else 400.
func TestCreateRequiresStateFields(t *testing.T) {
	e := newEnv(t, Options{})
	create := func(ac, scheme string, val map[string]any) map[string]any {
		return map[string]any{"auth_config": map[string]any{"id": ac},
			"connection": map[string]any{"user_id": "u", "state": map[string]any{"authScheme": scheme, "val": val}}}
	}
	zoom := e.createCustomAC("zoom", "S2S_OAUTH2", map[string]any{"client_id": "a", "client_secret": "b"})
	e.mustErr(400, "connection.state.val.access_token", "POST", v+"/connected_accounts",
		create(zoom, "S2S_OAUTH2", map[string]any{"status": "ACTIVE", "account_id": "acct"}))
	r := e.must(201, "POST", v+"/connected_accounts",
		create(zoom, "S2S_OAUTH2", map[string]any{"status": "ACTIVE", "account_id": "acct", "access_token": "tok"}))
	if r.str("status") != "ACTIVE" {
		t.Fatalf("S2S account with its token: %s", r.raw)
	}
	sentry := e.createCustomAC("sentry", "DCR_OAUTH", map[string]any{})
	e.mustErr(400, "connection.state.val.client_id", "POST", v+"/connected_accounts",
		create(sentry, "DCR_OAUTH", map[string]any{"status": "ACTIVE", "access_token": "tok"}))
	bill := e.createCustomAC("bill", "BILLCOM_AUTH", map[string]any{})
	e.mustErr(400, "connection.state.val.redirectUrl", "POST", v+"/connected_accounts",
		create(bill, "BILLCOM_AUTH", map[string]any{"status": "INITIATED", "devKey": "k", "sessionId": "s"}))
	e.must(201, "POST", v+"/connected_accounts",
		create(bill, "BILLCOM_AUTH", map[string]any{"status": "ACTIVE", "devKey": "k", "sessionId": "s"}))
	e.must(201, "POST", v+"/connected_accounts",
		create(bill, "BILLCOM_AUTH", map[string]any{"status": "INITIATED", "devKey": "k", "sessionId": "s", "redirectUrl": "https://bill.example/login"}))
	if n := len(e.must(200, "GET", v+"/connected_accounts", nil).items()); n != 3 {
		t.Fatalf("%d accounts stored, want the 3 accepted ones", n)
	}
}

// TestCIMDOAuthAccountFlow: CIMD_OAUTH (the service's v3 document: OAuth
// whose client_id is a client ID metadata document URL) is a redirect flow
// like DCR_OAUTH: an account starts INITIATED with a redirectUrl and is
// ACTIVE with tokens once the user approves; an ACTIVE state without its
// client_id is refused, as the document requires it; a scheme other than the
// auth config's is refused.
func TestCIMDOAuthAccountFlow(t *testing.T) {
	e := newEnv(t, Options{})
	ac := e.createCustomAC("sentry", "CIMD_OAUTH", map[string]any{})
	create := func(val map[string]any) map[string]any {
		return map[string]any{"auth_config": map[string]any{"id": ac},
			"connection": map[string]any{"user_id": "u", "callback_url": "https://app.example/done",
				"state": map[string]any{"authScheme": "CIMD_OAUTH", "val": val}}}
	}
	r := e.must(201, "POST", v+"/connected_accounts", create(map[string]any{"status": "INITIALIZING"}))
	id := r.str("id")
	if r.str("status") != "INITIATED" || r.str("redirect_url") == "" {
		t.Fatalf("a CIMD_OAUTH account starts INITIATED with a redirect_url: %s", r.raw)
	}
	e.must(200, "POST", "/_emulator/connected_accounts/"+id+"/complete", nil)
	got := e.must(200, "GET", v+"/connected_accounts/"+id, nil)
	if got.str("status") != "ACTIVE" || got.get("state", "authScheme") != "CIMD_OAUTH" {
		t.Fatalf("after approval: %s", got.raw)
	}
	if tok, _ := got.get("state", "val", "access_token").(string); tok == "" || got.get("state", "val", "status") != "ACTIVE" {
		t.Fatalf("an approved CIMD_OAUTH account has an access_token and val.status ACTIVE: %s", got.raw)
	}
	// client_id is the URL of the client ID metadata document, served there.
	clientID, _ := got.get("state", "val", "client_id").(string)
	doc := e.must(200, "GET", strings.TrimPrefix(clientID, e.ts.URL), nil)
	if clientID == "" || doc.str("client_id") != clientID {
		t.Fatalf("val.client_id %q is not the URL of its metadata document: %s", clientID, doc.raw)
	}
	e.mustErr(400, "connection.state.val.client_id", "POST", v+"/connected_accounts",
		create(map[string]any{"status": "ACTIVE", "access_token": "tok"}))
	e.must(201, "POST", v+"/connected_accounts",
		create(map[string]any{"status": "ACTIVE", "access_token": "tok", "client_id": "https://app.example/oauth/client.json"}))
	e.mustErr(400, "authScheme", "POST", v+"/connected_accounts", map[string]any{"auth_config": map[string]any{"id": ac},
		"connection": map[string]any{"user_id": "u", "state": map[string]any{"authScheme": "DCR_OAUTH", "val": map[string]any{"status": "INITIALIZING"}}}})
}
