package client

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// coalesceFake serves the routes of the coalesced reads from a fixed set
// of accounts, auth configs and trigger instances.
type coalesceFake struct {
	listStatus   atomic.Int32 // answered to the next list requests when set (then cleared if once)
	listOnce     atomic.Bool
	accounts     map[string]map[string]any
	authConfigs  []map[string]any
	triggers     map[string]map[string]any
	hiddenOnList map[string]bool // ids a list leaves out (their GET still finds them)
	// crowded: an account list by auth config alone (no user or account
	// ids) answers with a cursor to a next page, as over more than a page;
	// refuseWide: it is answered 400 (a limit above the service's maximum).
	crowded, refuseWide bool
}

func fakeAccount(id, user, ac string) map[string]any {
	return map[string]any{"id": id, "user_id": user, "status": StatusActive, "created_at": "2026-12-01T00:00:00Z",
		"updated_at": "2026-12-01T00:00:00Z", "toolkit": map[string]any{"slug": "stripe"},
		"auth_config": map[string]any{"id": ac, "auth_scheme": "API_KEY"}, "state": map[string]any{"authScheme": "API_KEY", "val": map[string]any{}}}
}

func (f *coalesceFake) handler(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	split := func(k string) []string {
		if v := q.Get(k); v != "" {
			return strings.Split(v, ",")
		}
		return nil
	}
	isList := r.URL.Path == "/api/v3.1/connected_accounts" || r.URL.Path == "/api/v3.1/auth_configs" || r.URL.Path == "/api/v3.1/trigger_instances/active"
	if st := f.listStatus.Load(); st != 0 && isList && len(split("trigger_ids")) != 1 {
		if f.listOnce.Load() {
			f.listStatus.Store(0)
		}
		writeJSON(w, int(st), map[string]any{"error": map[string]any{"message": "refused", "status": st}})
		return
	}
	page := func(items []map[string]any) {
		writeJSON(w, http.StatusOK, map[string]any{"items": items, "next_cursor": nil})
	}
	switch {
	case r.URL.Path == "/api/v3.1/connected_accounts":
		ids, users, acs, statuses := split("connected_account_ids"), split("user_ids"), split("auth_config_ids"), split("statuses")
		var out []map[string]any
		for _, id := range slices.Sorted(func(yield func(string) bool) {
			for k := range f.accounts {
				if !yield(k) {
					return
				}
			}
		}) {
			a := f.accounts[id]
			if f.hiddenOnList[id] || (ids != nil && !slices.Contains(ids, id)) || (users != nil && !slices.Contains(users, a["user_id"].(string))) ||
				(acs != nil && !slices.Contains(acs, a["auth_config"].(map[string]any)["id"].(string))) ||
				(statuses != nil && !slices.Contains(statuses, a["status"].(string))) {
				continue
			}
			out = append(out, a)
		}
		if f.refuseWide && users == nil && ids == nil {
			writeJSON(w, http.StatusBadRequest, map[string]any{"error": map[string]any{"message": "limit must be at most 100", "status": 400}})
			return
		}
		if f.crowded && users == nil && ids == nil {
			writeJSON(w, http.StatusOK, map[string]any{"items": out, "next_cursor": "more"})
			return
		}
		page(out)
	case strings.HasPrefix(r.URL.Path, "/api/v3.1/connected_accounts/"):
		if a, ok := f.accounts[strings.TrimPrefix(r.URL.Path, "/api/v3.1/connected_accounts/")]; ok {
			writeJSON(w, http.StatusOK, a)
			return
		}
		writeJSON(w, http.StatusNotFound, map[string]any{"error": map[string]any{"message": "not found", "status": 404}})
	case r.URL.Path == "/api/v3.1/auth_configs":
		var out []map[string]any
		for _, a := range f.authConfigs {
			if a["toolkit"].(map[string]any)["slug"] == q.Get("toolkit_slug") && !f.hiddenOnList[a["id"].(string)] {
				out = append(out, a)
			}
		}
		page(out)
	case strings.HasPrefix(r.URL.Path, "/api/v3.1/auth_configs/"):
		id := strings.TrimPrefix(r.URL.Path, "/api/v3.1/auth_configs/")
		for _, a := range f.authConfigs {
			if a["id"] == id {
				writeJSON(w, http.StatusOK, a)
				return
			}
		}
		writeJSON(w, http.StatusNotFound, map[string]any{"error": map[string]any{"message": "not found", "status": 404}})
	case r.URL.Path == "/api/v3.1/trigger_instances/active":
		var out []map[string]any
		for _, id := range split("trigger_ids") {
			if ti, ok := f.triggers[id]; ok {
				out = append(out, ti)
			}
		}
		page(out)
	default:
		writeJSON(w, http.StatusNotFound, map[string]any{})
	}
}

