package client

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/integration-service/terraform-provider-service/internal/client/batch"
)

// Coalesced reads: the reads that concurrent operations of one kind make
// within a short window (Config.CoalesceWindow) are answered by one list
// request where the API answers many at once (package batch holds the
// rules). Each method below is the read one operation makes; called alone
// it sends exactly the request it always did, after the window.
//
//   - ConnectedAccountAfterWrite, the read-back of a create or an update:
//     one GET /connected_accounts?connected_account_ids=... for the batch;
//     or, for a batch of accounts of one auth config whose duplicate checks
//     are answered by listing, once that listing is half its time old, one
//     page of the auth config's accounts, which renews the listing (see
//     readBack).
//   - ActiveConnectedAccountsOf and ConnectedAccountsOnToolkit, the
//     duplicate and alias checks before a create: one list over the
//     batch's user_ids and auth_config_ids (or toolkit_slugs), every page,
//     each caller taking the accounts of its own pair. A batch of duplicate
//     checks lists instead the ACTIVE accounts of its auth configs, all
//     users, when they fit on one page: that listing also answers, for
//     activeListingFor, the checks of users it shows no ACTIVE account of
//     (see "Duplicate checks by listing" below); a check alone on an auth
//     config listed so makes the same listing.
//   - AuthConfigAfterWrite: the auth config list has no id filter, so one
//     page of the toolkit's auth configs (show_disabled=true, newest first)
//     per toolkit in the batch; an auth config not on it is read by GET,
//     and a toolkit whose first page held none of the batch's objects is
//     read by GET from then on.
//   - TriggerInstanceAfterWrite: one GET /trigger_instances/active with the
//     batch's trigger_ids (the read by id is the same route with one id).
//
// Every batch is sent after each of its callers joined it, that is after
// the caller's write: nothing is served from an answer older than the
// write. A list item that lacks a member a read by id always has is read
// by id.

// Duplicate checks by listing. Terraform runs at most ten operations at a
// time (-parallelism), so a batch of checks holds at most ten, and a create
// that both checks and reads back costs at least 1 + 2/10 requests however
// well its reads meet. A check is a question about one user, though, and a
// listing of the auth config's ACTIVE accounts answers it for every user at
// once: a check whose auth config was listed less than activeListingFor ago
// (on one page, after every write of the client that could have made an
// account ACTIVE) and whose user had no ACTIVE account on it is answered
// "none" from that listing, with no request. Everything else is asked of
// the service as before: a user the listing shows an account of (a
// refusal is only ever made from a fresh answer), a pair this client has
// created an account for (the second create of a pair sees the first), an
// auth config whose ACTIVE accounts fill more than a page (checked by pair
// from then on). An account another client makes ACTIVE for the same user
// within those seconds is not seen by the check: a check never saw one made
// between its answer and the write either, and the window is documented
// (PERFORMANCE.md).
const activeListingFor = 2 * time.Second

// activeListingPage is the page size of a listing of auth configs' ACTIVE
// accounts (the emulator's maximum; the contract states none, and a
// service that pages by fewer answers with a cursor: the auth config is
// then checked by pair).
const activeListingPage = 1000

// DefaultCoalesceWindow is how long a coalesced read waits for another to
// join it while the reads come alone (see batch.Config.Window);
// DefaultCoalesceBusyWindow once they come together (batch.Config.BusyWindow);
// a batch stays open at most DefaultCoalesceMaxWait: the batcher's defaults,
// which batch.New applies to the times left zero.
const (
	DefaultCoalesceWindow     = batch.DefaultWindow
	DefaultCoalesceBusyWindow = batch.DefaultBusyWindow
	DefaultCoalesceMaxWait    = batch.DefaultMaxWait
)

const (
	// accountBatchIDs is the most account ids one read-back request names
	// (its answer is one page of as many items); accountBatchChecks the most
	// (user, auth config) pairs one duplicate check lists (user ids are the
	// caller's strings: the URL stays short).
	accountBatchIDs    = 100
	accountBatchChecks = 50
	// accountCheckPage is the page size of a coalesced duplicate check.
	accountCheckPage = 100
	// authConfigBatchIDs stays below the page the read-back lists
	// (AuthConfigListPageSize), so that the batch's own objects fit on it
	// beside a few created meanwhile.
	authConfigBatchIDs = 100
	// triggerBatchIDs is the trigger instance list's maximum page.
	triggerBatchIDs = 50
)

