package emulator

import (
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// Custom (remote MCP) toolkits a project registers with POST
// /custom/toolkits[/upsert]. Their slug is CUSTOM_ + the upper-cased given
// slug; they are fetched and listed through /toolkits with type "custom" and
// usable by auth configs like catalog toolkits. The emulator cannot reach the
// remote server, so a custom toolkit has no tools (sync reports 0).
//
// The service's changes of 2026-11-03 and 2026-11-09 (changelog; @composio/core
// 0.21.0), which the contract's types predate (they have no /custom/*
// operation):
//   - The MCP server URL is toolkit_config.mcp_url (the SDKs send it so since
//     2026-11-09). toolkit_config.app_url, its old name, is still accepted
//     during the transition (whether the service does is not documented);
//     both in one body answer 400. GET /toolkits/{slug} and GET /toolkits
//     report it as meta.mcp_url and, as before, meta.app_url (how the service
//     reports it now is not documented; clients should read either).
//   - The slug sent is at most 30 characters (core's limit).
//   - PATCH changes only the name, the logo and the API key field texts; the
//     MCP server URL, the auth schemes, user_id and the description are set at
//     registration (a different value answers 409). Upsert on an existing
//     toolkit changes its name and keeps the rest.
//   - Create takes user_id "all" (shared) or one user (private). The service
//     may answer a private toolkit's connect_link "when available"; the
//     emulator never does.

// CustomToolkit is a stored custom toolkit. MCPURL, the MCP server URL, is
// stored under its old name app_url, so that the data files of earlier
// emulators load.
type CustomToolkit struct {
	Slug        string              `json:"slug"`
	Project     string              `json:"project"`
	Name        string              `json:"name"`
	Description string              `json:"description"`
	MCPURL      string              `json:"app_url"`
	AuthSchemes []customToolkitAuth `json:"auth_schemes"`
	UserID      string              `json:"user_id"` // "all" (shared) or the user it is private to
	CreatedAt   string              `json:"created_at"`
	UpdatedAt   string              `json:"updated_at"`
}

type customToolkitAuth struct {
	Mode         string            `json:"mode"`
	Headers      map[string]string `json:"headers,omitempty"`
	DiscoveryURL string            `json:"discovery_url,omitempty"`
}

type customToolkitLogoIn struct {
	Content  string `json:"content"`
	MimeType string `json:"mime_type"`
}

// CodeCustomToolkitConflict: a custom toolkit write that conflicts with the
// stored toolkit (existing slug, immutable field).
const CodeCustomToolkitConflict = 1500

const (
	customToolkitPrefix     = "CUSTOM_"
	customAPIKeyPlaceholder = "{{generic_api_key}}" //nolint:gosec // G101: the placeholder the service replaces with the key, not a key
	customCategory          = "custom"
)

var customAuthModes = []string{"NO_AUTH", "API_KEY", "DCR_OAUTH"}

func customToolkitKey(project, slug string) string { return project + "/" + strings.ToUpper(slug) }

func init() { registerGroup((*Server).registerCustomToolkits) }

func (s *Server) registerCustomToolkits() {
	s.handle("postApiV31CustomToolkits", s.createCustomToolkit)
	s.handle("postApiV31CustomToolkitsUpsert", s.upsertCustomToolkit)
	s.handle("postApiV31CustomToolkitsSync", s.syncCustomToolkit)
	s.handle("patchApiV31CustomToolkitsBySlug", s.updateCustomToolkit)
	s.handle("deleteApiV31CustomToolkitsBySlug", s.deleteCustomToolkit)
}

// customToolkitDef returns the project's custom toolkit slug as a toolkit
// definition, or nil. It takes only st.cmu, so callers may hold st.mu.
func (s *Server) customToolkitDef(project, slug string) *toolkitDef {
	s.st.cmu.RLock()
	ct := s.st.customToolkits[customToolkitKey(project, slug)]
	s.st.cmu.RUnlock()
	if ct == nil {
		return nil
	}
	return ct.def()
}

// customToolkitDefs returns the project's custom toolkits, by slug.
func (s *Server) customToolkitDefs(project string) []*toolkitDef {
	s.st.cmu.RLock()
	defer s.st.cmu.RUnlock()
	var out []*toolkitDef
	for _, ct := range s.st.customToolkits {
		if ct.Project == project {
			out = append(out, ct.def())
		}
	}
	slices.SortFunc(out, func(a, b *toolkitDef) int { return strings.Compare(a.Slug, b.Slug) })
	return out
}

// toolkitDef returns a catalog toolkit or one of the project's custom
// toolkits, or nil.
func (s *Server) toolkitDef(project, slug string) *toolkitDef {
	tk, _ := s.toolkitFor(project, slug)
	return tk
}

// toolkitFor finds a catalog toolkit or one of the project's custom toolkits.
func (s *Server) toolkitFor(project, slug string) (*toolkitDef, *apiError) {
	tk, e := s.cat.toolkit(slug)
	if e == nil {
		return tk, nil
	}
	if ct := s.customToolkitDef(project, slug); ct != nil {
		return ct, nil
	}
	return nil, e
}

// def describes the custom toolkit as a toolkit: one scheme per auth mode,
// API_KEY asking each connected account for generic_api_key.
func (ct *CustomToolkit) def() *toolkitDef {
	tk := &toolkitDef{
		Slug: ct.Slug, Name: ct.Name, Description: ct.Description, AppURL: ct.MCPURL, MCPURL: ct.MCPURL, BaseURL: ct.MCPURL,
		Categories: []string{customCategory}, Versions: []string{VersionLatest, VersionOld},
		CreatedAt: ct.CreatedAt, UpdatedAt: ct.UpdatedAt, Custom: true,
	}
	for _, a := range ct.AuthSchemes {
		sc := schemeDef{Mode: a.Mode}
		switch a.Mode {
		case "API_KEY":
			sc.Name = "API Key"
			sc.InitRequired = []fieldDef{{Name: "generic_api_key", DisplayName: "API Key", Type: "string",
				Description: "API key sent to the MCP server in the toolkit's headers", Secret: true}}
		case "DCR_OAUTH":
			sc.Name = "OAuth (dynamic client registration)"
		default:
			sc.Name = "No Auth"
		}
		tk.Schemes = append(tk.Schemes, sc)
	}
	return tk
}

// customToolkitBody is the body of create and upsert.
type customToolkitBody struct {
	Slug          *string `json:"slug"`
	UserID        *string `json:"user_id"`
	ToolkitConfig *struct {
		Name        *string              `json:"name"`
		Description *string              `json:"description"`
		MCPURL      *string              `json:"mcp_url"` // the MCP server URL; app_url is its name before 2026-11-09
		AppURL      *string              `json:"app_url"`
		AuthSchemes []customToolkitAuth  `json:"auth_schemes"`
		LogoFile    *customToolkitLogoIn `json:"logo_file"`
	} `json:"toolkit_config"`
}

// maxCustomSlugLen is the longest slug a create or upsert takes (as sent:
// @composio/core 0.21.0 refuses longer ones before sending).
const maxCustomSlugLen = 30

// normalizeCustomSlug turns a requested slug into the registered one:
// spaces become underscores, upper case, CUSTOM_ prefix.
func normalizeCustomSlug(slug string) (string, *apiError) {
	if n := len(strings.TrimSpace(slug)); n > maxCustomSlugLen {
		return "", errValidation("slug", "slug is at most %d characters, got %d", maxCustomSlugLen, n)
	}
	s := strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(slug), " ", "_"))
	s = strings.TrimPrefix(s, customToolkitPrefix)
	if s == "" {
		return "", errValidation("slug", "slug is required")
	}
	for _, r := range s {
		if (r < 'A' || r > 'Z') && (r < '0' || r > '9') && r != '_' {
			return "", errValidation("slug", "slug may contain only letters, digits, spaces and underscores, got %q", slug)
		}
	}
	return customToolkitPrefix + s, nil
}

