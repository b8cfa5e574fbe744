// Resource group authConfigs: list, create, get, update, status, delete.

package emulator

import (
	"maps"
	"net/http"
	"slices"
	"sort"
	"strings"
)

const masked = "********"

func init() { registerGroup((*Server).registerAuthConfigs) }

func (s *Server) registerAuthConfigs() {
	s.handle("getApiV31AuthConfigs", s.listAuthConfigs)
	s.handle("postApiV31AuthConfigs", s.createAuthConfig)
	s.handle("getApiV31AuthConfigsByNanoid", s.getAuthConfig)
	s.handle("patchApiV31AuthConfigsByNanoid", s.updateAuthConfig)
	s.handle("deleteApiV31AuthConfigsByNanoid", s.deleteAuthConfig)
	s.handle("patchApiV31AuthConfigsByNanoidByStatus", s.setAuthConfigStatus)
}

func (s *Server) connectionCounts(project string) map[string]int {
	counts := map[string]int{}
	for _, a := range s.st.accounts {
		if a.Project == project {
			counts[a.AuthConfigID]++
		}
	}
	return counts
}

func (s *Server) renderAuthConfig(ac *AuthConfig, counts map[string]int) map[string]any {
	tk := s.toolkitDef(ac.Project, ac.ToolkitSlug)
	creds := map[string]any{}
	var secret map[string]bool
	if tk != nil {
		if sc, ok := tk.scheme(ac.AuthScheme); ok {
			secret = secretFields(sc.CreationRequired, sc.CreationOptional)
		}
	}
	for k, v := range ac.Credentials {
		if secret[k] {
			creds[k] = masked
		} else {
			creds[k] = v
		}
	}
	var proxy any
	if ac.ProxyConfig != nil {
		p := cloneMap(ac.ProxyConfig)
		if _, ok := p["proxy_auth_key"]; ok {
			p["proxy_auth_key"] = masked
		}
		proxy = p
	}
	return map[string]any{
		"id":   ac.ID,
		"uuid": ac.UUID,
		"type": ac.Type,
		// the documented {slug, logo, auth_guide_url?, auth_hint_url?}: no name
		"toolkit": map[string]any{
			"slug":           ac.ToolkitSlug,
			"logo":           "https://logos.composio.dev/api/" + ac.ToolkitSlug,
			"auth_guide_url": nil,
			"auth_hint_url":  nil,
		},
		"name":                        ac.Name,
		"auth_scheme":                 ac.AuthScheme,
		"is_composio_managed":         ac.IsComposioManaged,
		"credentials":                 creds,
		"proxy_config":                proxy,
		"status":                      ac.Status,
		"created_by":                  "emulator",
		"created_at":                  ac.CreatedAt,
		"last_updated_at":             ac.LastUpdatedAt,
		"no_of_connections":           counts[ac.ID],
		"expected_input_fields":       []any{},
		"restrict_to_following_tools": nonNil(ac.ToolsForExecution),
		"tool_access_config": map[string]any{
			"tools_for_connected_account_creation": nonNil(ac.ToolsForCreation),
			"tools_available_for_execution":        nonNil(ac.ToolsForExecution),
		},
		"shared_credentials":         renderSharedCredentials(ac, tk),
		"is_enabled_for_tool_router": ac.IsEnabledForToolRouter,
		"deprecated_params": map[string]any{
			"default_connector_id":  ac.UUID,
			"member_uuid":           nil,
			"toolkit_id":            nil,
			"expected_input_fields": []any{},
		},
	}
}

