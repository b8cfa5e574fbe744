// Resource group toolRouter.session: create, get, patch, delete,
// config_history, tools, toolkits, link, execute.

package emulator

import (
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
)

var toolRouterTools = []string{"COMPOSIO_SEARCH_TOOLS", "COMPOSIO_MULTI_EXECUTE_TOOL", "COMPOSIO_MANAGE_CONNECTIONS", "COMPOSIO_REMOTE_WORKBENCH"}

func init() { registerGroup((*Server).registerToolRouter) }

func (s *Server) registerToolRouter() {
	s.handle("postApiV31ToolRouterSession", s.createSession)
	s.handle("getApiV31ToolRouterSessionBySessionId", s.getSession)
	s.handle("deleteApiV31ToolRouterSessionBySessionId", s.deleteSession)
	s.handle("getApiV31ToolRouterSessionBySessionIdTools", s.sessionTools)
	s.handle("getApiV31ToolRouterSessionBySessionIdToolkits", s.sessionToolkits)
	s.handle("postApiV31ToolRouterSessionBySessionIdLink", s.sessionLink)
	s.handle("postApiV31ToolRouterSessionBySessionIdExecute", s.sessionExecute)
	s.handle("patchApiV31ToolRouterSessionBySessionId", s.patchSession)
	s.handle("getApiV31ToolRouterSessionBySessionIdConfigHistory", s.sessionConfigHistory)
	s.mux.Handle("/tool_router/{session_id}/mcp", s.wrap(func(c *call) (int, any, *apiError) {
		return http.StatusNotImplemented, map[string]any{"error": map[string]any{
			"message": "the emulator does not implement the MCP protocol", "code": CodeNotImplemented, "status": 501, "request_id": c.requestID,
			"suggested_fix": "Use a real service for MCP traffic.",
		}}, nil
	}, false))
}

// sessionTags are the tool annotation hints a session's tags filter may name.
var sessionTags = []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}

// sandboxSizes are the workbench sandbox sizes.
var sandboxSizes = []string{"standard", "medium", "large", "xlarge"}

// preloadWarnAt is the number of preloaded tools from which a session answer
// warns PRELOAD_TOOLS_HIGH_CONTEXT_USAGE.
const preloadWarnAt = 20

// toggleList normalises toolkits/tags values: a list, {enable:[..]} or
// {disable:[..]}, into {enabled:[..]} / {disabled:[..]}. Every element must
// be a string, and one of allowed when allowed is set.
func toggleList(field string, v any, allowed []string) (map[string]any, *apiError) {
	check := func(sub string, list any) ([]any, *apiError) {
		l, ok := list.([]any)
		if !ok {
			return nil, errValidation(sub, "%s must be a list of strings", sub)
		}
		for i, it := range l {
			str, ok := it.(string)
			if !ok {
				return nil, errValidation(fmt.Sprintf("%s[%d]", sub, i), "%s[%d] must be a string", sub, i)
			}
			if allowed != nil && !slices.Contains(allowed, str) {
				return nil, errValidation(fmt.Sprintf("%s[%d]", sub, i), "%s[%d]: %q is not one of %s", sub, i, str, strings.Join(allowed, ", "))
			}
		}
		return l, nil
	}
	switch x := v.(type) {
	case nil:
		return nil, nil
	case []any:
		l, e := check(field, x)
		if e != nil {
			return nil, e
		}
		return map[string]any{"enabled": l}, nil
	case map[string]any:
		out := map[string]any{}
		for k, val := range x {
			var key string
			switch k {
			case "enable", "enabled":
				key = "enabled"
			case "disable", "disabled":
				key = "disabled"
			default:
				return nil, errValidation(field+"."+k, "unknown key (use enable or disable)")
			}
			l, e := check(field+"."+k, val)
			if e != nil {
				return nil, e
			}
			out[key] = l
		}
		return out, nil
	}
	return nil, errValidation(field, "must be a list or an object with enable/disable")
}

// toolRules normalises the per-toolkit tools config {slug: {enable: [..]} |
// {disable: [..]} | {tags: [..] | {enable, disable}}} into the answer's
// shape ({enabled}, {disabled}, {tags: {enabled, disabled}}).
func (s *Server) toolRules(v any) (map[string]any, *apiError) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errValidation("tools", "tools must be an object keyed by toolkit slug")
	}
	out := map[string]any{}
	for slug, rule := range m {
		field := "tools." + slug
		if _, e := s.cat.toolkit(slug); e != nil {
			return nil, errValidation(field, "unknown toolkit %q", slug)
		}
		r, ok := rule.(map[string]any)
		if !ok || len(r) != 1 {
			return nil, errValidation(field, "%s must be one of {enable: [...]}, {disable: [...]} or {tags: ...}", field)
		}
		if tags, ok := r["tags"]; ok {
			t, e := toggleList(field+".tags", tags, sessionTags)
			if e != nil {
				return nil, e
			}
			out[slug] = map[string]any{"tags": t}
			continue
		}
		t, e := toggleList(field, r, nil)
		if e != nil {
			return nil, e
		}
		out[slug] = t
	}
	return out, nil
}

