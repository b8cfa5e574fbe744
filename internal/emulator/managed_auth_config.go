// Auth config creation shared by POST /auth_configs and the flows that make
// a service-managed auth config on demand (tool-router session links).

package emulator

import (
	"fmt"
	"net/http"
	"strings"
)

func newAuthConfig(c *call, tk *toolkitDef) *AuthConfig {
	return &AuthConfig{
		ID: newID("ac"), UUID: newUUID(), Project: c.project, ToolkitSlug: tk.Slug, Status: "ENABLED",
		Credentials: map[string]any{}, ToolsForCreation: []string{}, ToolsForExecution: []string{},
	}
}

func errManagedUnavailable(tk *toolkitDef, field string) *apiError {
	return newErr(http.StatusBadRequest, CodeAuthConfigManagedAuth, "AuthConfig_ManagedAuthUnavailable",
		"toolkit %s has no service-managed auth scheme; create a custom auth config (use_custom_auth) with one of: %s",
		tk.Slug, strings.Join(tk.schemeModes(), ", ")).with(field + ": managed auth unavailable for " + tk.Slug).
		fix("Use type use_custom_auth with your own credentials.")
}

// newManagedAuthConfig creates the service-managed auth config the SDK's
// toolkits.authorize creates when a toolkit has none ("<Toolkit> Auth
// Config", first managed scheme); callers hold st.mu.
func (s *Server) newManagedAuthConfig(c *call, tk *toolkitDef, field string) (*AuthConfig, *apiError) {
	modes := tk.managedModes()
	if len(modes) == 0 {
		return nil, errManagedUnavailable(tk, field)
	}
	ac := newAuthConfig(c, tk)
	ac.Type, ac.IsComposioManaged, ac.AuthScheme = "default", true, modes[0]
	if e := s.storeAuthConfig(c, ac, tk, nil); e != nil {
		return nil, e
	}
	return ac, nil
}

// storeAuthConfig names (name, else a unique "<Toolkit> Auth Config"),
// stamps and commits a new auth config; callers hold st.mu.
func (s *Server) storeAuthConfig(c *call, ac *AuthConfig, tk *toolkitDef, name *string) *apiError {
	if name != nil && strings.TrimSpace(*name) != "" {
		ac.Name = *name
	} else {
		ac.Name = s.uniqueName(c.project, tk.Name+" Auth Config")
	}
	ac.Seq = s.st.nextSeq()
	ac.CreatedAt = s.st.stamp()
	ac.LastUpdatedAt = ac.CreatedAt
	if err := s.st.commit(put(bucketAuthConfigs, ac.ID, ac)); err != nil {
		return internalErr(err)
	}
	s.log.Info("auth config created", "id", ac.ID, "toolkit", tk.Slug, "scheme", ac.AuthScheme, "project", c.project)
	return nil
}

// uniqueName returns base, or base + " N" when the project already has that name.
func (s *Server) uniqueName(project, base string) string {
	taken := map[string]bool{}
	for _, ac := range s.st.authConfigs {
		if ac.Project == project {
			taken[ac.Name] = true
		}
	}
	name := base
	for i := 2; taken[name]; i++ {
		name = fmt.Sprintf("%s %d", base, i)
	}
	return name
}