// parse checks the body and returns the toolkit it describes.
func (b *customToolkitBody) parse(project string) (*CustomToolkit, *apiError) {
	if b.Slug == nil {
		return nil, errValidation("slug", "slug is required")
	}
	slug, e := normalizeCustomSlug(*b.Slug)
	if e != nil {
		return nil, e
	}
	cfg := b.ToolkitConfig
	if cfg == nil {
		return nil, errValidation("toolkit_config", "toolkit_config is required")
	}
	if cfg.Name == nil || strings.TrimSpace(*cfg.Name) == "" {
		return nil, errValidation("toolkit_config.name", "toolkit_config.name is required")
	}
	field, mcpURL := "toolkit_config.mcp_url", cfg.MCPURL
	switch {
	case cfg.MCPURL != nil && cfg.AppURL != nil:
		return nil, errValidation(field, "send the MCP server URL once, as toolkit_config.mcp_url: toolkit_config.app_url is its old name")
	case cfg.AppURL != nil:
		field, mcpURL = "toolkit_config.app_url", cfg.AppURL
	}
	if mcpURL == nil || *mcpURL == "" {
		return nil, errValidation(field, "%s (the MCP server URL) is required", field)
	}
	if u, err := url.Parse(*mcpURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, errValidation(field, "%s must be an http(s) URL, got %q", field, *mcpURL)
	}
	if len(cfg.AuthSchemes) == 0 {
		return nil, errValidation("toolkit_config.auth_schemes", "toolkit_config.auth_schemes needs one auth scheme (mode %s)", strings.Join(customAuthModes, ", "))
	}
	if len(cfg.AuthSchemes) > 1 {
		return nil, errValidation("toolkit_config.auth_schemes", "toolkit_config.auth_schemes takes a single auth scheme, got %d", len(cfg.AuthSchemes))
	}
	for i, a := range cfg.AuthSchemes {
		if e := checkCustomAuth(a, "toolkit_config.auth_schemes["+itoa(i)+"]"); e != nil {
			return nil, e
		}
	}
	if lf := cfg.LogoFile; lf != nil && (lf.Content == "" || (lf.MimeType != "image/png" && lf.MimeType != "image/jpeg")) {
		return nil, errValidation("toolkit_config.logo_file", "logo_file needs base64 content and mime_type image/png or image/jpeg")
	}
	ct := &CustomToolkit{Slug: slug, Project: project, Name: strings.TrimSpace(*cfg.Name), MCPURL: *mcpURL,
		AuthSchemes: cfg.AuthSchemes, UserID: "all"}
	if cfg.Description != nil {
		ct.Description = *cfg.Description
	}
	return ct, nil
}