// sessionWorkbench validates the workbench config and answers it with the
// defaults (enabled, proxy execution on).
func sessionWorkbench(v any) (map[string]any, *apiError) {
	wb := map[string]any{"enable": true, "proxy_execution_enabled": true}
	if v == nil {
		return wb, nil
	}
	x, ok := v.(map[string]any)
	if !ok {
		return nil, errValidation("workbench", "workbench must be an object")
	}
	for k, val := range x {
		switch k {
		case "enable", "enable_proxy_execution":
			if _, ok := val.(bool); !ok {
				return nil, errValidation("workbench."+k, "workbench.%s must be a boolean", k)
			}
			if k == "enable_proxy_execution" { // request name; the config answers the past tense
				k = "proxy_execution_enabled"
			}
		case "auto_offload_threshold":
			if _, ok := toFloat(val); !ok {
				return nil, errValidation("workbench."+k, "workbench.%s must be a number", k)
			}
		case "sandbox_size":
			if str, _ := val.(string); !slices.Contains(sandboxSizes, str) {
				return nil, errValidation("workbench.sandbox_size", "workbench.sandbox_size must be one of %s, got %v", strings.Join(sandboxSizes, ", "), val)
			}
		default:
			// not a member of the answer's workbench (the documents name
			// these four only)
			continue
		}
		wb[k] = val
	}
	return wb, nil
}

// sessionExperimental answers the create body's experimental block: the
// custom toolkits and tools (each with its original_slug) and, for an
// assistive_prompt_config, the assistive prompt. nil when there is none.
func sessionExperimental(v any) (map[string]any, *apiError) {
	x, ok := v.(map[string]any)
	if v == nil || (ok && len(x) == 0) {
		return nil, nil
	}
	if !ok {
		return nil, errValidation("experimental", "experimental must be an object")
	}
	out := map[string]any{}
	customTool := func(field string, t any) (map[string]any, *apiError) {
		m, ok := t.(map[string]any)
		if !ok {
			return nil, errValidation(field, "%s must be an object", field)
		}
		for _, k := range []string{"slug", "name", "description"} {
			if str, _ := m[k].(string); str == "" {
				return nil, errValidation(field+"."+k, "%s.%s is required", field, k)
			}
		}
		if _, ok := m["input_schema"].(map[string]any); !ok {
			return nil, errValidation(field+".input_schema", "%s.input_schema is required (a JSON schema object)", field)
		}
		r := map[string]any{"original_slug": m["slug"]}
		for _, k := range []string{"slug", "name", "description", "input_schema", "output_schema", "extends_toolkit"} {
			if val, ok := m[k]; ok {
				r[k] = val
			}
		}
		return r, nil
	}
	if list, ok := x["custom_tools"].([]any); ok {
		tools := make([]any, 0, len(list))
		for i, t := range list {
			r, e := customTool(fmt.Sprintf("experimental.custom_tools[%d]", i), t)
			if e != nil {
				return nil, e
			}
			tools = append(tools, r)
		}
		out["custom_tools"] = tools
	}
	if list, ok := x["custom_toolkits"].([]any); ok {
		tks := make([]any, 0, len(list))
		for i, it := range list {
			field := fmt.Sprintf("experimental.custom_toolkits[%d]", i)
			m, _ := it.(map[string]any)
			slug, _ := m["slug"].(string)
			name, _ := m["name"].(string)
			desc, _ := m["description"].(string)
			raw, isList := m["tools"].([]any)
			if slug == "" || name == "" || desc == "" || !isList {
				return nil, errValidation(field, "%s needs slug, name, description and tools", field)
			}
			tools := make([]any, 0, len(raw))
			for j, t := range raw {
				r, e := customTool(fmt.Sprintf("%s.tools[%d]", field, j), t)
				if e != nil {
					return nil, e
				}
				delete(r, "extends_toolkit")
				tools = append(tools, r)
			}
			tks = append(tks, map[string]any{"slug": slug, "name": name, "description": desc, "tools": tools})
		}
		out["custom_toolkits"] = tks
	}
	if apc, ok := x["assistive_prompt_config"].(map[string]any); ok {
		tz, _ := apc["user_timezone"].(string)
		if tz == "" {
			tz = "UTC"
		}
		out["assistive_prompt"] = "You are connected to the service's tool router. The user's timezone is " + tz + "."
	}
	return out, nil
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
	cfg := map[string]any{"user_id": userID, "preload": map[string]any{"tools": []any{}}, "search": map[string]any{},
		"execute": map[string]any{}, "manage_connections": map[string]any{"enabled": true}}
	wb, _ := sessionWorkbench(nil)
	cfg["workbench"] = wb
	experimental, e := sessionExperimental(body["experimental"])
	if e != nil {
		return 0, nil, e
	}
	var source *SessionConfig
	if x, ok := body["experimental"].(map[string]any); ok && x["session_config_id"] != nil {
		if source, e = s.sessionConfigForCreate(c, x["session_config_id"]); e != nil {
			return 0, nil, e
		}
	}
	// Members in a fixed order: multi_account before connected_accounts
	// (its cap depends on it), preload last (it needs the filters).
	for _, k := range sessionMembers {
		v, ok := body[k]
		if !ok || k == "user_id" || k == "experimental" {
			continue
		}
		if e := s.sessionMember(c, cfg, k, v, false); e != nil {
			return 0, nil, e
		}
	}
	if source != nil {
		// The session gets exactly the access the config grants: its
		// toolkits, tools and tags policy replaces the body's.
		for _, k := range []string{"toolkits", "tools", "tags"} {
			delete(cfg, k)
			if v, ok := source.Config[k]; ok {
				if e := s.sessionMember(c, cfg, k, v, false); e != nil {
					return 0, nil, e
				}
			}
		}
		if experimental == nil {
			experimental = map[string]any{}
		}
		experimental["source_session_config"] = map[string]any{"id": source.ID}
	}
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	now := s.st.stamp()
	sess := &Session{ID: newID("trs"), Project: c.project, Seq: s.st.nextSeq(), UserID: userID, Config: cfg,
		Experimental: experimental, CreatedAt: now, ConfigVersion: 1,
		History: []SessionVersion{{Version: 1, CreatedAt: now, Config: cloneJSON(cfg)}}}
	if err := s.st.commit(put(bucketSessions, sess.ID, sess)); err != nil {
		return 0, nil, internalErr(err)
	}
	return http.StatusCreated, s.renderSession(c, sess), nil
}