func newCoalesceClient(t *testing.T, f *coalesceFake) (*Client, *recorder) {
	t.Helper()
	// A window wide enough that the test's concurrent calls always meet.
	return newTestClient(t, f.handler, func(c *Config) { c.CoalesceWindow, c.CoalesceMaxWait = 100*time.Millisecond, 5*time.Second })
}

// concurrently calls get for each id at once and returns the results.
func concurrently[T any](ids []string, get func(string) (T, error)) ([]T, []error) {
	out, errs := make([]T, len(ids)), make([]error, len(ids))
	var wg sync.WaitGroup
	for i, id := range ids {
		wg.Add(1)
		go func() { defer wg.Done(); out[i], errs[i] = get(id) }()
	}
	wg.Wait()
	return out, errs
}

// readBackAll reads ids back at once through read and fails unless each
// gets its own object (idOf names it).
func readBackAll[T any](t *testing.T, ids []string, read func(context.Context, string) (T, error), idOf func(T) string) {
	t.Helper()
	got, errs := concurrently(ids, func(id string) (T, error) { return read(context.Background(), id) })
	for i, id := range ids {
		if errs[i] != nil || idOf(got[i]) != id {
			t.Fatalf("read-back of %s: %v, %v", id, got[i], errs[i])
		}
	}
}

func accountID(a *ConnectedAccount) string { return a.ID }

func routes(rec *recorder) []string {
	var out []string
	for _, r := range rec.all() {
		out = append(out, r.Method+" "+r.Path)
	}
	return out
}

func accountFake(n int) (*coalesceFake, []string) {
	f := &coalesceFake{accounts: map[string]map[string]any{}}
	var ids []string
	for i := range n {
		id := fmt.Sprintf("ca_%012d", i)
		f.accounts[id] = fakeAccount(id, fmt.Sprintf("u%d", i), "ac_1")
		ids = append(ids, id)
	}
	return f, ids
}

// accountReadBack is ConnectedAccountAfterWrite of accounts of authConfigID.
func accountReadBack(c *Client, authConfigID string) func(context.Context, string) (*ConnectedAccount, error) {
	return func(ctx context.Context, id string) (*ConnectedAccount, error) {
		return c.ConnectedAccountAfterWrite(ctx, id, authConfigID)
	}
}

// The read-backs of concurrent writes are one list by connected_account_ids,
// each caller getting its own account.
func TestConnectedAccountAfterWriteCoalesced(t *testing.T) {
	f, ids := accountFake(10)
	c, rec := newCoalesceClient(t, f)
	readBackAll(t, ids, accountReadBack(c, ""), accountID)
	reqs := rec.all()
	if len(reqs) != 1 || reqs[0].Path != "/api/v3.1/connected_accounts" {
		t.Fatalf("10 concurrent read-backs: want one list request, got %v", routes(rec))
	}
	sent := strings.Split(reqs[0].Query.Get("connected_account_ids"), ",")
	slices.Sort(sent)
	if !slices.Equal(sent, ids) || reqs[0].Query.Get("account_type") != "ALL" || reqs[0].Query.Get("limit") != "10" {
		t.Fatalf("list query %v: want connected_account_ids of the 10, account_type=ALL, limit=10", reqs[0].Query)
	}
}

// A lone read-back sends the GET it always did.
func TestConnectedAccountAfterWriteAloneIsItsGET(t *testing.T) {
	f, ids := accountFake(1)
	c, rec := newTestClient(t, f.handler) // the default window
	start := time.Now()
	a, err := c.ConnectedAccountAfterWrite(context.Background(), ids[0], "ac_1")
	if err != nil || a.ID != ids[0] {
		t.Fatalf("got %v, %v", a, err)
	}
	if r := routes(rec); !slices.Equal(r, []string{"GET /api/v3.1/connected_accounts/" + ids[0]}) {
		t.Fatalf("a lone read-back: want its GET, got %v", r)
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("a lone read-back took %s", took)
	}
}

