package emulator

import (
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// pageThrough follows next_cursor from the first page of path (which carries
// the filters, sent again with every page as the provider's client does) and
// returns the items and the number of pages.
func (e *testEnv) pageThrough(path string) ([]map[string]any, int) {
	e.t.Helper()
	var all []map[string]any
	pages := e.eachPage(path, func(r resp) { all = append(all, r.items()...) })
	return all, pages
}

// eachPage follows next_cursor from the first page of path as pageThrough
// does, calling page with each answer in turn, and returns the number of
// pages.
func (e *testEnv) eachPage(path string, page func(r resp)) int {
	e.t.Helper()
	cursor, pages := "", 0
	for {
		p := path
		if cursor != "" {
			p += "&cursor=" + cursor
		}
		r := e.must(200, "GET", p, nil)
		pages++
		page(r)
		if r.get("next_cursor") == nil {
			return pages
		}
		cursor = r.str("next_cursor")
		if pages > 100 {
			e.t.Fatalf("%s: no last page", path)
		}
	}
}

// pagesOf2 lists path+query (pages of 2) with pageThrough and checks that it
// answers want items in as many pages as that takes.
func (e *testEnv) pagesOf2(path, query string, want int) []map[string]any {
	e.t.Helper()
	items, pages := e.pageThrough(path + query)
	if len(items) != want || pages != max(1, (want+1)/2) {
		e.t.Errorf("%s: %d items in %d pages, want %d", query, len(items), pages, want)
	}
	return items
}

// checkFilteredNewestFirst checks that every item has the values of fields
// and that the items are those of created (ids, oldest first) newest first.
func checkFilteredNewestFirst(t *testing.T, items []map[string]any, fields map[string]string, created []string) {
	t.Helper()
	var got []string
	for _, it := range items {
		for k, want := range fields {
			if it[k] != want {
				t.Errorf("filtered item %v", it)
				break
			}
		}
		got = append(got, it["id"].(string))
	}
	want := slices.Clone(created)
	slices.Reverse(want)
	if !slices.Equal(got, want) {
		t.Errorf("order across pages %v, want %v", got, want)
	}
}

// The filters the service_connected_account list resource sends (user_ids,
// toolkit_slugs, auth_config_ids, statuses; several values comma-joined)
// hold on every page of a cursor listing, and a list item carries every
// field of the account's own GET but params.
func TestConnectedAccountListFiltersAcrossPages(t *testing.T) {
	e := newEnv(t, Options{})
	stripe := e.createCustomAC("stripe", "API_KEY", nil)
	gh := e.createManagedAC("github")
	var u1Stripe []string
	for range 5 {
		u1Stripe = append(u1Stripe, e.apiKeyAccount(stripe, "u1"))
	}
	e.apiKeyAccount(stripe, "u2")
	e.apiKeyAccount(stripe, "u2")
	e.oauthAccount(gh, "u1", "https://app.example/cb")
	e.apiKeyAccount(stripe, "u3")

	cases := []struct {
		query string
		want  int
	}{
		{"user_ids=u1", 6},
		{"user_ids=u1,u2", 8},
		{"toolkit_slugs=stripe", 8},
		{"toolkit_slugs=github,stripe&user_ids=u1", 6},
		{"auth_config_ids=" + stripe + "&user_ids=u1,u3", 6},
		{"auth_config_ids=" + stripe + "," + gh, 9},
		{"statuses=ACTIVE&user_ids=u1", 5},
		{"statuses=INITIATED,ACTIVE&user_ids=u1", 6},
		{"user_ids=u1&toolkit_slugs=stripe&auth_config_ids=" + stripe + "&statuses=ACTIVE", 5},
		{"user_ids=nobody", 0},
	}
	for _, c := range cases {
		items := e.pagesOf2(v+"/connected_accounts?limit=2&", c.query, c.want)
		seen := map[string]bool{}
		for _, it := range items {
			id := it["id"].(string)
			if seen[id] {
				t.Errorf("%s: %s listed twice", c.query, id)
			}
			seen[id] = true
		}
	}
	items, _ := e.pageThrough(v + "/connected_accounts?limit=2&user_ids=u1&statuses=ACTIVE")
	// Newest first across pages.
	checkFilteredNewestFirst(t, items, map[string]string{"user_id": "u1", "status": "ACTIVE"}, u1Stripe)

	// A list item and the account's GET: the same fields and values, except
	// params, which only the GET carries.
	for _, it := range e.must(200, "GET", v+"/connected_accounts?user_ids=u1", nil).items() {
		one := e.must(200, "GET", v+"/connected_accounts/"+it["id"].(string), nil)
		full, ok := one.get().(map[string]any)
		if !ok {
			t.Fatalf("GET: %s", one.raw)
		}
		if _, ok := full["params"]; !ok {
			t.Errorf("GET without params: %s", one.raw)
		}
		delete(full, "params")
		if !reflect.DeepEqual(it, full) {
			t.Errorf("list item %s differs from its GET beyond params:\nlist %v\nget  %v", it["id"], it, full)
		}
	}
}

// The filters the service_trigger_instance list resource sends
// (auth_config_ids, connected_account_ids, trigger_ids, trigger_names,
// user_ids, show_disabled) hold on every page of a cursor listing.
func TestTriggerInstanceListFiltersAcrossPages(t *testing.T) {
	e := newEnv(t, Options{})
	ac := e.createCustomAC("stripe", "API_KEY", nil)
	ac2 := e.createCustomAC("stripe", "API_KEY", nil)
	ca1 := e.apiKeyAccount(ac, "u1")
	ca2 := e.apiKeyAccount(ac, "u2")
	ca3 := e.apiKeyAccount(ac2, "u3")
	upsert := func(slug, ca string, cfg map[string]any) string {
		return e.must(200, "POST", v+"/trigger_instances/"+slug+"/upsert",
			map[string]any{"connected_account_id": ca, "trigger_config": cfg}).str("trigger_id")
	}
	var u1 []string
	for i := range 5 {
		u1 = append(u1, upsert("STRIPE_CHARGE_SUCCEEDED_TRIGGER", ca1, map[string]any{"min_amount": i}))
	}
	failed := upsert("STRIPE_PAYMENT_FAILED_TRIGGER", ca1, nil)
	u2 := upsert("STRIPE_CHARGE_SUCCEEDED_TRIGGER", ca2, nil)
	upsert("STRIPE_CHARGE_SUCCEEDED_TRIGGER", ca3, nil)
	e.must(200, "PATCH", v+"/trigger_instances/manage/"+u1[0], map[string]any{"status": "disable"})

	cases := []struct {
		query string
		want  int
	}{
		{"user_ids=u1", 5},
		{"user_ids=u1&show_disabled=true", 6},
		{"user_ids=u1,u2&show_disabled=true", 7},
		{"connected_account_ids=" + ca1 + "," + ca3, 6},
		{"auth_config_ids=" + ac + "&show_disabled=true", 7},
		{"auth_config_ids=" + ac2, 1},
		{"trigger_names=STRIPE_CHARGE_SUCCEEDED_TRIGGER&user_ids=u1,u2", 5},
		{"trigger_names=STRIPE_PAYMENT_FAILED_TRIGGER,STRIPE_CHARGE_SUCCEEDED_TRIGGER&auth_config_ids=" + ac, 6},
		{"trigger_ids=" + strings.Join([]string{u1[0], u1[1], failed, u2}, ","), 3},
		{"trigger_ids=" + strings.Join([]string{u1[0], u1[1], failed, u2}, ",") + "&show_disabled=true", 4},
		{"user_ids=u1&connected_account_ids=" + ca2, 0},
	}
	for _, c := range cases {
		items := e.pagesOf2(v+"/trigger_instances/active?limit=2&", c.query, c.want)
		ids := map[string]bool{}
		for _, it := range items {
			ids[it["id"].(string)] = true
		}
		if len(ids) != len(items) {
			t.Errorf("%s: an instance listed twice: %v", c.query, slices.Sorted(maps.Keys(ids)))
		}
	}
	items, _ := e.pageThrough(v + "/trigger_instances/active?limit=2&user_ids=u1&show_disabled=true" +
		"&trigger_names=STRIPE_CHARGE_SUCCEEDED_TRIGGER")
	checkFilteredNewestFirst(t, items, map[string]string{"user_id": "u1", "trigger_name": "STRIPE_CHARGE_SUCCEEDED_TRIGGER"}, u1)
	if d := items[len(items)-1]; d["disabled_at"] == nil {
		t.Errorf("disabled instance listed without disabled_at: %v", d)
	}
	e.mustErr(400, "show_disabled", "GET", v+"/trigger_instances/active?show_disabled=maybe", nil)
}