// sessionMembers are the body members of a session create or PATCH, in the
// order they are applied.
var sessionMembers = []string{"user_id", "toolkits", "auth_configs", "multi_account", "connected_accounts", "manage_connections",
	"tools", "tags", "workbench", "search", "execute", "preload", "experimental", "premium_usage"}

// sessionPatchable are the members PATCH takes (the contract's
// SessionPatchParams); user_id is fixed at create.
var sessionPatchable = []string{"toolkits", "auth_configs", "connected_accounts", "manage_connections", "tools", "tags",
	"workbench", "multi_account", "preload", "search", "execute", "experimental"}

// sessionMember validates one member of a create or PATCH body and writes
// it into the session config cfg in the answer's form. On a PATCH, null
// resets a nullable member (connected_accounts, manage_connections,
// workbench, multi_account) to what a create without it answers; maps
// replace the stored ones, they are not merged.
func (s *Server) sessionMember(c *call, cfg map[string]any, key string, v any, patch bool) *apiError {
	if v == nil {
		switch key {
		case "connected_accounts", "multi_account":
			delete(cfg, key)
		case "manage_connections":
			cfg[key] = map[string]any{"enabled": true}
		case "workbench":
			cfg[key], _ = sessionWorkbench(nil)
		case "experimental":
		default:
			if patch {
				return errValidation(key, "%s cannot be null", key)
			}
		}
		return nil
	}
	switch key {
	case "toolkits":
		tks, e := toggleList("toolkits", v, nil)
		if e != nil {
			return e
		}
		if len(tks) != 1 {
			return errValidation("toolkits", "toolkits takes either enable or disable (they are mutually exclusive)")
		}
		for _, k := range []string{"enabled", "disabled"} {
			list, _ := tks[k].([]any)
			for _, sl := range list {
				slug, _ := sl.(string)
				if _, e := s.toolkitFor(c.project, slug); e != nil {
					return e
				}
			}
		}
		cfg["toolkits"] = tks
	case "tags":
		tags, e := toggleList("tags", v, sessionTags)
		if e != nil {
			return e
		}
		cfg["tags"] = tags
	case "manage_connections":
		mc := map[string]any{"enabled": true}
		switch x := v.(type) {
		case bool:
			mc["enabled"] = x
		case map[string]any:
			for k, val := range x {
				switch k {
				case "enable", "enable_wait_for_connections", "enable_connection_removal":
					if val == nil {
						continue
					}
					if _, ok := val.(bool); !ok {
						return errValidation("manage_connections."+k, "manage_connections.%s must be a boolean", k)
					}
					if k == "enable" {
						k = "enabled"
					}
					mc[k] = val
				case "callback_url":
					raw, isString := val.(string)
					if !isString {
						return errValidation("manage_connections.callback_url", "manage_connections.callback_url must be a string")
					}
					if e := checkCallbackURL("manage_connections.callback_url", raw); e != nil {
						return e
					}
					mc[k] = raw
				default:
					return errValidation("manage_connections."+k, "manage_connections.%s is not a known key", k)
				}
			}
		default:
			return errValidation("manage_connections", "manage_connections must be a boolean or an object")
		}
		cfg["manage_connections"] = mc
	case "auth_configs":
		m, ok := v.(map[string]any)
		if !ok {
			return errValidation("auth_configs", "auth_configs must be an object of toolkit slug to auth config id")
		}
		s.st.mu.RLock()
		defer s.st.mu.RUnlock()
		out := map[string]any{}
		for slug, idv := range m {
			field := "auth_configs." + slug
			id, _ := idv.(string)
			if id == "" {
				return errValidation(field, "%s must be an auth config id (ac_...)", field)
			}
			tk, e := s.toolkitFor(c.project, slug)
			if e != nil {
				return e
			}
			ac, e := c.authConfig(id)
			if e != nil {
				return e.with(field + ": auth config not found")
			}
			if ac.ToolkitSlug != tk.Slug {
				return errValidation(field, "auth config %s is for toolkit %s, not %s", ac.ID, ac.ToolkitSlug, tk.Slug)
			}
			out[tk.Slug] = id
		}
		cfg["auth_configs"] = out
	case "connected_accounts":
		m, ok := v.(map[string]any)
		if !ok {
			return errValidation("connected_accounts", "connected_accounts must be an object of toolkit slug to connected account ids")
		}
		multi, _ := cfg["multi_account"].(map[string]any)
		isMulti, _ := multi["enable"].(bool)
		userID, _ := cfg["user_id"].(string)
		s.st.mu.RLock()
		defer s.st.mu.RUnlock()
		out := map[string]any{}
		for slug, ids := range m {
			field := "connected_accounts." + slug
			var list []string
			switch x := ids.(type) {
			case string:
				list = []string{x}
			case []any:
				for i, it := range x {
					id, ok := it.(string)
					if !ok {
						return errValidation(fmt.Sprintf("%s[%d]", field, i), "%s[%d] must be a connected account id", field, i)
					}
					list = append(list, id)
				}
			default:
				return errValidation(field, "%s must be a list of connected account ids", field)
			}
			if len(list) > 1 && !isMulti {
				return errValidation(field, "%s pins %d accounts; a session without multi_account.enable pins at most one per toolkit", field, len(list))
			}
			tk, e := s.toolkitFor(c.project, slug)
			if e != nil {
				return e
			}
			pinned := make([]any, 0, len(list))
			for _, id := range list {
				a, e := c.account(id)
				if e != nil {
					return e.with(field + ": connected account not found")
				}
				if a.UserID != userID {
					return errValidation(field, "connected account %s belongs to user %q, not the session's user %q", id, a.UserID, userID)
				}
				if a.IsDisabled {
					return errValidation(field, "connected account %s is disabled", id)
				}
				if a.ToolkitSlug != tk.Slug {
					return errValidation(field, "connected account %s is of toolkit %s, not %s", id, a.ToolkitSlug, tk.Slug)
				}
				pinned = append(pinned, id)
			}
			out[tk.Slug] = pinned
		}
		cfg["connected_accounts"] = out
	case "multi_account":
		x, ok := v.(map[string]any)
		if !ok {
			return errValidation("multi_account", "multi_account must be an object")
		}
		for k, val := range x {
			switch k {
			case "enable", "require_explicit_selection":
				if _, ok := val.(bool); !ok {
					return errValidation("multi_account."+k, "multi_account.%s must be a boolean", k)
				}
			case "max_accounts_per_toolkit":
				n, ok := toFloat(val)
				if !ok || n != float64(int(n)) || n < 2 || n > 10 {
					return errValidation("multi_account.max_accounts_per_toolkit", "multi_account.max_accounts_per_toolkit must be an integer from 2 to 10, got %v", val)
				}
			default:
				return errValidation("multi_account."+k, "multi_account.%s is not a known key", k)
			}
		}
		cfg["multi_account"] = x
	case "tools":
		rules, e := s.toolRules(v)
		if e != nil {
			return e
		}
		cfg["tools"] = rules
	case "workbench":
		wb, e := sessionWorkbench(v)
		if e != nil {
			return e
		}
		cfg["workbench"] = wb
	case "search", "execute":
		// Echoed as sent, the documented member only (the direct_tools
		// preset sends {"enable":false} and {"enable_multi_execute":false}).
		x, ok := v.(map[string]any)
		if !ok {
			return errValidation(key, "%s must be an object", key)
		}
		member := map[string]string{"search": "enable", "execute": "enable_multi_execute"}[key]
		out := map[string]any{}
		if val, ok := x[member]; ok {
			if _, ok := val.(bool); !ok {
				return errValidation(key+"."+member, "%s.%s must be a boolean", key, member)
			}
			out[member] = val
		}
		cfg[key] = out
	case "preload":
		preload, e := s.sessionPreload(cfg, v)
		if e != nil {
			return e
		}
		cfg["preload"] = preload
	case "premium_usage":
		// Accepted, not answered.
	}
	return nil
}

