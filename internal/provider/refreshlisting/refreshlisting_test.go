package refreshlisting

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

// listedObject is the object type of the listing tests that need no
// service.
type listedObject struct{ ID, Value string }

// fakeListed serves objects (by id) to a listedReads through page and get
// functions that count their calls. Pages hold pageSize objects in id
// order; the cursor is the offset.
type fakeListed struct {
	mu       sync.Mutex
	objects  map[string]string
	pageSize int
	gets     atomic.Int32
	pages    atomic.Int32
	// onPage, when set, runs inside every page request.
	onPage func()
	// pageErr, when set, fails every page request.
	pageErr error
}

var errFakeNotFound = errors.New("fake: not found")

func newFakeListed(n, pageSize int) *fakeListed {
	f := &fakeListed{objects: map[string]string{}, pageSize: pageSize}
	for i := range n {
		f.objects[fmt.Sprintf("o_%04d", i)] = "v" + strconv.Itoa(i)
	}
	return f
}

func (f *fakeListed) reads(clock *Clock) *listedReads[listedObject] {
	return &listedReads[listedObject]{
		what:   "fake",
		writes: clock,
		get: func(_ context.Context, id string) (*listedObject, error) {
			f.gets.Add(1)
			f.mu.Lock()
			defer f.mu.Unlock()
			v, ok := f.objects[id]
			if !ok {
				return nil, errFakeNotFound
			}
			return &listedObject{ID: id, Value: v}, nil
		},
		page: func(_ context.Context, cursor string) (client.Page[listedObject], error) {
			f.pages.Add(1)
			if f.onPage != nil {
				f.onPage()
			}
			if f.pageErr != nil {
				return client.Page[listedObject]{}, f.pageErr
			}
			f.mu.Lock()
			defer f.mu.Unlock()
			ids := make([]string, 0, len(f.objects))
			for id := range f.objects {
				ids = append(ids, id)
			}
			sort.Strings(ids)
			off, _ := strconv.Atoi(cursor)
			p := client.Page[listedObject]{TotalPages: (len(ids) + f.pageSize - 1) / f.pageSize}
			for i := off; i < off+f.pageSize && i < len(ids); i++ {
				p.Items = append(p.Items, listedObject{ID: ids[i], Value: f.objects[ids[i]]})
			}
			if off+f.pageSize < len(ids) {
				p.NextCursor = strconv.Itoa(off + f.pageSize)
			}
			return p, nil
		},
		id:       func(o *listedObject) string { return o.ID },
		complete: func(o *listedObject) bool { return o.Value != "" },
	}
}

func (f *fakeListed) set(id, v string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if v == "" {
		delete(f.objects, id)
		return
	}
	f.objects[id] = v
}

func (f *fakeListed) requests() int { return int(f.gets.Load() + f.pages.Load()) }

// readAll reads ids with 10 reads at a time, as Terraform refreshes, and
// checks that each read returns the object's current value.
func readAll(t *testing.T, f *fakeListed, r *listedReads[listedObject], ids []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	sem := make(chan struct{}, 10)
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			got, err := r.read(ctx, id)
			f.mu.Lock()
			want := f.objects[id]
			f.mu.Unlock()
			if err != nil || got.ID != id || got.Value != want {
				t.Errorf("read %s = %+v, %v; want value %q", id, got, err, want)
			}
		}()
	}
	wg.Wait()
}

func fakeIDs(from, to int) []string {
	var ids []string
	for i := from; i < to; i++ {
		ids = append(ids, fmt.Sprintf("o_%04d", i))
	}
	return ids
}

// TestListedReads_fewReadsAreGETs: up to listingAfterReads-1 reads of a type
// are one GET each, and a single read is one GET.
func TestListedReads_fewReadsAreGETs(t *testing.T) {
	f := newFakeListed(100, 1000)
	r := f.reads(&Clock{})
	readAll(t, f, r, fakeIDs(0, 1))
	if f.gets.Load() != 1 || f.pages.Load() != 0 {
		t.Fatalf("a single read made %d GETs and %d pages, want 1 GET", f.gets.Load(), f.pages.Load())
	}
	readAll(t, f, r, fakeIDs(1, listingAfterReads-1))
	if int(f.gets.Load()) != listingAfterReads-1 || f.pages.Load() != 0 {
		t.Fatalf("%d reads made %d GETs and %d pages, want one GET each", listingAfterReads-1, f.gets.Load(), f.pages.Load())
	}
}

