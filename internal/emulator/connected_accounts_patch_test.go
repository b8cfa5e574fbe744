package emulator

import (
	"net/http"
	"testing"
)

// TestPatchAccountSchemes: PATCH /connected_accounts/{nanoid} updates the
// credentials of the schemes the contract's PatchConnectedAccountBody names
// and refuses the others with a 400 naming the allowed values.
func TestPatchAccountSchemes(t *testing.T) {
	e := newEnv(t, Options{})
	ac := e.createCustomAC("stripe", "API_KEY", map[string]any{})
	id := e.apiKeyAccount(ac, "u1")
	for _, scheme := range []string{"BILLCOM_AUTH", "CALCOM_AUTH", "SAML", "S2S_OAUTH2", "OAUTH2", "NO_AUTH", ""} {
		for _, field := range []string{"authScheme", "auth_scheme"} {
			r := e.do("PATCH", v+"/connected_accounts/"+id, map[string]any{
				"connection": map[string]any{"state": map[string]any{field: scheme, "val": map[string]any{"api_key": "k"}}}})
			checkErr(t, r, http.StatusBadRequest,
				"connection.state.authScheme must be one of BEARER_TOKEN, API_KEY, BASIC, BASIC_WITH_JWT, GOOGLE_SERVICE_ACCOUNT, SERVICE_ACCOUNT")
			if r.str("error", "slug") != "ValidationError" {
				t.Errorf("%s %q: %s", field, scheme, r.raw)
			}
		}
	}
	// the account is unchanged, and an allowed scheme still updates
	if a := e.must(200, "GET", v+"/connected_accounts/"+id, nil); a.str("status") != StatusActive {
		t.Fatalf("account after refused patches: %s", a.raw)
	}
	e.must(200, "PATCH", v+"/connected_accounts/"+id, map[string]any{
		"connection": map[string]any{"state": map[string]any{"authScheme": "API_KEY", "val": map[string]any{"api_key": "new"}}}})
	// a mismatching allowed scheme keeps its own error
	e.mustErr(400, "uses API_KEY", "PATCH", v+"/connected_accounts/"+id, map[string]any{
		"connection": map[string]any{"state": map[string]any{"authScheme": "BEARER_TOKEN", "val": map[string]any{"token": "t"}}}})
}

// TestPatchAccountValIsClosed: connection.state.val of the PATCH is a closed
// object of the 16 credential keys (the service's v3 document:
// additionalProperties false; the contract lists the same keys). A member
// outside it (the initiate's status, a field the keys do not have) is
// answered 400 naming it, and the account keeps its credentials.
func TestPatchAccountValIsClosed(t *testing.T) {
	e := newEnv(t, Options{})
	ac := e.createCustomAC("stripe", "API_KEY", map[string]any{})
	id := e.apiKeyAccount(ac, "u1")
	before := e.must(200, "GET", v+"/connected_accounts/"+id, nil).raw
	for name, c := range map[string]struct {
		val  any
		want string
	}{
		"status":         {map[string]any{"status": "ACTIVE", "api_key": "k2"}, "connection.state.val.status is not an allowed property (allowed: api_key, "},
		"an unknown key": {map[string]any{"api_key": "k2", "workspace": "ops"}, "connection.state.val.workspace is not an allowed property (allowed: api_key, "},
		"a number":       {map[string]any{"api_key": 5}, "connection.state.val.api_key must be null or a string, got an integer"},
		"missing val":    {nil, "connection.state.val is required"},
	} {
		t.Run(name, func(t *testing.T) {
			r := e.do("PATCH", v+"/connected_accounts/"+id, map[string]any{
				"connection": map[string]any{"state": map[string]any{"authScheme": "API_KEY", "val": c.val}}})
			checkErr(t, r, http.StatusBadRequest, c.want)
			if r.str("error", "slug") != "ValidationError" {
				t.Errorf("%s: %s", name, r.raw)
			}
		})
	}
	if after := e.must(200, "GET", v+"/connected_accounts/"+id, nil).raw; after != before {
		t.Errorf("refused patches changed the account:\nbefore %s\nafter  %s", before, after)
	}
	// the keys alone are accepted
	e.must(200, "PATCH", v+"/connected_accounts/"+id, map[string]any{
		"connection": map[string]any{"state": map[string]any{"authScheme": "API_KEY", "val": map[string]any{"api_key": "k3"}}}})
}