func checkCustomAuth(a customToolkitAuth, field string) *apiError {
	switch a.Mode {
	case "NO_AUTH":
		if len(a.Headers) > 0 || a.DiscoveryURL != "" {
			return errValidation(field, "NO_AUTH takes no headers or discovery_url")
		}
	case "API_KEY":
		if a.DiscoveryURL != "" {
			return errValidation(field+".discovery_url", "discovery_url is only for DCR_OAUTH")
		}
		has := false
		for _, v := range a.Headers {
			has = has || strings.Contains(v, customAPIKeyPlaceholder)
		}
		if !has {
			return errValidation(field+".headers", "API_KEY needs headers with at least one value containing %s", customAPIKeyPlaceholder)
		}
	case "DCR_OAUTH":
		if len(a.Headers) > 0 {
			return errValidation(field+".headers", "headers are only for API_KEY")
		}
		if u, err := url.Parse(a.DiscoveryURL); a.DiscoveryURL == "" || err != nil || u.Scheme != "https" && u.Scheme != "http" || u.Host == "" {
			return errValidation(field+".discovery_url", "DCR_OAUTH needs discovery_url, an http(s) URL")
		}
	default:
		return errValidation(field+".mode", "mode must be one of %s, got %q", strings.Join(customAuthModes, ", "), a.Mode)
	}
	return nil
}

func sameCustomAuth(a, b []customToolkitAuth) bool {
	return slices.EqualFunc(a, b, func(x, y customToolkitAuth) bool {
		return x.Mode == y.Mode && x.DiscoveryURL == y.DiscoveryURL && maps.Equal(x.Headers, y.Headers)
	})
}

// createCustomToolkit answers POST /custom/toolkits: user_id "all" shares
// the toolkit with the project, another value makes it private to that
// user; an existing slug is a conflict.
func (s *Server) createCustomToolkit(c *call) (int, any, *apiError) {
	var body customToolkitBody
	if e := c.decode(&body); e != nil {
		return 0, nil, e
	}
	if body.UserID == nil || strings.TrimSpace(*body.UserID) == "" {
		return 0, nil, errValidation("user_id", `user_id is required: "all" shares the toolkit with every user of the project, a user id makes it private`)
	}
	uid := *body.UserID
	if strings.EqualFold(uid, "default") || (strings.EqualFold(uid, "all") && uid != "all") {
		return 0, nil, errValidation("user_id", `user_id %q is not accepted: use "all" (lower case) or a user id`, uid)
	}
	ct, e := body.parse(c.project)
	if e != nil {
		return 0, nil, e
	}
	ct.UserID = uid
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	if old := s.st.customToolkits[customToolkitKey(c.project, ct.Slug)]; old != nil {
		return 0, nil, errCustomToolkitExists(ct.Slug)
	}
	if e := s.storeCustomToolkit(ct, nil); e != nil {
		return 0, nil, e
	}
	return http.StatusCreated, map[string]any{"slug": ct.Slug}, nil
}

