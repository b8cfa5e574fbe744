package client

import (
	"context"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// MCPCommands are the service's setup commands for MCP clients.
type MCPCommands struct {
	Cursor   string `json:"cursor"`
	Claude   string `json:"claude"`
	Windsurf string `json:"windsurf"`
}

// MCPServer is an MCP server as returned by create, get, update and list.
type MCPServer struct {
	ID                     string            `json:"id"`
	Name                   string            `json:"name"`
	AuthConfigIDs          []string          `json:"auth_config_ids"`
	AllowedTools           []string          `json:"allowed_tools"`
	MCPURL                 string            `json:"mcp_url"`
	Toolkits               []string          `json:"toolkits"`
	ToolkitIcons           map[string]string `json:"toolkit_icons"`
	Commands               MCPCommands       `json:"commands"`
	CreatedAt              string            `json:"created_at"`
	UpdatedAt              string            `json:"updated_at"`
	ServerInstanceCount    int               `json:"server_instance_count"`
	ManagedAuthViaComposio bool              `json:"managed_auth_via_composio"`
	Deleted                bool              `json:"deleted"`
}

// CreateMCPServerRequest is the body of POST /mcp/servers. AllowedTools empty
// means every tool of the auth configs' toolkits.
type CreateMCPServerRequest struct {
	Name                   string   `json:"name"`
	AuthConfigIDs          []string `json:"auth_config_ids"`
	NoAuthApps             []string `json:"no_auth_apps,omitempty"`
	AllowedTools           []string `json:"allowed_tools,omitempty"`
	ManagedAuthViaComposio *bool    `json:"managed_auth_via_composio,omitempty"`
}

// CreateMCPServer creates an MCP server (POST /mcp/servers). An ambiguous
// failure is reconciled by listing the servers with the same name (unique in
// a project) created since the request was sent (see the write policy in
// transport.go).
func (c *Client) CreateMCPServer(ctx context.Context, r CreateMCPServerRequest) (*MCPServer, error) {
	if r.AuthConfigIDs == nil {
		r.AuthConfigIDs = []string{}
	}
	return createReconciled(ctx, c, reconcile[*MCPServer]{
		What: "MCP server",
		Key:  fmt.Sprintf("name %q", r.Name),
		Create: func(ctx context.Context) (*MCPServer, error) {
			var out MCPServer
			if err := c.do(ctx, http.MethodPost, "/mcp/servers", nil, r, &out); err != nil {
				return nil, err
			}
			return &out, nil
		},
		ID: func(m *MCPServer) string { return m.ID },
		Find: func(ctx context.Context, since time.Time) ([]*MCPServer, error) {
			return c.mcpServersNamed(ctx, r.Name, since)
		},
	})
}

// mcpServersNamed lists the MCP servers named exactly name created at or
// after since (the natural key of an MCP server).
func (c *Client) mcpServersNamed(ctx context.Context, name string, since time.Time) ([]*MCPServer, error) {
	all, err := c.ListMCPServers(ctx, MCPServerListParams{Name: name})
	if err != nil {
		return nil, err
	}
	var out []*MCPServer
	for i := range all {
		if all[i].Name == name && createdSince(all[i].CreatedAt, since) {
			out = append(out, &all[i])
		}
	}
	return out, nil
}

// GetMCPServer fetches one MCP server (GET /mcp/{id}).
func (c *Client) GetMCPServer(ctx context.Context, id string) (*MCPServer, error) {
	var out MCPServer
	if err := c.do(ctx, http.MethodGet, "/mcp/"+escape(id), nil, nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// UpdateMCPServerRequest is the body of PATCH /mcp/{id}. Nil fields are left
// out (the service keeps them); Toolkits lists the auth configs' toolkits plus
// the NO_AUTH toolkits to serve.
type UpdateMCPServerRequest struct {
	Name                   *string  `json:"name,omitempty"`
	AuthConfigIDs          []string `json:"auth_config_ids,omitzero"`
	Toolkits               []string `json:"toolkits,omitzero"`
	AllowedTools           []string `json:"allowed_tools,omitzero"`
	ManagedAuthViaComposio *bool    `json:"managed_auth_via_composio,omitempty"`
}

// UpdateMCPServer patches an MCP server and returns it as updated.
func (c *Client) UpdateMCPServer(ctx context.Context, id string, r UpdateMCPServerRequest) (*MCPServer, error) {
	var out MCPServer
	if err := c.do(ctx, http.MethodPatch, "/mcp/"+escape(id), nil, r, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// DeleteMCPServer deletes an MCP server (DELETE /mcp/{id}).
func (c *Client) DeleteMCPServer(ctx context.Context, id string) error {
	return c.do(ctx, http.MethodDelete, "/mcp/"+escape(id), nil, nil, nil)
}

// MCPServerListParams filters ListMCPServers. Name matches a substring;
// Toolkits and AuthConfigIDs match servers with any of them. OrderBy is
// created_at or updated_at, OrderDirection asc or desc. Limit is the page
// size (0 = server default); all pages are always read.
type MCPServerListParams struct {
	Name           string
	Toolkits       []string
	AuthConfigIDs  []string
	OrderBy        string
	OrderDirection string
	Limit          int
}

func (p MCPServerListParams) query() url.Values {
	q := url.Values{}
	setString(q, "name", p.Name)
	setList(q, "toolkits", p.Toolkits)
	setList(q, "auth_config_ids", p.AuthConfigIDs)
	setString(q, "order_by", p.OrderBy)
	setString(q, "order_direction", p.OrderDirection)
	setLimit(q, p.Limit)
	return q
}

// ListMCPServers returns every MCP server matching p (GET /mcp/servers).
func (c *Client) ListMCPServers(ctx context.Context, p MCPServerListParams) ([]MCPServer, error) {
	return pagesByNumber[MCPServer](ctx, c, "/mcp/servers", p.query())
}

// MCPServersIter iterates over the MCP servers matching p, fetching a page
// only when the previous one has been consumed: a caller that stops early
// (a list resource's limit) requests no further page.
func (c *Client) MCPServersIter(ctx context.Context, p MCPServerListParams) iter.Seq2[MCPServer, error] {
	return pagesByNumberIter[MCPServer](ctx, c, "/mcp/servers", p.query())
}

// maxNumberedPages bounds page_no paging against a service that never ends.
const maxNumberedPages = 1000

// numberedPage is one page of a page_no-paginated list.
type numberedPage[T any] struct {
	Items      []T `json:"items"`
	TotalPages int `json:"total_pages"`
}

// pagesByNumber reads every page of a page_no-paginated list.
func pagesByNumber[T any](ctx context.Context, c *Client, path string, q url.Values) ([]T, error) {
	var all []T
	for it, err := range pagesByNumberIter[T](ctx, c, path, q) {
		if err != nil {
			return nil, err
		}
		all = append(all, it)
	}
	return all, nil
}

// pagesByNumberIter yields the items of a page_no-paginated list page by
// page (page_no 1, 2, ... until total_pages or an empty page), requesting a
// page only once the items before it have been consumed. On error it yields
// (zero, err) once and stops. q is not modified.
func pagesByNumberIter[T any](ctx context.Context, c *Client, path string, q url.Values) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		pq := make(url.Values, len(q)+1)
		for k, v := range q {
			pq[k] = v
		}
		for page := 1; page <= maxNumberedPages; page++ {
			pq.Set("page_no", strconv.Itoa(page))
			var out numberedPage[T]
			if err := c.do(ctx, http.MethodGet, path, pq, nil, &out); err != nil {
				yield(zero, err)
				return
			}
			items := out.Items
			for _, it := range items {
				if !yield(it, nil) {
					return
				}
			}
			if page >= out.TotalPages || len(items) == 0 {
				return
			}
		}
	}
}
