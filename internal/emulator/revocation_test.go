package emulator

import (
	"reflect"
	"strings"
	"testing"
)

// revocationsOf returns the entries of the stats' revocation log for the
// account id.
func (e *testEnv) revocationsOf(id string) []map[string]any {
	e.t.Helper()
	var out []map[string]any
	log, _ := e.must(200, "GET", "/_emulator/stats", nil).get("revocations").([]any)
	for _, x := range log {
		if m, _ := x.(map[string]any); m["connected_account_id"] == id {
			out = append(out, m)
		}
	}
	return out
}

func tokensOf(x any) []string {
	var out []string
	for _, t := range x.([]any) {
		out = append(out, t.(string))
	}
	return out
}

// An ACTIVE OAuth account is revoked: 200 naming access_token and
// refresh_token, the account reads REVOKED with the contract's reason, its
// tokens are no longer served (state.val), and the log shows the
// revocation. Revoking it again answers 200 with no tokens (idempotent).
func TestRevokeOAuthAccount(t *testing.T) {
	e := newEnv(t, Options{})
	ac := e.createManagedAC("github")
	id, _ := e.oauthAccount(ac, "u1", "https://app.example/cb")
	e.must(200, "POST", "/_emulator/connected_accounts/"+id+"/complete", nil)
	if tok := e.must(200, "GET", v+"/connected_accounts/"+id, nil).str("state", "val", "access_token"); tok == "" {
		t.Fatal("the ACTIVE account serves no access_token before the revocation")
	}

	r := e.must(200, "POST", v+"/connected_accounts/"+id+"/revoke", nil)
	if got := tokensOf(r.get("revoked_tokens")); !reflect.DeepEqual(got, []string{"access_token", "refresh_token"}) {
		t.Fatalf("revoked_tokens %v: %s", got, r.raw)
	}
	if r.str("connected_account", "id") != id || r.str("connected_account", "status") != "REVOKED" {
		t.Fatalf("connected_account: %s", r.raw)
	}
	got := e.must(200, "GET", v+"/connected_accounts/"+id, nil)
	if got.str("status") != "REVOKED" || got.str("status_reason") != reasonRevokedByEndpoint {
		t.Fatalf("after revoke: %s", got.raw)
	}
	for _, f := range []string{"access_token", "refresh_token"} {
		if got.get("state", "val", f) != nil || got.get("data", f) != nil {
			t.Fatalf("a revoked account still serves %s: %s", f, got.raw)
		}
	}
	if log := e.revocationsOf(id); len(log) != 1 || log[0]["via"] != "revoke" || log[0]["toolkit"] != "github" {
		t.Fatalf("revocation log %v", log)
	}

	again := e.must(200, "POST", v+"/connected_accounts/"+id+"/revoke", nil)
	if toks := again.get("revoked_tokens").([]any); len(toks) != 0 || again.str("connected_account", "status") != "REVOKED" {
		t.Fatalf("revoking a REVOKED account again: %s", again.raw)
	}
	if log := e.revocationsOf(id); len(log) != 1 {
		t.Fatalf("a second revoke logged again: %v", log)
	}
}

// Every ACTIVE account can be revoked, API-key ones included: their stored
// key is dropped ("credential"); non-secret connection fields stay.
func TestRevokeAPIKeyAccount(t *testing.T) {
	e := newEnv(t, Options{})
	ac := e.createCustomAC("stripe", "API_KEY", map[string]any{})
	id := e.apiKeyAccount(ac, "u1")
	r := e.must(200, "POST", v+"/connected_accounts/"+id+"/revoke", nil)
	if got := tokensOf(r.get("revoked_tokens")); !reflect.DeepEqual(got, []string{"credential"}) {
		t.Fatalf("revoked_tokens %v", got)
	}
	got := e.must(200, "GET", v+"/connected_accounts/"+id, nil)
	if got.str("status") != "REVOKED" || got.get("state", "val", "api_key") != nil {
		t.Fatalf("after revoke: %s", got.raw)
	}
	// A revoked account cannot run triggers or tools any more.
	if e.srv.st.accounts[id].Val["api_key"] != nil {
		t.Fatal("the stored key was kept")
	}
}

