// Resource group tools: list, enum, get, execute, proxy execute.

package emulator

import (
	"maps"
	"net/http"
	"slices"
	"sort"
	"strings"
)

func init() { registerGroup((*Server).registerTools) }

func (s *Server) registerTools() {
	s.handle("getApiV31Tools", s.listTools)
	s.handle("getApiV31ToolsEnum", s.toolEnum)
	s.handle("getApiV31ToolsByToolSlug", s.getTool)
	s.handle("postApiV31ToolsExecuteProxy", s.proxyExecute)
	s.handle("postApiV31ToolsExecuteByToolSlug", s.executeTool)
}

type versionedTool struct {
	t       *toolDef
	version string
}

func (s *Server) listTools(c *call) (int, any, *apiError) {
	slugs := listParam(c.r, "toolkit_slug", "toolkit_slugs")
	toolSlugs := listParam(c.r, "tool_slugs")
	tags := listParam(c.r, "tags")
	scopes := listParam(c.r, "scopes")
	search := strings.ToLower(c.r.URL.Query().Get("query") + c.r.URL.Query().Get("search"))
	// important=true keeps the featured tools: those tagged "important", or
	// every tool of a toolkit that features none (the SDK sends
	// important=true for a toolkits-only listing).
	important := c.r.URL.Query().Get("important")
	if important != "" && important != "true" && important != "false" {
		return 0, nil, errValidation("important", `important must be "true" or "false", got %q`, important)
	}
	for _, sl := range slugs {
		if _, e := s.toolkitFor(c.project, sl); e != nil {
			return 0, nil, e
		}
	}
	tv, e := versionsFromQuery(c.r)
	if e != nil {
		return 0, nil, e
	}
	// auth_config_ids: only tools of those auth configs' toolkits (and, when an
	// auth config restricts execution to a tool list, only those tools).
	// acToolkits: toolkit -> allowed tool slugs (nil: all tools of the toolkit).
	var acToolkits map[string]map[string]bool
	if acIDs := listParam(c.r, "auth_config_ids"); len(acIDs) > 0 {
		acToolkits = map[string]map[string]bool{}
		s.st.mu.RLock()
		for _, id := range acIDs {
			ac, e := c.authConfig(id)
			if e != nil {
				s.st.mu.RUnlock()
				return 0, nil, e
			}
			allowed, seen := acToolkits[ac.ToolkitSlug]
			switch {
			case len(ac.ToolsForExecution) == 0:
				acToolkits[ac.ToolkitSlug] = nil
			case !seen || allowed != nil:
				if allowed == nil {
					allowed = map[string]bool{}
				}
				for _, t := range ac.ToolsForExecution {
					allowed[strings.ToUpper(t)] = true
				}
				acToolkits[ac.ToolkitSlug] = allowed
			}
		}
		s.st.mu.RUnlock()
	}
	var items []versionedTool
	for _, tk := range s.cat.toolkits {
		if len(slugs) > 0 && !containsFold(slugs, tk.Slug) {
			continue
		}
		allowed, ok := acToolkits[tk.Slug]
		if acToolkits != nil && !ok {
			continue
		}
		version, e := tk.resolveVersion("toolkit_versions", tv.forToolkit(tk.Slug))
		if e != nil {
			return 0, nil, e
		}
		featured := slices.ContainsFunc(tk.Tools, func(t *toolDef) bool { return slices.Contains(t.Tags, "important") })
		for _, t := range tk.Tools {
			if len(toolSlugs) > 0 && !containsFold(toolSlugs, t.Slug) {
				continue
			}
			if allowed != nil && !allowed[t.Slug] {
				continue
			}
			if len(tags) > 0 && !anyTag(t.Tags, tags) ||
				len(scopes) > 0 && !anyTag(t.Scopes, scopes) ||
				important == "true" && featured && !slices.Contains(t.Tags, "important") {
				continue
			}
			if search != "" && !strings.Contains(strings.ToLower(t.Slug+" "+t.Name+" "+t.Description), search) {
				continue
			}
			items = append(items, versionedTool{t, version})
		}
	}
	sort.SliceStable(items, func(i, j int) bool { return items[i].t.Slug < items[j].t.Slug })
	return answerPage(c.r, items, 10000, func(v versionedTool) any { return renderTool(v.t, v.version) })
}

func (s *Server) toolEnum(c *call) (int, any, *apiError) {
	return 200, slices.Sorted(maps.Keys(s.cat.tools)), nil
}

func (s *Server) getTool(c *call) (int, any, *apiError) {
	t, e := s.tool(c.r.PathValue("tool_slug"))
	if e != nil {
		return 0, nil, e
	}
	return answerAtVersion(c, t.toolkit, "version", func(version string) any { return renderTool(t, version) })
}

