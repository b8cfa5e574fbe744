// Hosted-link account creation, shared by POST /connected_accounts/link and
// POST /tool_router/session/{id}/link.

package emulator

import (
	"net/http"
	"time"
)

// usableAuthConfig returns the caller's auth config if new connections may use it.
func (c *call) usableAuthConfig(id, field string) (*AuthConfig, *toolkitDef, *apiError) {
	if id == "" {
		return nil, nil, errValidation(field, "%s is required", field)
	}
	ac, e := c.authConfig(id)
	if e != nil {
		return nil, nil, e
	}
	if ac.Status == "DISABLED" {
		return nil, nil, newErr(http.StatusBadRequest, CodeAuthConfigDisabled, "AuthConfig_Disabled",
			"auth config %s is disabled; enable it before connecting accounts", ac.ID).with(field + ": auth config disabled")
	}
	tk, e := c.s.toolkitFor(c.project, ac.ToolkitSlug)
	if e != nil {
		return nil, nil, e
	}
	return ac, tk, nil
}

func (s *Server) newAccount(c *call, ac *AuthConfig, userID string) *ConnectedAccount {
	now := s.st.stamp()
	return &ConnectedAccount{
		ID: newID("ca"), UUID: newUUID(), Project: c.project, Seq: s.st.nextSeq(), UserID: userID,
		ToolkitSlug: ac.ToolkitSlug, AuthConfigID: ac.ID, AuthConfigUUID: ac.UUID, AuthScheme: ac.AuthScheme,
		IsComposioManaged: ac.IsComposioManaged, Val: map[string]any{}, CreatedAt: now, UpdatedAt: now,
	}
}

// startLink stores an INITIATED connected account for userID on ac whose
// redirect is the hosted link page (/link/{lt_...}); callers hold st.mu.
// Used by POST /connected_accounts/link and POST /tool_router/session/{id}/link.
func (s *Server) startLink(c *call, ac *AuthConfig, userID, callbackURL string, alias *string, connData map[string]any) (*ConnectedAccount, *apiError) {
	alias = aliasOf(alias)
	if e := s.checkAlias(c.project, userID, ac.ToolkitSlug, alias, ""); e != nil {
		return nil, e
	}
	a := s.newAccount(c, ac, userID)
	a.Status, a.CallbackURL, a.Alias = StatusInitiated, callbackURL, alias
	for k, v := range connData {
		if k != "status" {
			a.Val[k] = v
		}
	}
	a.LinkToken = newID("lt")
	a.ConsentToken = a.LinkToken
	a.LinkExpiresAt = time.Now().UTC().Add(10 * time.Minute).Format("2006-01-02T15:04:05.000Z")
	if err := s.st.commit(put(bucketAccounts, a.ID, a)); err != nil {
		return nil, internalErr(err)
	}
	return a, nil
}
