package emulator

import (
	"net/http"
	"strings"
)

var toolRouterTools = []string{"COMPOSIO_SEARCH_TOOLS", "COMPOSIO_MULTI_EXECUTE_TOOL", "COMPOSIO_MANAGE_CONNECTIONS", "COMPOSIO_REMOTE_WORKBENCH"}

func (s *Server) registerSessionRoutes() {
	s.api("POST", "/tool_router/session", s.createSession)
	s.api("GET", "/tool_router/session/{session_id}", s.getSession)
	s.mux.Handle("/tool_router/{session_id}/mcp", s.wrap(func(c *call) (int, any, *apiError) {
		return http.StatusNotImplemented, map[string]any{"error": map[string]any{
			"message": "the emulator does not implement the MCP protocol", "code": 10501, "status": 501, "request_id": c.requestID,
			"suggested_fix": "Use a real service for MCP traffic.",
		}}, nil
	}, false))
}

// toggleList normalises toolkits/tags values: a list, {enable:[..]} or {disable:[..]}.
func toggleList(field string, v any) (map[string]any, *apiError) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case []any:
		return map[string]any{"enabled": x}, nil
	case map[string]any:
		out := map[string]any{}
		for k, val := range x {
			switch k {
			case "enable", "enabled":
				out["enabled"] = val
			case "disable", "disabled":
				out["disabled"] = val
			default:
				return nil, errValidation(field+"."+k, "unknown key (use enable or disable)")
			}
		}
		return out, nil
	}
	return nil, errValidation(field, "must be a list or an object with enable/disable")
}

func (s *Server) createSession(c *call) (int, any, *apiError) {
	var body map[string]any
	if e := c.decode(&body); e != nil {
		return 0, nil, e
	}
	userID, _ := body["user_id"].(string)
	if userID == "" {
		return 0, nil, errValidation("user_id", "user_id is required")
	}
	cfg := map[string]any{"user_id": userID, "preload": map[string]any{}, "search": map[string]any{}, "execute": map[string]any{}}
	tks, e := toggleList("toolkits", body["toolkits"])
	if e != nil {
		return 0, nil, e
	}
	if tks != nil {
		for _, key := range []string{"enabled", "disabled"} {
			list, _ := tks[key].([]any)
			for _, sl := range list {
				slug, _ := sl.(string)
				if _, e := s.cat.toolkit(slug); e != nil {
					return 0, nil, e
				}
			}
		}
		cfg["toolkits"] = tks
	}
	if tags, e := toggleList("tags", body["tags"]); e != nil {
		return 0, nil, e
	} else if tags != nil {
		cfg["tags"] = tags
	}
	mc := map[string]any{"enabled": true}
	switch x := body["manage_connections"].(type) {
	case bool:
		mc["enabled"] = x
	case map[string]any:
		for k, v := range x {
			if k == "enable" {
				mc["enabled"] = v
			} else {
				mc[k] = v
			}
		}
	}
	cfg["manage_connections"] = mc
	for _, k := range []string{"auth_configs", "connected_accounts", "tools", "multi_account"} {
		if v, ok := body[k]; ok {
			cfg[k] = v
		}
	}
	wb := map[string]any{"enable": true, "proxy_execution_enabled": true}
	if x, ok := body["workbench"].(map[string]any); ok {
		for k, v := range x {
			wb[k] = v
		}
	}
	cfg["workbench"] = wb
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	sess := &Session{ID: newID("trs"), Project: c.project, Seq: s.st.nextSeq(), UserID: userID, Config: cfg, CreatedAt: s.st.stamp()}
	if err := s.st.commit(put(bucketSessions, sess.ID, sess)); err != nil {
		return 0, nil, internalErr(err)
	}
	return http.StatusCreated, s.renderSession(c, sess), nil
}

func (s *Server) renderSession(c *call, sess *Session) map[string]any {
	return map[string]any{
		"session_id":        sess.ID,
		"mcp":               map[string]any{"type": "http", "url": s.origin(c.r) + "/tool_router/" + sess.ID + "/mcp"},
		"tool_router_tools": toolRouterTools,
		"config":            sess.Config,
		"config_version":    1,
		"created_at":        sess.CreatedAt,
	}
}

func (s *Server) getSession(c *call) (int, any, *apiError) {
	id := c.r.PathValue("session_id")
	if !strings.HasPrefix(id, "trs_") {
		return 0, nil, newErr(http.StatusBadRequest, CodeSessionInvalidID, "ToolRouterSession_InvalidID",
			"session id %q is not a tool-router session id (trs_...)", id).with("session_id: invalid format")
	}
	s.st.mu.RLock()
	defer s.st.mu.RUnlock()
	sess, ok := s.st.sessions[id]
	if !ok || sess.Project != c.project {
		return 0, nil, errNotFound(CodeSessionNotFound, "ToolRouterSession_NotFound", "tool-router session", id)
	}
	return 200, s.renderSession(c, sess), nil
}