// 409 unless ACTIVE or REVOKED (INITIATED, FAILED, EXPIRED, INACTIVE), 404
// for an unknown account or one of another project, 400 for a toolkit the
// catalog marks revoke_unsupported (mailchimp); nothing changes then.
func TestRevokeRefusals(t *testing.T) {
	e := newEnv(t, Options{APIKeys: map[string]string{testKey: "p1", "other-key": "p2"}})
	gh := e.createManagedAC("github")
	initiated, _ := e.oauthAccount(gh, "u1", "https://app.example/cb")
	e.mustErr(409, "is INITIATED: only ACTIVE", "POST", v+"/connected_accounts/"+initiated+"/revoke", nil)
	failed, _ := e.oauthAccount(gh, "u2", "https://app.example/cb")
	e.must(200, "POST", "/_emulator/connected_accounts/"+failed+"/fail", nil)
	e.mustErr(409, "is FAILED", "POST", v+"/connected_accounts/"+failed+"/revoke", nil)
	expired, _ := e.oauthAccount(gh, "u3", "https://app.example/cb")
	e.must(200, "POST", "/_emulator/connected_accounts/"+expired+"/expire", nil)
	e.mustErr(409, "is EXPIRED", "POST", v+"/connected_accounts/"+expired+"/revoke", nil)
	stripe := e.createCustomAC("stripe", "API_KEY", map[string]any{})
	inactive := e.apiKeyAccount(stripe, "u1")
	e.must(200, "DELETE", v+"/auth_configs/"+stripe, nil)
	e.mustErr(409, "is INACTIVE", "POST", v+"/connected_accounts/"+inactive+"/revoke", nil)
	if r := e.do("POST", v+"/connected_accounts/"+initiated+"/revoke", nil); r.header.Get("x-should-retry") != "false" {
		t.Errorf("a 409 should say x-should-retry: false, got %q", r.header.Get("x-should-retry"))
	}

	e.mustErr(404, "not found", "POST", v+"/connected_accounts/ca_doesnotexist/revoke", nil)
	mine := e.apiKeyAccount(e.createCustomAC("stripe", "API_KEY", map[string]any{}), "u9")
	checkErr(t, e.doKey("other-key", "POST", v+"/connected_accounts/"+mine+"/revoke", nil), 404, "not found")

	mc := e.createCustomAC("mailchimp", "API_KEY", map[string]any{})
	acct := e.apiKeyAccount(mc, "u1")
	e.mustErr(400, "toolkit mailchimp does not support programmatic revocation", "POST", v+"/connected_accounts/"+acct+"/revoke", nil)
	if got := e.must(200, "GET", v+"/connected_accounts/"+acct, nil); got.str("status") != "ACTIVE" {
		t.Fatalf("a refused revoke changed the account: %s", got.raw)
	}
	for _, id := range []string{initiated, failed, expired, inactive, mine, acct} {
		if log := e.revocationsOf(id); len(log) != 0 {
			t.Fatalf("a refused revoke was logged: %v", log)
		}
	}
}

// deleteWithoutRevoking deletes path without revoke_on_delete and checks
// that the answer has no revoke_job_id.
func (e *testEnv) deleteWithoutRevoking(path string) {
	e.t.Helper()
	if r := e.must(200, "DELETE", path, nil); r.get("revoke_job_id") != nil {
		e.t.Fatalf("plain delete: %s", r.raw)
	}
}

// DELETE /connected_accounts/{id}?revoke_on_delete=true logs the revocation
// with the answer's revoke_job_id; without it nothing is revoked; a toolkit
// that cannot revoke logs no token.
func TestDeleteAccountRevokeOnDelete(t *testing.T) {
	e := newEnv(t, Options{})
	ac := e.createCustomAC("stripe", "API_KEY", map[string]any{})
	plain := e.apiKeyAccount(ac, "u1")
	e.deleteWithoutRevoking(v + "/connected_accounts/" + plain)
	if log := e.revocationsOf(plain); len(log) != 0 {
		t.Fatalf("a plain delete revoked: %v", log)
	}
	revoked := e.apiKeyAccount(ac, "u2")
	r := e.must(200, "DELETE", v+"/connected_accounts/"+revoked+"?revoke_on_delete=true", nil)
	job := r.str("revoke_job_id")
	if !strings.HasPrefix(job, "rvk_") {
		t.Fatalf("revoking delete: %s", r.raw)
	}
	log := e.revocationsOf(revoked)
	if len(log) != 1 || log[0]["via"] != "delete" || log[0]["revoke_job_id"] != job || !reflect.DeepEqual(tokensOf(log[0]["revoked_tokens"]), []string{"credential"}) {
		t.Fatalf("revocation log %v", log)
	}
	e.mustErr(400, "revoke_on_delete", "DELETE", v+"/connected_accounts/"+e.apiKeyAccount(ac, "u3")+"?revoke_on_delete=maybe", nil)

	mc := e.apiKeyAccount(e.createCustomAC("mailchimp", "API_KEY", map[string]any{}), "u1")
	e.must(200, "DELETE", v+"/connected_accounts/"+mc+"?revoke_on_delete=true", nil)
	if log := e.revocationsOf(mc); len(log) != 1 || len(log[0]["revoked_tokens"].([]any)) != 0 {
		t.Fatalf("mailchimp revocation log %v", log)
	}
}

// An auth config deleted with revoke_on_delete revokes its accounts (logged,
// credentials dropped); one of a toolkit that cannot revoke leaves them
// INACTIVE like a plain delete.
func TestAuthConfigDeleteRevokeLogs(t *testing.T) {
	e := newEnv(t, Options{})
	ac := e.createCustomAC("stripe", "API_KEY", map[string]any{})
	id := e.apiKeyAccount(ac, "u1")
	job := e.must(200, "DELETE", v+"/auth_configs/"+ac+"?revoke_on_delete=true", nil).str("revoke_job_id")
	got := e.must(200, "GET", v+"/connected_accounts/"+id, nil)
	if got.str("status") != "REVOKED" || got.get("state", "val", "api_key") != nil {
		t.Fatalf("after the revoking delete: %s", got.raw)
	}
	if log := e.revocationsOf(id); len(log) != 1 || log[0]["via"] != "auth_config_delete" || log[0]["revoke_job_id"] != job || log[0]["auth_config_id"] != ac {
		t.Fatalf("revocation log %v", log)
	}

	mc := e.createCustomAC("mailchimp", "API_KEY", map[string]any{})
	mid := e.apiKeyAccount(mc, "u1")
	e.must(200, "DELETE", v+"/auth_configs/"+mc+"?revoke_on_delete=true", nil)
	if got := e.must(200, "GET", v+"/connected_accounts/"+mid, nil); got.str("status") != "INACTIVE" {
		t.Fatalf("mailchimp account after the revoking delete: %s", got.raw)
	}
	if log := e.revocationsOf(mid); len(log) != 0 {
		t.Fatalf("mailchimp revocation log %v", log)
	}
}