// listAuthConfigs answers GET /auth_configs: pages of up to 200 (400
// beyond), newest first.
func (s *Server) listAuthConfigs(c *call) (int, any, *apiError) {
	r := c.r
	if e := limitAtMost(r, maxLimitAuthConfigs); e != nil {
		return 0, nil, e
	}
	slugs := listParam(r, "toolkit_slug", "toolkit_slugs")
	showDisabled, e := boolParam(r, "show_disabled", "showDisabled")
	if e != nil {
		return 0, nil, e
	}
	var managed *bool
	if r.URL.Query().Has("is_composio_managed") {
		b, e := boolParam(r, "is_composio_managed")
		if e != nil {
			return 0, nil, e
		}
		managed = &b
	}
	search := strings.ToLower(r.URL.Query().Get("search"))
	s.st.mu.RLock()
	defer s.st.mu.RUnlock()
	var items []*AuthConfig
	for _, ac := range s.st.authConfigs {
		if ac.Project != c.project {
			continue
		}
		if len(slugs) > 0 && !containsFold(slugs, ac.ToolkitSlug) {
			continue
		}
		if managed != nil && ac.IsComposioManaged != *managed {
			continue
		}
		if !showDisabled && ac.Status == "DISABLED" {
			continue
		}
		if search != "" && !strings.Contains(strings.ToLower(ac.Name), search) &&
			!strings.Contains(strings.ToLower(ac.ID), search) && !strings.Contains(ac.ToolkitSlug, search) {
			continue
		}
		items = append(items, ac)
	}
	sort.Slice(items, func(i, j int) bool { return items[i].Seq > items[j].Seq })
	counts := s.connectionCounts(c.project)
	return answerPage(r, items, maxLimitAuthConfigs, func(ac *AuthConfig) any { return s.renderAuthConfig(ac, counts) })
}

type toolAccessBody struct {
	ForCreation  *[]string `json:"tools_for_connected_account_creation"`
	ForExecution *[]string `json:"tools_available_for_execution"`
}

type authConfigBody struct {
	Type                     string          `json:"type"`
	Name                     *string         `json:"name"`
	AuthScheme               string          `json:"authScheme"`
	AuthSchemeSnake          string          `json:"auth_scheme"`
	Credentials              map[string]any  `json:"credentials"`
	ProxyConfig              optionalMap     `json:"proxy_config"`
	ToolAccessConfig         *toolAccessBody `json:"tool_access_config"`
	RestrictToFollowingTools *[]string       `json:"restrict_to_following_tools"`
	IsEnabledForToolRouter   *bool           `json:"is_enabled_for_tool_router"`
	Scopes                   any             `json:"scopes"`
	UserScopes               any             `json:"user_scopes"`
	SharedCredentials        map[string]any  `json:"shared_credentials"`
}

// setSharedCredentials stores shared (inherited) credentials on ac: fields
// of the scheme's connected account initiation, given to every account of
// the auth config that does not set them itself. nil leaves them alone.
func setSharedCredentials(ac *AuthConfig, tk *toolkitDef, shared map[string]any, field string) *apiError {
	if shared == nil {
		return nil
	}
	sc, ok := tk.scheme(ac.AuthScheme)
	if !ok {
		return internalErr(errString("auth config scheme not in catalog"))
	}
	if e := checkFields(field, shared, nil, append(slices.Clone(sc.InitRequired), sc.InitOptional...),
		CodeAuthConfigCredentials, "AuthConfig_InvalidCredentials", sc.Mode); e != nil {
		return e
	}
	ac.SharedCredentials = cloneMap(shared)
	return nil
}

// renderSharedCredentials masks the secret fields of the shared credentials.
func renderSharedCredentials(ac *AuthConfig, tk *toolkitDef) map[string]any {
	var secret map[string]bool
	if tk != nil {
		if sc, ok := tk.scheme(ac.AuthScheme); ok {
			secret = secretFields(sc.InitRequired, sc.InitOptional)
		}
	}
	out := make(map[string]any, len(ac.SharedCredentials))
	for k, v := range ac.SharedCredentials {
		if secret[k] {
			v = masked
		}
		out[k] = v
	}
	return out
}