// TestListedReads_manyReadsOneListing: N >= 50 reads of one type, ten at a
// time, cost at most N/5 requests, and each returns the object's value.
func TestListedReads_manyReadsOneListing(t *testing.T) {
	for _, tc := range []struct{ n, project, pageSize int }{
		{50, 50, 50}, {60, 100, 1000}, {300, 300, 1000}, {300, 300, 50}, {1000, 1000, 1000},
	} {
		t.Run(fmt.Sprintf("%d of %d, pages of %d", tc.n, tc.project, tc.pageSize), func(t *testing.T) {
			f := newFakeListed(tc.project, tc.pageSize)
			readAll(t, f, f.reads(&Clock{}), fakeIDs(0, tc.n))
			t.Logf("%d GETs, %d pages", f.gets.Load(), f.pages.Load())
			if f.requests() > tc.n/5 {
				t.Fatalf("%d reads made %d requests (%d GETs, %d pages), want at most %d", tc.n, f.requests(), f.gets.Load(), f.pages.Load(), tc.n/5)
			}
		})
	}
}

// TestListedReads_largeProjectIsNotListed: a project holding far more objects
// than the run reads is not listed in full: a listing costs at most one page
// per readsPerListingPage reads.
func TestListedReads_largeProjectIsNotListed(t *testing.T) {
	f := newFakeListed(5000, 50) // 100 pages
	const n = 40
	readAll(t, f, f.reads(&Clock{}), fakeIDs(2000, 2000+n)) // none on the first page
	if got := int(f.pages.Load()); got > n/readsPerListingPage || got == 0 {
		t.Fatalf("%d reads in a project of 100 pages read %d pages, want 1 to %d", n, got, n/readsPerListingPage)
	}
	if f.requests() > n+n/readsPerListingPage {
		t.Fatalf("%d reads made %d requests", n, f.requests())
	}
}

// TestListedReads_missingOrIncompleteIsGET: an object the listing lacks
// (deleted since, or created after it) or whose item lacks a field is read
// by GET, and a deleted one then fails as a GET does.
func TestListedReads_missingOrIncompleteIsGET(t *testing.T) {
	f := newFakeListed(100, 1000)
	r := f.reads(&Clock{})
	r.complete = func(o *listedObject) bool { return o.ID != "o_0050" } // the listing's item of o_0050 lacks a field
	f.set("o_0030", "")                                                 // deleted before the run
	readAll(t, f, r, fakeIDs(0, 20))
	gets := f.gets.Load()
	f.set("o_0500", "v") // created after the listing
	ctx := context.Background()
	if _, err := r.read(ctx, "o_0030"); !errors.Is(err, errFakeNotFound) {
		t.Fatalf("a deleted object: err = %v, want the GET's not found", err)
	}
	if got, err := r.read(ctx, "o_0500"); err != nil || got.Value != "v" {
		t.Fatalf("an object created after the listing: %+v, %v", got, err)
	}
	if got, err := r.read(ctx, "o_0050"); err != nil || got.Value != "v50" {
		t.Fatalf("an incomplete item: %+v, %v", got, err)
	}
	if d := f.gets.Load() - gets; d != 3 {
		t.Fatalf("the three reads made %d GETs, want 3", d)
	}
	if f.pages.Load() != 1 {
		t.Fatalf("%d pages, want 1", f.pages.Load())
	}
}

