package emulator

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
)

// Default and maximum page sizes. A larger limit is served as the maximum,
// except where the service answers 400 (limitAtMost).
const (
	defaultLimit  = 20
	maxLimit      = 1000
	maxLimitSmall = 50 // trigger instances, projects (400 beyond), as in the real API
	// maxLimitAuthConfigs: the auth config list pages by up to 200 since
	// 2026-09-21 (the service's changelog; the contract's types, older, say
	// 50) and answers 400 beyond.
	maxLimitAuthConfigs = 200
)

// limitAtMost answers the service's 400 naming limit when the request asks
// for a page larger than maxPage (routes that refuse it rather than serve
// their maximum).
func limitAtMost(r *http.Request, maxPage int) *apiError {
	l := r.URL.Query().Get("limit")
	if l == "" {
		return nil
	}
	if n, err := strconv.ParseFloat(l, 64); err == nil && n > float64(maxPage) {
		return errValidation("limit", "limit must be at most %d, got %s", maxPage, l)
	}
	return nil
}

type cursorState struct {
	Page  int `json:"page"`
	Limit int `json:"limit"`
}

// pageParams reads limit and cursor. The cursor is an opaque base64 string of
// {"page":n,"limit":l}; an explicit limit wins over the cursor's.
func pageParams(r *http.Request, maxPage int) (page, limit int, e *apiError) {
	q := r.URL.Query()
	page, limit = 1, defaultLimit
	if cur := q.Get("cursor"); cur != "" {
		raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(cur, "="))
		var cs cursorState
		if err != nil || json.Unmarshal(raw, &cs) != nil || cs.Page < 1 || cs.Limit < 1 {
			return 0, 0, newErr(http.StatusBadRequest, CodeInvalidCursor, "InvalidCursor", "cursor %q is not a cursor returned by this API", cur).
				fix("Pass next_cursor from the previous page unchanged, or omit cursor for the first page.")
		}
		page, limit = cs.Page, cs.Limit
	}
	if l := q.Get("limit"); l != "" {
		n, err := strconv.ParseFloat(l, 64)
		if err != nil || n < 0 || n != float64(int(n)) {
			return 0, 0, errValidation("limit", "limit must be a non-negative integer, got %q", l)
		}
		if n > 0 {
			limit = int(n)
		}
	}
	if limit > maxPage {
		limit = maxPage
	}
	return page, limit, nil
}

// legacyPage turns the legacy page query parameter (1-based; GET
// /trigger_instances/active) into the equivalent cursor when no cursor is given.
func legacyPage(r *http.Request, maxPage int) *apiError {
	q := r.URL.Query()
	p := q.Get("page")
	if p == "" || q.Get("cursor") != "" {
		return nil
	}
	n, err := strconv.Atoi(p)
	if err != nil || n < 1 {
		return errValidation("page", "page must be a positive integer, got %q", p)
	}
	_, limit, e := pageParams(r, maxPage)
	if e != nil {
		return e
	}
	q.Set("cursor", encodeCursor(n, limit))
	r.URL.RawQuery = q.Encode()
	return nil
}

func encodeCursor(page, limit int) string {
	b, _ := json.Marshal(cursorState{Page: page, Limit: limit})
	return base64.RawURLEncoding.EncodeToString(b)
}

// paginate slices items and renders the page envelope.
func paginate[T any](r *http.Request, items []T, maxPage int, render func(T) any) (map[string]any, *apiError) {
	page, limit, e := pageParams(r, maxPage)
	if e != nil {
		return nil, e
	}
	total := len(items)
	pages := (total + limit - 1) / limit
	if pages < 1 {
		pages = 1
	}
	start := (page - 1) * limit
	if start > total {
		start = total
	}
	end := start + limit
	if end > total {
		end = total
	}
	out := make([]any, 0, end-start)
	for _, it := range items[start:end] {
		out = append(out, render(it))
	}
	var next any
	if end < total {
		next = encodeCursor(page+1, limit)
	}
	return map[string]any{
		"items":        out,
		"next_cursor":  next,
		"total_pages":  pages,
		"current_page": page,
		"total_items":  total,
	}, nil
}

// answerPage answers a list request with the page of items paginate
// renders (200 and its envelope), or with paginate's error.
func answerPage[T any](r *http.Request, items []T, maxPage int, render func(T) any) (int, any, *apiError) {
	page, e := paginate(r, items, maxPage, render)
	if e != nil {
		return 0, nil, e
	}
	return 200, page, nil
}

// listParam returns the values of a list query parameter, accepting both
// comma-joined (a,b) and repeated (k=a&k=b) forms, plus the k[] form. Extra
// names are aliases (e.g. camelCase duplicates).
func listParam(r *http.Request, names ...string) []string {
	q := r.URL.Query()
	var out []string
	for _, name := range names {
		for _, key := range []string{name, name + "[]"} {
			for _, v := range q[key] {
				for _, part := range strings.Split(v, ",") {
					if p := strings.TrimSpace(part); p != "" {
						out = append(out, p)
					}
				}
			}
		}
	}
	return out
}

// boolParam parses a boolean query parameter; absent means false.
func boolParam(r *http.Request, names ...string) (bool, *apiError) {
	q := r.URL.Query()
	for _, name := range names {
		if !q.Has(name) {
			continue
		}
		v := strings.ToLower(q.Get(name))
		switch v {
		case "true", "1", "yes":
			return true, nil
		case "false", "0", "no", "":
			return false, nil
		default:
			return false, errValidation(name, "%s must be true or false, got %q", name, v)
		}
	}
	return false, nil
}

func containsFold(list []string, v string) bool {
	for _, x := range list {
		if strings.EqualFold(x, v) {
			return true
		}
	}
	return false
}