func (s *Server) createAuthConfig(c *call) (int, any, *apiError) {
	var body struct {
		Toolkit    *struct{ Slug string } `json:"toolkit"`
		AuthConfig *authConfigBody        `json:"auth_config"`
	}
	if e := c.decode(&body); e != nil {
		return 0, nil, e
	}
	if body.Toolkit == nil || body.Toolkit.Slug == "" {
		return 0, nil, errValidation("toolkit.slug", "toolkit.slug is required")
	}
	tk, e := s.toolkitFor(c.project, body.Toolkit.Slug)
	if e != nil {
		return 0, nil, e
	}
	b := body.AuthConfig
	if b == nil {
		b = &authConfigBody{Type: "use_composio_managed_auth"}
	}
	if b.AuthScheme == "" {
		b.AuthScheme = b.AuthSchemeSnake
	}
	ac := newAuthConfig(c, tk)
	switch b.Type {
	case "use_composio_managed_auth", "":
		modes := tk.managedModes()
		if len(modes) == 0 {
			return 0, nil, errManagedUnavailable(tk, "auth_config.type")
		}
		ac.Type, ac.IsComposioManaged, ac.AuthScheme = "default", true, modes[0]
		if b.AuthScheme != "" {
			if !slices.Contains(modes, b.AuthScheme) {
				return 0, nil, newErr(http.StatusBadRequest, CodeAuthConfigManagedAuth, "AuthConfig_ManagedAuthUnavailable",
					"toolkit %s has no service-managed %s scheme (managed: %s)", tk.Slug, b.AuthScheme, strings.Join(modes, ", ")).
					with("auth_config.authScheme: " + b.AuthScheme)
			}
			ac.AuthScheme = b.AuthScheme
		}
		if e := checkManagedCredentials(b.Credentials); e != nil {
			return 0, nil, e
		}
		for k, v := range b.Credentials {
			ac.Credentials[k] = v
		}
	case "use_custom_auth":
		if b.AuthScheme == "" {
			return 0, nil, errValidation("auth_config.authScheme", "authScheme is required for use_custom_auth (one of %s)", strings.Join(tk.schemeModes(), ", "))
		}
		sc, e := schemeFor(tk, b.AuthScheme, "auth_config.authScheme")
		if e != nil {
			return 0, nil, e
		}
		if e := checkFields("credentials", b.Credentials, sc.CreationRequired, sc.CreationOptional, CodeAuthConfigCredentials, "AuthConfig_InvalidCredentials", sc.Mode); e != nil {
			return 0, nil, e
		}
		ac.Type, ac.IsComposioManaged, ac.AuthScheme = "custom", false, sc.Mode
		ac.Credentials = cloneMap(b.Credentials)
		if ac.Credentials == nil {
			ac.Credentials = map[string]any{}
		}
		if b.ProxyConfig.M != nil {
			if e := checkProxyConfig(b.ProxyConfig.M, "auth_config.proxy_config"); e != nil {
				return 0, nil, e
			}
			ac.ProxyConfig = cloneMap(b.ProxyConfig.M)
		}
	default:
		return 0, nil, errValidation("auth_config.type", "type must be use_composio_managed_auth or use_custom_auth, got %q", b.Type)
	}
	applyToolAccess(ac, b)
	if b.IsEnabledForToolRouter != nil {
		ac.IsEnabledForToolRouter = *b.IsEnabledForToolRouter
	}
	if e := setSharedCredentials(ac, tk, b.SharedCredentials, "auth_config.shared_credentials"); e != nil {
		return 0, nil, e
	}
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	if e := s.storeAuthConfig(c, ac, tk, b.Name); e != nil {
		return 0, nil, e
	}
	return http.StatusCreated, map[string]any{
		"toolkit": map[string]any{"slug": tk.Slug},
		"auth_config": map[string]any{
			"id": ac.ID, "auth_scheme": ac.AuthScheme, "is_composio_managed": ac.IsComposioManaged,
			"restrict_to_following_tools": nonNil(ac.ToolsForExecution),
		},
	}, nil
}

