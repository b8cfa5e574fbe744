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
