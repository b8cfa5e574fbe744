package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"slices"
)

// Tool-router sessions (/tool_router/session): a user's toolkits, auth
// configs, pinned connected accounts and tool filters behind one MCP URL.
// The service has no operation that lists sessions: a session is reached by
// its id only.

// ToolRouterSession is a session as create, retrieve and PATCH answer it.
type ToolRouterSession struct {
	SessionID       string        `json:"session_id"`
	MCP             SessionMCP    `json:"mcp"`
	ToolRouterTools []string      `json:"tool_router_tools"`
	Config          SessionConfig `json:"config"`
	ConfigVersion   int           `json:"config_version"`
	// Experimental carries source_session_config: the session config the
	// session was created from (the service's documents name it; the
	// contract's types do not).
	Experimental *SessionExperimental `json:"experimental"`
	// CreatedAt is answered by some deployments (not a member of the
	// contract's types); "" when absent: the creation time is then version
	// 1's created_at in the config history.
	CreatedAt string `json:"created_at"`
}

// SessionMCP is the session's MCP endpoint.
type SessionMCP struct {
	Type string `json:"type"`
	URL  string `json:"url"`
}

// SessionExperimental is the experimental block of a session answer.
type SessionExperimental struct {
	SourceSessionConfig *struct {
		ID string `json:"id"`
	} `json:"source_session_config"`
}

// SessionConfig is a session's configuration as the service answers it
// (past-tense enabled/disabled; SessionFilter also reads the request forms
// a session config's policy uses).
type SessionConfig struct {
	UserID            string                       `json:"user_id"`
	Toolkits          *SessionFilter               `json:"toolkits"`
	AuthConfigs       map[string]string            `json:"auth_configs"`
	ConnectedAccounts map[string]SessionAccountIDs `json:"connected_accounts"`
	ManageConnections *SessionManageConnections    `json:"manage_connections"`
	Tools             map[string]SessionToolRule   `json:"tools"`
	Tags              *SessionFilter               `json:"tags"`
	Workbench         *SessionWorkbench            `json:"workbench"`
	MultiAccount      *SessionMultiAccount         `json:"multi_account"`
}

// SessionFilter is an allow list and a deny list (toolkits: one of them;
// tags: either or both). It decodes the answer's {enabled, disabled}, the
// request form {enable, disable} and a bare list (the enabled list).
type SessionFilter struct {
	Enabled  []string
	Disabled []string
	// HasEnabled and HasDisabled tell an empty list sent from one left out
	// (toolkits {"enabled": []} allows no app toolkit).
	HasEnabled, HasDisabled bool
}

// UnmarshalJSON reads a list or an object of enable(d)/disable(d) lists.
func (f *SessionFilter) UnmarshalJSON(b []byte) error {
	var list []string
	if json.Unmarshal(b, &list) == nil {
		*f = SessionFilter{Enabled: list, HasEnabled: true}
		return nil
	}
	var m map[string][]string
	if err := json.Unmarshal(b, &m); err != nil {
		return fmt.Errorf("session filter: want a list or an object of lists: %w", err)
	}
	*f = SessionFilter{}
	for k, v := range m {
		switch k {
		case "enabled", "enable":
			f.Enabled, f.HasEnabled = v, true
		case "disabled", "disable":
			f.Disabled, f.HasDisabled = v, true
		}
	}
	return nil
}

// SessionToolRule is one toolkit's tool rule: the tools enabled, the tools
// disabled, or a tag filter.
type SessionToolRule struct {
	Enabled  []string
	Disabled []string
	Tags     *SessionFilter
}

// UnmarshalJSON reads {enabled|enable}, {disabled|disable} or {tags}.
func (r *SessionToolRule) UnmarshalJSON(b []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return fmt.Errorf("session tool rule: %w", err)
	}
	*r = SessionToolRule{}
	for k, v := range m {
		var err error
		switch k {
		case "enabled", "enable":
			err = json.Unmarshal(v, &r.Enabled)
		case "disabled", "disable":
			err = json.Unmarshal(v, &r.Disabled)
		case "tags":
			r.Tags = &SessionFilter{}
			err = json.Unmarshal(v, r.Tags)
		}
		if err != nil {
			return fmt.Errorf("session tool rule %s: %w", k, err)
		}
	}
	return nil
}

// SessionAccountIDs are the accounts pinned for a toolkit: a list (v3.1), or
// one id (older answers).
type SessionAccountIDs []string

// UnmarshalJSON reads a list of ids or one id.
func (a *SessionAccountIDs) UnmarshalJSON(b []byte) error {
	var one string
	if json.Unmarshal(b, &one) == nil {
		*a = SessionAccountIDs{one}
		return nil
	}
	var list []string
	if err := json.Unmarshal(b, &list); err != nil {
		return fmt.Errorf("connected accounts: want a list of ids: %w", err)
	}
	*a = list
	return nil
}

