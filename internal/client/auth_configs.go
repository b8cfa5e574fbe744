package client

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Auth config create types (wire `auth_config.type`).
const (
	AuthConfigTypeManaged = "use_composio_managed_auth"
	AuthConfigTypeCustom  = "use_custom_auth"
)

// Auth config update types (wire `type` of PATCH /auth_configs/{id}).
const (
	AuthConfigUpdateCustom  = "custom"
	AuthConfigUpdateDefault = "default"
)

// Auth config statuses.
const (
	AuthConfigStatusEnabled  = "ENABLED"
	AuthConfigStatusDisabled = "DISABLED"
)

// ToolkitRef names a toolkit inside another object.
type ToolkitRef struct {
	Slug string `json:"slug"`
	Name string `json:"name,omitempty"`
	Logo string `json:"logo,omitempty"`
}

// ToolAccessConfig restricts which tools an auth config may use. In a request
// a nil list is left out (the service keeps its value) and a non-nil empty
// list is sent as [] (the service clears the list).
type ToolAccessConfig struct {
	ToolsForConnectedAccountCreation []string `json:"tools_for_connected_account_creation,omitzero"`
	ToolsAvailableForExecution       []string `json:"tools_available_for_execution,omitzero"`
}

// ProxyConfig routes a custom auth config's calls through a proxy.
type ProxyConfig struct {
	ProxyURL     string `json:"proxy_url"`
	ProxyAuthKey string `json:"proxy_auth_key,omitempty"`
}

// AuthConfig is an auth config as returned by get and list.
type AuthConfig struct {
	ID                     string           `json:"id"`
	UUID                   string           `json:"uuid"`
	Type                   string           `json:"type"` // "default" | "custom"
	Name                   string           `json:"name"`
	AuthScheme             string           `json:"auth_scheme"`
	Status                 string           `json:"status"`
	CreatedAt              string           `json:"created_at"`
	LastUpdatedAt          string           `json:"last_updated_at"`
	Toolkit                ToolkitRef       `json:"toolkit"`
	IsComposioManaged      bool             `json:"is_composio_managed"`
	IsEnabledForToolRouter bool             `json:"is_enabled_for_tool_router"`
	Credentials            map[string]any   `json:"credentials"`
	ToolAccessConfig       ToolAccessConfig `json:"tool_access_config"`
	NoOfConnections        int              `json:"no_of_connections"`
	ProxyConfig            *ProxyConfig     `json:"proxy_config"`
	// SharedCredentials are inherited by every connected account of the
	// auth config; secret values come back masked.
	SharedCredentials map[string]any `json:"shared_credentials"`
	// Scopes and UserScopes are credentials.scopes and credentials.user_scopes
	// normalised to lists (the wire has a comma/space separated string or a
	// list).
	Scopes     []string `json:"-"`
	UserScopes []string `json:"-"`
}

// UnmarshalJSON decodes an auth config and fills Scopes.
func (a *AuthConfig) UnmarshalJSON(b []byte) error {
	type plain AuthConfig
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*a = AuthConfig(p)
	if a.Credentials != nil {
		a.Scopes = normalizeScopes(a.Credentials["scopes"])
		a.UserScopes = normalizeScopes(a.Credentials["user_scopes"])
	}
	return nil
}

// normalizeScopes turns a scopes value (string with comma/space separators,
// or a list) into a list.
func normalizeScopes(v any) []string {
	switch t := v.(type) {
	case string:
		f := strings.FieldsFunc(t, func(r rune) bool { return r == ',' || r == ' ' || r == '\n' || r == '\t' })
		if len(f) == 0 {
			return nil
		}
		return f
	case []any:
		out := make([]string, 0, len(t))
		for _, e := range t {
			if s, ok := e.(string); ok && s != "" {
				out = append(out, s)
			}
		}
		return out
	case []string:
		return t
	}
	return nil
}

// AuthConfigListPageSize is the page size auth config listings ask for: the
// service's maximum for this list since 2026-09-21 (it answers 400 beyond;
// the contract's types, older, still say 50).
const AuthConfigListPageSize = 200

// AuthConfigListParams filters ListAuthConfigs. Limit is the page size (0 =
// AuthConfigListPageSize, which is also the most asked for); all pages are
// always read.
type AuthConfigListParams struct {
	ToolkitSlug       string
	IsComposioManaged *bool
	ShowDisabled      bool
	Search            string
	Limit             int
}

