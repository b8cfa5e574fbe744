package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/provider/lookup"
	"github.com/integration-service/terraform-provider-service/internal/provider/protocol"
	"github.com/integration-service/terraform-provider-service/internal/provider/refreshlisting"
)

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
	must(testAccDeleteAuthConfig(ctx, c, gone.ID))

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

	cache := lookup.NewObjectCache(c, client.ToolkitVersions{})
	byGET := &ProviderData{Client: c, Cache: cache}
	// A new run for every read, whose first read lists.
	byListing := func() *ProviderData {
		l := refreshlisting.New(c, &refreshlisting.Clock{})
		l.ListFromFirstRead()
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
