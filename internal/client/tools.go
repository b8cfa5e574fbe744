package client

import (
	"context"
	"iter"
	"net/url"
)

// Tool is one tool of a toolkit.
type Tool struct {
	Slug              string         `json:"slug"`
	Name              string         `json:"name"`
	Description       string         `json:"description"`
	Version           string         `json:"version"`
	Toolkit           ToolkitRef     `json:"toolkit"`
	InputParameters   map[string]any `json:"input_parameters"`
	OutputParameters  map[string]any `json:"output_parameters"`
	AvailableVersions []string       `json:"available_versions"`
	Scopes            []string       `json:"scopes"`
	Tags              []string       `json:"tags"`
	NoAuth            bool           `json:"no_auth"`
	IsDeprecated      bool           `json:"is_deprecated"`
}

// ToolListParams filters ListTools. Limit is the page size.
type ToolListParams struct {
	ToolkitSlug string
	Versions    *ToolkitVersions
	Limit       int
}

// ToolsIter iterates over the tools matching p.
func (c *Client) ToolsIter(ctx context.Context, p ToolListParams) iter.Seq2[Tool, error] {
	q := url.Values{}
	setString(q, "toolkit_slug", p.ToolkitSlug)
	p.Versions.setQuery(q, p.ToolkitSlug)
	setLimit(q, p.Limit)
	return paginate[Tool](ctx, c, "/tools", q)
}

// ListTools returns all tools matching p.
func (c *Client) ListTools(ctx context.Context, p ToolListParams) ([]Tool, error) {
	return collect(c.ToolsIter(ctx, p))
}
