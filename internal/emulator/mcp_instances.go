// Resource group mcp: per-user MCP server instances and generated URLs.

package emulator

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
)

func renderMCPInstance(m *MCPServer, in *MCPInstance) map[string]any {
	return map[string]any{
		"id": in.ID, "instance_id": in.UserID, "mcp_server_id": m.ID,
		"created_at": in.CreatedAt, "updated_at": in.UpdatedAt,
	}
}

func (s *Server) createMCPInstance(c *call) (int, any, *apiError) {
	var b struct {
		UserID *string `json:"user_id"`
	}
	if e := c.decode(&b); e != nil {
		return 0, nil, e
	}
	if b.UserID == nil || strings.TrimSpace(*b.UserID) == "" {
		return 0, nil, errValidation("user_id", "user_id is required and must not be empty")
	}
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	old, e := c.mcpServer(c.r.PathValue("serverId"))
	if e != nil {
		return 0, nil, e
	}
	for _, in := range old.Instances {
		if in.UserID == *b.UserID {
			return 0, nil, newErr(http.StatusConflict, CodeMCPInstanceExists, "MCPInstance_Exists",
				"MCP server %s already has an instance for user %q", old.ID, *b.UserID)
		}
	}
	m := *old
	now := s.st.stamp()
	in := &MCPInstance{ID: newUUID(), UserID: *b.UserID, CreatedAt: now, UpdatedAt: now}
	m.Instances = append(slices.Clone(old.Instances), in)
	if err := s.st.commit(put(bucketMCPServers, m.ID, &m)); err != nil {
		return 0, nil, internalErr(err)
	}
	return 201, renderMCPInstance(&m, in), nil
}

func (s *Server) listMCPInstances(c *call) (int, any, *apiError) {
	page, limit, e := mcpPage(c.r)
	if e != nil {
		return 0, nil, e
	}
	search := strings.ToLower(c.r.URL.Query().Get("search"))
	s.st.mu.RLock()
	defer s.st.mu.RUnlock()
	m, e := c.mcpServer(c.r.PathValue("serverId"))
	if e != nil {
		return 0, nil, e
	}
	var items []*MCPInstance
	for _, in := range m.Instances {
		if search == "" || strings.Contains(strings.ToLower(in.UserID), search) || strings.Contains(in.ID, search) {
			items = append(items, in)
		}
	}
	if e := sortByTime(c.r, items, func(in *MCPInstance) (string, string, int64) {
		return in.CreatedAt, in.UpdatedAt, int64(slices.Index(m.Instances, in))
	}); e != nil {
		return 0, nil, e
	}
	pageItems, pages := pageOf(items, page, limit)
	out := make([]any, 0, len(pageItems))
	for _, in := range pageItems {
		out = append(out, renderMCPInstance(m, in))
	}
	return 200, map[string]any{"instances": out, "server_id": m.ID, "server_name": m.Name, "total_pages": pages, "current_page": page}, nil
}

// deleteMCPInstance removes a user's instance and that user's connected
// accounts on the server's auth configs.
func (s *Server) deleteMCPInstance(c *call) (int, any, *apiError) {
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	old, e := c.mcpServer(c.r.PathValue("serverId"))
	if e != nil {
		return 0, nil, e
	}
	id := c.r.PathValue("instanceId")
	idx := slices.IndexFunc(old.Instances, func(in *MCPInstance) bool { return in.UserID == id || in.ID == id })
	if idx < 0 {
		return 0, nil, errNotFound(CodeMCPInstanceNotFound, "MCPInstance_NotFound", "MCP server instance", id)
	}
	user := old.Instances[idx].UserID
	m := *old
	m.Instances = slices.Delete(slices.Clone(old.Instances), idx, idx+1)
	changes := []change{put(bucketMCPServers, m.ID, &m)}
	for _, a := range s.st.accounts {
		if a.Project == c.project && a.UserID == user && slices.Contains(m.AuthConfigIDs, a.AuthConfigID) {
			changes = append(changes, del(bucketAccounts, a.ID))
		}
	}
	if err := s.st.commit(changes...); err != nil {
		return 0, nil, internalErr(err)
	}
	return 200, map[string]any{
		"message":                    "instance " + user + " of MCP server " + m.ID + " deleted",
		"deleted_connected_accounts": len(changes) - 1,
	}, nil
}

func (s *Server) generateMCPURL(c *call) (int, any, *apiError) {
	var b struct {
		ServerID    *string  `json:"mcp_server_id"`
		ManagedAuth *bool    `json:"managed_auth_by_composio"`
		UserIDs     []string `json:"user_ids"`
		AccountIDs  []string `json:"connected_account_ids"`
	}
	if e := c.decode(&b); e != nil {
		return 0, nil, e
	}
	if b.ServerID == nil || *b.ServerID == "" {
		return 0, nil, errValidation("mcp_server_id", "mcp_server_id is required")
	}
	s.st.mu.RLock()
	defer s.st.mu.RUnlock()
	m, e := c.mcpServer(*b.ServerID)
	if e != nil {
		return 0, nil, e
	}
	base := s.mcpURL(c, m.ID)
	accountURLs, userURLs := []string{}, []string{}
	for i, id := range b.AccountIDs {
		if a, ok := s.st.accounts[id]; !ok || a.Project != c.project {
			return 0, nil, errValidation("connected_account_ids", "connected_account_ids[%d]: connected account %q not found", i, id)
		}
		accountURLs = append(accountURLs, base+"?connected_account_id="+id)
	}
	for i, u := range b.UserIDs {
		if u == "" {
			return 0, nil, errValidation("user_ids", "user_ids[%d] must not be empty", i)
		}
		userURLs = append(userURLs, base+"?user_id="+url.QueryEscape(u))
	}
	return 200, map[string]any{"mcp_url": base, "connected_account_urls": accountURLs, "user_ids_url": userURLs}, nil
}