// TestListedReads_writeInvalidates: nothing read after a write of the same
// run is served from a listing that started before it, including a write
// that ends while a page is being read.
func TestListedReads_writeInvalidates(t *testing.T) {
	ctx := context.Background()
	f := newFakeListed(100, 1000)
	clock := &Clock{}
	r := f.reads(clock)
	readAll(t, f, r, fakeIDs(0, 20))
	if f.pages.Load() != 1 {
		t.Fatalf("%d pages, want 1", f.pages.Load())
	}
	clock.Tick() // a write starts
	f.set("o_0040", "written")
	clock.Tick() // and ends
	gets := f.gets.Load()
	if got, err := r.read(ctx, "o_0040"); err != nil || got.Value != "written" || f.gets.Load() != gets+1 {
		t.Fatalf("read after a write: %+v, %v after %d GETs; want the written value by GET", got, err, f.gets.Load()-gets)
	}
	// The count starts again: a new listing after listingAfterReads reads.
	readAll(t, f, r, fakeIDs(41, 41+listingAfterReads+5))
	if f.pages.Load() != 2 {
		t.Fatalf("%d pages after the write, want a second listing", f.pages.Load())
	}

	// A write during a page: what the page read is not served.
	f2 := newFakeListed(100, 1000)
	r2 := f2.reads(clock)
	f2.onPage = func() { clock.Tick(); f2.set("o_0060", "written"); clock.Tick() }
	readAll(t, f2, r2, fakeIDs(0, listingAfterReads))
	f2.onPage = nil
	gets = f2.gets.Load()
	if got, err := r2.read(ctx, "o_0060"); err != nil || got.Value != "written" || f2.gets.Load() != gets+1 {
		t.Fatalf("read after a write during the listing: %+v, %v; want the written value by GET", got, err)
	}
}

// TestListedReads_pageFailureFallsBack: when a page fails, every read of the
// run goes on by GET, and no page is asked for again.
func TestListedReads_pageFailureFallsBack(t *testing.T) {
	f := newFakeListed(100, 1000)
	f.pageErr = errors.New("boom")
	readAll(t, f, f.reads(&Clock{}), fakeIDs(0, 60))
	if f.pages.Load() != 1 || f.gets.Load() != 60 {
		t.Fatalf("%d pages and %d GETs, want 1 failed page and 60 GETs", f.pages.Load(), f.gets.Load())
	}
}

// TestRefreshByListingSwitch: the internal switch turns refresh by listing
// off; the provider's Configure then leaves ProviderData.Refresh nil (one
// GET per read).
func TestRefreshByListingSwitch(t *testing.T) {
	for v, off := range map[string]bool{"": false, "on": false, "off": true, " OFF ": true} {
		if got := Off(func(string) string { return v }); got != off {
			t.Errorf("%s=%q: off = %v, want %v", EnvSwitch, v, got, off)
		}
	}
}

// TestRefreshListingsAskForEverything: the listings ask for every object a
// GET sees: shared connected accounts (the list's default is PRIVATE only;
// the emulator has no shared accounts, so only the query shows it), and
// disabled auth configs and trigger instances (their lists' default hides
// them), in the largest pages the contract allows.
func TestRefreshListingsAskForEverything(t *testing.T) {
	var mu sync.Mutex
	queries := map[string]url.Values{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		queries[r.URL.Path] = r.URL.Query()
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"items":[],"next_cursor":null,"total_pages":1}`)
	}))
	defer srv.Close()
	c, err := client.New(client.Config{BaseURL: srv.URL, APIKey: "k", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	l := New(c, &Clock{})
	_, err1 := l.accounts.page(ctx, "")
	_, err2 := l.authConfigs.page(ctx, "")
	_, err3 := l.triggers.page(ctx, "")
	if err := errors.Join(err1, err2, err3); err != nil {
		t.Fatal(err)
	}
	want := map[string]url.Values{
		"/api/v3.1/connected_accounts":       {"account_type": {"ALL"}, "limit": {"1000"}},
		"/api/v3.1/auth_configs":             {"show_disabled": {"true"}, "limit": {"50"}},
		"/api/v3.1/trigger_instances/active": {"show_disabled": {"true"}, "limit": {"50"}},
	}
	for p, q := range want {
		if got := queries[p].Encode(); got != q.Encode() {
			t.Errorf("listing %s: query %q, want %q", p, got, q.Encode())
		}
	}
}
