// The connected account's wire shape (state.val, masked secrets, consent
// URL), shared by the connected account routes and the control routes.

package emulator

import "net/http"

// accountPrivate is the sharing model of every emulated account.
const accountPrivate = "PRIVATE"

func (s *Server) accountSecretFields(a *ConnectedAccount) map[string]bool {
	if tk := s.toolkitDef(a.Project, a.ToolkitSlug); tk != nil {
		if sc, ok := tk.scheme(a.AuthScheme); ok {
			return secretFields(sc.InitRequired, sc.InitOptional)
		}
	}
	return nil
}

func (s *Server) stateVal(a *ConnectedAccount, origin string) map[string]any {
	secret := s.accountSecretFields(a)
	val := map[string]any{}
	for k, v := range a.Val {
		if secret[k] {
			val[k] = masked
		} else {
			val[k] = v
		}
	}
	if a.Status == StatusInitiated && a.ConsentToken != "" {
		val["redirectUrl"] = s.consentURL(origin, a)
	}
	if a.CallbackURL != "" {
		val["callback_url"] = a.CallbackURL
	}
	if _, ok := val["client_id"]; !ok && a.AuthScheme == "CIMD_OAUTH" {
		val["client_id"] = cimdClientID(origin, a.ToolkitSlug)
	}
	val["status"] = valStatus(a.AuthScheme, a.Status, val)
	return val
}

// valStates lists, per auth scheme, the state.val.status values the contract
// allows and the val fields each one requires (the scheme's union members).
// Schemes not listed allow every status without requirements.
var valStates = map[string]map[string][]string{
	"OAUTH1": {StatusInitializing: nil, StatusInitiated: {"oauth_token", "authUri", "oauth_token_secret", "redirectUrl"},
		StatusActive: {"oauth_token", "oauth_token_secret"}, StatusFailed: nil, StatusExpired: nil, StatusInactive: {"oauth_token", "oauth_token_secret"}},
	"OAUTH2": {StatusInitializing: nil, StatusInitiated: {"redirectUrl"}, StatusActive: {"access_token"}, StatusInactive: {"access_token"},
		StatusFailed: nil, StatusExpired: nil, StatusRevoked: nil},
	"API_KEY":                {StatusInitializing: nil, StatusInitiated: nil, StatusActive: nil, StatusInactive: nil},
	"BASIC":                  {StatusInitializing: nil, StatusInitiated: nil, StatusActive: {"username"}, StatusInactive: {"username"}},
	"BEARER_TOKEN":           {StatusInitializing: nil, StatusInitiated: nil, StatusActive: {"token"}, StatusInactive: {"token"}},
	"GOOGLE_SERVICE_ACCOUNT": {StatusInitializing: nil, StatusInitiated: {"redirectUrl"}, StatusActive: {"credentials_json"}, StatusInactive: {"credentials_json"}},
	"NO_AUTH":                {StatusInitializing: nil, StatusInitiated: nil, StatusActive: nil, StatusInactive: nil, StatusFailed: nil, StatusExpired: nil},
	"CALCOM_AUTH":            {StatusInitializing: nil, StatusInitiated: nil, StatusActive: nil, StatusInactive: nil, StatusFailed: nil, StatusExpired: nil},
	"BILLCOM_AUTH": {StatusInitializing: nil, StatusInitiated: {"redirectUrl"}, StatusActive: {"sessionId", "devKey"},
		StatusInactive: {"sessionId", "devKey"}, StatusFailed: nil, StatusExpired: nil},
	"BASIC_WITH_JWT": {StatusInitializing: nil, StatusInitiated: nil, StatusActive: {"username", "password"}, StatusInactive: {"username", "password"},
		StatusFailed: {"username", "password"}, StatusExpired: {"username", "password"}},
	"SERVICE_ACCOUNT": {StatusInitializing: nil, StatusInitiated: nil, StatusActive: {"application_id", "installation_id", "private_key"},
		StatusInactive: {"application_id", "installation_id", "private_key"}},
	"SAML": {StatusInitializing: nil, StatusInitiated: nil, StatusActive: nil, StatusInactive: nil, StatusFailed: nil, StatusExpired: nil},
	"DCR_OAUTH": {StatusInitializing: nil, StatusInitiated: {"client_id", "redirectUrl"}, StatusActive: {"client_id", "access_token"},
		StatusInactive: {"client_id", "access_token"}, StatusFailed: nil, StatusExpired: nil},
	// CIMD_OAUTH (S3 PostConnectedAccountsRequestConnectionStateVariant14):
	// client_id is the client ID metadata document URL.
	"CIMD_OAUTH": {StatusInitializing: nil, StatusInitiated: {"client_id", "redirectUrl"}, StatusActive: {"client_id", "access_token"},
		StatusInactive: {"client_id", "access_token"}, StatusFailed: nil, StatusExpired: nil},
	"S2S_OAUTH2": {StatusInitializing: nil, StatusInitiated: nil, StatusActive: {"access_token"}, StatusInactive: {"access_token"},
		StatusFailed: nil, StatusExpired: nil},
}