// accountPair is a connected account's natural key.
type accountPair struct{ userID, authConfigID string }

// accountRef is an account read back after a write: its id, and the auth
// config it belongs to ("" when the caller does not say).
type accountRef struct{ id, authConfigID string }

// userToolkit is a user's accounts on a toolkit (the alias check).
type userToolkit struct{ userID, toolkit string }

// authConfigRef is an auth config and the toolkit it was created on.
type authConfigRef struct{ id, toolkit string }

// coalescedReads holds a client's batchers (nil when coalescing is off).
type coalescedReads struct {
	accounts    *batch.Batcher[accountRef, *ConnectedAccount]
	active      *batch.Batcher[accountPair, []ConnectedAccount]
	onToolkit   *batch.Batcher[userToolkit, []ConnectedAccount]
	authConfigs *batch.Batcher[authConfigRef, *AuthConfig]
	triggers    *batch.Batcher[string, *TriggerInstance]
	// unlisted are the toolkits whose auth config page held none of a
	// batch's objects (the service lists them in another order, or holds
	// too many): read by GET from then on.
	unlisted sync.Map

	// The duplicate checks by listing (see activeListingFor), under mu:
	// listed holds the last one-page listing of each auth config's ACTIVE
	// accounts; crowded the auth configs whose ACTIVE accounts filled more
	// than a page; wide those whose accounts of every status did (see
	// readBack); created the pairs this client has created an account for.
	// activating counts the writes in flight that may make an existing
	// account ACTIVE (enabling, new credentials), activated is when the last
	// one ended: a listing sent before then answers nothing.
	mu         sync.Mutex
	listed     map[string]*activeListed
	crowded    map[string]bool
	wide       map[string]bool
	created    map[accountPair]bool
	activating int
	activated  time.Time
}

// activeListed is one listing of an auth config's ACTIVE accounts that fit
// on a page: when its request was sent, and the users it showed one of.
type activeListed struct {
	sent  time.Time
	users map[string]bool
}

// coalesceTimes are the times of a client's coalesced reads (Config
// CoalesceWindow, CoalesceBusyWindow, CoalesceMaxWait).
type coalesceTimes struct{ window, busy, maxWait time.Duration }