// executeTool validates arguments and the connected account and answers a
// canned successful result echoing the arguments.
func (s *Server) executeTool(c *call) (int, any, *apiError) {
	var body struct {
		ConnectedAccountID string         `json:"connected_account_id"`
		UserID             string         `json:"user_id"`
		Version            string         `json:"version"`
		Arguments          map[string]any `json:"arguments"`
	}
	if e := c.decode(&body); e != nil {
		return 0, nil, e
	}
	t, e := s.tool(c.r.PathValue("tool_slug"))
	if e != nil {
		return 0, nil, e
	}
	version, e := t.toolkit.resolveVersion("version", body.Version)
	if e != nil {
		return 0, nil, e
	}
	args := body.Arguments
	if args == nil {
		args = map[string]any{}
	}
	if msg := argumentsError(t, args); msg != "" {
		return 200, failedExecution(msg), nil
	}
	s.st.mu.RLock()
	defer s.st.mu.RUnlock()
	var acct *ConnectedAccount
	if body.ConnectedAccountID != "" {
		a, e := c.account(body.ConnectedAccountID)
		if e != nil {
			return 0, nil, e
		}
		acct = a
	} else {
		for _, a := range s.st.accounts {
			if a.Project == c.project && a.UserID == body.UserID && a.ToolkitSlug == t.toolkit.Slug && a.Status == StatusActive && !a.IsDisabled {
				acct = a
				break
			}
		}
		if acct == nil {
			return 0, nil, newErr(http.StatusBadRequest, CodeConnectedAccountNotFound, "ConnectedAccount_NotFound",
				"no ACTIVE connected account for user %q on toolkit %s", body.UserID, t.toolkit.Slug)
		}
	}
	if e := s.toolAccessError(t, acct); e != nil {
		return 0, nil, e
	}
	return 200, executed(t, version, args, acct), nil
}

var proxyMethods = []string{"GET", "POST", "PUT", "DELETE", "PATCH", "HEAD"}

// proxyExecute answers POST /tools/execute/proxy (used by proxyExecute and
// custom tools' executeToolRequest). Nothing leaves the emulator: it checks
// the request and the connected account and answers {status: 200, data,
// headers} where data echoes the request resolved against the toolkit's base URL.
func (s *Server) proxyExecute(c *call) (int, any, *apiError) {
	var body struct {
		Endpoint           string `json:"endpoint"`
		Method             string `json:"method"`
		ConnectedAccountID string `json:"connected_account_id"`
		Body               any    `json:"body"`
		Parameters         []struct {
			Name  string `json:"name"`
			Value any    `json:"value"`
			Type  string `json:"type"`
			In    string `json:"in"`
		} `json:"parameters"`
		CustomConnectionData map[string]any `json:"custom_connection_data"`
	}
	if e := c.decode(&body); e != nil {
		return 0, nil, e
	}
	if body.Endpoint == "" {
		return 0, nil, errValidation("endpoint", "endpoint is required")
	}
	if !slices.Contains(proxyMethods, body.Method) {
		return 0, nil, errValidation("method", "method must be one of %s, got %q", strings.Join(proxyMethods, ", "), body.Method)
	}
	query, headers := map[string]any{}, map[string]any{}
	for i, p := range body.Parameters {
		kind := p.Type
		if kind == "" {
			kind = p.In
		}
		switch {
		case p.Name == "":
			return 0, nil, errValidation("parameters", "parameters[%d].name is required", i)
		case kind == "query":
			query[p.Name] = p.Value
		case kind == "header":
			headers[p.Name] = p.Value
		default:
			return 0, nil, errValidation("parameters", "parameters[%d].type must be header or query, got %q", i, kind)
		}
	}
	url := body.Endpoint
	if body.ConnectedAccountID == "" {
		if body.CustomConnectionData == nil {
			return 0, nil, errValidation("connected_account_id", "connected_account_id or custom_connection_data is required")
		}
	} else {
		s.st.mu.RLock()
		a, e := c.account(body.ConnectedAccountID)
		if e != nil {
			s.st.mu.RUnlock()
			return 0, nil, e
		}
		usable := a.Status == StatusActive && !a.IsDisabled && !a.AuthConfigDeleted
		status, slug := a.Status, a.ToolkitSlug
		s.st.mu.RUnlock()
		if !usable {
			return 0, nil, newErr(http.StatusBadRequest, CodeConnectedAccountUnusable, "ConnectedAccount_Unusable",
				"connected account %s is not usable for proxy requests (status %s)", a.ID, status).
				with("connected_account_id: account not ACTIVE")
		}
		if tk := s.cat.bySlug[slug]; tk != nil && strings.HasPrefix(url, "/") {
			url = strings.TrimRight(tk.BaseURL, "/") + url
		}
	}
	return 200, map[string]any{
		"status": 200,
		"data": map[string]any{
			"emulated": true, "method": body.Method, "url": url, "query": query, "headers": headers, "body": body.Body,
		},
		"headers": map[string]any{"content-type": "application/json"},
	}, nil
}
