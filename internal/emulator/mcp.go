// Resource group mcp: MCP servers (create, custom create, list, list by app,
// get, update, delete). Instances and generated URLs are in mcp_instances.go.

package emulator

import (
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Error codes of the mcp contract group.
const (
	CodeMCPServerNotFound   = 1500
	CodeMCPServerNameTaken  = 1501
	CodeMCPInstanceNotFound = 1502
	CodeMCPInstanceExists   = 1503
	CodeMCPInvalidTools     = 1504
)

// MCPServer is a stored MCP server with its per-user instances.
type MCPServer struct {
	ID            string         `json:"id"`
	Project       string         `json:"project"`
	Seq           int64          `json:"seq"`
	Name          string         `json:"name"`
	AuthConfigIDs []string       `json:"auth_config_ids"`
	Toolkits      []string       `json:"toolkits"`
	AllowedTools  []string       `json:"allowed_tools"`
	ManagedAuth   bool           `json:"managed_auth_via_composio"`
	Custom        bool           `json:"custom,omitempty"`
	Instances     []*MCPInstance `json:"instances,omitempty"`
	CreatedAt     string         `json:"created_at"`
	UpdatedAt     string         `json:"updated_at"`
}

// MCPInstance is one user's instance of an MCP server (instance id = user id).
type MCPInstance struct {
	ID        string `json:"id"`
	UserID    string `json:"user_id"`
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
}

// The service's MCP server name rule: 4-30 characters of letters, digits,
// spaces and hyphens.
var mcpNameRE = regexp.MustCompile(`^[a-zA-Z0-9- ]{4,30}$`)

func init() { registerGroup((*Server).registerMCP) }

// registerMCP binds the mcp group's operations.
func (s *Server) registerMCP() {
	s.handle("postApiV31McpServers", s.createMCPServer)
	s.handle("postApiV31McpServersCustom", s.createCustomMCPServer)
	s.handle("postApiV31McpServersGenerate", s.generateMCPURL)
	s.handle("getApiV31McpServers", s.listMCPServers)
	s.handle("getApiV31McpAppByAppKey", s.listMCPServersForApp)
	s.handle("getApiV31McpById", s.getMCPServer)
	s.handle("patchApiV31McpById", s.updateMCPServer)
	s.handle("deleteApiV31McpById", s.deleteMCPServer)
	s.handle("postApiV31McpServersByServerIdInstances", s.createMCPInstance)
	s.handle("getApiV31McpServersByServerIdInstances", s.listMCPInstances)
	s.handle("deleteApiV31McpServersByServerIdInstancesByInstanceId", s.deleteMCPInstance)
}

// mcpServer returns the caller's MCP server or a 404; callers hold st.mu.
func (c *call) mcpServer(id string) (*MCPServer, *apiError) {
	m, ok := c.s.st.mcpServers[id]
	if !ok || m.Project != c.project {
		return nil, errNotFound(CodeMCPServerNotFound, "MCPServer_NotFound", "MCP server", id)
	}
	return m, nil
}

func (s *Server) mcpURL(c *call, id string) string {
	return s.origin(c.r) + "/v3/mcp/" + id + "/mcp"
}

func mcpCommands(link, name string) map[string]any {
	out := map[string]any{}
	for _, client := range []string{"cursor", "claude", "windsurf"} {
		out[client] = "npx @composio/mcp@latest setup \"" + link + "\" \"" + name + "\" --client " + client
	}
	return out
}

func (s *Server) renderMCPServer(c *call, m *MCPServer, withDeleted bool) map[string]any {
	icons := map[string]any{}
	for _, slug := range m.Toolkits {
		icons[slug] = "https://logos.composio.dev/api/" + slug
	}
	link := s.mcpURL(c, m.ID)
	out := map[string]any{
		"id":                        m.ID,
		"name":                      m.Name,
		"auth_config_ids":           nonNil(m.AuthConfigIDs),
		"allowed_tools":             nonNil(m.AllowedTools),
		"mcp_url":                   link,
		"toolkits":                  nonNil(m.Toolkits),
		"toolkit_icons":             icons,
		"commands":                  mcpCommands(link, m.Name),
		"updated_at":                m.UpdatedAt,
		"created_at":                m.CreatedAt,
		"server_instance_count":     len(m.Instances),
		"managed_auth_via_composio": m.ManagedAuth,
	}
	if withDeleted {
		out["deleted"] = false
	}
	return out
}

// mcpBody is the union of the create, custom-create and update bodies.
type mcpBody struct {
	Name          *string   `json:"name"`
	AuthConfigIDs *[]string `json:"auth_config_ids"`
	NoAuthApps    *[]string `json:"no_auth_apps"`
	Toolkits      *[]string `json:"toolkits"`
	AllowedTools  *[]string `json:"allowed_tools"`
	CustomTools   *[]string `json:"custom_tools"`
	ManagedAuth   *bool     `json:"managed_auth_via_composio"`
}

func checkMCPName(name *string) *apiError {
	if name == nil {
		return errValidation("name", "name is required")
	}
	if !mcpNameRE.MatchString(*name) {
		return errValidation("name", "name must be 4-30 characters of letters, digits, spaces and hyphens, got %q", *name)
	}
	return nil
}

// checkMCPNameFree refuses a name another MCP server of the project has;
// callers hold st.mu.
func (c *call) checkMCPNameFree(name, exceptID string) *apiError {
	for _, m := range c.s.st.mcpServers {
		if m.Project == c.project && m.ID != exceptID && strings.EqualFold(m.Name, name) {
			return newErr(http.StatusConflict, CodeMCPServerNameTaken, "MCPServer_NameTaken",
				"an MCP server with name %q already exists (id %s)", name, m.ID).with("name: already taken").
				fix("Choose another name, or update or delete the existing server.")
		}
	}
	return nil
}

// mcpAuthToolkits resolves auth config ids to their toolkits (in order,
// without repeats); callers hold st.mu.
func (c *call) mcpAuthToolkits(ids []string) ([]string, *apiError) {
	var toolkits []string
	for i, id := range ids {
		ac, ok := c.s.st.authConfigs[id]
		if !ok || ac.Project != c.project {
			return nil, errValidation("auth_config_ids", "auth_config_ids[%d]: auth config %q not found in this project", i, id)
		}
		if !slices.Contains(toolkits, ac.ToolkitSlug) {
			toolkits = append(toolkits, ac.ToolkitSlug)
		}
	}
	return toolkits, nil
}

// checkNoAuthApps checks that every slug names a catalog toolkit offering
// NO_AUTH and returns the catalog slugs.
func (c *call) checkNoAuthApps(field string, slugs []string) ([]string, *apiError) {
	out := make([]string, 0, len(slugs))
	for i, slug := range slugs {
		tk, e := c.s.toolkitFor(c.project, slug)
		if e != nil {
			return nil, errValidation(field, "%s[%d]: toolkit %q not found", field, i, slug)
		}
		if _, ok := tk.scheme("NO_AUTH"); !ok {
			return nil, errValidation(field, "%s[%d]: toolkit %q needs authentication (schemes %s); add an auth config for it to auth_config_ids instead",
				field, i, slug, strings.Join(tk.schemeModes(), ", "))
		}
		if !slices.Contains(out, tk.Slug) {
			out = append(out, tk.Slug)
		}
	}
	return out, nil
}

// mcpAllowedTools checks that every tool exists and belongs to one of the
// toolkits and returns the catalog slugs without repeats; no tools means
// every tool of the toolkits.
func (s *Server) mcpAllowedTools(field string, tools, toolkits []string) ([]string, *apiError) {
	out := []string{}
	if len(tools) == 0 {
		for _, slug := range toolkits {
			if tk, ok := s.cat.bySlug[slug]; ok {
				for _, t := range tk.Tools {
					out = append(out, t.Slug)
				}
			}
		}
		return out, nil
	}
	for i, slug := range tools {
		t, ok := s.cat.tools[strings.ToUpper(slug)]
		if !ok {
			return nil, newErr(http.StatusBadRequest, CodeMCPInvalidTools, "MCPServer_InvalidTools",
				"%s[%d]: tool %q not found", field, i, slug).with(field + ": unknown tool " + slug)
		}
		if !slices.Contains(toolkits, t.toolkit.Slug) {
			return nil, newErr(http.StatusBadRequest, CodeMCPInvalidTools, "MCPServer_InvalidTools",
				"%s[%d]: tool %s belongs to toolkit %s, which is not among the server's toolkits [%s]",
				field, i, t.Slug, t.toolkit.Slug, strings.Join(toolkits, ", ")).with(field + ": tool of another toolkit " + t.Slug)
		}
		if !slices.Contains(out, t.Slug) {
			out = append(out, t.Slug)
		}
	}
	return out, nil
}

func deref(p *[]string) []string {
	if p == nil {
		return nil
	}
	return *p
}

func (s *Server) createMCPServer(c *call) (int, any, *apiError) {
	var b mcpBody
	if e := c.decode(&b); e != nil {
		return 0, nil, e
	}
	if e := checkMCPName(b.Name); e != nil {
		return 0, nil, e
	}
	if b.AuthConfigIDs == nil {
		return 0, nil, errValidation("auth_config_ids", "auth_config_ids is required")
	}
	noAuth, e := c.checkNoAuthApps("no_auth_apps", deref(b.NoAuthApps))
	if e != nil {
		return 0, nil, e
	}
	if len(*b.AuthConfigIDs) == 0 && len(noAuth) == 0 {
		return 0, nil, errValidation("auth_config_ids", "auth_config_ids must name at least one auth config (or no_auth_apps one NO_AUTH toolkit)")
	}
	return s.storeNewMCPServer(c, &b, noAuth, false)
}

// storeNewMCPServer validates the auth configs, tools and name of a new server
// (regular or custom) and stores it.
func (s *Server) storeNewMCPServer(c *call, b *mcpBody, extraToolkits []string, custom bool) (int, any, *apiError) {
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	toolkits, e := c.mcpAuthToolkits(deref(b.AuthConfigIDs))
	if e != nil {
		return 0, nil, e
	}
	for _, slug := range extraToolkits {
		if !slices.Contains(toolkits, slug) {
			toolkits = append(toolkits, slug)
		}
	}
	tools, e := s.mcpAllowedTools("allowed_tools", append(deref(b.AllowedTools), deref(b.CustomTools)...), toolkits)
	if e != nil {
		return 0, nil, e
	}
	if e := c.checkMCPNameFree(*b.Name, ""); e != nil {
		return 0, nil, e
	}
	now := s.st.stamp()
	m := &MCPServer{
		ID: newUUID(), Project: c.project, Seq: s.st.nextSeq(), Name: *b.Name,
		AuthConfigIDs: slices.Compact(slices.Clone(nonNil(deref(b.AuthConfigIDs)))), Toolkits: toolkits,
		AllowedTools: tools, ManagedAuth: b.ManagedAuth != nil && *b.ManagedAuth, Custom: custom,
		CreatedAt: now, UpdatedAt: now,
	}
	if err := s.st.commit(put(bucketMCPServers, m.ID, m)); err != nil {
		return 0, nil, internalErr(err)
	}
	s.log.Info("MCP server created", "id", m.ID, "name", m.Name)
	if custom {
		link := s.mcpURL(c, m.ID)
		return 201, map[string]any{
			"id": m.ID, "name": m.Name, "auth_config_ids": m.AuthConfigIDs, "allowed_tools": m.AllowedTools,
			"mcp_url": link, "commands": mcpCommands(link, m.Name),
		}, nil
	}
	return 201, s.renderMCPServer(c, m, false), nil
}

func (s *Server) createCustomMCPServer(c *call) (int, any, *apiError) {
	var b mcpBody
	if e := c.decode(&b); e != nil {
		return 0, nil, e
	}
	if e := checkMCPName(b.Name); e != nil {
		return 0, nil, e
	}
	var toolkits []string
	for i, slug := range deref(b.Toolkits) {
		tk, e := s.toolkitFor(c.project, slug)
		if e != nil {
			return 0, nil, errValidation("toolkits", "toolkits[%d]: toolkit %q not found", i, slug)
		}
		if !slices.Contains(toolkits, tk.Slug) {
			toolkits = append(toolkits, tk.Slug)
		}
	}
	if len(deref(b.AuthConfigIDs)) == 0 && len(toolkits) == 0 {
		return 0, nil, errValidation("toolkits", "a custom MCP server needs at least one of toolkits or auth_config_ids")
	}
	return s.storeNewMCPServer(c, &b, toolkits, true)
}

func (s *Server) getMCPServer(c *call) (int, any, *apiError) {
	s.st.mu.RLock()
	defer s.st.mu.RUnlock()
	m, e := c.mcpServer(c.r.PathValue("id"))
	if e != nil {
		return 0, nil, e
	}
	return 200, s.renderMCPServer(c, m, true), nil
}

func (s *Server) updateMCPServer(c *call) (int, any, *apiError) {
	var b mcpBody
	if e := c.decode(&b); e != nil {
		return 0, nil, e
	}
	if b.Name != nil {
		if e := checkMCPName(b.Name); e != nil {
			return 0, nil, e
		}
	}
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	old, e := c.mcpServer(c.r.PathValue("id"))
	if e != nil {
		return 0, nil, e
	}
	m := *old
	if b.Name != nil {
		if e := c.checkMCPNameFree(*b.Name, m.ID); e != nil {
			return 0, nil, e
		}
		m.Name = *b.Name
	}
	if b.ManagedAuth != nil {
		m.ManagedAuth = *b.ManagedAuth
	}
	acIDs := m.AuthConfigIDs
	if b.AuthConfigIDs != nil {
		acIDs = slices.Compact(slices.Clone(nonNil(*b.AuthConfigIDs)))
	}
	acToolkits, e := c.mcpAuthToolkits(acIDs)
	if e != nil {
		return 0, nil, e
	}
	// The toolkits are those of the auth configs plus NO_AUTH toolkits: the
	// ones given, or else the NO_AUTH toolkits the server had.
	var noAuth []string
	if b.Toolkits != nil {
		for i, slug := range *b.Toolkits {
			if tk, e := s.toolkitFor(c.project, slug); e == nil && slices.Contains(acToolkits, tk.Slug) {
				continue
			}
			na, e := c.checkNoAuthApps("toolkits", []string{slug})
			if e != nil {
				e.Message = strings.Replace(e.Message, "toolkits[0]", "toolkits["+strconv.Itoa(i)+"]", 1)
				return 0, nil, e
			}
			noAuth = append(noAuth, na...)
		}
	} else {
		for _, slug := range m.Toolkits {
			if tk, e := s.toolkitFor(c.project, slug); e == nil && !slices.Contains(acToolkits, slug) {
				if _, ok := tk.scheme("NO_AUTH"); ok {
					noAuth = append(noAuth, slug)
				}
			}
		}
	}
	if len(acIDs) == 0 && len(noAuth) == 0 && !m.Custom {
		return 0, nil, errValidation("auth_config_ids", "an MCP server needs at least one auth config or NO_AUTH toolkit")
	}
	toolkits := slices.Clone(acToolkits)
	for _, slug := range noAuth {
		if !slices.Contains(toolkits, slug) {
			toolkits = append(toolkits, slug)
		}
	}
	tools := m.AllowedTools
	if b.AllowedTools != nil {
		tools = *b.AllowedTools
	} else if !slices.Equal(toolkits, m.Toolkits) {
		// keep the tools still served by the new toolkits
		tools = slices.DeleteFunc(slices.Clone(tools), func(slug string) bool {
			t, ok := s.cat.tools[slug]
			return !ok || !slices.Contains(toolkits, t.toolkit.Slug)
		})
	}
	if m.AllowedTools, e = s.mcpAllowedTools("allowed_tools", tools, toolkits); e != nil {
		return 0, nil, e
	}
	m.AuthConfigIDs, m.Toolkits = acIDs, toolkits
	m.UpdatedAt = s.st.stamp()
	if err := s.st.commit(put(bucketMCPServers, m.ID, &m)); err != nil {
		return 0, nil, internalErr(err)
	}
	return 200, s.renderMCPServer(c, &m, true), nil
}

func (s *Server) deleteMCPServer(c *call) (int, any, *apiError) {
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	m, e := c.mcpServer(c.r.PathValue("id"))
	if e != nil {
		return 0, nil, e
	}
	if err := s.st.commit(del(bucketMCPServers, m.ID)); err != nil {
		return 0, nil, internalErr(err)
	}
	s.log.Info("MCP server deleted", "id", m.ID)
	return 200, map[string]any{"id": m.ID, "deleted": true}, nil
}

// mcpPage reads page_no (1-based) and limit.
func mcpPage(r *http.Request) (page, limit int, e *apiError) {
	page, limit = 1, defaultLimit
	q := r.URL.Query()
	for _, p := range []struct {
		name string
		into *int
	}{{"page_no", &page}, {"limit", &limit}} {
		v := q.Get(p.name)
		if v == "" {
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return 0, 0, errValidation(p.name, "%s must be a positive integer, got %q", p.name, v)
		}
		*p.into = n
	}
	return page, min(limit, maxLimit), nil
}

// sortByTime orders by created_at or updated_at (order_by), newest first
// unless order_direction=asc.
func sortByTime[T any](r *http.Request, items []T, stamps func(T) (created, updated string, seq int64)) *apiError {
	q := r.URL.Query()
	by, dir := q.Get("order_by"), q.Get("order_direction")
	if by != "" && by != "created_at" && by != "updated_at" {
		return errValidation("order_by", "order_by must be created_at or updated_at, got %q", by)
	}
	if dir != "" && dir != "asc" && dir != "desc" {
		return errValidation("order_direction", "order_direction must be asc or desc, got %q", dir)
	}
	sort.SliceStable(items, func(i, j int) bool {
		ci, ui, si := stamps(items[i])
		cj, uj, sj := stamps(items[j])
		a, b := ci, cj
		if by == "updated_at" {
			a, b = ui, uj
		}
		less := a < b || (a == b && si < sj)
		if dir == "asc" {
			return less
		}
		return !less && (a != b || si != sj)
	})
	return nil
}

func pageOf[T any](items []T, page, limit int) (out []T, pages int) {
	pages = max((len(items)+limit-1)/limit, 1)
	start := min((page-1)*limit, len(items))
	return items[start:min(start+limit, len(items))], pages
}

func (s *Server) listMCPServers(c *call) (int, any, *apiError) {
	return s.listMCP(c, "")
}

func (s *Server) listMCPServersForApp(c *call) (int, any, *apiError) {
	tk, e := s.cat.toolkit(c.r.PathValue("appKey"))
	if e != nil {
		return 0, nil, e
	}
	return s.listMCP(c, tk.Slug)
}

func (s *Server) listMCP(c *call, app string) (int, any, *apiError) {
	page, limit, e := mcpPage(c.r)
	if e != nil {
		return 0, nil, e
	}
	name := strings.ToLower(c.r.URL.Query().Get("name"))
	toolkits := listParam(c.r, "toolkits")
	acIDs := listParam(c.r, "auth_config_ids")
	s.st.mu.RLock()
	defer s.st.mu.RUnlock()
	var items []*MCPServer
	for _, m := range s.st.mcpServers {
		if m.Project != c.project || (app != "" && !slices.Contains(m.Toolkits, app)) ||
			(name != "" && !strings.Contains(strings.ToLower(m.Name), name)) {
			continue
		}
		if len(toolkits) > 0 && !slices.ContainsFunc(m.Toolkits, func(t string) bool { return containsFold(toolkits, t) }) {
			continue
		}
		if len(acIDs) > 0 && !slices.ContainsFunc(m.AuthConfigIDs, func(id string) bool { return slices.Contains(acIDs, id) }) {
			continue
		}
		items = append(items, m)
	}
	if e := sortByTime(c.r, items, func(m *MCPServer) (string, string, int64) { return m.CreatedAt, m.UpdatedAt, m.Seq }); e != nil {
		return 0, nil, e
	}
	pageItems, pages := pageOf(items, page, limit)
	out := make([]any, 0, len(pageItems))
	for _, m := range pageItems {
		out = append(out, s.renderMCPServer(c, m, false))
	}
	return 200, map[string]any{"items": out, "total_pages": pages, "current_page": page}, nil
}
