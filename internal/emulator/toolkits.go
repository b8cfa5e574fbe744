// Resource group toolkits: list, multi, categories, get.

package emulator

import (
	"slices"
	"sort"
	"strings"
)

const catalogCreatedAt = "2024-06-01T00:00:00.000Z"

func init() { registerGroup((*Server).registerToolkits) }

func (s *Server) registerToolkits() {
	s.handle("getApiV31Toolkits", s.listToolkits)
	s.handle("postApiV31ToolkitsMulti", s.multiToolkits)
	s.handle("getApiV31ToolkitsCategories", s.listCategories)
	s.handle("getApiV31ToolkitsBySlug", s.getToolkit)
}

// renderField is one auth field. withSecret says whether is_secret is sent:
// it is optional in the contract and absent from the newest document, so the
// emulator sends it on the fields of auth_config_creation and leaves it out
// on those of connected_account_initiation, and a client sees both forms.
func renderField(f fieldDef, required, withSecret bool) map[string]any {
	var def any
	if f.Default != nil {
		def = *f.Default
	}
	m := map[string]any{
		"name": f.Name, "displayName": f.DisplayName, "type": f.Type, "description": f.Description,
		"required": required, "default": def,
	}
	if withSecret {
		m["is_secret"] = f.Secret
	}
	return m
}

func renderFields(fs []fieldDef, required, withSecret bool) []any {
	out := make([]any, 0, len(fs))
	for _, f := range fs {
		out = append(out, renderField(f, required, withSecret))
	}
	return out
}

// categoriesOf renders a toolkit's categories as the documents have them:
// {id, name} in the toolkit list, {name, slug} in the toolkit by slug
// (bySlug), never both members.
func (c *catalog) categoriesOf(tk *toolkitDef, bySlug bool) []any {
	out := make([]any, 0, len(tk.Categories))
	key := "id"
	if bySlug {
		key = "slug"
	}
	for _, slug := range tk.Categories {
		out = append(out, map[string]any{key: slug, "name": c.categoryName(slug)})
	}
	return out
}

// renderToolkitMeta is a toolkit's meta; withVersions marks the toolkit by
// slug (available_versions, categories {name, slug}).
func (s *Server) renderToolkitMeta(tk *toolkitDef, version string, withVersions bool) map[string]any {
	created, updated := catalogCreatedAt, catalogCreatedAt
	if tk.Custom {
		created, updated = tk.CreatedAt, tk.UpdatedAt
	}
	m := map[string]any{
		"created_at": created, "updated_at": updated,
		"description": tk.Description, "logo": tk.logo(), "app_url": tk.AppURL,
		"categories": s.cat.categoriesOf(tk, withVersions), "triggers_count": len(tk.Triggers), "tools_count": len(tk.Tools),
		"version": version,
	}
	// A custom toolkit's MCP server URL is its app_url: no document has a
	// meta.mcp_url (service-documents.md, "Answers").
	if withVersions {
		m["available_versions"] = tk.Versions
	}
	return m
}

func (s *Server) renderToolkitSummary(tk *toolkitDef) map[string]any {
	return map[string]any{
		"slug": tk.Slug, "name": tk.Name, "type": tk.kind(),
		"auth_schemes": tk.schemeModes(), "composio_managed_auth_schemes": tk.managedModes(),
		"is_local_toolkit": false, "no_auth": len(tk.Schemes) == 0, "auth_guide_url": nil,
		"deprecated": map[string]any{"toolkitId": tk.Slug},
		"meta":       s.renderToolkitMeta(tk, tk.latest(), false),
	}
}

func (s *Server) renderToolkit(tk *toolkitDef, version string) map[string]any {
	details := make([]any, 0, len(tk.Schemes))
	managed := make([]any, 0)
	for _, sc := range tk.Schemes {
		details = append(details, map[string]any{
			"mode": sc.Mode, "name": sc.Name, "auth_hint_url": nil, "required_scopes": requiredScopes(sc),
			"proxy": map[string]any{"base_url": tk.BaseURL},
			"fields": map[string]any{
				"auth_config_creation": map[string]any{
					"required": renderFields(sc.CreationRequired, true, true), "optional": renderFields(sc.CreationOptional, false, true),
				},
				"connected_account_initiation": map[string]any{
					"required": renderFields(sc.InitRequired, true, false), "optional": renderFields(sc.InitOptional, false, false),
				},
			},
		})
		if sc.Managed {
			managed = append(managed, map[string]any{"mode": sc.Mode, "scopes": map[string]any{"available": requiredScopes(sc)}})
		}
	}
	return map[string]any{
		"slug": tk.Slug, "name": tk.Name, "type": tk.kind(), "enabled": true, "is_local_toolkit": false,
		"composio_managed_auth_schemes": tk.managedModes(), "composio_managed_auth": managed,
		"auth_config_details": details, "base_url": tk.BaseURL, "auth_guide_url": nil,
		// get_current_user_endpoint is omitted, not null: @composio/core's schema types it as an optional string.
		"meta":       s.renderToolkitMeta(tk, version, true),
		"deprecated": map[string]any{"toolkitId": tk.Slug, "rawProxyInfoByAuthSchemes": []any{}},
	}
}

