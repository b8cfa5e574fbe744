package provider

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

// ProviderData is what the provider's Configure hands to every resource, data
// source and ephemeral resource.
//
// # Request budget
//
// Every resource keeps to the request budget of PERFORMANCE.md ("Requests per
// resource", its one home), which TestAccE2E_RequestBudget holds through the
// emulator's request counters.
type ProviderData struct {
	// Client is the configured API client.
	Client *client.Client
	// ToolkitVersions are the resolved toolkit versions (provider block,
	// SERVICE_TOOLKIT_VERSION_<NAME>, toolkit_version).
	ToolkitVersions client.ToolkitVersions
	// VersionSources says where each toolkit version was set (see
	// toolkitVersionSources), for errors about versions that do not exist.
	VersionSources map[string]string
	// Cache fetches referenced objects (toolkits, trigger types, auth
	// configs, connected accounts) at most once per provider process.
	Cache *SchemaCache
	// Refresh serves the Reads of connected accounts, auth configs and
	// trigger instances, by listing when a run reads many of one type
	// (refresh_listing.go); nil reads every object by GET.
	Refresh *refreshListings
	// TriggerCreates are the trigger instances this plan creates (see
	// claimTriggerCreate); Configure makes a new ProviderData for every
	// graph walk, so it holds one walk's creates.
	TriggerCreates plannedKeys
	// AliasClaims are the connected account aliases (user, toolkit, alias)
	// this plan sets (checkAliasAtPlan), per graph walk like TriggerCreates.
	AliasClaims plannedKeys
	// VersionKeys are the keys of toolkit_versions in the provider block,
	// checked against the catalog by checkToolkitVersionKeys.
	VersionKeys []string
	// NoProjectKey is true when the provider has an organization key only
	// (no api_key / SERVICE_API_KEY): project objects then fail in
	// Configure, at plan, naming api_key (providerDataFrom).
	NoProjectKey bool
	// NoOrgKey is true when the provider has no organization key: the
	// organization's objects then fail in Configure, naming org_api_key
	// (orgProviderDataFrom).
	NoOrgKey bool

	// projects is the organization's project listing for service_project's
	// plan-time name-clash check (projectListingFor).
	projects projectListing

	versionKeysChecked atomic.Bool
	catalogMu          sync.Mutex // guards catalogRead and catalogSlugs (toolkitSlugs)
	catalogRead        bool
	catalogSlugs       []string
}

// plannedKeys is a set of keys claimed during one graph walk.
type plannedKeys struct {
	mu   sync.Mutex
	keys map[string]bool
}

// claim adds key and reports whether it was new.
func (p *plannedKeys) claim(key string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.keys == nil {
		p.keys = map[string]bool{}
	}
	if p.keys[key] {
		return false
	}
	p.keys[key] = true
	return true
}

// Configured reports whether d carries a usable client. It is nil-safe: the
// framework calls Configure on resources before the provider is configured
// (validation) and, when the provider configuration is unknown during plan,
// the provider leaves its data unset.
//
// Use it to skip remote plan-time checks (ValidateConfig/ModifyPlan) and, in
// Read, to keep the prior state unchanged instead of failing.
func (d *ProviderData) Configured() bool { return d != nil && d.Client != nil }

// VersionFor returns the toolkit version the provider uses for slug: the
// per-toolkit pin, else toolkit_version, else "latest".
func (d *ProviderData) VersionFor(slug string) string {
	if d == nil {
		return latestVersion
	}
	return toolkitVersionFor(d.ToolkitVersions, slug)
}

// providerDataFrom converts the ProviderData of a Configure request of a
// resource, data source or ephemeral resource. It returns nil without a
// diagnostic when providerData is nil (provider not configured yet), and nil
// with an error diagnostic when it has an unexpected type. Typical use:
//
//	func (r *fooResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
//		r.data = providerDataFrom(req.ProviderData, &resp.Diagnostics)
//	}
//
// Every type but the organization's projects is a project object: when the
// provider has no project key (only org_api_key), it fails here, before any
// request, naming api_key.
func providerDataFrom(providerData any, diags *diag.Diagnostics) *ProviderData {
	d := anyProviderDataFrom(providerData, diags)
	if d != nil && d.NoProjectKey {
		diags.AddError("Missing API key",
			"This object belongs to a project, and the provider has no project API key: set `api_key` in the provider "+
				"block (or the "+EnvAPIKey+" environment variable) to the key of the project it belongs to. `org_api_key` "+
				"only manages the organization's projects (service_project). To manage the objects of a project created "+
				"in the same configuration, see the guide \"Projects and environments\".")
		return nil
	}
	return d
}

// orgProviderDataFrom is providerDataFrom for the organization's objects
// (projects): it fails, before any request, when the provider has no
// organization key, naming org_api_key.
func orgProviderDataFrom(providerData any, diags *diag.Diagnostics) *ProviderData {
	d := anyProviderDataFrom(providerData, diags)
	if d != nil && d.NoOrgKey {
		diags.AddError("Missing organization API key",
			"Projects belong to the organization, and the provider has no organization API key: set `org_api_key` in "+
				"the provider block (or the "+EnvOrgAPIKey+" environment variable). The project key (`api_key`) cannot "+
				"manage projects.")
		return nil
	}
	return d
}

func anyProviderDataFrom(providerData any, diags *diag.Diagnostics) *ProviderData {
	if providerData == nil {
		return nil
	}
	d, ok := providerData.(*ProviderData)
	if !ok {
		diags.AddError("Unexpected provider data type",
			fmt.Sprintf("Expected *provider.ProviderData, got %T. This is a bug in the provider; please report it.", providerData))
		return nil
	}
	return d
}

// requireClient adds an error and returns false when d has no client. Use it
// at the top of Create, Update, Delete, ImportState and data source Read,
// where the provider configuration is always known.
func requireClient(d *ProviderData, diags *diag.Diagnostics) bool {
	if d.Configured() {
		return true
	}
	diags.AddError("Provider not configured",
		"The service provider has not been configured with an API client: its configuration may depend on "+
			"values that are not known yet. Apply the resources the provider configuration depends on first.")
	return false
}

// readReady starts every data source's Read, the ephemeral resource's Open
// and every list resource's List: requireClient, then the check of the
// provider block's toolkit_versions keys against the catalog
// (checkToolkitVersionKeys, once per provider run, skipped while
// `terraform destroy` runs, as a resource's plan-time checks are). A
// resource's plan runs the same check, so an unknown key is named whatever
// the configuration holds: resources, data sources only, or list blocks.
// It returns false, with the error in diags, when the read cannot go on.
func readReady(ctx context.Context, d *ProviderData, typeName string, diags *diag.Diagnostics) bool {
	if !requireClient(d, diags) {
		return false
	}
	gatedChecks(ctx, typeName, diags, func() { d.checkToolkitVersionKeys(ctx, diags) })
	return !diags.HasError()
}

// planUnchanged reports a plan that changes nothing: an existing object
// whose planned value equals its prior state (a refresh-only plan, or a
// configuration that matches the state). ModifyPlan returns at once then:
// nothing it checks or fills in can differ, and decoding the plan, state and
// configuration of every resource would be pure cost in large plans.
func planUnchanged(req resource.ModifyPlanRequest) bool {
	return !req.State.Raw.IsNull() && !req.Plan.Raw.IsNull() && req.Plan.Raw.Equal(req.State.Raw)
}