// An account the coalesced answer lacks is read alone; one that does not
// exist is the GET's 404.
func TestCoalescedAnswerLackingAnAccount(t *testing.T) {
	f, ids := accountFake(4)
	f.hiddenOnList = map[string]bool{ids[1]: true}
	c, rec := newCoalesceClient(t, f)
	all := append(slices.Clone(ids), "ca_missing0000")
	got, errs := concurrently(all, func(id string) (*ConnectedAccount, error) {
		return c.ConnectedAccountAfterWrite(context.Background(), id, "ac_1")
	})
	for i, id := range ids {
		if errs[i] != nil || got[i].ID != id {
			t.Fatalf("read-back of %s: %v, %v", id, got[i], errs[i])
		}
	}
	if !IsNotFound(errs[4]) {
		t.Fatalf("a missing account: want the GET's 404, got %v", errs[4])
	}
	r := routes(rec)
	slices.Sort(r)
	want := []string{"GET /api/v3.1/connected_accounts", "GET /api/v3.1/connected_accounts/" + ids[1], "GET /api/v3.1/connected_accounts/ca_missing0000"}
	if !slices.Equal(r, want) {
		t.Fatalf("requests %v, want %v", r, want)
	}
}

// A coalesced request the service refuses is split into the callers' own
// reads; one it throttles is retried as one request.
func TestCoalescedRequestFailingIsSplitOrRetried(t *testing.T) {
	t.Run("refused", func(t *testing.T) {
		f, ids := accountFake(5)
		f.listStatus.Store(http.StatusBadRequest)
		c, rec := newCoalesceClient(t, f)
		readBackAll(t, ids, accountReadBack(c, ""), accountID)
		lists, gets := 0, 0
		for _, r := range routes(rec) {
			if r == "GET /api/v3.1/connected_accounts" {
				lists++
			} else {
				gets++
			}
		}
		if lists != 1 || gets != 5 {
			t.Fatalf("a refused list: want it once, then 5 GETs; got %v", routes(rec))
		}
	})
	t.Run("throttled", func(t *testing.T) {
		f, ids := accountFake(5)
		f.listStatus.Store(http.StatusTooManyRequests)
		f.listOnce.Store(true)
		c, rec := newCoalesceClient(t, f)
		readBackAll(t, ids, accountReadBack(c, ""), accountID)
		if r := routes(rec); len(r) != 2 || r[0] != r[1] || r[0] != "GET /api/v3.1/connected_accounts" {
			t.Fatalf("a throttled list: want it retried once as the same one request, got %v", r)
		}
	})
}

// The duplicate checks of concurrent creates of other pairs are one list
// over their users and auth configs; each gets only its own pair's accounts.
func TestActiveConnectedAccountsOfCoalesced(t *testing.T) {
	f := &coalesceFake{accounts: map[string]map[string]any{
		"ca_a": fakeAccount("ca_a", "u1", "ac_1"),
		"ca_b": fakeAccount("ca_b", "u1", "ac_2"), // u1 on another auth config
		"ca_c": fakeAccount("ca_c", "u2", "ac_2"),
	}}
	c, rec := newCoalesceClient(t, f)
	pairs := []string{"u1/ac_1", "u2/ac_1", "u2/ac_2"}
	got, errs := concurrently(pairs, func(p string) ([]ConnectedAccount, error) {
		u, ac, _ := strings.Cut(p, "/")
		return c.ActiveConnectedAccountsOf(context.Background(), u, ac)
	})
	ids := func(as []ConnectedAccount) []string {
		out := []string{}
		for _, a := range as {
			out = append(out, a.ID)
		}
		return out
	}
	for i, want := range [][]string{{"ca_a"}, {}, {"ca_c"}} {
		if errs[i] != nil || !slices.Equal(ids(got[i]), want) {
			t.Errorf("%s: got %v, %v; want %v", pairs[i], ids(got[i]), errs[i], want)
		}
	}
	reqs := rec.all()
	if len(reqs) != 1 {
		t.Fatalf("3 concurrent checks: want one list, got %v", routes(rec))
	}
	// The listing of the auth configs' ACTIVE accounts, every user's.
	q := reqs[0].Query
	acs := strings.Split(q.Get("auth_config_ids"), ",")
	slices.Sort(acs)
	if q.Has("user_ids") || !slices.Equal(acs, []string{"ac_1", "ac_2"}) || q.Get("statuses") != StatusActive || q.Get("limit") != "1000" {
		t.Fatalf("check query %v", q)
	}
}