func newCoalescedReads(c *Client, t coalesceTimes) *coalescedReads {
	if t.window < 0 {
		return nil
	}
	// batch.New applies the defaults to the times left zero and orders them.
	window, busy, maxWait := t.window, t.busy, t.maxWait
	r := &coalescedReads{listed: map[string]*activeListed{}, crowded: map[string]bool{}, wide: map[string]bool{}, created: map[accountPair]bool{}}
	r.accounts = batch.New(batch.Config[accountRef, *ConnectedAccount]{Window: window, BusyWindow: busy, MaxWait: maxWait, MaxKeys: accountBatchIDs,
		One: func(ctx context.Context, k accountRef) (*ConnectedAccount, error) {
			return c.GetConnectedAccount(ctx, k.id)
		},
		Many: func(ctx context.Context, keys []accountRef) (map[accountRef]*ConnectedAccount, error) {
			return r.readBack(ctx, c, keys)
		}})
	r.active = batch.New(batch.Config[accountPair, []ConnectedAccount]{Window: window, BusyWindow: busy, MaxWait: maxWait, MaxKeys: accountBatchChecks,
		One: func(ctx context.Context, k accountPair) ([]ConnectedAccount, error) {
			if !r.hot(k.authConfigID) {
				return c.ListConnectedAccounts(ctx, activeOf([]string{k.userID}, []string{k.authConfigID}, 0))
			}
			got, err := r.checks(ctx, c, []accountPair{k})
			return got[k], err
		},
		Many: func(ctx context.Context, keys []accountPair) (map[accountPair][]ConnectedAccount, error) {
			return r.checks(ctx, c, keys)
		}})
	r.onToolkit = batch.New(batch.Config[userToolkit, []ConnectedAccount]{Window: window, BusyWindow: busy, MaxWait: maxWait, MaxKeys: accountBatchChecks,
		One: func(ctx context.Context, k userToolkit) ([]ConnectedAccount, error) {
			return c.ListConnectedAccounts(ctx, ConnectedAccountListParams{UserIDs: []string{k.userID}, ToolkitSlugs: []string{k.toolkit}})
		},
		Many: func(ctx context.Context, keys []userToolkit) (map[userToolkit][]ConnectedAccount, error) {
			users, tks := uniq(keys, func(k userToolkit) string { return k.userID }), uniq(keys, func(k userToolkit) string { return k.toolkit })
			all, err := c.ListConnectedAccounts(ctx, ConnectedAccountListParams{UserIDs: users, ToolkitSlugs: tks, Limit: accountCheckPage})
			if err != nil {
				return nil, err
			}
			return answerEach(keys, all, func(k userToolkit, a *ConnectedAccount) bool {
				return a.UserID == k.userID && strings.EqualFold(a.Toolkit.Slug, k.toolkit)
			}), nil
		}})
	r.authConfigs = batch.New(batch.Config[authConfigRef, *AuthConfig]{Window: window, BusyWindow: busy, MaxWait: maxWait, MaxKeys: authConfigBatchIDs,
		One: func(ctx context.Context, k authConfigRef) (*AuthConfig, error) { return c.GetAuthConfig(ctx, k.id) },
		Many: func(ctx context.Context, keys []authConfigRef) (map[authConfigRef]*AuthConfig, error) {
			return r.authConfigPages(ctx, c, keys)
		},
	})
	r.triggers = batch.New(batch.Config[string, *TriggerInstance]{Window: window, BusyWindow: busy, MaxWait: maxWait, MaxKeys: triggerBatchIDs,
		One: c.GetTriggerInstance,
		Many: func(ctx context.Context, ids []string) (map[string]*TriggerInstance, error) {
			all, err := c.ListActiveTriggers(ctx, TriggerInstanceListParams{TriggerIDs: ids, ShowDisabled: true, Limit: triggerBatchIDs})
			if err != nil {
				return nil, err
			}
			out := make(map[string]*TriggerInstance, len(all))
			for i := range all {
				t := &all[i]
				if !TriggerInstanceListItemComplete(t) {
					continue
				}
				for _, id := range ids {
					if t.ID == id || (t.UUID != "" && t.UUID == id) {
						out[id] = t
					}
				}
			}
			return out, nil
		}})
	return r
}

// authConfigPages reads the first page of each toolkit's auth configs in
// keys (one request per toolkit) and answers the keys it holds.
func (r *coalescedReads) authConfigPages(ctx context.Context, c *Client, keys []authConfigRef) (map[authConfigRef]*AuthConfig, error) {
	byToolkit := map[string][]authConfigRef{}
	var order []string
	for _, k := range keys {
		if _, off := r.unlisted.Load(k.toolkit); off || k.toolkit == "" {
			continue // read by GET
		}
		if _, ok := byToolkit[k.toolkit]; !ok {
			order = append(order, k.toolkit)
		}
		byToolkit[k.toolkit] = append(byToolkit[k.toolkit], k)
	}
	out := map[authConfigRef]*AuthConfig{}
	for _, tk := range order {
		want := byToolkit[tk]
		if len(want) < 2 {
			continue // one auth config of this toolkit: its GET costs the same
		}
		p, err := c.AuthConfigsPage(ctx, AuthConfigListParams{ToolkitSlug: tk, ShowDisabled: true}, "")
		if err != nil {
			return nil, err
		}
		found := 0
		for _, k := range want {
			for i := range p.Items {
				if a := &p.Items[i]; a.ID == k.id && AuthConfigListItemComplete(a) {
					out[k] = a
					found++
					break
				}
			}
		}
		if found == 0 && p.NextCursor != "" {
			r.unlisted.Store(tk, struct{}{})
		}
	}
	return out, nil
}

// checks answers a batch of duplicate checks: by a listing of their auth
// configs' ACTIVE accounts (listActive), else by pair.
func (r *coalescedReads) checks(ctx context.Context, c *Client, keys []accountPair) (map[accountPair][]ConnectedAccount, error) {
	acs := uniq(keys, func(k accountPair) string { return k.authConfigID })
	all, listed, err := r.listActive(ctx, c, acs)
	if err != nil {
		return nil, err
	}
	if !listed {
		users := uniq(keys, func(k accountPair) string { return k.userID })
		if all, err = c.ListConnectedAccounts(ctx, activeOf(users, acs, accountCheckPage)); err != nil {
			return nil, err
		}
	}
	return answerEach(keys, all, func(k accountPair, a *ConnectedAccount) bool {
		return a.UserID == k.userID && a.AuthConfig.ID == k.authConfigID
	}), nil
}