// valStatus is the state.val.status of an account in status: the account's
// own status when its scheme has that state and val carries the fields it
// requires; else INACTIVE (an account that no longer works, e.g. an API key
// account that FAILED or EXPIRED) when val fits it; else INITIALIZING, the
// state without requirements (e.g. an OAuth account that never got a token
// and whose auth config was deleted). The top-level status stays the
// account's own.
func valStatus(scheme, status string, val map[string]any) string {
	states, ok := valStates[scheme]
	if !ok {
		return status
	}
	fits := func(st string) bool {
		req, ok := states[st]
		if !ok {
			return false
		}
		for _, f := range req {
			if v, ok := val[f]; !ok || v == nil {
				return false
			}
		}
		return true
	}
	switch {
	case fits(status):
		return status
	case fits(StatusInactive):
		return StatusInactive
	}
	return StatusInitializing
}

func (s *Server) consentURL(origin string, a *ConnectedAccount) string {
	if a.LinkToken != "" && a.LinkToken == a.ConsentToken {
		return origin + "/link/" + a.LinkToken
	}
	return origin + "/oauth/consent/" + a.ConsentToken
}

func (s *Server) authConfigDisabled(a *ConnectedAccount) bool {
	if a.AuthConfigDeleted {
		return true
	}
	ac, ok := s.st.authConfigs[a.AuthConfigID]
	return !ok || ac.Status == "DISABLED"
}

func (s *Server) renderAccount(a *ConnectedAccount, origin string, withParams bool) map[string]any {
	val := s.stateVal(a, origin)
	out := map[string]any{
		// No uuid, no deprecated and a toolkit of {slug} only: the v3.1
		// account of the documents (service-documents.md, "Answers").
		"id":      a.ID,
		"user_id": a.UserID,
		"toolkit": map[string]any{"slug": a.ToolkitSlug},
		"auth_config": map[string]any{
			"id": a.AuthConfigID, "auth_scheme": a.AuthScheme, "is_composio_managed": a.IsComposioManaged,
			"is_disabled": s.authConfigDisabled(a), "deprecated": map[string]any{"uuid": a.AuthConfigUUID},
		},
		"status":                a.Status,
		"status_reason":         a.StatusReason,
		"is_disabled":           a.IsDisabled,
		"alias":                 a.Alias,
		"word_id":               nil,
		"state":                 map[string]any{"authScheme": a.AuthScheme, "val": val},
		"data":                  val,
		"created_at":            a.CreatedAt,
		"updated_at":            a.UpdatedAt,
		"test_request_endpoint": "",
		"experimental":          map[string]any{"account_type": accountPrivate},
	}
	if withParams {
		out["params"] = val
	}
	return out
}

func unusable(a *ConnectedAccount, what string) *apiError {
	return newErr(http.StatusBadRequest, CodeConnectedAccountUnusable, "ConnectedAccount_Unusable",
		"cannot %s connected account %s: its auth config %s was deleted", what, a.ID, a.AuthConfigID).
		fix("Create a new auth config and connect the account again.")
}
