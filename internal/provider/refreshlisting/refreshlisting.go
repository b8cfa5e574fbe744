// Package refreshlisting serves a run's many Reads of one resource type from
// a listing of the type instead of one GET each.
//
// Refresh by listing: when a run reads many objects of one type (the refresh
// of a plan with hundreds of connected accounts, auth configs or trigger
// instances), the reads are served by a listing of that type, a few pages
// of up to 1,000 (accounts) or 50 (auth configs, trigger instances) objects,
// instead of one GET per object.
//
// Terraform calls ReadResource once per object, ten at a time, and never
// says how many will follow, so a run cannot batch the reads it has not
// seen yet. Coalescing the reads that wait at the same moment into one
// request by ids gives batches of at most ten and holds every read until
// its batch is full; listing the type instead serves every later read at
// once, from memory. The rules:
//
//   - The first listingAfterReads-1 reads of a type in a run are one GET
//     each: a small configuration, an import or a single read costs what
//     it always did.
//   - The next read lists the first page of the type. Later pages are read
//     only once the run has read readsPerListingPage objects of the type per
//     page of the listing (as many pages as the service reports), so that a
//     listing costs at most one request per readsPerListingPage reads seen,
//     and a project holding far more objects than the configuration (say the
//     end users' accounts) is not listed in full for a few resources: its
//     reads go on as GETs, except those the pages read so far hold.
//   - A read waits while a page is being read, then takes its object from
//     the listing. An object the listing lacks (deleted, created after the
//     listing, on a page not read, or left out by a filter the service
//     applies) and an item lacking a field the state is made of are read by
//     GET: a deleted object is removed from state by its GET's 404, exactly
//     as without listing. The listings ask for everything the GET sees:
//     disabled auth configs and trigger instances (show_disabled=true),
//     shared connected accounts (account_type=ALL).
//   - Nothing is served from a listing that started before a write of the
//     same provider run (Clock): after a write, reads go back to GETs
//     and a later listing starts afresh.
//
// The listings live in the provider's ProviderData, made anew by every
// Configure, that is for every graph walk of one Terraform command; a
// listing never outlives the walk that read it. The resources' Read
// functions get the same client type from a listing as from a GET and copy
// it into the state with the same function, so both paths give the same
// state (TestRefreshByListing_sameState in internal/provider).
package refreshlisting

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

const (
	// listingAfterReads is the read of a type in a run that starts a listing
	// of the type; the reads before it are one GET each. With 8, a refresh
	// of 50 objects whose listing is one page costs 7 GETs + 1 page (at most
	// 50 / 5 = 10 requests), and a configuration with up to 8 objects of a
	// type costs at most one request per object.
	listingAfterReads = 8
	// readsPerListingPage: a listing reads its next page only when the run
	// has read at least this many objects of the type per page the listing
	// has (as the service reports it), so that it costs at most one request
	// per this many reads seen.
	readsPerListingPage = 5
	// Page sizes of the listings: the most the contract allows for auth
	// configs and trigger instances; the emulator's maximum for connected
	// accounts (the contract states none; a service that allows fewer says
	// so in total_pages, which the listing follows).
	accountListingPage    = 1000
	authConfigListingPage = 50
	triggerListingPage    = 50
	// EnvSwitch set to "off" turns refresh by listing off: every
	// read is one GET. An internal switch for benchmarks and comparisons,
	// not a user setting.
	EnvSwitch = "SERVICE_INTERNAL_REFRESH_BY_LISTING"
)

// Clock counts the writes of a provider server: it ticks when an
// ApplyResourceChange or InvokeAction starts and when it ends (see
// protocol.WriteTracking). A listing that started at another tick than
// the current one may predate a write, and serves nothing. A nil clock
// never ticks.
type Clock struct{ n atomic.Uint64 }

// Now is the number of ticks so far.
func (w *Clock) Now() uint64 {
	if w == nil {
		return 0
	}
	return w.n.Load()
}

// Tick counts one start or end of a write.
func (w *Clock) Tick() {
	if w != nil {
		w.n.Add(1)
	}
}

// Listings serves the Reads of the three resource types that are
// refreshed by listing. A nil *Listings reads every object by GET.
type Listings struct {
	accounts    *listedReads[client.ConnectedAccount]
	authConfigs *listedReads[client.AuthConfig]
	triggers    *listedReads[client.TriggerInstance]
}

// New returns the listings of one provider run of c; writes
// is the provider server's write clock.
func New(c *client.Client, writes *Clock) *Listings {
	return &Listings{
		accounts: &listedReads[client.ConnectedAccount]{what: "service_connected_account", writes: writes,
			get: c.GetConnectedAccount,
			page: func(ctx context.Context, cursor string) (client.Page[client.ConnectedAccount], error) {
				return c.ConnectedAccountsPage(ctx, client.ConnectedAccountListParams{AccountType: "ALL", Limit: accountListingPage}, cursor)
			},
			id: func(a *client.ConnectedAccount) string { return a.ID }, complete: accountListItemComplete},
		authConfigs: &listedReads[client.AuthConfig]{what: "service_auth_config", writes: writes,
			get: c.GetAuthConfig,
			page: func(ctx context.Context, cursor string) (client.Page[client.AuthConfig], error) {
				return c.AuthConfigsPage(ctx, client.AuthConfigListParams{ShowDisabled: true, Limit: authConfigListingPage}, cursor)
			},
			id: func(a *client.AuthConfig) string { return a.ID }, complete: authConfigListItemComplete},
		triggers: &listedReads[client.TriggerInstance]{what: "service_trigger_instance", writes: writes,
			get: c.GetTriggerInstance,
			page: func(ctx context.Context, cursor string) (client.Page[client.TriggerInstance], error) {
				return c.TriggerInstancesPage(ctx, client.TriggerInstanceListParams{ShowDisabled: true, Limit: triggerListingPage}, cursor)
			},
			id: func(t *client.TriggerInstance) string { return t.ID }, complete: triggerListItemComplete},
	}
}

