package client

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Custom toolkit auth modes (toolkit_config.auth_schemes[].mode).
const (
	CustomAuthNoAuth   = "NO_AUTH"
	CustomAuthAPIKey   = "API_KEY"
	CustomAuthDCROAuth = "DCR_OAUTH"
)

// CustomAPIKeyPlaceholder is the text an API_KEY custom toolkit's header
// values must contain; the service puts the connected account's key there.
const CustomAPIKeyPlaceholder = "{{generic_api_key}}" //nolint:gosec // G101: the placeholder the service replaces with the key, not a key

// CustomToolkitPrefix is what the service puts before a custom toolkit's
// slug ("acme" is registered as CUSTOM_ACME).
const CustomToolkitPrefix = "CUSTOM_"

// CustomAuthScheme is one auth scheme of a custom (remote MCP) toolkit:
// Headers for API_KEY (a value holds CustomAPIKeyPlaceholder), DiscoveryURL
// for DCR_OAUTH.
type CustomAuthScheme struct {
	Mode         string            `json:"mode"`
	Headers      map[string]string `json:"headers,omitempty"`
	DiscoveryURL string            `json:"discovery_url,omitempty"`
}

// CustomToolkitConfig is the toolkit_config of a custom toolkit registration.
// The MCP server URL goes out as toolkit_config.mcp_url only, the name the
// service's SDKs send since 2026-11-09 (app_url before); reads take it from
// either (ToolkitMeta.URL).
type CustomToolkitConfig struct {
	Name        string             `json:"name"`
	Description string             `json:"description,omitempty"`
	MCPURL      string             `json:"mcp_url"`
	AuthSchemes []CustomAuthScheme `json:"auth_schemes"`
}

type customToolkitBody struct {
	Slug          string              `json:"slug"`
	UserID        string              `json:"user_id,omitempty"`
	ToolkitConfig CustomToolkitConfig `json:"toolkit_config"`
}

// CustomToolkitSlug is the slug the service registers a custom toolkit
// slug under: spaces become underscores, upper case, CUSTOM_ prefix.
func CustomToolkitSlug(slug string) string {
	s := strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(slug), " ", "_"))
	return CustomToolkitPrefix + strings.TrimPrefix(s, CustomToolkitPrefix)
}

// CreateCustomToolkit registers a new custom toolkit shared with every user
// of the project (POST /custom/toolkits, user_id "all") and returns the slug
// the service gives it (CustomToolkitSlug). Unlike upsert it never takes over
// an existing toolkit: an existing slug answers 409. After an ambiguous
// failure it reconciles by the natural key, the slug: a custom toolkit with
// that slug and MCP server URL created since the request was sent is adopted.
func (c *Client) CreateCustomToolkit(ctx context.Context, slug string, cfg CustomToolkitConfig) (string, error) {
	want := CustomToolkitSlug(slug)
	return createReconciled(ctx, c, reconcile[string]{
		What: "custom toolkit",
		Key:  fmt.Sprintf("slug %q", want),
		Create: func(ctx context.Context) (string, error) {
			var out struct {
				Slug string `json:"slug"`
			}
			body := customToolkitBody{Slug: slug, UserID: "all", ToolkitConfig: cfg}
			if err := c.do(ctx, http.MethodPost, "/custom/toolkits", nil, body, &out); err != nil {
				return "", err
			}
			return out.Slug, nil
		},
		ID: func(s string) string { return s },
		Find: func(ctx context.Context, since time.Time) ([]string, error) {
			tk, err := c.GetToolkit(ctx, want, "")
			switch {
			case IsNotFound(err):
				return nil, nil
			case err != nil:
				return nil, err
			case tk.Type == "custom" && tk.Meta.URL() == cfg.MCPURL && createdSince(tk.Meta.CreatedAt, since):
				return []string{tk.Slug}, nil
			}
			return nil, nil
		},
	})
}

// UpdateCustomToolkitRequest holds the fields PATCH /custom/toolkits/{slug}
// changes; nil fields keep their value. The service's PATCH changes only the
// name, the logo and the API key field texts (since 2026-11-03): the MCP
// server URL, the auth schemes, user_id and the description are set when
// the toolkit is registered.
type UpdateCustomToolkitRequest struct {
	Name *string `json:"name,omitempty"`
}

// UpdateCustomToolkit updates a custom toolkit's name (PATCH
// /custom/toolkits/{slug}).
func (c *Client) UpdateCustomToolkit(ctx context.Context, slug string, r UpdateCustomToolkitRequest) error {
	return c.do(ctx, http.MethodPatch, "/custom/toolkits/"+escape(slug), nil, r, nil)
}

// DeleteCustomToolkit deletes a custom toolkit with its auth configs and
// connected accounts (DELETE /custom/toolkits/{slug}).
func (c *Client) DeleteCustomToolkit(ctx context.Context, slug string) error {
	return c.do(ctx, http.MethodDelete, "/custom/toolkits/"+escape(slug), nil, nil, nil)
}