func applyToolAccess(ac *AuthConfig, b *authConfigBody) {
	if b.RestrictToFollowingTools != nil {
		ac.ToolsForExecution = nonNil(*b.RestrictToFollowingTools)
	}
	if t := b.ToolAccessConfig; t != nil {
		if t.ForCreation != nil {
			ac.ToolsForCreation = nonNil(*t.ForCreation)
		}
		if t.ForExecution != nil {
			ac.ToolsForExecution = nonNil(*t.ForExecution)
		}
	}
}

func checkScopes(field string, v any) *apiError {
	switch x := v.(type) {
	case string, nil:
		return nil
	case []any:
		for _, e := range x {
			if _, ok := e.(string); !ok {
				return errValidation(field, "scopes must be a string or a list of strings")
			}
		}
		return nil
	case []string:
		return nil
	}
	return errValidation(field, "scopes must be a string or a list of strings")
}

func (s *Server) getAuthConfig(c *call) (int, any, *apiError) {
	s.st.mu.RLock()
	defer s.st.mu.RUnlock()
	ac, e := c.authConfig(c.r.PathValue("nanoid"))
	if e != nil {
		return 0, nil, e
	}
	return 200, s.renderAuthConfig(ac, s.connectionCounts(c.project)), nil
}

func (s *Server) updateAuthConfig(c *call) (int, any, *apiError) {
	var b authConfigBody
	if e := c.decode(&b); e != nil {
		return 0, nil, e
	}
	if b.Type != "custom" && b.Type != "default" {
		return 0, nil, errValidation("type", "type must be \"custom\" or \"default\", got %q", b.Type)
	}
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	old, e := c.authConfig(c.r.PathValue("nanoid"))
	if e != nil {
		return 0, nil, e
	}
	ac := *old
	ac.Credentials = cloneMap(old.Credentials)
	tk := s.toolkitDef(ac.Project, ac.ToolkitSlug)
	if b.Type == "custom" && b.Credentials != nil {
		if ac.IsComposioManaged {
			if e := checkManagedCredentials(b.Credentials); e != nil {
				return 0, nil, e
			}
		} else if sc, ok := tk.scheme(ac.AuthScheme); ok {
			if e := checkFields("credentials", b.Credentials, sc.CreationRequired, sc.CreationOptional, CodeAuthConfigCredentials, "AuthConfig_InvalidCredentials", sc.Mode); e != nil {
				return 0, nil, e
			}
		}
		ac.Credentials = cloneMap(b.Credentials)
	}
	if b.Scopes != nil {
		if e := checkScopes("scopes", b.Scopes); e != nil {
			return 0, nil, e
		}
		ac.Credentials["scopes"] = b.Scopes
	}
	if b.UserScopes != nil {
		if e := checkScopes("user_scopes", b.UserScopes); e != nil {
			return 0, nil, e
		}
		ac.Credentials["user_scopes"] = b.UserScopes
	}
	if b.Name != nil {
		if strings.TrimSpace(*b.Name) == "" {
			return 0, nil, errValidation("name", "name must not be empty")
		}
		ac.Name = *b.Name
	}
	if b.ProxyConfig.Set {
		if b.Type != "custom" || ac.IsComposioManaged {
			return 0, nil, errValidation("proxy_config", "proxy_config is only accepted by a type custom update of a custom auth config")
		}
		if e := checkProxyConfig(b.ProxyConfig.M, "proxy_config"); b.ProxyConfig.M != nil && e != nil {
			return 0, nil, e
		}
		ac.ProxyConfig = cloneMap(b.ProxyConfig.M) // null removes the proxy
	}
	applyToolAccess(&ac, &b)
	if b.IsEnabledForToolRouter != nil {
		ac.IsEnabledForToolRouter = *b.IsEnabledForToolRouter
	}
	if tk != nil {
		if e := setSharedCredentials(&ac, tk, b.SharedCredentials, "shared_credentials"); e != nil {
			return 0, nil, e
		}
	}
	ac.LastUpdatedAt = s.st.stamp()
	if err := s.st.commit(put(bucketAuthConfigs, ac.ID, &ac)); err != nil {
		return 0, nil, internalErr(err)
	}
	return 200, map[string]any{}, nil
}