// The listed items that carry every field a resource's state is made of
// (the provider's fill functions) are those the client's coalesced reads
// take as well: client.ConnectedAccountListItemComplete and the others.
var (
	accountListItemComplete    = client.ConnectedAccountListItemComplete
	authConfigListItemComplete = client.AuthConfigListItemComplete
	triggerListItemComplete    = client.TriggerInstanceListItemComplete
)

// ConnectedAccount returns the account id for Read: from this run's listing
// of accounts when it holds it, else by GET.
func (l *Listings) ConnectedAccount(ctx context.Context, id string) (*client.ConnectedAccount, error) {
	return l.accounts.read(ctx, id)
}

// AuthConfig is ConnectedAccount for auth configs.
func (l *Listings) AuthConfig(ctx context.Context, id string) (*client.AuthConfig, error) {
	return l.authConfigs.read(ctx, id)
}

// TriggerInstance is ConnectedAccount for trigger instances.
func (l *Listings) TriggerInstance(ctx context.Context, id string) (*client.TriggerInstance, error) {
	return l.triggers.read(ctx, id)
}

// ListFromFirstRead makes every listing start at a run's first read of its
// type instead of its listingAfterReads-th (TestRefreshByListing_sameState
// in internal/provider, which compares each read by GET and from a listing).
// Only that test calls it: kept here on purpose, as a test of another package cannot reach the field.
func (l *Listings) ListFromFirstRead() {
	l.accounts.after, l.authConfigs.after, l.triggers.after = 1, 1, 1
}

// listedReads are the reads of one type in one provider run and the
// listing that serves them.
type listedReads[T any] struct {
	what     string // the resource type, for logs
	writes   *Clock
	get      func(ctx context.Context, id string) (*T, error)
	page     func(ctx context.Context, cursor string) (client.Page[T], error)
	id       func(*T) string
	complete func(*T) bool
	// after is the read that starts the listing (listingAfterReads when 0).
	after int

	mu    sync.Mutex
	reads int // reads of the type since the run started or the last write
	l     *listing[T]
}

// listing is what a run has listed of one type.
type listing[T any] struct {
	clock uint64 // the write clock when the listing started
	items map[string]*T
	pages int    // pages read
	total int    // pages the service reports (at least pages, +1 while a cursor is left)
	next  string // cursor of the next page; "" once the last page is read
	// busy is closed when the page being read is in; nil when none is.
	busy   chan struct{}
	failed bool // a page failed: the rest of the run reads by GET
}

// wantsPage reports whether the listing should read its next page now that
// the run has read reads objects of the type.
func (l *listing[T]) wantsPage(reads int) bool {
	if l.failed || l.busy != nil {
		return false
	}
	return l.pages == 0 || (l.next != "" && reads >= readsPerListingPage*l.total)
}

// read returns the object id: from the listing when it holds a complete
// item of it, else by GET.
func (r *listedReads[T]) read(ctx context.Context, id string) (*T, error) {
	after := r.after
	if after <= 0 {
		after = listingAfterReads
	}
	counted := false
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r.mu.Lock()
		now := r.writes.Now()
		if r.l != nil && r.l.clock != now {
			// A write since the listing started: it may be stale.
			r.l, r.reads = nil, 0
		}
		if !counted {
			r.reads++
			counted = true
		}
		if r.l == nil && r.reads >= after {
			r.l = &listing[T]{clock: now, items: map[string]*T{}}
		}
		l := r.l
		switch {
		case l == nil || l.failed:
			r.mu.Unlock()
			return r.get(ctx, id)
		case l.busy != nil:
			busy := l.busy
			r.mu.Unlock()
			select {
			case <-busy:
				continue
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		case l.wantsPage(r.reads):
			l.busy = make(chan struct{})
			cursor := l.next
			r.mu.Unlock()
			r.readPage(ctx, l, cursor)
			continue
		}
		it, ok := l.items[id]
		r.mu.Unlock()
		if !ok || !r.complete(it) {
			return r.get(ctx, id)
		}
		v := *it
		return &v, nil
	}
}

// readPage reads the listing's page at cursor into l and wakes the reads
// waiting for it.
func (r *listedReads[T]) readPage(ctx context.Context, l *listing[T], cursor string) {
	p, err := r.page(ctx, cursor)
	r.mu.Lock()
	defer r.mu.Unlock()
	close(l.busy)
	l.busy = nil
	if err != nil {
		// The reads go on by GET, which reports what is wrong with the object.
		l.failed = true
		tflog.Debug(ctx, "refresh by listing: a page failed; reading by GET", map[string]any{"type": r.what, "error": err.Error()})
		return
	}
	for i := range p.Items {
		it := &p.Items[i]
		l.items[r.id(it)] = it
	}
	l.pages++
	l.next = p.NextCursor
	l.total = max(p.TotalPages, l.pages)
	if l.next != "" && l.total == l.pages {
		l.total = l.pages + 1 // a cursor is left although the service counts no more pages
	}
	if l.next == "" {
		l.total = l.pages
	}
	tflog.Debug(ctx, "refresh by listing: read a page", map[string]any{
		"type": r.what, "page": l.pages, "pages": l.total, "items": len(p.Items), "reads": r.reads,
	})
}

// Off reports whether the internal switch turns refresh by
// listing off (getenv is os.Getenv).
func Off(getenv func(string) string) bool {
	return strings.EqualFold(strings.TrimSpace(getenv(EnvSwitch)), "off")
}