// upsertCustomToolkit answers POST /custom/toolkits/upsert: creates the
// toolkit (shared with the project), or, when it exists, renames it when
// the MCP server URL and auth_schemes are unchanged (409 when they differ);
// the description of an existing toolkit is kept.
func (s *Server) upsertCustomToolkit(c *call) (int, any, *apiError) {
	var body customToolkitBody
	if e := c.decode(&body); e != nil {
		return 0, nil, e
	}
	ct, e := body.parse(c.project)
	if e != nil {
		return 0, nil, e
	}
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	old := s.st.customToolkits[customToolkitKey(c.project, ct.Slug)]
	if old != nil {
		switch {
		case old.MCPURL != ct.MCPURL:
			return 0, nil, errCustomToolkitImmutable(ct.Slug, "mcp_url")
		case !sameCustomAuth(old.AuthSchemes, ct.AuthSchemes):
			return 0, nil, errCustomToolkitImmutable(ct.Slug, "auth_schemes")
		}
		ct.UserID, ct.Description = old.UserID, old.Description
	}
	if e := s.storeCustomToolkit(ct, old); e != nil {
		return 0, nil, e
	}
	return http.StatusOK, map[string]any{"slug": ct.Slug}, nil
}

func errCustomToolkitExists(slug string) *apiError {
	return newErr(http.StatusConflict, CodeCustomToolkitConflict, "CustomToolkit_AlreadyExists",
		"custom toolkit %s already exists in this project", slug).with("slug: " + slug + " exists").
		fix("Update it with PATCH /custom/toolkits/" + slug + ", or delete it first.")
}

func errCustomToolkitImmutable(slug, field string) *apiError {
	return newErr(http.StatusConflict, CodeCustomToolkitConflict, "CustomToolkit_ImmutableField",
		"custom toolkit %s: %s cannot be changed on an existing toolkit", slug, field).
		with("toolkit_config." + field + ": cannot change").
		fix("Delete the toolkit (which removes its auth configs and connected accounts) and register it again.")
}

// storeCustomToolkit stores ct (replacing old when set); callers hold st.mu.
func (s *Server) storeCustomToolkit(ct, old *CustomToolkit) *apiError {
	now := s.st.stamp()
	ct.CreatedAt, ct.UpdatedAt = now, now
	if old != nil {
		ct.CreatedAt = old.CreatedAt
	}
	s.st.nextSeq()
	if err := s.st.commit(put(bucketCustomToolkits, customToolkitKey(ct.Project, ct.Slug), ct)); err != nil {
		return internalErr(err)
	}
	return nil
}

// ownCustomToolkit returns the project's custom toolkit slug: 403 for a
// catalog toolkit, 404 for an unknown slug. Callers hold st.mu.
func (s *Server) ownCustomToolkit(c *call, slug string) (*CustomToolkit, *apiError) {
	if ct := s.st.customToolkits[customToolkitKey(c.project, slug)]; ct != nil {
		return ct, nil
	}
	if _, e := s.cat.toolkit(slug); e == nil {
		return nil, newErr(http.StatusForbidden, CodeForbidden, "CustomToolkit_NotCustom",
			"toolkit %s is managed by the service and cannot be changed or deleted", slug).
			fix("Only custom toolkits (CUSTOM_...) registered by this project can be changed or deleted.")
	}
	return nil, errNotFound(CodeToolkitNotFound, "CustomToolkit_NotFound", "custom toolkit", slug)
}

