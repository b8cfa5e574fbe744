package emulator

import (
	"testing"
)

// An alias is set on create (connection.alias) and on a hosted link, read
// back, changed and cleared ("" reads null) with PATCH; aliases are unique
// per user and toolkit: another account of the same user on the same
// toolkit (even through another auth config) is refused with 409 on create,
// link and PATCH, while another user or another toolkit may use it.
func TestConnectedAccountAlias(t *testing.T) {
	e := newEnv(t, Options{})
	ac := e.createCustomAC("stripe", "API_KEY", map[string]any{})
	ac2 := e.createCustomAC("stripe", "API_KEY", map[string]any{})
	create := func(acID, user string, alias any) resp {
		return e.do("POST", v+"/connected_accounts", map[string]any{
			"auth_config": map[string]any{"id": acID},
			"connection": map[string]any{"user_id": user, "alias": alias, "state": map[string]any{
				"authScheme": "API_KEY", "val": map[string]any{"status": "ACTIVE", "api_key": "sk_1"}}},
		})
	}
	r := create(ac, "u1", "work")
	if r.status != 201 {
		t.Fatalf("create: %s", r.raw)
	}
	work := r.str("id")
	if got := e.must(200, "GET", v+"/connected_accounts/"+work, nil); got.str("alias") != "work" {
		t.Fatalf("alias not read back: %s", got.raw)
	}
	if items := e.must(200, "GET", v+"/connected_accounts?user_ids=u1", nil).items(); len(items) != 1 || items[0]["alias"] != "work" {
		t.Fatalf("alias not listed: %v", items)
	}

	checkErr(t, create(ac, "u1", "work"), 409, `alias "work" is already used by another connected account of user "u1" on toolkit stripe`)
	checkErr(t, create(ac2, "u1", "work"), 409, "already used") // another auth config, same toolkit
	checkErr(t, e.do("POST", v+"/connected_accounts/link", map[string]any{"auth_config_id": ac, "user_id": "u1", "alias": "work"}), 409, "already used")
	if r := create(ac, "u2", "work"); r.status != 201 { // another user
		t.Fatalf("another user's alias: %s", r.raw)
	}
	gh := e.createManagedAC("github")
	if r := e.do("POST", v+"/connected_accounts/link", map[string]any{"auth_config_id": gh, "user_id": "u1", "alias": "work"}); r.status != 201 {
		t.Fatalf("another toolkit's alias: %s", r.raw) // another toolkit
	}
	noAlias := create(ac, "u1", "")
	if noAlias.status != 201 {
		t.Fatalf("create with an empty alias: %s", noAlias.raw)
	}
	other := noAlias.str("id")
	if got := e.must(200, "GET", v+"/connected_accounts/"+other, nil); got.get("alias") != nil {
		t.Fatalf("an empty alias must read null: %s", got.raw)
	}

	e.mustErr(409, "already used", "PATCH", v+"/connected_accounts/"+other, map[string]any{"alias": "work"})
	e.must(200, "PATCH", v+"/connected_accounts/"+work, map[string]any{"alias": "work"}) // its own alias again
	e.must(200, "PATCH", v+"/connected_accounts/"+work, map[string]any{"alias": "personal"})
	if got := e.must(200, "GET", v+"/connected_accounts/"+work, nil); got.str("alias") != "personal" {
		t.Fatalf("alias not changed: %s", got.raw)
	}
	e.must(200, "PATCH", v+"/connected_accounts/"+other, map[string]any{"alias": "work"}) // now free
	e.must(200, "PATCH", v+"/connected_accounts/"+other, map[string]any{"alias": ""})
	if got := e.must(200, "GET", v+"/connected_accounts/"+other, nil); got.get("alias") != nil {
		t.Fatalf("alias not cleared: %s", got.raw)
	}
	// A refused PATCH changes nothing (credentials sent with it included).
	e.must(200, "PATCH", v+"/connected_accounts/"+other, map[string]any{"alias": "spare"})
	e.mustErr(409, "already used", "PATCH", v+"/connected_accounts/"+other, map[string]any{"alias": "personal",
		"connection": map[string]any{"state": map[string]any{"authScheme": "API_KEY", "val": map[string]any{"api_key": "sk_new"}}}})
	if got := e.srv.st.accounts[other]; *got.Alias != "spare" || got.Val["api_key"] != "sk_1" {
		t.Fatalf("a refused PATCH changed the account: alias %v, key %v", *got.Alias, got.Val["api_key"])
	}
}