// patchSession answers PATCH /tool_router/session/{id}: the members sent
// replace the stored ones (fields left out are kept), config_version goes
// up by one and the new config joins the history.
func (s *Server) patchSession(c *call) (int, any, *apiError) {
	sess, e := c.session()
	if e != nil {
		return 0, nil, e
	}
	var body map[string]any
	if e := c.decode(&body); e != nil {
		return 0, nil, e
	}
	for k := range body {
		if !slices.Contains(sessionPatchable, k) {
			return 0, nil, errValidation(k, "%s cannot be changed on a session (PATCH takes %s)", k, strings.Join(sessionPatchable, ", "))
		}
	}
	cfg := cloneJSON(sess.Config)
	for _, k := range sessionMembers {
		v, ok := body[k]
		if !ok {
			continue
		}
		if k == "experimental" {
			if e := sessionPatchExperimental(v); e != nil {
				return 0, nil, e
			}
			continue
		}
		if e := s.sessionMember(c, cfg, k, v, true); e != nil {
			return 0, nil, e
		}
	}
	if _, ok := body["preload"]; !ok {
		// A preload of "all" needs the positive filter the patch may have removed.
		if p, _ := cfg["preload"].(map[string]any); p["tools"] == "all" && !hasPositiveFilter(cfg) {
			return 0, nil, errValidation("preload.tools", `the session preloads "all", which needs a positive filter: toolkits, tools or tags to enable`)
		}
	}
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	cur, ok := s.st.sessions[sess.ID]
	if !ok {
		return 0, nil, errNotFound(CodeSessionNotFound, "ToolRouterSession_NotFound", "tool-router session", sess.ID)
	}
	next := *cur
	next.Config = cfg
	next.ConfigVersion = cur.version() + 1
	next.History = append(slices.Clone(cur.history()), SessionVersion{Version: next.ConfigVersion, CreatedAt: s.st.stamp(), Config: cloneJSON(cfg)})
	if err := s.st.commit(put(bucketSessions, next.ID, &next)); err != nil {
		return 0, nil, internalErr(err)
	}
	return 200, s.renderSession(c, &next), nil
}

