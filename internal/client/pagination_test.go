package client

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// pagedAuthConfigs serves total auth configs in pages of size (cursor = offset).
func pagedAuthConfigs(total, size int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		off, _ := strconv.Atoi(r.URL.Query().Get("cursor"))
		items := []map[string]any{}
		for i := off; i < off+size && i < total; i++ {
			items = append(items, map[string]any{"id": fmt.Sprintf("ac_%d", i), "toolkit": map[string]any{"slug": "github"}})
		}
		var next any
		if off+size < total {
			next = strconv.Itoa(off + size)
		}
		writeJSON(w, 200, map[string]any{"items": items, "next_cursor": next, "total_pages": (total + size - 1) / size, "current_page": off/size + 1, "total_items": total})
	}
}

func TestPaginationSeveralPages(t *testing.T) {
	c, rec := newTestClient(t, pagedAuthConfigs(23, 10))
	got, err := c.ListAuthConfigs(context.Background(), AuthConfigListParams{ToolkitSlug: "github", Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 23 || got[0].ID != "ac_0" || got[22].ID != "ac_22" {
		t.Fatalf("got %d items", len(got))
	}
	reqs := rec.all()
	if len(reqs) != 3 {
		t.Fatalf("requests = %d, want 3", len(reqs))
	}
	for i, want := range []string{"", "10", "20"} {
		q := reqs[i].Query
		if q.Get("cursor") != want || q.Get("limit") != "10" || q.Get("toolkit_slug") != "github" {
			t.Errorf("page %d query = %v", i, q)
		}
		if _, has := q["cursor"]; want == "" && has {
			t.Errorf("first page sent a cursor: %v", q)
		}
	}
}

func TestPaginationEmptyStringCursorStops(t *testing.T) {
	c, rec := newTestClient(t, replyJSON(200, `{"items":[{"id":"ca_1"}],"next_cursor":"","total_pages":1,"current_page":1,"total_items":1}`))
	got, err := c.ListConnectedAccounts(context.Background(), ConnectedAccountListParams{})
	if err != nil || len(got) != 1 || rec.count() != 1 {
		t.Fatalf("got %v, %v after %d requests", got, err, rec.count())
	}
}

func TestPaginationEmptyListIsNonNil(t *testing.T) {
	c, _ := newTestClient(t, replyJSON(200, `{"items":[],"next_cursor":null}`))
	got, err := c.ListToolkits(context.Background(), ToolkitListParams{})
	if err != nil || got == nil || len(got) != 0 {
		t.Fatalf("got %#v, %v", got, err)
	}
}

func TestPaginationRepeatedCursor(t *testing.T) {
	h := func(w http.ResponseWriter, r *http.Request) {
		next := "A"
		if r.URL.Query().Get("cursor") == "A" {
			next = "B"
		}
		writeJSON(w, 200, map[string]any{"items": []map[string]any{{"id": "x"}}, "next_cursor": next})
	}
	c, rec := newTestClient(t, h)
	_, err := c.ListActiveTriggers(context.Background(), TriggerInstanceListParams{})
	if err == nil || !strings.Contains(err.Error(), "repeated") {
		t.Fatalf("err = %v, want repeated-cursor error", err)
	}
	if rec.count() != 3 {
		t.Errorf("requests = %d, want 3 (first, A, B)", rec.count())
	}
	// A cursor equal to the one just sent.
	c, rec = newTestClient(t, replyJSON(200, `{"items":[],"next_cursor":"same"}`))
	if _, err := c.ListTools(context.Background(), ToolListParams{}); err == nil || rec.count() != 2 {
		t.Fatalf("err = %v after %d requests", err, rec.count())
	}
}

func TestIteratorEarlyBreakStopsFetching(t *testing.T) {
	c, rec := newTestClient(t, pagedAuthConfigs(1000, 10))
	n := 0
	for ac, err := range c.AuthConfigsIter(context.Background(), AuthConfigListParams{}) {
		if err != nil {
			t.Fatal(err)
		}
		n++
		if ac.ID == "ac_14" {
			break
		}
	}
	if n != 15 || rec.count() != 2 {
		t.Errorf("n = %d, requests = %d; want 15, 2", n, rec.count())
	}
}

func TestIteratorYieldsErrorMidway(t *testing.T) {
	h := func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("cursor") == "" {
			writeJSON(w, 200, map[string]any{"items": []map[string]any{{"id": "a"}, {"id": "b"}}, "next_cursor": "p2"})
			return
		}
		writeJSON(w, 400, map[string]any{"error": map[string]any{"message": "bad cursor"}})
	}
	c, _ := newTestClient(t, h)
	var ids []string
	var gotErr error
	for ca, err := range c.ConnectedAccountsIter(context.Background(), ConnectedAccountListParams{}) {
		if err != nil {
			gotErr = err
			continue
		}
		ids = append(ids, ca.ID)
	}
	if len(ids) != 2 || !IsStatus(gotErr, 400) {
		t.Errorf("ids = %v, err = %v", ids, gotErr)
	}
	if _, err := c.ListConnectedAccounts(context.Background(), ConnectedAccountListParams{}); !IsStatus(err, 400) {
		t.Errorf("List err = %v", err)
	}
}

// TestListPages: the page methods read exactly one page with the caller's
// filters and cursor, and report where the listing continues.
func TestListPages(t *testing.T) {
	ctx := context.Background()
	c, rec := newTestClient(t, pagedAuthConfigs(23, 10))
	p, err := c.AuthConfigsPage(ctx, AuthConfigListParams{ShowDisabled: true, Limit: 10}, "")
	if err != nil || len(p.Items) != 10 || p.NextCursor != "10" || p.TotalPages != 3 {
		t.Fatalf("first page: %+v, %v", p, err)
	}
	p, err = c.AuthConfigsPage(ctx, AuthConfigListParams{ShowDisabled: true, Limit: 10}, "20")
	if err != nil || len(p.Items) != 3 || p.Items[0].ID != "ac_20" || p.NextCursor != "" {
		t.Fatalf("last page: %+v, %v", p, err)
	}
	reqs := rec.all()
	if len(reqs) != 2 || reqs[0].Query.Has("cursor") || reqs[1].Query.Get("cursor") != "20" ||
		reqs[1].Query.Get("show_disabled") != "true" || reqs[1].Query.Get("limit") != "10" {
		t.Fatalf("requests: %+v", reqs)
	}

	c, rec = newTestClient(t, replyJSON(200, `{"items":[{"id":"ca_1"}],"next_cursor":null,"total_pages":1}`))
	ca, err := c.ConnectedAccountsPage(ctx, ConnectedAccountListParams{AccountType: "ALL", Limit: 1000}, "")
	if err != nil || len(ca.Items) != 1 || ca.NextCursor != "" {
		t.Fatalf("accounts page: %+v, %v", ca, err)
	}
	if q := rec.all()[0]; q.Path != "/api/v3.1/connected_accounts" || q.Query.Get("account_type") != "ALL" || q.Query.Get("limit") != "1000" {
		t.Fatalf("accounts request: %s %v", q.Path, q.Query)
	}

	c, rec = newTestClient(t, replyJSON(200, `{"items":[{"id":"ti_1","triggerName":"X"}],"next_cursor":"n","total_pages":2}`))
	ti, err := c.TriggerInstancesPage(ctx, TriggerInstanceListParams{ShowDisabled: true, Limit: 50}, "")
	if err != nil || len(ti.Items) != 1 || ti.Items[0].TriggerName != "X" || ti.NextCursor != "n" || ti.TotalPages != 2 {
		t.Fatalf("trigger page: %+v, %v", ti, err)
	}
	if q := rec.all()[0]; q.Path != "/api/v3.1/trigger_instances/active" || q.Query.Get("show_disabled") != "true" {
		t.Fatalf("trigger request: %s %v", q.Path, q.Query)
	}
}
