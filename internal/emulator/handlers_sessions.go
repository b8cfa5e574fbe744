package emulator

import (
	"net/http"
	"strings"
)

var toolRouterTools = []string{"COMPOSIO_SEARCH_TOOLS", "COMPOSIO_MULTI_EXECUTE_TOOL", "COMPOSIO_MANAGE_CONNECTIONS", "COMPOSIO_REMOTE_WORKBENCH"}

func (s *Server) registerSessionRoutes() {
	s.api("POST", "/tool_router/session", s.createSession)
	s.api("GET", "/tool_router/session/{session_id}", s.getSession)
	s.api("GET", "/tool_router/session/{session_id}/tools", s.sessionTools)
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
	sess, e := c.session()
	if e != nil {
		return 0, nil, e
	}
	return 200, s.renderSession(c, sess), nil
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

var metaToolDescriptions = map[string]string{
	"COMPOSIO_SEARCH_TOOLS":       "Searches the tools available to this session for a use case.",
	"COMPOSIO_MULTI_EXECUTE_TOOL": "Executes one or more tools found by COMPOSIO_SEARCH_TOOLS.",
	"COMPOSIO_MANAGE_CONNECTIONS": "Checks and creates the user's connections to toolkits.",
	"COMPOSIO_REMOTE_WORKBENCH":   "Runs code in a remote workbench.",
}

// sessionTools answers GET /tool_router/session/{id}/tools: the session's
// meta tools as Tool objects (what session.tools() hands to the provider).
func (s *Server) sessionTools(c *call) (int, any, *apiError) {
	if _, e := c.session(); e != nil {
		return 0, nil, e
	}
	logo := "https://logos.composio.dev/api/composio"
	page, e := paginate(c.r, toolRouterTools, maxLimit, func(slug string) any {
		name := strings.ReplaceAll(strings.TrimPrefix(slug, "COMPOSIO_"), "_", " ")
		return map[string]any{
			"slug": slug, "name": name, "description": metaToolDescriptions[slug], "human_description": metaToolDescriptions[slug],
			"toolkit": map[string]any{"slug": "composio", "name": "Composio", "logo": logo},
			"input_parameters": map[string]any{"type": "object", "properties": map[string]any{
				"query": map[string]any{"type": "string", "description": "What to do"},
			}},
			"output_parameters": map[string]any{"type": "object", "properties": map[string]any{}},
			"no_auth":           true, "available_versions": []string{VersionLatest}, "version": VersionLatest,
			"scopes": []string{}, "tags": []string{}, "is_deprecated": false,
			"deprecated": map[string]any{"displayName": name, "version": VersionLatest, "available_versions": []string{VersionLatest},
				"is_deprecated": false, "toolkit": map[string]any{"logo": logo}},
		}
	})
	if e != nil {
		return 0, nil, e
	}
	return 200, page, nil
}