func (s *Server) setAuthConfigStatus(c *call) (int, any, *apiError) {
	// Exactly ENABLED or DISABLED: the path parameter is an enum, so
	// "enabled" is a 400 like on the service.
	status := c.r.PathValue("status")
	if status != "ENABLED" && status != "DISABLED" {
		return 0, nil, errValidation("status", "status must be ENABLED or DISABLED (upper case), got %q", status)
	}
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	old, e := c.authConfig(c.r.PathValue("nanoid"))
	if e != nil {
		return 0, nil, e
	}
	ac := *old
	ac.Status = status
	ac.LastUpdatedAt = s.st.stamp()
	if err := s.st.commit(put(bucketAuthConfigs, ac.ID, &ac)); err != nil {
		return 0, nil, internalErr(err)
	}
	return 200, map[string]any{}, nil
}

// deleteAuthConfig removes the auth config; its connected accounts stay
// readable but stop working: status INACTIVE, status_reason
// "auth config <id> was deleted", auth_config.is_disabled true, and they
// refuse refresh, enable, new triggers and tool execution.
//
// With revoke_on_delete=true the accounts' upstream credentials are revoked
// too: they become REVOKED and the answer carries the revoke_job_id.
func (s *Server) deleteAuthConfig(c *call) (int, any, *apiError) {
	revoke, e := boolParam(c.r, "revoke_on_delete")
	if e != nil {
		return 0, nil, e
	}
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	ac, e := c.authConfig(c.r.PathValue("nanoid"))
	if e != nil {
		return 0, nil, e
	}
	changes := []change{del(bucketAuthConfigs, ac.ID)}
	reason := "auth config " + ac.ID + " was deleted"
	answer := revokeAnswer(revoke, map[string]any{})
	type revokedAccount struct {
		a      *ConnectedAccount
		tokens []string
	}
	var revokedAccounts []revokedAccount
	for _, a := range s.st.accounts {
		if a.Project != c.project || a.AuthConfigID != ac.ID {
			continue
		}
		var na *ConnectedAccount
		if revoke && s.canRevoke(a) {
			// The revoke job drops the credentials and the account reads REVOKED.
			var tokens []string
			na, tokens = s.revoked(a, "credentials revoked when auth config "+ac.ID+" was deleted")
			revokedAccounts = append(revokedAccounts, revokedAccount{na, tokens})
		} else {
			cp := *a
			na = &cp
			na.Status = StatusInactive
			na.StatusReason = &reason
			na.UpdatedAt = s.st.stamp()
		}
		na.AuthConfigDeleted = true
		changes = append(changes, put(bucketAccounts, na.ID, na))
	}
	if err := s.st.commit(changes...); err != nil {
		return 0, nil, internalErr(err)
	}
	jobID, _ := answer["revoke_job_id"].(string) // set when revoke is
	for _, r := range revokedAccounts {
		s.logRevocation(r.a, revokedOnAuthConfigDelete, r.tokens, jobID)
	}
	s.log.Info("auth config deleted", "id", ac.ID, "accounts_deactivated", len(changes)-1, "revoke", revoke)
	return 200, answer, nil
}

// checkManagedCredentials refuses every credential of a service-managed auth
// config other than its scopes, which must be well formed.
func checkManagedCredentials(creds map[string]any) *apiError {
	for _, k := range slices.Sorted(maps.Keys(creds)) {
		if k != "scopes" && k != "user_scopes" {
			return newErr(http.StatusBadRequest, CodeAuthConfigCredentials, "AuthConfig_InvalidCredentials",
				"credentials.%s: service-managed auth configs accept only scopes and user_scopes", k).with("credentials." + k + ": unknown field")
		}
		if e := checkScopes("credentials."+k, creds[k]); e != nil {
			return e
		}
	}
	return nil
}