// SessionManageConnections is the connection manager's configuration.
type SessionManageConnections struct {
	Enabled            *bool   `json:"enabled"`
	CallbackURL        *string `json:"callback_url"`
	WaitForConnections *bool   `json:"enable_wait_for_connections"`
	ConnectionRemoval  *bool   `json:"enable_connection_removal"`
}

// SessionWorkbench is the workbench's configuration.
type SessionWorkbench struct {
	Enable               *bool   `json:"enable"`
	ProxyExecution       *bool   `json:"proxy_execution_enabled"`
	AutoOffloadThreshold *int64  `json:"auto_offload_threshold"`
	SandboxSize          *string `json:"sandbox_size"`
}

// SessionMultiAccount is the multi-account configuration (the same members
// in the request and the answer).
type SessionMultiAccount struct {
	Enable                   *bool  `json:"enable,omitempty"`
	MaxAccountsPerToolkit    *int64 `json:"max_accounts_per_toolkit,omitempty"`
	RequireExplicitSelection *bool  `json:"require_explicit_selection,omitempty"`
}

// SessionToolkitsParam is a request's toolkits: the enabled toolkits, or
// (Disable) every toolkit but these. An empty enable list allows no app
// toolkit; an empty disable list allows every toolkit.
type SessionToolkitsParam struct {
	Disable bool
	Slugs   []string
}

// MarshalJSON writes {"enable": [...]} or {"disable": [...]}.
func (p SessionToolkitsParam) MarshalJSON() ([]byte, error) {
	slugs := p.Slugs
	if slugs == nil {
		slugs = []string{}
	}
	if p.Disable {
		return json.Marshal(map[string][]string{"disable": slugs})
	}
	return json.Marshal(map[string][]string{"enable": slugs})
}

// SessionTagsParam is a tag filter: tools must carry one of Enable and none
// of Disable (both empty: no tag filter).
type SessionTagsParam struct {
	Enable  []string `json:"enable,omitempty"`
	Disable []string `json:"disable,omitempty"`
}

// SessionToolRuleParam is one toolkit's tool rule in a request: exactly one
// of Enable, Disable and Tags.
type SessionToolRuleParam struct {
	Enable  []string
	Disable []string
	Tags    *SessionTagsParam
}

// MarshalJSON writes {"enable"}, {"disable"} or {"tags"}.
func (p SessionToolRuleParam) MarshalJSON() ([]byte, error) {
	switch {
	case p.Tags != nil:
		return json.Marshal(map[string]any{"tags": p.Tags})
	case p.Disable != nil:
		return json.Marshal(map[string][]string{"disable": p.Disable})
	default:
		enable := p.Enable
		if enable == nil {
			enable = []string{}
		}
		return json.Marshal(map[string][]string{"enable": enable})
	}
}

// SessionManageConnectionsParam is a request's manage_connections.
type SessionManageConnectionsParam struct {
	Enable                   *bool  `json:"enable,omitempty"`
	CallbackURL              string `json:"callback_url,omitempty"`
	EnableWaitForConnections *bool  `json:"enable_wait_for_connections,omitempty"`
	EnableConnectionRemoval  *bool  `json:"enable_connection_removal,omitempty"`
}

// SessionWorkbenchParam is a request's workbench.
type SessionWorkbenchParam struct {
	Enable               *bool  `json:"enable,omitempty"`
	EnableProxyExecution *bool  `json:"enable_proxy_execution,omitempty"`
	AutoOffloadThreshold *int64 `json:"auto_offload_threshold,omitempty"`
	SandboxSize          string `json:"sandbox_size,omitempty"`
}

// CreateSessionRequest is the body of POST /tool_router/session; members
// left empty are not sent.
type CreateSessionRequest struct {
	UserID            string                          `json:"user_id"`
	Toolkits          *SessionToolkitsParam           `json:"toolkits,omitempty"`
	AuthConfigs       map[string]string               `json:"auth_configs,omitempty"`
	ConnectedAccounts map[string][]string             `json:"connected_accounts,omitempty"`
	ManageConnections *SessionManageConnectionsParam  `json:"manage_connections,omitempty"`
	Tools             map[string]SessionToolRuleParam `json:"tools,omitempty"`
	Tags              *SessionTagsParam               `json:"tags,omitempty"`
	Workbench         *SessionWorkbenchParam          `json:"workbench,omitempty"`
	MultiAccount      *SessionMultiAccount            `json:"multi_account,omitempty"`
	// SessionConfigID creates the session from a saved session config
	// (experimental.session_config_id): its toolkits, tools and tags policy.
	SessionConfigID string `json:"-"`
}