// sessionPatchExperimental checks a PATCH's experimental block: permissions
// ({default, overrides}) and link_url_overwrite; neither is answered.
func sessionPatchExperimental(v any) *apiError {
	if v == nil {
		return nil
	}
	x, ok := v.(map[string]any)
	if !ok {
		return errValidation("experimental", "experimental must be an object")
	}
	for k, val := range x {
		switch k {
		case "permissions":
			p, ok := val.(map[string]any)
			if !ok {
				return errValidation("experimental.permissions", "experimental.permissions must be an object")
			}
			if d, _ := p["default"].(string); !slices.Contains([]string{"allow_all", "ask_every_call", "ask_once_per_session"}, d) {
				return errValidation("experimental.permissions.default", "experimental.permissions.default must be allow_all, ask_every_call or ask_once_per_session")
			}
		case "link_url_overwrite":
			if _, ok := val.(string); !ok {
				return errValidation("experimental.link_url_overwrite", "experimental.link_url_overwrite must be a string")
			}
		default:
			return errValidation("experimental."+k, "experimental.%s cannot be patched", k)
		}
	}
	return nil
}

// sessionConfigHistory answers GET /tool_router/session/{id}/config_history:
// every version of the session's config, newest first.
func (s *Server) sessionConfigHistory(c *call) (int, any, *apiError) {
	sess, e := c.session()
	if e != nil {
		return 0, nil, e
	}
	hist := slices.Clone(sess.history())
	slices.Reverse(hist)
	current := sess.version()
	return answerPage(c.r, hist, maxLimit, func(v SessionVersion) any {
		return map[string]any{"version": v.Version, "created_at": v.CreatedAt, "config": v.Config, "is_current": v.Version == current}
	})
}

// renderSession is a session as create, retrieve and PATCH answer it: the
// members the documents give it (no created_at: neither the contract's
// types nor the service's document names one; the creation time is version
// 1's created_at in the config history).
func (s *Server) renderSession(c *call, sess *Session) map[string]any {
	out := map[string]any{
		"session_id":        sess.ID,
		"mcp":               map[string]any{"type": "http", "url": s.origin(c.r) + "/tool_router/" + sess.ID + "/mcp"},
		"tool_router_tools": toolRouterTools,
		"config":            sess.Config,
		"config_version":    sess.version(),
	}
	if sess.Experimental != nil {
		out["experimental"] = sess.Experimental
	}
	if n := len(s.preloadedTools(sess.Config)); n >= preloadWarnAt {
		out["warnings"] = []any{map[string]any{
			"code":    "PRELOAD_TOOLS_HIGH_CONTEXT_USAGE",
			"message": fmt.Sprintf("the session preloads %d tools; their schemas use a large part of the model's context", n),
		}}
	}
	return out
}

func (s *Server) getSession(c *call) (int, any, *apiError) {
	sess, e := c.session()
	if e != nil {
		return 0, nil, e
	}
	return 200, s.renderSession(c, sess), nil
}

var metaToolDescriptions = map[string]string{
	"COMPOSIO_SEARCH_TOOLS":       "Searches the tools available to this session for a use case.",
	"COMPOSIO_MULTI_EXECUTE_TOOL": "Executes one or more tools found by COMPOSIO_SEARCH_TOOLS.",
	"COMPOSIO_MANAGE_CONNECTIONS": "Checks and creates the user's connections to toolkits.",
	"COMPOSIO_REMOTE_WORKBENCH":   "Runs code in a remote workbench.",
}

// sessionPreload validates the create body's preload ({tools: [slugs] | "all"}).
// "all" needs a positive filter (toolkits, tools or tags to enable).
func (s *Server) sessionPreload(cfg map[string]any, v any) (map[string]any, *apiError) {
	p, ok := v.(map[string]any)
	if !ok {
		return nil, errValidation("preload", `preload must be an object {"tools": [...] | "all"}`)
	}
	out := map[string]any{"tools": []any{}}
	for k, val := range p {
		if k != "tools" {
			return nil, errValidation("preload."+k, "preload.%s is not a known key (only tools)", k)
		}
		switch x := val.(type) {
		case string:
			if x != "all" {
				return nil, errValidation("preload.tools", `preload.tools must be a list of tool slugs or "all"`)
			}
			if !hasPositiveFilter(cfg) {
				return nil, errValidation("preload.tools", `preload.tools "all" needs a positive filter: toolkits, tools or tags to enable`)
			}
			out["tools"] = x
		case []any:
			slugs := make([]any, 0, len(x))
			for i, it := range x {
				slug, _ := it.(string)
				t, e := s.tool(slug)
				if e != nil {
					return nil, errValidation(fmt.Sprintf("preload.tools[%d]", i), "preload.tools[%d]: unknown tool %q", i, slug)
				}
				slugs = append(slugs, t.Slug)
			}
			out["tools"] = slugs
		default:
			return nil, errValidation("preload.tools", `preload.tools must be a list of tool slugs or "all"`)
		}
	}
	return out, nil
}

func hasPositiveFilter(cfg map[string]any) bool {
	for _, k := range []string{"toolkits", "tags"} {
		if m, ok := cfg[k].(map[string]any); ok {
			if l, _ := m["enabled"].([]any); len(l) > 0 {
				return true
			}
		}
	}
	m, _ := cfg["tools"].(map[string]any)
	return len(m) > 0
}