// checkIDs runs the duplicate check of each user on auth config ac_1 at
// once and returns the ids of the ACTIVE accounts each was answered.
func checkIDs(t *testing.T, c *Client, users ...string) [][]string {
	const ac = "ac_1"
	t.Helper()
	got, errs := concurrently(users, func(u string) ([]ConnectedAccount, error) {
		return c.ActiveConnectedAccountsOf(context.Background(), u, ac)
	})
	out := make([][]string, len(users))
	for i := range users {
		if errs[i] != nil {
			t.Fatalf("check of %s on %s: %v", users[i], ac, errs[i])
		}
		out[i] = []string{}
		for _, a := range got[i] {
			out[i] = append(out[i], a.ID)
		}
	}
	return out
}

// Duplicate checks by listing: a batch of checks on an auth config lists
// its ACTIVE accounts, and that listing answers the later checks of users
// it shows none of for activeListingFor, with no request; a user it shows
// an account of, a pair the client created an account for, a write that
// may have made an account ACTIVE, and an old listing are asked of the
// service.
func TestDuplicateChecksByListing(t *testing.T) {
	f := &coalesceFake{accounts: map[string]map[string]any{"ca_a": fakeAccount("ca_a", "u1", "ac_1")}}
	c, rec := newCoalesceClient(t, f)
	if got := checkIDs(t, c, "u1", "u2", "u3"); !slices.Equal(got[0], []string{"ca_a"}) || len(got[1])+len(got[2]) != 0 {
		t.Fatalf("checks: got %v", got)
	}
	asked := func(what string, want int, users ...string) [][]string {
		t.Helper()
		before := rec.count()
		got := checkIDs(t, c, users...)
		if n := rec.count() - before; n != want {
			t.Errorf("%s: %d requests, want %d: %v", what, n, want, routes(rec)[before:])
		}
		return got
	}
	if got := asked("a user the fresh listing shows no account of", 0, "u4"); len(got[0]) != 0 {
		t.Errorf("u4: got %v", got)
	}
	if got := asked("a user the listing shows an account of", 1, "u1"); !slices.Equal(got[0], []string{"ca_a"}) {
		t.Errorf("u1: got %v", got)
	}
	// A check alone on an auth config listed before lists it again (not its
	// pair), so that the checks after it are answered by listing.
	if q := rec.last(t).Query; q.Has("user_ids") || q.Get("auth_config_ids") != "ac_1" || q.Get("statuses") != StatusActive {
		t.Errorf("u1 checked by %v, want by a listing of the auth config's ACTIVE accounts", q)
	}
	c.reads.creating("u5", "ac_1")
	f.accounts["ca_b"] = fakeAccount("ca_b", "u5", "ac_1") // the create's account, made after the listing
	if got := asked("a pair this client created an account for", 1, "u5"); !slices.Equal(got[0], []string{"ca_b"}) {
		t.Errorf("u5: got %v", got)
	}
	done := c.reads.activate() // say an enable in flight
	asked("while an account may be made ACTIVE", 1, "u6")
	done()
	asked("after it, from the listing sent before it", 1, "u7")
	asked("from the listing u7's check made", 0, "u8", "u9")
	asked("from it", 0, "u10")
	ctx := context.Background()
	_ = c.UpdateConnectedAccountStatus(ctx, "ca_a", false, "") // the fake answers 404: the write ended all the same
	asked("after a disable", 0, "u11")
	_ = c.UpdateConnectedAccountStatus(ctx, "ca_a", true, "")
	asked("after an enable", 1, "u12")
	asked("from the listing u12's check made", 0, "u13", "u14")
	_ = c.UpdateConnectedAccount(ctx, "ca_a", ConnectedAccountUpdate{State: &ConnectionState{AuthScheme: "API_KEY", Val: map[string]any{"api_key": "k"}}})
	asked("after new credentials", 1, "u15")
	asked("from the listing u15's check made", 0, "u16", "u17")
	ageListing(c, activeListingFor)
	asked("a listing activeListingFor old", 1, "u18")
}

// ageListing makes the listing of ac_1's ACTIVE accounts (if any) by old.
func ageListing(c *Client, by time.Duration) {
	c.reads.mu.Lock()
	defer c.reads.mu.Unlock()
	if l := c.reads.listed["ac_1"]; l != nil {
		l.sent = time.Now().Add(-by)
	}
}

