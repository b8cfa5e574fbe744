// Revoking a connected account's upstream credentials, shared by the
// connected account group (POST /connected_accounts/{nanoid}/revoke, DELETE
// with revoke_on_delete) and the auth config group (DELETE with
// revoke_on_delete), and the log of what was revoked, which GET
// /_emulator/stats answers under "revocations" (the emulator's stand-in for
// the upstream provider, where a revocation would show).

package emulator

import (
	"slices"
	"time"
)

// reasonRevokedByEndpoint is the status_reason of an account revoked through
// the revoke operation (one of the reasons the contract lists).
const reasonRevokedByEndpoint = "Revoked via user-initiated revoke endpoint"

// How an account's credentials came to be revoked, in the revocation log.
const (
	revokedByEndpoint         = "revoke"             // POST /connected_accounts/{nanoid}/revoke
	revokedOnDelete           = "delete"             // DELETE /connected_accounts/{nanoid}?revoke_on_delete=true
	revokedOnAuthConfigDelete = "auth_config_delete" // DELETE /auth_configs/{nanoid}?revoke_on_delete=true
)

// revocationLogSize bounds the revocation log kept for GET /_emulator/stats.
const revocationLogSize = 500

// revocation is one entry of the revocation log.
type revocation struct {
	Project            string   `json:"project"`
	ConnectedAccountID string   `json:"connected_account_id"`
	AuthConfigID       string   `json:"auth_config_id"`
	Toolkit            string   `json:"toolkit"`
	Via                string   `json:"via"`
	RevokedTokens      []string `json:"revoked_tokens"`
	RevokeJobID        string   `json:"revoke_job_id,omitempty"`
	At                 string   `json:"at"`
}

// canRevoke reports whether the account's toolkit can revoke tokens
// programmatically (false for toolkits marked revoke_unsupported).
func (s *Server) canRevoke(a *ConnectedAccount) bool {
	tk := s.toolkitDef(a.Project, a.ToolkitSlug)
	return tk == nil || !tk.RevokeUnsupported
}

// oauthTokenFields are the token fields an OAuth connection holds; revoking
// reports access_token and refresh_token as the subjects revoked.
var oauthTokenFields = []string{"access_token", "refresh_token"}

// revokedTokens names the token subjects revoking a would kill at the
// provider (the contract's access_token, refresh_token, credential): the
// OAuth tokens it holds, else "credential" when it holds any credential.
// An account already REVOKED holds none.
func (s *Server) revokedTokens(a *ConnectedAccount) []string {
	tokens := []string{}
	if a.Status == StatusRevoked {
		return tokens
	}
	for _, f := range oauthTokenFields {
		if v, ok := a.Val[f]; ok && v != nil && v != "" {
			tokens = append(tokens, f)
		}
	}
	if len(tokens) > 0 {
		return tokens
	}
	secret := s.accountSecretFields(a)
	for k, v := range a.Val {
		if secret[k] && v != nil && v != "" {
			return append(tokens, "credential")
		}
	}
	return tokens
}

// revoked returns a copy of a revoked at the provider: status REVOKED with
// reason, and its credentials dropped (only the scheme's declared non-secret
// connection fields, such as a subdomain, stay), so they are served no more.
// The second result names the token subjects revoked. Callers hold st.mu.
func (s *Server) revoked(old *ConnectedAccount, reason string) (*ConnectedAccount, []string) {
	tokens := s.revokedTokens(old)
	a := *old
	a.Status = StatusRevoked
	a.StatusReason = &reason
	a.ConsentToken, a.LinkToken, a.LinkExpiresAt = "", "", ""
	a.Val = map[string]any{}
	if tk := s.toolkitDef(old.Project, old.ToolkitSlug); tk != nil {
		if sc, ok := tk.scheme(old.AuthScheme); ok {
			secret := secretFields(sc.InitRequired, sc.InitOptional)
			for _, f := range slices.Concat(sc.InitRequired, sc.InitOptional) {
				if v, ok := old.Val[f.Name]; ok && !secret[f.Name] {
					a.Val[f.Name] = v
				}
			}
		}
	}
	a.UpdatedAt = s.st.stamp()
	return &a, tokens
}

// logRevocation records what was revoked at the provider.
func (s *Server) logRevocation(a *ConnectedAccount, via string, tokens []string, jobID string) {
	s.statsMu.Lock()
	defer s.statsMu.Unlock()
	s.revocations = append(s.revocations, revocation{
		Project: a.Project, ConnectedAccountID: a.ID, AuthConfigID: a.AuthConfigID, Toolkit: a.ToolkitSlug,
		Via: via, RevokedTokens: slices.Clone(tokens), RevokeJobID: jobID,
		At: time.Now().UTC().Format("2006-01-02T15:04:05.000Z"),
	})
	if n := len(s.revocations) - revocationLogSize; n > 0 {
		s.revocations = slices.Delete(s.revocations, 0, n)
	}
}

// revocationLog returns a copy of the log, oldest first; callers hold statsMu.
func (s *Server) revocationLog() []revocation {
	return append([]revocation{}, s.revocations...)
}