func (p AuthConfigListParams) query() url.Values {
	q := url.Values{}
	setString(q, "toolkit_slug", p.ToolkitSlug)
	if p.IsComposioManaged != nil {
		q.Set("is_composio_managed", strconv.FormatBool(*p.IsComposioManaged))
	}
	if p.ShowDisabled {
		q.Set("show_disabled", "true")
	}
	setString(q, "search", p.Search)
	limit := p.Limit
	if limit <= 0 || limit > AuthConfigListPageSize {
		limit = AuthConfigListPageSize
	}
	setLimit(q, limit)
	return q
}

// AuthConfigsIter iterates over all auth configs matching p.
func (c *Client) AuthConfigsIter(ctx context.Context, p AuthConfigListParams) iter.Seq2[AuthConfig, error] {
	return paginate[AuthConfig](ctx, c, "/auth_configs", p.query())
}

// ListAuthConfigs returns all auth configs matching p (every page).
func (c *Client) ListAuthConfigs(ctx context.Context, p AuthConfigListParams) ([]AuthConfig, error) {
	return collect(c.AuthConfigsIter(ctx, p))
}

// AuthConfigsPage reads the page of the auth configs matching p at cursor
// ("" = the first page; p.Limit is the page size).
func (c *Client) AuthConfigsPage(ctx context.Context, p AuthConfigListParams, cursor string) (Page[AuthConfig], error) {
	return pageOf[AuthConfig](ctx, c, "/auth_configs", p.query(), cursor)
}