// hot reports an auth config whose ACTIVE accounts were listed on one page
// in this run (a batch of its checks came together): its later checks,
// even one alone, list them again rather than their pair, so that the
// checks after them are answered by listing.
func (r *coalescedReads) hot(authConfigID string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.hotListing(authConfigID) != nil
}

// hotListing is the last listing of a hot auth config's ACTIVE accounts
// (nil when it is not hot). Called with r.mu held.
func (r *coalescedReads) hotListing(authConfigID string) *activeListed {
	if r.crowded[authConfigID] {
		return nil
	}
	return r.listed[authConfigID]
}

// readBack answers a batch of read-backs: when every one is of the same
// hot auth config whose listing is half its time old (relisting), by one
// page of that auth config's accounts, every status and user, which also
// renews its listing for the checks (the read-backs of one wave of creates
// then answer the next wave's checks); else by one list of their ids.
func (r *coalescedReads) readBack(ctx context.Context, c *Client, keys []accountRef) (map[accountRef]*ConnectedAccount, error) {
	if ac := keys[0].authConfigID; r.relisting(ac, keys) {
		items, ok, err := r.listAuthConfig(ctx, c, ac)
		if err != nil {
			return nil, err
		}
		if ok {
			return answerByID(keys, items), nil
		}
	}
	ids := make([]string, len(keys))
	for i, k := range keys {
		ids[i] = k.id
	}
	all, err := c.ListConnectedAccounts(ctx, ConnectedAccountListParams{ConnectedAccountIDs: ids, AccountType: "ALL", Limit: len(ids)})
	if err != nil {
		return nil, err
	}
	return answerByID(keys, all), nil
}

// answerByID gives each key the complete list item of its id.
func answerByID(keys []accountRef, items []ConnectedAccount) map[accountRef]*ConnectedAccount {
	byID := make(map[string]*ConnectedAccount, len(items))
	for i := range items {
		if a := &items[i]; ConnectedAccountListItemComplete(a) {
			byID[a.ID] = a
		}
	}
	out := make(map[accountRef]*ConnectedAccount, len(keys))
	for _, k := range keys {
		if a, ok := byID[k.id]; ok {
			out[k] = a
		}
	}
	return out
}

