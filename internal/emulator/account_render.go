// The connected account's wire shape (state.val, masked secrets, consent
// URL), shared by the connected account routes and the control routes.

package emulator

import "net/http"

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
	val["status"] = a.Status
	if a.Status == StatusInitiated && a.ConsentToken != "" {
		val["redirectUrl"] = s.consentURL(origin, a)
	}
	if a.CallbackURL != "" {
		val["callback_url"] = a.CallbackURL
	}
	return val
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
		"id":      a.ID,
		"uuid":    a.UUID,
		"user_id": a.UserID,
		"toolkit": map[string]any{"slug": a.ToolkitSlug, "name": toolkitName(s.toolkitDef(a.Project, a.ToolkitSlug), a.ToolkitSlug)},
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
		"deprecated":            map[string]any{"labels": []string{}, "uuid": a.UUID},
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