// updateCustomToolkit answers PATCH /custom/toolkits/{slug}: the name (and
// the logo and API key field texts, which the emulator does not keep);
// omitted fields keep their value. A different mcp_url (or app_url),
// auth_schemes, user_id or description answers 409: the service's PATCH
// changes only name, logo and API key field texts.
func (s *Server) updateCustomToolkit(c *call) (int, any, *apiError) {
	var body struct {
		Name        *string              `json:"name"`
		Description *string              `json:"description"`
		LogoFile    *customToolkitLogoIn `json:"logo_file"`
		MCPURL      *string              `json:"mcp_url"`
		AppURL      *string              `json:"app_url"`
		AuthSchemes []customToolkitAuth  `json:"auth_schemes"`
		UserID      *string              `json:"user_id"`
	}
	if e := c.decode(&body); e != nil {
		return 0, nil, e
	}
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	old, e := s.ownCustomToolkit(c, c.r.PathValue("slug"))
	if e != nil {
		return 0, nil, e
	}
	switch {
	case body.MCPURL != nil && *body.MCPURL != old.MCPURL:
		return 0, nil, errCustomToolkitImmutable(old.Slug, "mcp_url")
	case body.AppURL != nil && *body.AppURL != old.MCPURL:
		return 0, nil, errCustomToolkitImmutable(old.Slug, "app_url")
	case body.Description != nil && *body.Description != old.Description:
		return 0, nil, errCustomToolkitImmutable(old.Slug, "description")
	case body.AuthSchemes != nil && !sameCustomAuth(body.AuthSchemes, old.AuthSchemes):
		return 0, nil, errCustomToolkitImmutable(old.Slug, "auth_schemes")
	case body.UserID != nil && *body.UserID != old.UserID:
		return 0, nil, errCustomToolkitImmutable(old.Slug, "user_id")
	}
	ct := *old
	if body.Name != nil {
		if strings.TrimSpace(*body.Name) == "" {
			return 0, nil, errValidation("name", "name must not be empty")
		}
		ct.Name = strings.TrimSpace(*body.Name)
	}
	if e := s.storeCustomToolkit(&ct, old); e != nil {
		return 0, nil, e
	}
	return http.StatusOK, map[string]any{"slug": ct.Slug, "name": ct.Name}, nil
}

// syncCustomToolkit answers POST /custom/toolkits/sync. A toolkit with auth
// needs an ACTIVE connected account of the toolkit; the emulator reaches no
// MCP server, so the toolkit keeps no tools.
func (s *Server) syncCustomToolkit(c *call) (int, any, *apiError) {
	var body struct {
		Slug               string `json:"slug"`
		ConnectedAccountID string `json:"connected_account_id"`
	}
	if e := c.decode(&body); e != nil {
		return 0, nil, e
	}
	if body.Slug == "" {
		return 0, nil, errValidation("slug", "slug is required")
	}
	s.st.mu.RLock()
	defer s.st.mu.RUnlock()
	ct, e := s.ownCustomToolkit(c, body.Slug)
	if e != nil {
		return 0, nil, e
	}
	needsAccount := slices.ContainsFunc(ct.AuthSchemes, func(a customToolkitAuth) bool { return a.Mode != "NO_AUTH" })
	if body.ConnectedAccountID != "" {
		acct, e := c.account(body.ConnectedAccountID)
		if e != nil {
			return 0, nil, e
		}
		if !strings.EqualFold(acct.ToolkitSlug, ct.Slug) || acct.Status != StatusActive || acct.IsDisabled {
			return 0, nil, errValidation("connected_account_id", "connected account %s is not an ACTIVE account of %s", acct.ID, ct.Slug)
		}
	} else if needsAccount {
		return 0, nil, errValidation("connected_account_id", "toolkit %s has auth: connected_account_id of an ACTIVE account is required", ct.Slug)
	}
	return http.StatusOK, map[string]any{"slug": ct.Slug, "version": VersionLatest, "synced_count": 0}, nil
}

// deleteCustomToolkit answers DELETE /custom/toolkits/{slug}: the toolkit,
// its auth configs and its connected accounts go.
func (s *Server) deleteCustomToolkit(c *call) (int, any, *apiError) {
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	ct, e := s.ownCustomToolkit(c, c.r.PathValue("slug"))
	if e != nil {
		return 0, nil, e
	}
	changes := []change{del(bucketCustomToolkits, customToolkitKey(ct.Project, ct.Slug))}
	acs, accts := 0, 0
	for _, ac := range s.st.authConfigs {
		if ac.Project == c.project && strings.EqualFold(ac.ToolkitSlug, ct.Slug) {
			changes = append(changes, del(bucketAuthConfigs, ac.ID))
			acs++
		}
	}
	for _, a := range s.st.accounts {
		if a.Project == c.project && strings.EqualFold(a.ToolkitSlug, ct.Slug) {
			changes = append(changes, del(bucketAccounts, a.ID))
			accts++
		}
	}
	if err := s.st.commit(changes...); err != nil {
		return 0, nil, internalErr(err)
	}
	revoke := []string{}
	if accts > 0 {
		revoke = append(revoke, newID("job"))
	}
	return http.StatusOK, map[string]any{
		"slug": ct.Slug, "deleted": true, "revoke_job_ids": revoke,
		"auth_configs_soft_deleted": acs, "connected_accounts_soft_deleted": accts,
	}, nil
}