// The read-backs of creates on an auth config whose checks were answered
// by listing renew that listing once it is half its time old: one page of
// the auth config's accounts (every status and sharing model, all users)
// answers the batch, and the checks after it with no request. A batch of
// several auth configs, a fresh listing, an auth config whose accounts
// fill more than a page, and a read-back of unknown auth config list their
// ids.
func TestReadBacksRenewTheListing(t *testing.T) {
	for _, wide := range []bool{false, true} {
		f, ids := accountFake(6)
		f.accounts["ca_other"] = fakeAccount("ca_other", "u_other", "ac_2")
		f.crowded = wide // by auth config alone: a cursor to a next page
		c, rec := newCoalesceClient(t, f)
		readBacks := func(what string, ac string, ids ...string) url.Values {
			t.Helper()
			before := rec.count()
			readBackAll(t, ids, accountReadBack(c, ac), accountID)
			reqs := rec.all()[before:]
			if len(reqs) != 1 {
				t.Fatalf("wide %v: %s: want one request, got %v", wide, what, routes(rec)[before:])
			}
			return reqs[0].Query
		}
		byIDs := func(what string, q url.Values) {
			t.Helper()
			if !q.Has("connected_account_ids") {
				t.Errorf("wide %v: %s: listed by %v, want by their ids", wide, what, q)
			}
		}
		byIDs("an auth config never listed", readBacks("never listed", "ac_1", ids[0], ids[1]))
		checkIDs(t, c, "u_new1", "u_new2") // the listing, or checks by pair when crowded
		byIDs("a fresh listing", readBacks("fresh", "ac_1", ids[0], ids[1]))
		ageListing(c, activeListingFor/2)
		byIDs("unknown auth config", readBacks("unknown", "", ids[0], ids[1]))
		mixed := func(ctx context.Context, id string) (*ConnectedAccount, error) {
			return c.ConnectedAccountAfterWrite(ctx, id, map[bool]string{true: "ac_2", false: "ac_1"}[id == "ca_other"])
		}
		before := rec.count()
		readBackAll(t, []string{ids[2], "ca_other"}, mixed, accountID)
		if reqs := rec.all()[before:]; len(reqs) != 1 || !reqs[0].Query.Has("connected_account_ids") {
			t.Errorf("wide %v: read-backs of two auth configs: want one list by ids, got %v", wide, routes(rec)[before:])
		}
		q := readBacks("half a listing's time old", "ac_1", ids[2], ids[3], ids[4])
		if wide {
			// crowded also for the ACTIVE listing: never hot, never relisted
			byIDs("a crowded auth config", q)
			continue
		}
		if q.Has("connected_account_ids") || q.Has("statuses") || q.Has("user_ids") || q.Get("auth_config_ids") != "ac_1" ||
			q.Get("account_type") != "ALL" || q.Get("limit") != "1000" {
			t.Fatalf("read-backs when the listing is half its time old: listed by %v, want the auth config's accounts", q)
		}
		before = rec.count()
		if got := checkIDs(t, c, "u_new3", "u1"); len(got[0]) != 0 || !slices.Equal(got[1], []string{ids[1]}) {
			t.Errorf("checks after the renewal: got %v", got)
		}
		if reqs := rec.all()[before:]; len(reqs) != 1 || reqs[0].Query.Has("user_ids") {
			t.Errorf("checks of a new user and of one the renewed listing shows: want u1's alone (a fresh listing), got %v", reqs)
		}
	}
	// An auth config whose ACTIVE accounts fit on a page but not all of its
	// accounts: wide, listed by ids from then on.
	f, ids := accountFake(4)
	c, rec := newCoalesceClient(t, f)
	checkIDs(t, c, "u_a", "u_b")
	f.refuseWide = true // say a page of 1,000 of every status refused
	ageListing(c, activeListingFor/2)
	before := rec.count()
	readBackAll(t, ids[:2], accountReadBack(c, "ac_1"), accountID)
	if r := routes(rec)[before:]; len(r) != 2 {
		t.Fatalf("a refused listing of the auth config: want it, then the list by ids; got %v", r)
	}
	before = rec.count()
	readBackAll(t, ids[2:], accountReadBack(c, "ac_1"), accountID)
	if reqs := rec.all()[before:]; len(reqs) != 1 || !reqs[0].Query.Has("connected_account_ids") {
		t.Fatalf("after the refusal: want one list by ids, got %v", routes(rec)[before:])
	}
}

