package provider

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/provider/lookup"
	"github.com/integration-service/terraform-provider-service/internal/provider/protocol"
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

func (f *fakeListed) reads(clock *writeClock) *listedReads[listedObject] {
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
	r := f.reads(&writeClock{})
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
			readAll(t, f, f.reads(&writeClock{}), fakeIDs(0, tc.n))
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
	readAll(t, f, f.reads(&writeClock{}), fakeIDs(2000, 2000+n)) // none on the first page
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
	r := f.reads(&writeClock{})
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
	clock := &writeClock{}
	r := f.reads(clock)
	readAll(t, f, r, fakeIDs(0, 20))
	if f.pages.Load() != 1 {
		t.Fatalf("%d pages, want 1", f.pages.Load())
	}
	clock.tick() // a write starts
	f.set("o_0040", "written")
	clock.tick() // and ends
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
	f2.onPage = func() { clock.tick(); f2.set("o_0060", "written"); clock.tick() }
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
	readAll(t, f, f.reads(&writeClock{}), fakeIDs(0, 60))
	if f.pages.Load() != 1 || f.gets.Load() != 60 {
		t.Fatalf("%d pages and %d GETs, want 1 failed page and 60 GETs", f.pages.Load(), f.gets.Load())
	}
}

// TestNewServerTracksWrites: the server main.go serves counts writes.
func TestNewServerTracksWrites(t *testing.T) {
	s, err := NewServer("test")()
	if err != nil {
		t.Fatal(err)
	}
	w, ok := s.(protocol.WholeNumbers)
	if !ok {
		t.Fatalf("NewServer serves %T", s)
	}
	if wt, ok := w.Server.(protocol.WriteTracking); !ok || wt.Tick == nil {
		t.Fatalf("NewServer's server does not track writes: %T", w.Server)
	}
}

// TestRefreshByListingSwitch: the internal switch turns refresh by listing
// off; Configure then leaves ProviderData.Refresh nil (one GET per read).
func TestRefreshByListingSwitch(t *testing.T) {
	for v, off := range map[string]bool{"": false, "on": false, "off": true, " OFF ": true} {
		if got := refreshByListingOff(func(string) string { return v }); got != off {
			t.Errorf("%s=%q: off = %v, want %v", envRefreshByListing, v, got, off)
		}
	}
}

