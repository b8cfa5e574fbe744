package client

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"strings"
)

// Category is a toolkit category. The list endpoint returns {id, name}, the
// toolkit's meta returns {slug, name} (the documents; the emulator answers
// the same); the client fills ID and Slug from whichever is present, as
// @composio/core 0.21 does (its list maps the id to the slug).
type Category struct {
	ID   string `json:"id"`
	Slug string `json:"slug"`
	Name string `json:"name"`
}

// UnmarshalJSON fills ID and Slug from each other.
func (c *Category) UnmarshalJSON(b []byte) error {
	type plain Category
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*c = Category(p)
	if c.ID == "" {
		c.ID = c.Slug
	}
	if c.Slug == "" {
		c.Slug = c.ID
	}
	return nil
}

// Field is one input field of an auth scheme.
type Field struct {
	Name        string  `json:"name"`
	DisplayName string  `json:"displayName"` // camelCase on the wire
	Type        string  `json:"type"`
	Description string  `json:"description"`
	Required    bool    `json:"required"`
	Default     *string `json:"default"`
	// IsSecret is the service's is_secret or, when it leaves the member out
	// (it is optional in the contract and absent from the newest document),
	// derived from the field's name (SecretByName); SecretReported says
	// which.
	IsSecret       bool `json:"is_secret"`
	SecretReported bool `json:"-"`
}

// UnmarshalJSON tolerates non-string defaults (numbers, booleans) and
// derives IsSecret from the name when is_secret is left out.
func (f *Field) UnmarshalJSON(b []byte) error {
	type plain Field
	var p struct {
		plain
		Default  json.RawMessage `json:"default"`
		IsSecret *bool           `json:"is_secret"`
	}
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*f = Field(p.plain)
	f.SecretReported = p.IsSecret != nil
	if f.SecretReported {
		f.IsSecret = *p.IsSecret
	} else {
		f.IsSecret = SecretByName(f.Name)
	}
	f.Default = nil
	if len(p.Default) > 0 && string(p.Default) != "null" {
		var s string
		if json.Unmarshal(p.Default, &s) != nil {
			s = string(p.Default)
		}
		f.Default = &s
	}
	return nil
}

// SecretByName is whether an auth field named name holds a secret, judged by
// its name alone: a name the client masks in logged bodies (api_key, secret,
// password, token, private_key, ...), or one ending in "key" (devKey) or
// naming a session id (sessionId). It stands in for is_secret when the
// service leaves that out.
func SecretByName(name string) bool {
	lk := strings.ToLower(name)
	return isSecretKey(lk) || strings.HasSuffix(lk, "key") || strings.Contains(lk, "sessionid") || strings.Contains(lk, "session_id")
}

// FieldGroup holds required and optional fields.
type FieldGroup struct {
	Required []Field `json:"required"`
	Optional []Field `json:"optional"`
}

// AuthFields groups the fields for auth-config creation and account initiation.
type AuthFields struct {
	AuthConfigCreation         FieldGroup `json:"auth_config_creation"`
	ConnectedAccountInitiation FieldGroup `json:"connected_account_initiation"`
}

// AuthConfigDetail describes one auth scheme a toolkit supports.
type AuthConfigDetail struct {
	Mode   string     `json:"mode"`
	Name   string     `json:"name"`
	Fields AuthFields `json:"fields"`
}

// ToolkitMeta is the toolkit's meta object. A custom toolkit's MCP server
// URL may come as mcp_url (the name the service's SDKs use since
// 2026-11-09) or app_url (before): read it with URL.
type ToolkitMeta struct {
	Description       string     `json:"description"`
	Logo              string     `json:"logo"`
	AppURL            string     `json:"app_url"`
	MCPURL            string     `json:"mcp_url"`
	CreatedAt         string     `json:"created_at"`
	Version           string     `json:"version"`
	Categories        []Category `json:"categories"`
	AvailableVersions []string   `json:"available_versions"`
	ToolsCount        int        `json:"tools_count"`
	TriggersCount     int        `json:"triggers_count"`
}

// URL is the toolkit's URL as the service reports it: mcp_url when
// set, else app_url (a catalog toolkit's application URL, or a custom
// toolkit's MCP server URL from a service that reports only the old name).
func (m ToolkitMeta) URL() string {
	if m.MCPURL != "" {
		return m.MCPURL
	}
	return m.AppURL
}