// toggled reads cfg[key][sub] ("enabled"/"disabled") as strings.
func toggled(cfg map[string]any, key, sub string) []string {
	m, _ := cfg[key].(map[string]any)
	list, _ := m[sub].([]any)
	out := make([]string, 0, len(list))
	for _, v := range list {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// preloadedTools lists the app tools a session preloads: the named slugs, or
// for "all" every tool the session's toolkits / tools / tags filters allow.
func (s *Server) preloadedTools(cfg map[string]any) []*toolDef {
	preload, _ := cfg["preload"].(map[string]any)
	switch x := preload["tools"].(type) {
	case []any:
		var out []*toolDef
		for _, it := range x {
			slug, _ := it.(string)
			if t, e := s.tool(slug); e == nil {
				out = append(out, t)
			}
		}
		return out
	case string:
		if x != "all" {
			return nil
		}
	default:
		return nil
	}
	enabledTk, disabledTk := toggled(cfg, "toolkits", "enabled"), toggled(cfg, "toolkits", "disabled")
	enabledTags, disabledTags := toggled(cfg, "tags", "enabled"), toggled(cfg, "tags", "disabled")
	perToolkit, _ := cfg["tools"].(map[string]any)
	var out []*toolDef
	for _, tk := range s.cat.toolkits {
		rule, hasRule := perToolkit[tk.Slug].(map[string]any)
		if containsFold(disabledTk, tk.Slug) {
			continue
		}
		switch {
		case len(enabledTk) > 0:
			if !containsFold(enabledTk, tk.Slug) && !hasRule {
				continue
			}
		case len(perToolkit) > 0 && len(enabledTags) == 0:
			if !hasRule {
				continue
			}
		}
		ruleCfg := map[string]any{"rule": rule}
		enable, disable := toggled(ruleCfg, "rule", "enabled"), toggled(ruleCfg, "rule", "disabled")
		for _, t := range tk.Tools {
			if len(enable) > 0 && !containsFold(enable, t.Slug) || containsFold(disable, t.Slug) {
				continue
			}
			if len(enabledTags) > 0 && !anyTag(t.Tags, enabledTags) || anyTag(t.Tags, disabledTags) {
				continue
			}
			out = append(out, t)
		}
	}
	return out
}

// deleteSession answers DELETE /tool_router/session/{id} with {session_id, deleted: true}.
func (s *Server) deleteSession(c *call) (int, any, *apiError) {
	sess, e := c.session()
	if e != nil {
		return 0, nil, e
	}
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	if _, ok := s.st.sessions[sess.ID]; !ok {
		return 0, nil, errNotFound(CodeSessionNotFound, "ToolRouterSession_NotFound", "tool-router session", sess.ID)
	}
	if err := s.st.commit(del(bucketSessions, sess.ID)); err != nil {
		return 0, nil, internalErr(err)
	}
	return 200, map[string]any{"session_id": sess.ID, "deleted": true}, nil
}

// sessionTools answers GET /tool_router/session/{id}/tools: the session's
// meta tools followed by its preloaded app tools as Tool objects (what
// session.tools() hands to the provider).
func (s *Server) sessionTools(c *call) (int, any, *apiError) {
	sess, e := c.session()
	if e != nil {
		return 0, nil, e
	}
	items := make([]any, 0, len(toolRouterTools))
	for _, slug := range toolRouterTools {
		items = append(items, slug)
	}
	for _, t := range s.preloadedTools(sess.Config) {
		items = append(items, t)
	}
	logo := "https://logos.composio.dev/api/composio"
	return answerPage(c.r, items, maxLimit, func(it any) any {
		if t, ok := it.(*toolDef); ok {
			return renderTool(t, VersionLatest)
		}
		slug, _ := it.(string) // the meta tools are listed by slug
		name := strings.ReplaceAll(strings.TrimPrefix(slug, "COMPOSIO_"), "_", " ")
		return map[string]any{
			"slug": slug, "name": name, "description": metaToolDescriptions[slug], "human_description": metaToolDescriptions[slug],
			"toolkit": map[string]any{"slug": "composio", "name": "Composio", "logo": logo},
			"input_parameters": map[string]any{"type": "object", "properties": map[string]any{
				"query": map[string]any{"type": "string", "description": "What to do"},
			}},
			"output_parameters": map[string]any{"type": "object", "properties": map[string]any{}},
			"no_auth":           true, "available_versions": []string{VersionLatest}, "version": VersionLatest,
			"scopes": []string{}, "scope_requirements": nil, "tags": []string{}, "is_deprecated": false,
			"deprecated": map[string]any{"displayName": name, "version": VersionLatest, "available_versions": []string{VersionLatest},
				"is_deprecated": false, "toolkit": map[string]any{"logo": logo}},
		}
	})
}

// sessionAllows reports whether the session's toolkits config lets toolkit
// slug in: not disabled, and in the enabled list when one is given.
func sessionAllows(cfg map[string]any, slug string) bool {
	if containsFold(toggled(cfg, "toolkits", "disabled"), slug) {
		return false
	}
	enabled := toggled(cfg, "toolkits", "enabled")
	return len(enabled) == 0 || containsFold(enabled, slug)
}

func errToolkitNotInSession(sess *Session, slug, field string) *apiError {
	return newErr(http.StatusBadRequest, CodeSessionToolkitNotEnabled, "ToolRouterSession_ToolkitNotEnabled",
		"toolkit %s is not enabled in tool-router session %s", slug, sess.ID).with(field + ": toolkit not enabled in session")
}

// sessionToolkit resolves a catalog toolkit the session allows.
func (s *Server) sessionToolkit(sess *Session, slug, field string) (*toolkitDef, *apiError) {
	if slug == "" {
		return nil, errValidation(field, "%s is required", field)
	}
	tk, e := s.toolkitFor(sess.Project, slug)
	if e != nil {
		return nil, e
	}
	if !sessionAllows(sess.Config, tk.Slug) {
		return nil, errToolkitNotInSession(sess, tk.Slug, field)
	}
	return tk, nil
}

// pinnedAccounts reads the session config's connected_accounts entry for a
// toolkit ({toolkit: ca_id} or {toolkit: [ca_id]}).
func pinnedAccounts(cfg map[string]any, slug string) []string {
	m, _ := cfg["connected_accounts"].(map[string]any)
	var out []string
	for k, v := range m {
		if !strings.EqualFold(k, slug) {
			continue
		}
		switch x := v.(type) {
		case string:
			out = append(out, x)
		case []any:
			for _, it := range x {
				if id, ok := it.(string); ok {
					out = append(out, id)
				}
			}
		}
	}
	return out
}

// userAccounts lists the session user's accounts on a toolkit, newest first;
// callers hold st.mu.
func (s *Server) userAccounts(c *call, sess *Session, slug string) []*ConnectedAccount {
	var out []*ConnectedAccount
	for _, a := range s.st.accounts {
		if a.Project == c.project && a.UserID == sess.UserID && a.ToolkitSlug == slug {
			out = append(out, a)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seq > out[j].Seq })
	return out
}

func usableAccount(a *ConnectedAccount) bool {
	return a.Status == StatusActive && !a.IsDisabled && !a.AuthConfigDeleted
}

// sessionAccount is the account the session uses for a toolkit: a pinned one
// (config connected_accounts) if it exists, else the user's newest ACTIVE
// account, else the newest of any status (e.g. an INITIATED link), else nil;
// callers hold st.mu.
func (s *Server) sessionAccount(c *call, sess *Session, slug string) *ConnectedAccount {
	for _, id := range pinnedAccounts(sess.Config, slug) {
		if a, ok := s.st.accounts[id]; ok && a.Project == c.project {
			return a
		}
	}
	accts := s.userAccounts(c, sess, slug)
	for _, a := range accts {
		if usableAccount(a) {
			return a
		}
	}
	if len(accts) > 0 {
		return accts[0]
	}
	return nil
}

// sessionToolkits answers GET /tool_router/session/{id}/toolkits
// (session.toolkits()): the session's toolkits (the enabled list, else every
// catalog toolkit not disabled) with the session user's connected account.
// Query: toolkits (overrides the session's list), is_connected, search.
func (s *Server) sessionToolkits(c *call) (int, any, *apiError) {
	sess, e := c.session()
	if e != nil {
		return 0, nil, e
	}
	q := c.r.URL.Query()
	only := listParam(c.r, "toolkits")
	var connected *bool
	if v := q.Get("is_connected"); v != "" {
		b, ok := map[string]bool{"true": true, "false": false}[v]
		if !ok {
			return 0, nil, errValidation("is_connected", "is_connected must be true or false, got %q", v)
		}
		connected = &b
	}
	search := strings.ToLower(strings.TrimSpace(q.Get("search")))
	var tks []*toolkitDef
	if len(only) > 0 {
		for _, slug := range only {
			tk, e := s.toolkitFor(c.project, slug)
			if e != nil {
				return 0, nil, e
			}
			tks = append(tks, tk)
		}
	} else {
		for _, tk := range s.cat.toolkits {
			if sessionAllows(sess.Config, tk.Slug) {
				tks = append(tks, tk)
			}
		}
	}
	s.st.mu.RLock()
	defer s.st.mu.RUnlock()
	type entry struct {
		tk   *toolkitDef
		acct *ConnectedAccount
	}
	var items []entry
	for _, tk := range tks {
		if search != "" && !strings.Contains(strings.ToLower(tk.Slug+" "+tk.Name+" "+tk.Description), search) {
			continue
		}
		acct := s.sessionAccount(c, sess, tk.Slug)
		if connected != nil && (acct != nil && usableAccount(acct)) != *connected {
			continue
		}
		items = append(items, entry{tk, acct})
	}
	return answerPage(c.r, items, maxLimitSmall, func(it entry) any {
		var ca any
		if a := it.acct; a != nil {
			ca = map[string]any{
				"id": a.ID, "user_id": a.UserID, "status": a.Status, "created_at": a.CreatedAt,
				"auth_config": map[string]any{"id": a.AuthConfigID, "auth_scheme": a.AuthScheme, "is_composio_managed": a.IsComposioManaged},
			}
		}
		return map[string]any{
			"slug": it.tk.Slug, "name": it.tk.Name, "enabled": sessionAllows(sess.Config, it.tk.Slug),
			"is_no_auth": len(it.tk.Schemes) == 0, "composio_managed_auth_schemes": it.tk.managedModes(),
			"meta":              map[string]any{"logo": it.tk.logo(), "description": it.tk.Description},
			"connected_account": ca,
		}
	})
}

// sessionAuthConfig picks the auth config a session links a toolkit with: the
// config's auth_configs entry, else the project's first enabled auth config
// for the toolkit, else a new service-managed one (400 when the toolkit has no
// managed scheme); callers hold st.mu.
func (s *Server) sessionAuthConfig(c *call, sess *Session, tk *toolkitDef) (*AuthConfig, *apiError) {
	m, _ := sess.Config["auth_configs"].(map[string]any)
	for k, v := range m {
		if !strings.EqualFold(k, tk.Slug) {
			continue
		}
		id, _ := v.(string)
		field := "auth_configs." + k
		ac, _, e := c.usableAuthConfig(id, field)
		if e != nil {
			return nil, e
		}
		if ac.ToolkitSlug != tk.Slug {
			return nil, errValidation(field, "auth config %s is for toolkit %s, not %s", ac.ID, ac.ToolkitSlug, tk.Slug)
		}
		return ac, nil
	}
	var first *AuthConfig
	for _, ac := range s.st.authConfigs {
		if ac.Project == c.project && ac.ToolkitSlug == tk.Slug && ac.Status == "ENABLED" && (first == nil || ac.Seq < first.Seq) {
			first = ac
		}
	}
	if first != nil {
		return first, nil
	}
	return s.newManagedAuthConfig(c, tk, "toolkit")
}

// sessionLink answers POST /tool_router/session/{id}/link (session.authorize):
// an INITIATED connected account for the session user on the hosted link page,
// as POST /connected_accounts/link makes.
func (s *Server) sessionLink(c *call) (int, any, *apiError) {
	sess, e := c.session()
	if e != nil {
		return 0, nil, e
	}
	var body struct {
		Toolkit     string  `json:"toolkit"`
		CallbackURL string  `json:"callback_url"`
		Alias       *string `json:"alias"`
	}
	if e := c.decode(&body); e != nil {
		return 0, nil, e
	}
	tk, e := s.sessionToolkit(sess, body.Toolkit, "toolkit")
	if e != nil {
		return 0, nil, e
	}
	if e := checkCallbackURL("callback_url", body.CallbackURL); e != nil {
		return 0, nil, e
	}
	if body.CallbackURL == "" {
		mc, _ := sess.Config["manage_connections"].(map[string]any)
		body.CallbackURL, _ = mc["callback_url"].(string)
	}
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	ac, e := s.sessionAuthConfig(c, sess, tk)
	if e != nil {
		return 0, nil, e
	}
	a, e := s.startLink(c, ac, sess.UserID, body.CallbackURL, body.Alias, nil)
	if e != nil {
		return 0, nil, e
	}
	s.log.Info("session link created", "session", sess.ID, "account", a.ID, "auth_config", ac.ID, "project", c.project)
	return http.StatusCreated, map[string]any{
		"link_token":           a.LinkToken,
		"redirect_url":         s.consentURL(s.origin(c.r), a),
		"connected_account_id": a.ID,
	}, nil
}

// sessionExecute answers POST /tool_router/session/{id}/execute
// (session.execute): {data, error, log_id}. App tools run as POST
// /tools/execute does, on the session user's account (account = an id or
// alias, else the config's pinned account, else the newest ACTIVE one; 400
// when there is none); meta tools answer a canned result.
func (s *Server) sessionExecute(c *call) (int, any, *apiError) {
	sess, e := c.session()
	if e != nil {
		return 0, nil, e
	}
	var body struct {
		ToolSlug  string         `json:"tool_slug"`
		Arguments map[string]any `json:"arguments"`
		Account   string         `json:"account"`
	}
	if e := c.decode(&body); e != nil {
		return 0, nil, e
	}
	if body.ToolSlug == "" {
		return 0, nil, errValidation("tool_slug", "tool_slug is required")
	}
	args := body.Arguments
	if args == nil {
		args = map[string]any{}
	}
	out := func(r map[string]any) (int, any, *apiError) {
		return 200, map[string]any{"data": r["data"], "error": r["error"], "log_id": r["log_id"]}, nil
	}
	if slug := strings.ToUpper(body.ToolSlug); slices.Contains(toolRouterTools, slug) {
		return out(map[string]any{"data": map[string]any{"tool": slug, "arguments": args, "emulated": true}, "error": nil, "log_id": newID("log")})
	}
	t, e := s.tool(body.ToolSlug)
	if e != nil {
		return 0, nil, e
	}
	if !sessionAllows(sess.Config, t.toolkit.Slug) {
		return 0, nil, errToolkitNotInSession(sess, t.toolkit.Slug, "tool_slug")
	}
	version, e := t.toolkit.resolveVersion("version", "")
	if e != nil {
		return 0, nil, e
	}
	if msg := argumentsError(t, args); msg != "" {
		return out(failedExecution(msg))
	}
	if len(t.toolkit.Schemes) == 0 {
		return out(executed(t, version, args, nil))
	}
	s.st.mu.RLock()
	defer s.st.mu.RUnlock()
	var acct *ConnectedAccount
	if body.Account != "" {
		for _, a := range s.userAccounts(c, sess, t.toolkit.Slug) {
			if a.ID == body.Account || a.Alias != nil && *a.Alias == body.Account {
				acct = a
				break
			}
		}
		if acct == nil {
			return 0, nil, newErr(http.StatusBadRequest, CodeConnectedAccountNotFound, "ConnectedAccount_NotFound",
				"account %q is not a connected account of user %q on toolkit %s", body.Account, sess.UserID, t.toolkit.Slug).with("account: not found")
		}
	} else if acct = s.sessionAccount(c, sess, t.toolkit.Slug); acct == nil || !usableAccount(acct) {
		return 0, nil, newErr(http.StatusBadRequest, CodeConnectedAccountNotFound, "ConnectedAccount_NotFound",
			"no ACTIVE connected account for user %q on toolkit %s; connect one with session.authorize(%q)",
			sess.UserID, t.toolkit.Slug, t.toolkit.Slug).with("tool_slug: " + t.toolkit.Slug + " not connected")
	}
	if e := s.toolAccessError(t, acct); e != nil {
		return 0, nil, e
	}
	return out(executed(t, version, args, acct))
}