// relisting reports whether the read-backs keys, all of authConfigID, are
// to be answered by a listing of the auth config (see readBack): it is
// hot, its accounts of every status fit on a page so far (not wide), no
// write that may make an account ACTIVE is in flight, and its listing is
// at least half activeListingFor old (at most two such listings a
// listing's time: the other read-backs list their ids, a shorter answer).
func (r *coalescedReads) relisting(authConfigID string, keys []accountRef) bool {
	if authConfigID == "" {
		return false
	}
	for _, k := range keys {
		if k.authConfigID != authConfigID {
			return false
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	l := r.hotListing(authConfigID)
	return l != nil && !r.wide[authConfigID] && r.activating == 0 && time.Since(l.sent) >= activeListingFor/2
}

// listAuthConfig lists one page of authConfigID's accounts, every status,
// user and sharing model, and renews from it the auth config's listing of
// ACTIVE accounts. ok is false (nothing renewed) when they fill more than
// the page or the service refuses the listing: the auth config is then
// wide, its read-backs listed by id from then on.
func (r *coalescedReads) listAuthConfig(ctx context.Context, c *Client, authConfigID string) (items []ConnectedAccount, ok bool, err error) {
	p := ConnectedAccountListParams{AuthConfigIDs: []string{authConfigID}, AccountType: "ALL", Limit: activeListingPage}
	return r.listPage(ctx, c, p, []string{authConfigID}, r.wide)
}

// listPage sends one page of the listing p of the auth configs acs and
// renews their listings of ACTIVE accounts from it. ok is false (nothing
// renewed, every one of acs marked in full) when its accounts fill more
// than the page or the service refuses the listing.
func (r *coalescedReads) listPage(ctx context.Context, c *Client, p ConnectedAccountListParams, acs []string, full map[string]bool) (items []ConnectedAccount, ok bool, err error) {
	sent := time.Now()
	page, err := c.ConnectedAccountsPage(ctx, p, "")
	refused := isRefusal(err)
	if err != nil && !refused {
		return nil, false, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if refused || page.NextCursor != "" {
		for _, ac := range acs {
			full[ac] = true
		}
		return nil, false, nil
	}
	for _, ac := range acs {
		l := &activeListed{sent: sent, users: map[string]bool{}}
		for i := range page.Items {
			if a := &page.Items[i]; a.AuthConfig.ID == ac && a.Status == StatusActive {
				l.users[a.UserID] = true
			}
		}
		r.listed[ac] = l
	}
	return page.Items, true, nil
}

// listActive lists the ACTIVE accounts of the auth configs acs, all users,
// for a batch of duplicate checks: listed is false (and nothing was read
// into the listings) when one of them is crowded, or becomes so because
// its accounts filled more than this page or the service refused the
// listing (say a page of 1,000: what it answers above a list's maximum is
// not documented); the batch is then checked by pair.
func (r *coalescedReads) listActive(ctx context.Context, c *Client, acs []string) (all []ConnectedAccount, listed bool, err error) {
	r.mu.Lock()
	for _, ac := range acs {
		if r.crowded[ac] {
			r.mu.Unlock()
			return nil, false, nil
		}
	}
	r.mu.Unlock()
	return r.listPage(ctx, c, activeOf(nil, acs, activeListingPage), acs, r.crowded)
}

// isRefusal reports a request the service refused as asked (a 4xx other
// than a rate limit's 429): asked otherwise, it may be answered.
func isRefusal(err error) bool {
	var apiErr *APIError
	return errors.As(err, &apiErr) && apiErr.StatusCode >= 400 && apiErr.StatusCode < 500 && apiErr.StatusCode != http.StatusTooManyRequests
}

// noneListed reports whether a fresh listing answers the duplicate check
// of userID on authConfigID with "no ACTIVE account" (see activeListingFor).
func (r *coalescedReads) noneListed(userID, authConfigID string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	l := r.listed[authConfigID]
	switch {
	case l == nil, r.created[accountPair{userID, authConfigID}], r.activating > 0,
		!l.sent.After(r.activated), time.Since(l.sent) >= activeListingFor:
		return false
	}
	return !l.users[userID]
}

// creating marks the pair of a create about to be sent: its later checks
// are asked of the service.
func (r *coalescedReads) creating(userID, authConfigID string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	r.created[accountPair{userID, authConfigID}] = true
	r.mu.Unlock()
}

// activating marks a write that may make an existing account ACTIVE as in
// flight; the returned func, called when it returns, ends it. Until then,
// and for the listings sent before its end, no check is answered from a
// listing.
func (r *coalescedReads) activate() (done func()) {
	if r == nil {
		return func() {}
	}
	r.mu.Lock()
	r.activating++
	r.mu.Unlock()
	return func() {
		r.mu.Lock()
		r.activating--
		r.activated = time.Now()
		r.mu.Unlock()
	}
}

func activeOf(users, acs []string, limit int) ConnectedAccountListParams {
	return ConnectedAccountListParams{UserIDs: users, AuthConfigIDs: acs, Statuses: []string{StatusActive}, Limit: limit}
}

// uniq returns the distinct values of f over keys, in their first order.
func uniq[K any](keys []K, f func(K) string) []string {
	seen := map[string]bool{}
	var out []string
	for _, k := range keys {
		if v := f(k); !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// answerEach gives every key the accounts of all that match it (an empty
// list when none does: the list answered for it).
func answerEach[K comparable](keys []K, all []ConnectedAccount, match func(K, *ConnectedAccount) bool) map[K][]ConnectedAccount {
	out := make(map[K][]ConnectedAccount, len(keys))
	for _, k := range keys {
		mine := []ConnectedAccount{}
		for i := range all {
			if match(k, &all[i]) {
				mine = append(mine, all[i])
			}
		}
		out[k] = mine
	}
	return out
}

// ConnectedAccountListItemComplete reports whether a listed account
// carries the members a read by id always has (the contract's list item
// lacks only params).
func ConnectedAccountListItemComplete(a *ConnectedAccount) bool {
	return a.ID != "" && a.UserID != "" && a.Status != "" && a.CreatedAt != "" && a.UpdatedAt != "" &&
		a.Toolkit.Slug != "" && a.AuthConfig.ID != "" && a.State != nil
}

// AuthConfigListItemComplete is ConnectedAccountListItemComplete for auth
// configs.
func AuthConfigListItemComplete(a *AuthConfig) bool {
	return a.ID != "" && a.Name != "" && a.AuthScheme != "" && a.Status != "" && a.CreatedAt != "" &&
		a.LastUpdatedAt != "" && a.Toolkit.Slug != ""
}

// TriggerInstanceListItemComplete is ConnectedAccountListItemComplete for
// trigger instances (whose read by id is the same list route).
func TriggerInstanceListItemComplete(t *TriggerInstance) bool {
	return t.ID != "" && t.TriggerName != "" && t.ConnectedAccountID != "" && t.UpdatedAt != "" && t.TriggerConfig != nil
}

// expect announces to the read-back batcher of a kind (b picks it) a
// write in flight whose read-back will follow (batch.Batcher.Expect); the
// returned func, called when the write returns, ends it.
func (r *coalescedReads) expect(b func(*coalescedReads) interface{ Expect() func() }) func() {
	if r == nil {
		return func() {}
	}
	return b(r).Expect()
}

func accountReads(r *coalescedReads) interface{ Expect() func() }    { return r.accounts }
func authConfigReads(r *coalescedReads) interface{ Expect() func() } { return r.authConfigs }
func triggerReads(r *coalescedReads) interface{ Expect() func() }    { return r.triggers }

// ConnectedAccountAfterWrite reads account id of auth config authConfigID
// ("" if unknown) as the service holds it after the caller's write (a
// create's or an update's read-back): coalesced with the concurrent
// read-backs (see above), else GetConnectedAccount.
func (c *Client) ConnectedAccountAfterWrite(ctx context.Context, id, authConfigID string) (*ConnectedAccount, error) {
	if c.reads == nil {
		return c.GetConnectedAccount(ctx, id)
	}
	// The next operation Terraform starts as this one ends checks for
	// duplicates: anticipated there for the batches' MaxWait, stretched
	// by the gaps between their callers.
	defer c.reads.active.Anticipate(1, 0)
	defer c.reads.onToolkit.Anticipate(1, 0)
	return c.reads.accounts.Get(ctx, accountRef{id, authConfigID})
}

// ActiveConnectedAccountsOf lists the ACTIVE accounts of userID on
// authConfigID (the duplicate check before a create), coalesced with the
// concurrent checks of other pairs, or answered "none" by a fresh listing
// of the auth config's ACTIVE accounts (see activeListingFor).
func (c *Client) ActiveConnectedAccountsOf(ctx context.Context, userID, authConfigID string) ([]ConnectedAccount, error) {
	if c.reads == nil {
		return c.ListConnectedAccounts(ctx, activeOf([]string{userID}, []string{authConfigID}, 0))
	}
	if c.reads.noneListed(userID, authConfigID) {
		return []ConnectedAccount{}, nil
	}
	return c.reads.active.Get(ctx, accountPair{userID, authConfigID})
}

// ConnectedAccountsOnToolkit lists every account of userID on toolkit (the
// alias check before a create), coalesced with the concurrent checks of
// other users and toolkits.
func (c *Client) ConnectedAccountsOnToolkit(ctx context.Context, userID, toolkit string) ([]ConnectedAccount, error) {
	if c.reads == nil {
		return c.ListConnectedAccounts(ctx, ConnectedAccountListParams{UserIDs: []string{userID}, ToolkitSlugs: []string{toolkit}})
	}
	return c.reads.onToolkit.Get(ctx, userToolkit{userID, toolkit})
}

// AuthConfigAfterWrite reads auth config id of toolkit after the caller's
// write, coalesced with the concurrent read-backs of the same toolkit
// (see above), else GetAuthConfig.
func (c *Client) AuthConfigAfterWrite(ctx context.Context, id, toolkit string) (*AuthConfig, error) {
	if c.reads == nil {
		return c.GetAuthConfig(ctx, id)
	}
	return c.reads.authConfigs.Get(ctx, authConfigRef{id, toolkit})
}

// TriggerInstanceAfterWrite reads trigger instance id after the caller's
// write, coalesced with the concurrent read-backs, else GetTriggerInstance.
func (c *Client) TriggerInstanceAfterWrite(ctx context.Context, id string) (*TriggerInstance, error) {
	if c.reads == nil {
		return c.GetTriggerInstance(ctx, id)
	}
	return c.reads.triggers.Get(ctx, id)
}