// GetAuthConfig fetches one auth config.
func (c *Client) GetAuthConfig(ctx context.Context, id string) (*AuthConfig, error) {
	var out AuthConfig
	if err := c.do(ctx, http.MethodGet, "/auth_configs/"+escape(id), nil, nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// CreateAuthConfigRequest creates a managed (Type AuthConfigTypeManaged) or
// custom (AuthConfigTypeCustom, AuthScheme required) auth config.
type CreateAuthConfigRequest struct {
	ToolkitSlug            string
	Type                   string
	Name                   string
	AuthScheme             string
	Credentials            map[string]any
	ToolAccessConfig       *ToolAccessConfig
	IsEnabledForToolRouter *bool
	ProxyConfig            *ProxyConfig
	// SharedCredentials (nil: none) are inherited by the auth config's
	// connected accounts.
	SharedCredentials map[string]any
	// ToolsAvailableForExecution (nil: no restriction) limits the tools the
	// auth config's accounts may execute; the create body carries it as
	// restrict_to_following_tools.
	ToolsAvailableForExecution []string
}

type createAuthConfigBody struct {
	Toolkit    slugRef              `json:"toolkit"`
	AuthConfig createAuthConfigWire `json:"auth_config"`
}

type slugRef struct {
	Slug string `json:"slug"`
}

// createAuthConfigWire is the create body's auth_config. On create the
// execution allow-list travels as restrict_to_following_tools: the create
// variants' tool_access_config has only tools_for_connected_account_creation.
type createAuthConfigWire struct {
	Type                     string            `json:"type"`
	Name                     string            `json:"name,omitempty"`
	AuthScheme               string            `json:"authScheme,omitempty"` // camelCase on the wire
	Credentials              map[string]any    `json:"credentials,omitempty"`
	ProxyConfig              *ProxyConfig      `json:"proxy_config,omitempty"`
	ToolAccessConfig         *ToolAccessConfig `json:"tool_access_config,omitempty"`
	RestrictToFollowingTools []string          `json:"restrict_to_following_tools,omitzero"`
	SharedCredentials        map[string]any    `json:"shared_credentials,omitempty"`
	IsEnabledForToolRouter   *bool             `json:"is_enabled_for_tool_router,omitempty"`
}

// CreatedAuthConfig is the create response.
type CreatedAuthConfig struct {
	ID                string
	AuthScheme        string
	IsComposioManaged bool
	ToolkitSlug       string
}

// CreateAuthConfig creates an auth config (POST /auth_configs). An ambiguous
// failure is reconciled by listing the toolkit's auth configs with the same
// name (when given) and type created since the request was sent (see the
// write policy in transport.go).
func (c *Client) CreateAuthConfig(ctx context.Context, r CreateAuthConfigRequest) (*CreatedAuthConfig, error) {
	key := fmt.Sprintf("toolkit %q", r.ToolkitSlug)
	if r.Name != "" {
		key += fmt.Sprintf(", name %q", r.Name)
	}
	return createReconciled(ctx, c, reconcile[*CreatedAuthConfig]{
		What: "auth config",
		Key:  key,
		Create: func(ctx context.Context) (*CreatedAuthConfig, error) {
			defer c.reads.expect(authConfigReads)()
			return c.createAuthConfigOnce(ctx, r)
		},
		ID: func(a *CreatedAuthConfig) string { return a.ID },
		Find: func(ctx context.Context, since time.Time) ([]*CreatedAuthConfig, error) {
			all, err := c.ListAuthConfigs(ctx, AuthConfigListParams{ToolkitSlug: r.ToolkitSlug, ShowDisabled: true})
			if err != nil {
				return nil, err
			}
			managed := r.Type == "" || r.Type == AuthConfigTypeManaged
			var out []*CreatedAuthConfig
			for _, a := range all {
				if (r.Name != "" && a.Name != r.Name) || a.IsComposioManaged != managed || !createdSince(a.CreatedAt, since) {
					continue
				}
				out = append(out, &CreatedAuthConfig{ID: a.ID, AuthScheme: a.AuthScheme, IsComposioManaged: a.IsComposioManaged, ToolkitSlug: a.Toolkit.Slug})
			}
			return out, nil
		},
	})
}

func (c *Client) createAuthConfigOnce(ctx context.Context, r CreateAuthConfigRequest) (*CreatedAuthConfig, error) {
	typ := r.Type
	if typ == "" {
		typ = AuthConfigTypeManaged
	}
	body := createAuthConfigBody{
		Toolkit: slugRef{Slug: r.ToolkitSlug},
		AuthConfig: createAuthConfigWire{
			Type:                     typ,
			Name:                     r.Name,
			Credentials:              r.Credentials,
			RestrictToFollowingTools: r.ToolsAvailableForExecution,
			SharedCredentials:        r.SharedCredentials,
			IsEnabledForToolRouter:   r.IsEnabledForToolRouter,
		},
	}
	if tac := r.ToolAccessConfig; tac != nil {
		if r.ToolsAvailableForExecution == nil {
			body.AuthConfig.RestrictToFollowingTools = tac.ToolsAvailableForExecution
		}
		if tac.ToolsForConnectedAccountCreation != nil {
			body.AuthConfig.ToolAccessConfig = &ToolAccessConfig{ToolsForConnectedAccountCreation: tac.ToolsForConnectedAccountCreation}
		}
	}
	if typ == AuthConfigTypeCustom {
		body.AuthConfig.AuthScheme = r.AuthScheme
		body.AuthConfig.ProxyConfig = r.ProxyConfig
		if body.AuthConfig.Credentials == nil {
			body.AuthConfig.Credentials = map[string]any{}
		}
	}
	var out struct {
		Toolkit    slugRef `json:"toolkit"`
		AuthConfig struct {
			ID                string `json:"id"`
			AuthScheme        string `json:"auth_scheme"`
			IsComposioManaged bool   `json:"is_composio_managed"`
		} `json:"auth_config"`
	}
	if err := c.do(ctx, http.MethodPost, "/auth_configs", nil, body, &out); err != nil {
		return nil, err
	}
	return &CreatedAuthConfig{
		ID:                out.AuthConfig.ID,
		AuthScheme:        out.AuthConfig.AuthScheme,
		IsComposioManaged: out.AuthConfig.IsComposioManaged,
		ToolkitSlug:       out.Toolkit.Slug,
	}, nil
}

// UpdateAuthConfigRequest updates an auth config. Type is "custom" (for
// custom auth configs: Credentials; Scopes are merged into
// credentials.scopes) or "default" (managed: Scopes sent as `scopes`). The
// default variant has no credentials: its Credentials may only carry scopes
// and user_scopes, which are sent as the top-level fields; any other
// credential field is an error and nothing is sent.
// Scopes nil leaves the scopes alone; a non-nil empty Scopes is sent as []
// and clears them (likewise UserScopes and the ToolAccessConfig lists).
// ProxyConfig (custom only) nil leaves the proxy alone; SharedCredentials nil
// leaves them alone, otherwise replaces them.
type UpdateAuthConfigRequest struct {
	Type                   string
	Name                   *string
	Credentials            map[string]any
	Scopes                 []string
	UserScopes             []string
	IsEnabledForToolRouter *bool
	ToolAccessConfig       *ToolAccessConfig
	ProxyConfig            *ProxyConfig
	ClearProxyConfig       bool // send proxy_config: null (custom only)
	SharedCredentials      map[string]any
}

type updateAuthConfigWire struct {
	Type                   string            `json:"type"`
	Name                   *string           `json:"name,omitempty"`
	Credentials            map[string]any    `json:"credentials,omitempty"`
	Scopes                 any               `json:"scopes,omitempty"`
	UserScopes             any               `json:"user_scopes,omitempty"`
	ProxyConfig            any               `json:"proxy_config,omitempty"` // *ProxyConfig, or JSON null to remove
	SharedCredentials      map[string]any    `json:"shared_credentials,omitempty"`
	IsEnabledForToolRouter *bool             `json:"is_enabled_for_tool_router,omitempty"`
	ToolAccessConfig       *ToolAccessConfig `json:"tool_access_config,omitempty"`
}

// UpdateAuthConfig patches an auth config (PATCH /auth_configs/{id}).
func (c *Client) UpdateAuthConfig(ctx context.Context, id string, r UpdateAuthConfigRequest) error {
	typ := r.Type
	if typ == "" {
		typ = AuthConfigUpdateDefault
	}
	body := updateAuthConfigWire{
		Type:                   typ,
		Name:                   r.Name,
		IsEnabledForToolRouter: r.IsEnabledForToolRouter,
		ToolAccessConfig:       r.ToolAccessConfig,
		SharedCredentials:      r.SharedCredentials,
	}
	if typ == AuthConfigUpdateCustom {
		creds := make(map[string]any, len(r.Credentials)+2)
		for k, v := range r.Credentials {
			creds[k] = v
		}
		if _, ok := creds["scopes"]; !ok && r.Scopes != nil {
			creds["scopes"] = r.Scopes
		}
		if _, ok := creds["user_scopes"]; !ok && r.UserScopes != nil {
			creds["user_scopes"] = r.UserScopes
		}
		body.Credentials = creds
		switch {
		case r.ClearProxyConfig:
			body.ProxyConfig = json.RawMessage("null")
		case r.ProxyConfig != nil:
			body.ProxyConfig = r.ProxyConfig
		}
	} else {
		if r.Scopes != nil {
			body.Scopes = r.Scopes
		}
		if r.UserScopes != nil {
			body.UserScopes = r.UserScopes
		}
		for _, k := range slices.Sorted(maps.Keys(r.Credentials)) {
			switch v := r.Credentials[k]; k {
			case "scopes":
				if body.Scopes == nil {
					body.Scopes = v
				}
			case "user_scopes":
				if body.UserScopes == nil {
					body.UserScopes = v
				}
			default:
				return fmt.Errorf("update auth config %s: credentials.%s cannot be sent in a %q update (only %q updates carry credentials)",
					id, k, AuthConfigUpdateDefault, AuthConfigUpdateCustom)
			}
		}
	}
	return c.do(ctx, http.MethodPatch, "/auth_configs/"+escape(id), nil, body, nil)
}

// DeleteAuthConfigWith deletes an auth config (DELETE /auth_configs/{id})
// with o, returning the revoke job's id when the service started one (with
// RevokeOnDelete, the upstream credentials of every account of the auth
// config are revoked).
func (c *Client) DeleteAuthConfigWith(ctx context.Context, id string, o DeleteOptions) (revokeJobID string, err error) {
	var out deleteAnswer
	if err := c.do(ctx, http.MethodDelete, "/auth_configs/"+escape(id), o.query(), nil, &out); err != nil {
		return "", err
	}
	return out.RevokeJobID, nil
}

// DisableAuthConfig sets status DISABLED.
func (c *Client) DisableAuthConfig(ctx context.Context, id string) error {
	return c.UpdateAuthConfigStatus(ctx, AuthConfigStatusDisabled, id)
}

// UpdateAuthConfigStatus sets status (ENABLED or DISABLED) with
// PATCH /auth_configs/{id}/{status} (no body). Argument order follows the SDK.
func (c *Client) UpdateAuthConfigStatus(ctx context.Context, status, id string) error {
	return c.do(ctx, http.MethodPatch, "/auth_configs/"+escape(id)+"/"+escape(strings.ToUpper(status)), nil, nil, nil)
}
