package client

import (
	"context"
	"fmt"
	"iter"
	"net/http"
	"net/url"
)

// page is the service's list envelope. The organization's project list
// names its items data instead of items.
type page[T any] struct {
	Items       []T     `json:"items"`
	Data        []T     `json:"data"`
	NextCursor  *string `json:"next_cursor"`
	TotalPages  int     `json:"total_pages"`
	CurrentPage int     `json:"current_page"`
	TotalItems  int     `json:"total_items"`
}

// paginate yields every item of a list endpoint, following next_cursor until
// it is null or empty. A cursor that repeats ends the iteration with an error
// instead of looping forever. On error the iterator yields (zero, err) once
// and stops.
func paginate[T any](ctx context.Context, c *Client, path string, q url.Values) iter.Seq2[T, error] {
	return paginateFrom[T](ctx, c, path, q, "")
}

// paginateFrom is paginate starting at cursor ("" = first page).
func paginateFrom[T any](ctx context.Context, c *Client, path string, q url.Values, cursor string) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		seen := map[string]bool{cursor: cursor != ""}
		for {
			p, err := pageOf[T](ctx, c, path, q, cursor)
			if err != nil {
				yield(zero, err)
				return
			}
			for _, it := range p.Items {
				if !yield(it, nil) {
					return
				}
			}
			if p.NextCursor == "" {
				return
			}
			next := p.NextCursor
			if seen[next] || next == cursor {
				yield(zero, fmt.Errorf("GET %s: pagination cursor %q repeated; stopping to avoid an endless loop", APIPrefix+path, next))
				return
			}
			seen[next] = true
			cursor = next
		}
	}
}

// Page is one page of a list endpoint, for callers that page themselves
// (the provider's refresh by listing decides after the first page whether
// to read the others).
type Page[T any] struct {
	Items []T
	// NextCursor continues the listing; "" on the last page.
	NextCursor string
	// TotalPages is the number of pages the service reports for this page
	// size (0 when it reports none).
	TotalPages int
}

// pageOf reads the page of a list endpoint at cursor ("" = the first page).
func pageOf[T any](ctx context.Context, c *Client, path string, q url.Values, cursor string) (Page[T], error) {
	pq := make(url.Values, len(q)+1)
	for k, v := range q {
		pq[k] = v
	}
	if cursor != "" {
		pq.Set("cursor", cursor)
	}
	var p page[T]
	if err := c.do(ctx, http.MethodGet, path, pq, nil, &p); err != nil {
		return Page[T]{}, err
	}
	out := Page[T]{Items: append(p.Items, p.Data...), TotalPages: p.TotalPages}
	if p.NextCursor != nil {
		out.NextCursor = *p.NextCursor
	}
	return out, nil
}

// collect drains an iterator into a slice, stopping at the first error.
func collect[T any](seq iter.Seq2[T, error]) ([]T, error) {
	out := []T{}
	for v, err := range seq {
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}