// An auth config whose ACTIVE accounts fill more than a page, or whose
// listing of them the service refuses, is checked by pair: the batch that
// found out, and every batch after it.
func TestDuplicateChecksOfACrowdedAuthConfig(t *testing.T) {
	for _, f := range []*coalesceFake{{crowded: true}, {refuseWide: true}} {
		f.accounts = map[string]map[string]any{"ca_a": fakeAccount("ca_a", "u1", "ac_1")}
		c, rec := newCoalesceClient(t, f)
		if got := checkIDs(t, c, "u1", "u2"); !slices.Equal(got[0], []string{"ca_a"}) || len(got[1]) != 0 {
			t.Fatalf("crowded %v, refused %v: checks: got %v", f.crowded, f.refuseWide, got)
		}
		if n := rec.count(); n != 2 {
			t.Fatalf("crowded %v, refused %v: the listing, then the pairs: want 2 requests, got %v", f.crowded, f.refuseWide, routes(rec))
		}
		before := rec.count()
		checkIDs(t, c, "u3", "u4")
		reqs := rec.all()[before:]
		if len(reqs) != 1 || !reqs[0].Query.Has("user_ids") {
			t.Fatalf("crowded %v, refused %v: the next batch: want one list by pair, got %v", f.crowded, f.refuseWide, reqs)
		}
	}
}

func TestAuthConfigAfterWriteCoalesced(t *testing.T) {
	ac := func(id string) map[string]any {
		return map[string]any{"id": id, "name": id, "auth_scheme": "OAUTH2", "status": "ENABLED", "created_at": "2026-12-01T00:00:00Z",
			"last_updated_at": "2026-12-01T00:00:00Z", "toolkit": map[string]any{"slug": "github"}}
	}
	f := &coalesceFake{authConfigs: []map[string]any{ac("ac_1"), ac("ac_2"), ac("ac_3"), ac("ac_4")}, hiddenOnList: map[string]bool{"ac_4": true}}
	c, rec := newCoalesceClient(t, f)
	ids := []string{"ac_1", "ac_2", "ac_3", "ac_4"}
	readBackAll(t, ids, func(ctx context.Context, id string) (*AuthConfig, error) {
		return c.AuthConfigAfterWrite(ctx, id, "github")
	}, func(o *AuthConfig) string { return o.ID })
	r := routes(rec)
	slices.Sort(r)
	if !slices.Equal(r, []string{"GET /api/v3.1/auth_configs", "GET /api/v3.1/auth_configs/ac_4"}) {
		t.Fatalf("want one page of the toolkit and the GET of the one it lacks, got %v", r)
	}
	for _, q := range rec.all() {
		if q.Path == "/api/v3.1/auth_configs" && (q.Query.Get("toolkit_slug") != "github" || q.Query.Get("show_disabled") != "true") {
			t.Fatalf("page query %v", q.Query)
		}
	}
}

func TestTriggerInstanceAfterWriteCoalesced(t *testing.T) {
	f := &coalesceFake{triggers: map[string]map[string]any{}}
	var ids []string
	for i := range 4 {
		id := fmt.Sprintf("ti_%d", i)
		f.triggers[id] = map[string]any{"id": id, "trigger_name": "T", "connected_account_id": "ca_1", "updated_at": "x", "trigger_config": map[string]any{}}
		ids = append(ids, id)
	}
	c, rec := newCoalesceClient(t, f)
	readBackAll(t, ids, c.TriggerInstanceAfterWrite, func(o *TriggerInstance) string { return o.ID })
	reqs := rec.all()
	if len(reqs) != 1 || len(strings.Split(reqs[0].Query.Get("trigger_ids"), ",")) != 4 || reqs[0].Query.Get("show_disabled") != "true" {
		t.Fatalf("want one list of the 4 trigger_ids, got %v", routes(rec))
	}
}

// CoalesceWindow < 0 sends every read alone.
func TestCoalescingOff(t *testing.T) {
	f, ids := accountFake(3)
	c, rec := newTestClient(t, f.handler, func(c *Config) { c.CoalesceWindow = -1 })
	readBackAll(t, ids, accountReadBack(c, ""), accountID)
	if rec.count() != 3 {
		t.Fatalf("coalescing off: want 3 GETs, got %v", routes(rec))
	}
}