// TestRefreshByListing_sameState reads every kind of object of the three
// listed types once by GET and once from a listing, through the resources'
// Read, from an imported state (only the id) and from a refreshed one, and
// compares the two states attribute by attribute. The listing path must make
// no GET (its items are complete, and disabled auth configs, disabled
// trigger instances and disabled or inactive accounts are listed).
func TestRefreshByListing_sameState(t *testing.T) {
	key, c := testAccIsolatedProject(t)
	ctx := context.Background()
	user := acctest.RandomWithPrefix("tf-listing-shape")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}

	// Auth configs: custom API key, service-managed OAuth with tool
	// restrictions, custom OAuth with credentials, scopes and a proxy,
	// disabled.
	stripe, err := c.CreateAuthConfig(ctx, client.CreateAuthConfigRequest{ToolkitSlug: "stripe", Type: client.AuthConfigTypeCustom, Name: user + "-stripe", AuthScheme: "API_KEY"})
	must(err)
	managed, err := c.CreateAuthConfig(ctx, client.CreateAuthConfigRequest{ToolkitSlug: "github", Type: client.AuthConfigTypeManaged, Name: user + "-gh",
		ToolAccessConfig:           &client.ToolAccessConfig{ToolsForConnectedAccountCreation: []string{"GITHUB_CREATE_AN_ISSUE"}},
		ToolsAvailableForExecution: []string{"GITHUB_CREATE_AN_ISSUE"}})
	must(err)
	custom, err := c.CreateAuthConfig(ctx, client.CreateAuthConfigRequest{ToolkitSlug: "github", Type: client.AuthConfigTypeCustom, Name: user + "-gh-custom",
		AuthScheme: "OAUTH2", Credentials: map[string]any{"client_id": "cid", "client_secret": "secret", "scopes": "repo,user"},
		ProxyConfig: &client.ProxyConfig{ProxyURL: "https://proxy.example.com", ProxyAuthKey: "pk"}})
	must(err)
	must(c.DisableAuthConfig(ctx, custom.ID))
	gone, err := c.CreateAuthConfig(ctx, client.CreateAuthConfigRequest{ToolkitSlug: "stripe", Type: client.AuthConfigTypeCustom, Name: user + "-gone", AuthScheme: "API_KEY"})
	must(err)

	// Connected accounts: active, disabled with a reason, waiting for OAuth
	// consent, and one whose auth config was deleted.
	apiKey := func(acID, u string) string {
		t.Helper()
		cr, err := c.InitiateConnectedAccount(ctx, client.InitiateConnectedAccountRequest{AuthConfigID: acID, UserID: u,
			State: &client.ConnectionState{AuthScheme: "API_KEY", Val: map[string]any{"status": "ACTIVE", "api_key": "sk"}}})
		must(err)
		return cr.ID
	}
	active := apiKey(stripe.ID, user+"-1")
	disabled := apiKey(stripe.ID, user+"-2")
	must(c.UpdateConnectedAccountStatus(ctx, disabled, false, "paused by the test"))
	oauth, err := c.InitiateConnectedAccount(ctx, client.InitiateConnectedAccountRequest{AuthConfigID: managed.ID, UserID: user + "-3", CallbackURL: "https://app.example.com/cb"})
	must(err)
	orphan := apiKey(gone.ID, user+"-4")
	must(c.DeleteAuthConfig(ctx, gone.ID))

	// Trigger instances: enabled and disabled.
	upsert := func(minAmount int) string {
		t.Helper()
		id, err := c.UpsertTrigger(ctx, "STRIPE_CHARGE_SUCCEEDED_TRIGGER", client.UpsertTriggerRequest{ConnectedAccountID: active,
			TriggerConfig: map[string]any{"min_amount": minAmount}})
		must(err)
		return id
	}
	enabledTI := upsert(1)
	disabledTI := upsert(2)
	must(c.DisableTrigger(ctx, disabledTI))

	cache := lookup.NewSchemaCache(c, client.ToolkitVersions{})
	byGET := &ProviderData{Client: c, Cache: cache}
	// A new run for every read, whose first read lists.
	byListing := func() *ProviderData {
		l := newRefreshListings(c, &writeClock{})
		l.accounts.after, l.authConfigs.after, l.triggers.after = 1, 1, 1
		return &ProviderData{Client: c, Cache: cache, Refresh: l}
	}

	cases := []struct {
		res       resource.Resource
		setData   func(resource.Resource, *ProviderData)
		ids       []string
		listRoute string
		getRoute  string
		// extra edits the refreshed state to exercise what Read keeps from
		// the prior state (nil: nothing).
		extra func(*tfsdk.State)
	}{
		{NewConnectedAccountResource(), func(r resource.Resource, d *ProviderData) { r.(*connectedAccountResource).data = d },
			[]string{active, disabled, oauth.ID, orphan}, "GET /api/v3.1/connected_accounts", "GET /api/v3.1/connected_accounts/{nanoid}", nil},
		{NewAuthConfigResource(), func(r resource.Resource, d *ProviderData) { r.(*authConfigResource).data = d },
			[]string{stripe.ID, managed.ID, custom.ID}, "GET /api/v3.1/auth_configs", "GET /api/v3.1/auth_configs/{nanoid}",
			func(s *tfsdk.State) {
				if d := s.SetAttribute(ctx, path.Root("credentials"), map[string]string{"client_id": "stale", "client_secret": "kept"}); d.HasError() {
					t.Fatal(d)
				}
			}},
		{NewTriggerInstanceResource(), func(r resource.Resource, d *ProviderData) { r.(*triggerInstanceResource).data = d },
			[]string{enabledTI, disabledTI}, "GET /api/v3.1/trigger_instances/active", "", nil},
	}
	for _, tc := range cases {
		var sresp resource.SchemaResponse
		tc.res.Schema(ctx, resource.SchemaRequest{}, &sresp)
		var mresp resource.MetadataResponse
		tc.res.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: providerTypeName}, &mresp)
		typeName := mresp.TypeName
		read := func(d *ProviderData, prior tfsdk.State) tfsdk.State {
			t.Helper()
			tc.setData(tc.res, d)
			resp := resource.ReadResponse{State: prior}
			tc.res.Read(ctx, resource.ReadRequest{State: prior}, &resp)
			if resp.Diagnostics.HasError() {
				t.Fatalf("%s: Read: %v", typeName, resp.Diagnostics)
			}
			return resp.State
		}
		for _, id := range tc.ids {
			imported := tfsdk.State{Schema: sresp.Schema, Raw: tftypes.NewValue(sresp.Schema.Type().TerraformType(ctx), nil)}
			if d := imported.SetAttribute(ctx, path.Root("id"), id); d.HasError() {
				t.Fatal(d)
			}
			refreshed := read(byGET, imported)
			priors := map[string]tfsdk.State{"imported": imported, "refreshed": refreshed}
			if tc.extra != nil {
				edited := refreshed
				tc.extra(&edited)
				priors["refreshed, edited"] = edited
			}
			for name, prior := range priors {
				want := read(byGET, prior)
				list0, get0 := testAccProjectRequests(t, key, tc.listRoute), testAccProjectRequests(t, key, tc.getRoute)
				got := read(byListing(), prior)
				lists, gets := testAccProjectRequests(t, key, tc.listRoute)-list0, testAccProjectRequests(t, key, tc.getRoute)-get0
				if tc.getRoute == "" {
					gets = 0 // the trigger instance's GET is its list route filtered by id
				}
				if lists != 1 || gets != 0 {
					t.Errorf("%s %s (%s): the listing path made %d listings and %d GETs, want 1 listing and no GET", typeName, id, name, lists, gets)
				}
				compareStates(t, fmt.Sprintf("%s %s (%s)", typeName, id, name), sresp.Schema.Attributes, want, got)
			}
		}
	}
}

// compareStates fails for every attribute of the schema whose value in got
// differs from the one in want.
func compareStates[A any](t *testing.T, what string, attrs map[string]A, want, got tfsdk.State) {
	t.Helper()
	var w, g map[string]tftypes.Value
	if err := want.Raw.As(&w); err != nil {
		t.Fatal(err)
	}
	if err := got.Raw.As(&g); err != nil {
		t.Fatal(err)
	}
	names := make([]string, 0, len(attrs))
	for name := range attrs {
		names = append(names, name)
	}
	slices.Sort(names)
	var diffs []string
	for _, name := range names {
		if !w[name].Equal(g[name]) {
			diffs = append(diffs, fmt.Sprintf("%s: by GET %s, from the listing %s", name, w[name], g[name]))
		}
	}
	if len(w) != len(attrs) {
		t.Errorf("%s: the state has %d attributes, the schema %d", what, len(w), len(attrs))
	}
	if len(diffs) > 0 {
		t.Errorf("%s: the states differ:\n%s", what, strings.Join(diffs, "\n"))
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
	l := newRefreshListings(c, &writeClock{})
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