// Toolkit is the get-toolkit response.
type Toolkit struct {
	Slug                       string             `json:"slug"`
	Name                       string             `json:"name"`
	Type                       string             `json:"type"` // native | custom
	Enabled                    bool               `json:"enabled"`
	IsLocalToolkit             bool               `json:"is_local_toolkit"`
	IsDeprecated               bool               `json:"is_deprecated"`
	ComposioManagedAuthSchemes []string           `json:"composio_managed_auth_schemes"`
	AuthConfigDetails          []AuthConfigDetail `json:"auth_config_details"`
	Meta                       ToolkitMeta        `json:"meta"`
}

// AuthDetail returns the auth config detail for scheme (case-insensitive).
func (t *Toolkit) AuthDetail(scheme string) (*AuthConfigDetail, bool) {
	if t == nil {
		return nil, false
	}
	for i := range t.AuthConfigDetails {
		if strings.EqualFold(t.AuthConfigDetails[i].Mode, scheme) {
			return &t.AuthConfigDetails[i], true
		}
	}
	return nil, false
}

// SupportsManagedAuth reports whether scheme (or, if empty, any scheme) is
// service-managed for this toolkit.
func (t *Toolkit) SupportsManagedAuth(scheme string) bool {
	for _, s := range t.ComposioManagedAuthSchemes {
		if scheme == "" || strings.EqualFold(s, scheme) {
			return true
		}
	}
	return false
}

// GetToolkit fetches one toolkit; version "" sends none (server default).
func (c *Client) GetToolkit(ctx context.Context, slug, version string) (*Toolkit, error) {
	var q url.Values
	if version != "" {
		q = url.Values{"version": {version}}
	}
	var out Toolkit
	if err := c.do(ctx, http.MethodGet, "/toolkits/"+escape(slug), q, nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// ToolkitSummary is one item of the toolkit list.
type ToolkitSummary struct {
	Slug                       string      `json:"slug"`
	Name                       string      `json:"name"`
	Type                       string      `json:"type"` // native | custom
	AuthSchemes                []string    `json:"auth_schemes"`
	ComposioManagedAuthSchemes []string    `json:"composio_managed_auth_schemes"`
	IsLocalToolkit             bool        `json:"is_local_toolkit"`
	NoAuth                     bool        `json:"no_auth"`
	Meta                       ToolkitMeta `json:"meta"`
}

// ToolkitListParams filters ListToolkits. Limit is the page size.
type ToolkitListParams struct {
	Category  string
	ManagedBy string // composio | all | project
	SortBy    string // usage | alphabetically
	Type      string // native | custom | all
	Limit     int
}

func (p ToolkitListParams) query() url.Values {
	q := url.Values{}
	setString(q, "category", p.Category)
	setString(q, "managed_by", p.ManagedBy)
	setString(q, "sort_by", p.SortBy)
	setString(q, "type", p.Type)
	setLimit(q, p.Limit)
	return q
}

// ToolkitsIter iterates over all toolkits matching p.
func (c *Client) ToolkitsIter(ctx context.Context, p ToolkitListParams) iter.Seq2[ToolkitSummary, error] {
	return paginate[ToolkitSummary](ctx, c, "/toolkits", p.query())
}

// ListToolkits returns all toolkits matching p.
func (c *Client) ListToolkits(ctx context.Context, p ToolkitListParams) ([]ToolkitSummary, error) {
	return collect(c.ToolkitsIter(ctx, p))
}

// ListToolkitCategories returns every toolkit category. It accepts a page
// envelope (following next_cursor) or a bare JSON array.
func (c *Client) ListToolkitCategories(ctx context.Context) ([]Category, error) {
	const path = "/toolkits/categories"
	var raw json.RawMessage
	if err := c.do(ctx, http.MethodGet, path, nil, nil, &raw); err != nil {
		return nil, err
	}
	var arr []Category
	if json.Unmarshal(raw, &arr) == nil {
		return arr, nil
	}
	var p page[Category]
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, fmt.Errorf("GET %s: decoding response: %w", APIPrefix+path, err)
	}
	out := p.Items
	if out == nil {
		out = []Category{}
	}
	if p.NextCursor != nil && *p.NextCursor != "" {
		rest, err := collect(paginateFrom[Category](ctx, c, path, nil, *p.NextCursor))
		if err != nil {
			return nil, err
		}
		out = append(out, rest...)
	}
	return out, nil
}