// requiredScopes are a scheme's default scopes (the default of its
// "scopes" creation field): the required_scopes the documents require on
// every auth_config_details entry ([] for a scheme without scopes).
func requiredScopes(sc schemeDef) []string {
	var scopes []string
	for _, f := range sc.CreationOptional {
		if f.Name == "scopes" && f.Default != nil && *f.Default != "" {
			scopes = strings.Split(*f.Default, ",")
		}
	}
	return nonNil(scopes)
}

func (s *Server) filterToolkits(c *call, category, managedBy, sortBy, search string, only []string) ([]*toolkitDef, *apiError) {
	switch managedBy {
	case "", "all", "composio", "project":
	default:
		return nil, errValidation("managed_by", "managed_by must be all, composio or project, got %q", managedBy)
	}
	switch sortBy {
	case "", "usage", "alphabetically":
	default:
		return nil, errValidation("sort_by", "sort_by must be usage or alphabetically, got %q", sortBy)
	}
	if category != "" {
		known := false
		for _, cat := range s.cat.categories {
			known = known || cat.Slug == category
		}
		if !known {
			return nil, errValidation("category", "unknown category %q", category)
		}
	}
	projectToolkits := map[string]bool{}
	if managedBy == "project" {
		s.st.mu.RLock()
		for _, ac := range s.st.authConfigs {
			if ac.Project == c.project {
				projectToolkits[ac.ToolkitSlug] = true
			}
		}
		s.st.mu.RUnlock()
	}
	var out []*toolkitDef
	for _, tk := range append(slices.Clip(s.cat.toolkits), s.customToolkitDefs(c.project)...) {
		if category != "" && !slices.Contains(tk.Categories, category) {
			continue
		}
		if managedBy == "composio" && len(tk.managedModes()) == 0 {
			continue
		}
		if managedBy == "project" && !projectToolkits[tk.Slug] {
			continue
		}
		if search != "" && !strings.Contains(strings.ToLower(tk.Slug), strings.ToLower(search)) && !strings.Contains(strings.ToLower(tk.Name), strings.ToLower(search)) {
			continue
		}
		if len(only) > 0 && !containsFold(only, tk.Slug) {
			continue
		}
		out = append(out, tk)
	}
	if sortBy == "alphabetically" {
		sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	} else {
		sort.SliceStable(out, func(i, j int) bool { return out[i].Popularity > out[j].Popularity })
	}
	return out, nil
}

func (s *Server) listToolkits(c *call) (int, any, *apiError) {
	q := c.r.URL.Query()
	if _, e := boolParam(c.r, "include_deprecated"); e != nil {
		return 0, nil, e
	}
	items, e := s.filterToolkits(c, q.Get("category"), q.Get("managed_by"), q.Get("sort_by"), q.Get("search"), nil)
	if e != nil {
		return 0, nil, e
	}
	// v3.1 type: catalog toolkits are native, the project's registered
	// toolkits custom; without type both are listed.
	switch typ := q.Get("type"); typ {
	case "", "all":
	case "native", "custom":
		items = slices.DeleteFunc(items, func(tk *toolkitDef) bool { return tk.kind() != typ })
	default:
		return 0, nil, errValidation("type", "type must be native, custom or all, got %q", q.Get("type"))
	}
	return answerPage(c.r, items, maxLimit, func(tk *toolkitDef) any { return s.renderToolkitSummary(tk) })
}

func (s *Server) multiToolkits(c *call) (int, any, *apiError) {
	var body struct {
		Toolkits  []string `json:"toolkits"`
		Category  string   `json:"category"`
		ManagedBy string   `json:"managed_by"`
		SortBy    string   `json:"sort_by"`
		Limit     *int     `json:"limit"`
		Cursor    string   `json:"cursor"`
	}
	if e := c.decode(&body); e != nil {
		return 0, nil, e
	}
	items, e := s.filterToolkits(c, body.Category, body.ManagedBy, body.SortBy, "", body.Toolkits)
	if e != nil {
		return 0, nil, e
	}
	q := c.r.URL.Query()
	if body.Limit != nil {
		q.Set("limit", itoa(*body.Limit))
	}
	if body.Cursor != "" {
		q.Set("cursor", body.Cursor)
	}
	c.r.URL.RawQuery = q.Encode()
	return answerPage(c.r, items, maxLimit, func(tk *toolkitDef) any { return s.renderToolkitSummary(tk) })
}

func (s *Server) listCategories(c *call) (int, any, *apiError) {
	return answerPage(c.r, s.cat.categories, maxLimit, func(cat categoryDef) any {
		// {id, name} as documented: the id is what the list's category filter takes
		return map[string]any{"id": cat.Slug, "name": cat.Name}
	})
}

func (s *Server) getToolkit(c *call) (int, any, *apiError) {
	tk, e := s.toolkitFor(c.project, c.r.PathValue("slug"))
	if e != nil {
		return 0, nil, e
	}
	return answerAtVersion(c, tk, "version", func(version string) any { return s.renderToolkit(tk, version) })
}