// MarshalJSON adds experimental.session_config_id when SessionConfigID is set.
func (r CreateSessionRequest) MarshalJSON() ([]byte, error) {
	type plain CreateSessionRequest
	b, err := json.Marshal(plain(r))
	if err != nil || r.SessionConfigID == "" {
		return b, err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	m["experimental"] = map[string]any{"session_config_id": r.SessionConfigID}
	return json.Marshal(m)
}

// UpdateSessionRequest is the body of PATCH /tool_router/session/{id}: the
// members set are sent, the others are kept by the service. Maps replace
// the stored ones (an empty, non-nil map clears them). Reset names the
// nullable members (connected_accounts, manage_connections, workbench,
// multi_account) sent as null, which the service resets to its defaults.
type UpdateSessionRequest struct {
	Toolkits          *SessionToolkitsParam
	AuthConfigs       map[string]string
	ConnectedAccounts map[string][]string
	ManageConnections *SessionManageConnectionsParam
	Tools             map[string]SessionToolRuleParam
	Tags              *SessionTagsParam
	Workbench         *SessionWorkbenchParam
	MultiAccount      *SessionMultiAccount
	Reset             []string
}

// sessionResettable are the members PATCH takes as null.
var sessionResettable = []string{"connected_accounts", "manage_connections", "workbench", "multi_account"}

// Empty reports a request that would change nothing.
func (r UpdateSessionRequest) Empty() bool {
	m, _ := r.members()
	return len(m) == 0
}

func (r UpdateSessionRequest) members() (map[string]any, error) {
	m := map[string]any{}
	for _, f := range []struct {
		name string
		set  bool
		v    any
	}{
		{"toolkits", r.Toolkits != nil, r.Toolkits}, {"auth_configs", r.AuthConfigs != nil, r.AuthConfigs},
		{"connected_accounts", r.ConnectedAccounts != nil, r.ConnectedAccounts},
		{"manage_connections", r.ManageConnections != nil, r.ManageConnections}, {"tools", r.Tools != nil, r.Tools},
		{"tags", r.Tags != nil, r.Tags}, {"workbench", r.Workbench != nil, r.Workbench},
		{"multi_account", r.MultiAccount != nil, r.MultiAccount},
	} {
		if f.set {
			m[f.name] = f.v
		}
	}
	for _, k := range r.Reset {
		if !slices.Contains(sessionResettable, k) {
			return nil, fmt.Errorf("session update: %s cannot be reset (only %v)", k, sessionResettable)
		}
		if _, set := m[k]; set {
			return nil, fmt.Errorf("session update: %s is both set and reset", k)
		}
		m[k] = nil
	}
	return m, nil
}

// MarshalJSON writes the members set and the reset ones as null.
func (r UpdateSessionRequest) MarshalJSON() ([]byte, error) {
	m, err := r.members()
	if err != nil {
		return nil, err
	}
	return json.Marshal(m)
}

func sessionPath(id string) string { return "/tool_router/session/" + escape(id) }

// CreateSession creates a session (POST /tool_router/session). The service
// cannot list sessions, so a create whose outcome is unknown (the
// connection dropped after the request was sent) is not repeated: the
// *AmbiguousWriteError says so.
func (c *Client) CreateSession(ctx context.Context, r CreateSessionRequest) (*ToolRouterSession, error) {
	var out ToolRouterSession
	if err := c.do(ctx, http.MethodPost, "/tool_router/session", nil, r, &out); err != nil {
		return nil, err
	}
	if out.SessionID == "" {
		return nil, errors.New("POST " + APIPrefix + "/tool_router/session: response has no session_id")
	}
	c.claim(out.SessionID)
	return &out, nil
}

// GetSession retrieves a session (404 *APIError when unknown).
func (c *Client) GetSession(ctx context.Context, id string) (*ToolRouterSession, error) {
	var out ToolRouterSession
	if err := c.do(ctx, http.MethodGet, sessionPath(id), nil, nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// UpdateSession patches a session's configuration in place. The body is
// the members' target values, so repeating it is harmless: it is retried
// like an idempotent write.
func (c *Client) UpdateSession(ctx context.Context, id string, r UpdateSessionRequest) (*ToolRouterSession, error) {
	var out ToolRouterSession
	if err := c.do(ctx, http.MethodPatch, sessionPath(id), nil, r, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// DeleteSession deletes a session (404 *APIError when it is gone).
func (c *Client) DeleteSession(ctx context.Context, id string) error {
	return c.do(ctx, http.MethodDelete, sessionPath(id), nil, nil, nil)
}

// SessionConfigVersion is one version of a session's configuration.
type SessionConfigVersion struct {
	Version   int           `json:"version"`
	CreatedAt string        `json:"created_at"`
	Config    SessionConfig `json:"config"`
	IsCurrent bool          `json:"is_current"`
}

// SessionCreatedAt returns when the session was created: the created_at of
// version 1 of its configuration (GET .../config_history, newest first,
// read to its last page).
func (c *Client) SessionCreatedAt(ctx context.Context, id string) (string, error) {
	var first string
	for v, err := range paginate[SessionConfigVersion](ctx, c, sessionPath(id)+"/config_history", nil) {
		if err != nil {
			return "", err
		}
		if v.Version == 1 || first == "" {
			first = v.CreatedAt
		}
	}
	return first, nil
}

// SessionConfigSummary is a saved session config (sc_...) as the list
// answers it.
type SessionConfigSummary struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Archived  bool   `json:"archived"`
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
}

// SessionConfigPolicy is a session config's access policy.
type SessionConfigPolicy struct {
	Toolkits *SessionFilter             `json:"toolkits"`
	Tools    map[string]SessionToolRule `json:"tools"`
	Tags     *SessionFilter             `json:"tags"`
}

// SavedSessionConfig is a session config as the retrieve answers it.
type SavedSessionConfig struct {
	SessionConfigSummary
	Description *string `json:"description"`
	// Config is the policy as the service sent it; Policy decodes it.
	Config json.RawMessage `json:"config"`
}

// Policy decodes the config's policy (an absent config allows everything).
func (sc *SavedSessionConfig) Policy() (SessionConfigPolicy, error) {
	var p SessionConfigPolicy
	if len(sc.Config) == 0 || string(sc.Config) == "null" {
		return p, nil
	}
	if err := json.Unmarshal(sc.Config, &p); err != nil {
		return p, fmt.Errorf("session config %s: config: %w", sc.ID, err)
	}
	return p, nil
}

// SessionConfigListParams filters ListSessionConfigs: Search matches names;
// Archived lists only the archived configs (else only the active ones).
type SessionConfigListParams struct {
	Search   string
	Archived bool
	Limit    int
}

// SessionConfigsIter iterates over the project's session configs (GET
// /session_configs, every page). A project without the feature is answered
// 403.
func (c *Client) SessionConfigsIter(ctx context.Context, p SessionConfigListParams) iter.Seq2[SessionConfigSummary, error] {
	q := url.Values{}
	setString(q, "search", p.Search)
	if p.Archived {
		q.Set("archived", "true")
	}
	setLimit(q, p.Limit)
	return paginate[SessionConfigSummary](ctx, c, "/session_configs", q)
}

// ListSessionConfigs returns every session config matching p.
func (c *Client) ListSessionConfigs(ctx context.Context, p SessionConfigListParams) ([]SessionConfigSummary, error) {
	out := []SessionConfigSummary{}
	for sc, err := range c.SessionConfigsIter(ctx, p) {
		if err != nil {
			return nil, err
		}
		out = append(out, sc)
	}
	return out, nil
}

// GetSessionConfig retrieves a session config with its description and
// policy (404 *APIError when unknown, 403 without the feature).
func (c *Client) GetSessionConfig(ctx context.Context, id string) (*SavedSessionConfig, error) {
	var out SavedSessionConfig
	if err := c.do(ctx, http.MethodGet, "/session_configs/"+escape(id), nil, nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// ExecuteToolRequest is the body of POST /tools/execute/{slug}: the user
// (whose ACTIVE account of the tool's toolkit is used) or the connected
// account, the arguments, and optionally the toolkit version.
type ExecuteToolRequest struct {
	UserID             string         `json:"user_id,omitempty"`
	ConnectedAccountID string         `json:"connected_account_id,omitempty"`
	Version            string         `json:"version,omitempty"`
	Arguments          map[string]any `json:"arguments"`
}

// ToolExecution is the outcome of a tool execution.
type ToolExecution struct {
	Data       map[string]any `json:"data"`
	Error      *string        `json:"error"`
	Successful bool           `json:"successful"`
	LogID      string         `json:"log_id"`
}

// ExecuteTool runs a tool once (POST /tools/execute/{slug}). An execution
// has effects upstream (an email sent, an issue opened), so a request whose
// outcome is unknown is never repeated (*AmbiguousWriteError).
func (c *Client) ExecuteTool(ctx context.Context, slug string, r ExecuteToolRequest) (*ToolExecution, error) {
	if r.Arguments == nil {
		r.Arguments = map[string]any{}
	}
	var out ToolExecution
	if err := c.doKind(ctx, opCreate, http.MethodPost, "/tools/execute/"+escape(slug), nil, r, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
