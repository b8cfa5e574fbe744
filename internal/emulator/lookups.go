// Project-scoped lookups of stored and catalog objects, shared by every
// resource group: each answers the object or the service's 404 error.

package emulator

import (
	"net/http"
	"strings"
)

// authConfig returns the caller's auth config or a 404; callers hold st.mu.
func (c *call) authConfig(id string) (*AuthConfig, *apiError) {
	ac, ok := c.s.st.authConfigs[id]
	if !ok || ac.Project != c.project {
		return nil, errNotFound(CodeAuthConfigNotFound, "AuthConfig_NotFound", "auth config", id)
	}
	return ac, nil
}

// account returns the caller's connected account or a 404; callers hold st.mu.
func (c *call) account(id string) (*ConnectedAccount, *apiError) {
	a, ok := c.s.st.accounts[id]
	if !ok || a.Project != c.project {
		return nil, errNotFound(CodeConnectedAccountNotFound, "ConnectedAccount_NotFound", "connected account", id)
	}
	return a, nil
}

// usableAccount returns the caller's connected account for an action that
// needs its auth config (e.g. "refresh", "update"): a 404 when there is no
// such account, the unusable error once its auth config was deleted.
// Callers hold st.mu.
func (c *call) usableAccount(id, action string) (*ConnectedAccount, *apiError) {
	a, e := c.account(id)
	if e != nil {
		return nil, e
	}
	if a.AuthConfigDeleted {
		return nil, unusable(a, action)
	}
	return a, nil
}

// trigger returns the caller's trigger instance or a 404; callers hold st.mu.
func (c *call) trigger(id string) (*TriggerInstance, *apiError) {
	t, ok := c.s.st.triggers[id]
	if !ok || t.Project != c.project {
		if c.triggerDeleted(id) {
			return nil, newErr(http.StatusGone, CodeTriggerDeleted, "TriggerInstance_Deleted", "trigger instance %s was deleted", id).
				fix("Create a new trigger instance with POST /trigger_instances/{slug}/upsert.")
		}
		return nil, errNotFound(CodeTriggerNotFound, "TriggerInstance_NotFound", "trigger instance", id)
	}
	return t, nil
}

// triggerDeleted reports a tombstone of the caller's project; callers hold st.mu.
func (c *call) triggerDeleted(id string) bool {
	d, ok := c.s.st.deletedTriggers[id]
	return ok && d.Project == c.project
}

// session returns the caller's session named by the session_id path value.
func (c *call) session() (*Session, *apiError) {
	id := c.r.PathValue("session_id")
	if !strings.HasPrefix(id, "trs_") {
		return nil, newErr(http.StatusBadRequest, CodeSessionInvalidID, "ToolRouterSession_InvalidID",
			"session id %q is not a tool-router session id (trs_...)", id).with("session_id: invalid format")
	}
	c.s.st.mu.RLock()
	defer c.s.st.mu.RUnlock()
	sess, ok := c.s.st.sessions[id]
	if !ok || sess.Project != c.project {
		return nil, errNotFound(CodeSessionNotFound, "ToolRouterSession_NotFound", "tool-router session", id)
	}
	return sess, nil
}

func (s *Server) tool(slug string) (*toolDef, *apiError) {
	t, ok := s.cat.tools[strings.ToUpper(slug)]
	if !ok {
		return nil, errNotFound(CodeToolNotFound, "Tool_NotFound", "tool", slug)
	}
	return t, nil
}

func (s *Server) triggerType(slug string) (*triggerDef, *apiError) {
	t, ok := s.cat.triggers[strings.ToUpper(slug)]
	if !ok {
		return nil, errNotFound(CodeTriggerTypeNotFound, "TriggerType_NotFound", "trigger type", slug).
			fix("List trigger types with GET /triggers_types.")
	}
	return t, nil
}
