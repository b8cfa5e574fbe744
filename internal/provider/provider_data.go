package provider

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/provider/destroyrun"
	"github.com/integration-service/terraform-provider-service/internal/provider/diagnostics"
	"github.com/integration-service/terraform-provider-service/internal/provider/lookup"
	"github.com/integration-service/terraform-provider-service/internal/provider/refreshlisting"
	"github.com/integration-service/terraform-provider-service/internal/provider/suggest"
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
	Cache *lookup.ObjectCache
	// Refresh serves the Reads of connected accounts, auth configs and
	// trigger instances, by listing when a run reads many of one type
	// (package refreshlisting); nil reads every object by GET.
	Refresh *refreshlisting.Listings
	// TriggerCreates are the trigger instances this plan creates (see
	// claimTriggerCreate); Configure makes a new ProviderData for every
	// graph walk, so it holds one walk's creates.
	TriggerCreates plannedKeys
	// AliasClaims are the connected account aliases (user, toolkit, alias)
	// this plan sets (checkAliasAtPlan), per graph walk like TriggerCreates.
	AliasClaims plannedKeys
	// CreateLocks make a create's check for an existing object and its write
	// one step across the concurrent creates of the provider process (a
	// connected account per user and auth config, a trigger instance per
	// type, account and configuration): Terraform creates resources in
	// parallel, and two creates of one key that both checked before either
	// wrote would both write.
	CreateLocks keyedLocks
	// Triggers are the trigger instances of a connected account, listed at
	// most once per account per provider process, and the instances this
	// process upserted (see existingTrigger).
	Triggers triggerInstances
	// Created are the ids of the objects this provider process created (an
	// apply's creates), so that a refusal can tell an object of another
	// resource of the same apply from one made elsewhere.
	Created plannedKeys
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

	// sessionConfigs memoizes the session configs the sessions' plan-time
	// check reads (sessionConfig in resource_tool_router_session.go).
	sessionConfigs sync.Map

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

// has reports whether key was claimed.
func (p *plannedKeys) has(key string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.keys[key]
}

// keyedLocks is a set of mutexes by key, each created on first use and
// dropped when no one holds or waits for it.
type keyedLocks struct {
	mu    sync.Mutex
	locks map[string]*keyedLock
}

type keyedLock struct {
	mu    sync.Mutex
	users int // holders and waiters
}

// lock blocks until key is free, or ctx ends (false then, nothing held), and
// returns the function that frees it.
func (k *keyedLocks) lock(ctx context.Context, key string) (unlock func(), ok bool) {
	k.mu.Lock()
	if k.locks == nil {
		k.locks = map[string]*keyedLock{}
	}
	l := k.locks[key]
	if l == nil {
		l = &keyedLock{}
		k.locks[key] = l
	}
	l.users++
	k.mu.Unlock()
	release := func() {
		k.mu.Lock()
		if l.users--; l.users == 0 {
			delete(k.locks, key)
		}
		k.mu.Unlock()
	}
	got := make(chan struct{})
	go func() {
		l.mu.Lock()
		close(got)
	}()
	select {
	case <-got:
		return func() { l.mu.Unlock(); release() }, true
	case <-ctx.Done():
		go func() { <-got; l.mu.Unlock(); release() }() // free it once the goroutine has it
		return nil, false
	}
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
// type (the Configure of the bases every type embeds, provider_types.go). It
// returns nil without a diagnostic when providerData is nil (provider not
// configured yet), and nil with an error diagnostic when it has an
// unexpected type.
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
	destroyrun.GatedChecks(ctx, typeName, diags, func() { d.checkToolkitVersionKeys(ctx, diags) })
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

// toolkitSlugs returns the slugs of the catalog's toolkits (native and the
// project's custom ones), read at most once per provider process; nil when
// they cannot be read.
func (d *ProviderData) toolkitSlugs(ctx context.Context) []string {
	if !d.Configured() {
		return nil
	}
	d.catalogMu.Lock()
	defer d.catalogMu.Unlock()
	if d.catalogRead {
		return d.catalogSlugs
	}
	list, err := d.Client.ListToolkits(ctx, client.ToolkitListParams{Type: "all"})
	if err != nil {
		return nil // not cached: a later error may retry
	}
	d.catalogRead = true
	for _, t := range list {
		d.catalogSlugs = append(d.catalogSlugs, t.Slug)
	}
	return d.catalogSlugs
}

// suggestToolkit is suggest.DidYouMean for an unknown toolkit slug.
func (d *ProviderData) suggestToolkit(ctx context.Context, slug string) string {
	return suggest.DidYouMean(slug, d.toolkitSlugs(ctx))
}

// lookupToolkit reads the toolkit slug names, the value of the attribute at
// attr, through Cache (at the provider's version of that toolkit), as every
// plan-time check of a toolkit does. When the read fails it reports, on attr,
// a pinned version that does not exist (addVersionNotFound) or an unknown
// toolkit with the closest slug of the catalog
// (diagnostics.AddLookupErrorSuggest, with suggestToolkit), and returns nil. With customMayFollow, a custom toolkit
// (CUSTOM_...) the service does not have is returned as nil without an error:
// a service_custom_toolkit may register it in the same apply.
func (d *ProviderData) lookupToolkit(ctx context.Context, diags *diag.Diagnostics, attr path.Path, slug string, customMayFollow bool) *client.Toolkit {
	tk, err := d.Cache.Toolkit(ctx, slug)
	if err == nil {
		return tk
	}
	if customMayFollow && client.IsNotFound(err) && strings.HasPrefix(strings.ToUpper(slug), client.CustomToolkitPrefix) {
		return nil
	}
	if !d.addVersionNotFound(ctx, diags, slug, err) {
		diagnostics.AddLookupErrorSuggest(diags, attr, "toolkit", slug, d.VersionFor(slug), err,
			func() string { return d.suggestToolkit(ctx, slug) })
	}
	return nil
}

// suggestTriggerType is suggest.DidYouMean for an unknown trigger type, among the
// trigger types of the toolkit its slug names (or, when that toolkit does not
// exist, a suggestion for the toolkit part).
func (d *ProviderData) suggestTriggerType(ctx context.Context, slug string) string {
	if !d.Configured() {
		return ""
	}
	tk := client.ToolkitPrefix(slug)
	list, err := d.Client.ListTriggerTypes(ctx, client.TriggerTypeListParams{ToolkitSlugs: []string{strings.ToLower(tk)}})
	if err != nil {
		return ""
	}
	slugs := make([]string, 0, len(list))
	for _, t := range list {
		slugs = append(slugs, t.Slug)
	}
	if len(slugs) == 0 {
		if c := suggest.Closest(tk, d.toolkitSlugs(ctx)); c != "" {
			return fmt.Sprintf(" The service has no toolkit %q: did you mean toolkit %q?", strings.ToLower(tk), c)
		}
	}
	return suggest.DidYouMean(slug, slugs)
}

// configuredVersionKeys returns the known keys of toolkit_versions in the
// provider block, sorted.
func configuredVersionKeys(cfg providerModel) []string {
	if cfg.ToolkitVersions.IsNull() || cfg.ToolkitVersions.IsUnknown() {
		return nil
	}
	keys := make([]string, 0, len(cfg.ToolkitVersions.Elements()))
	for k := range cfg.ToolkitVersions.Elements() {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// checkToolkitVersionKeys reports, once per provider process, each key of
// toolkit_versions in the provider block that names no toolkit of the
// catalog, with the closest toolkit slug. It runs from the plan-time checks
// of the resources that read the catalog (inside destroyrun.RemotePlanChecks) and from
// readReady (every data source's Read, the ephemeral resource's Open, every
// list resource's List), so that whatever the configuration holds, the first
// of them checks the keys; never while `terraform destroy` runs (both go
// through destroyrun.GatedChecks). Each key is read through Cache at its pinned
// version, the read the resources and data sources of that toolkit make
// anyway (a configuration that uses none of the pinned toolkits pays one
// read per key and run); only a 404 costs one more read (at the default
// version, to tell an unknown toolkit from an unknown version). Custom
// toolkit keys (CUSTOM_...) are not checked: one may be registered in the
// same apply. A provider without a project key (only the organization's
// projects) reads no toolkit and checks nothing.
func (d *ProviderData) checkToolkitVersionKeys(ctx context.Context, diags *diag.Diagnostics) {
	if !d.Configured() || d.NoProjectKey || len(d.VersionKeys) == 0 || !d.versionKeysChecked.CompareAndSwap(false, true) {
		return
	}
	for _, key := range d.VersionKeys {
		slug := strings.ToLower(strings.TrimSpace(key))
		if strings.HasPrefix(strings.ToUpper(slug), client.CustomToolkitPrefix) {
			continue
		}
		if _, err := d.Cache.Toolkit(ctx, slug); !client.IsNotFound(err) && !client.IsStatus(err, http.StatusBadRequest) {
			continue
		}
		if _, err := d.Client.GetToolkit(ctx, slug, ""); !client.IsNotFound(err) {
			continue // the toolkit exists (a version that does not is reported where it is used)
		}
		diags.AddError("Unknown toolkit in toolkit_versions",
			fmt.Sprintf("Provider attribute toolkit_versions[%q]: the service has no toolkit %q, so this version pin "+
				"applies to nothing.%s Fix the key or remove it (the service_toolkits data source lists the toolkits).",
				key, slug, d.suggestToolkit(ctx, slug)))
	}
}

// toolkitVersionSources records where each toolkit version the provider uses
// was set, with the precedence of resolveToolkitVersions: key "" is the
// global toolkit_version, other keys are lower-case toolkit slugs.
func toolkitVersionSources(cfg providerModel, environ []string) map[string]string {
	src := map[string]string{}
	for _, kv := range environ {
		name, value, ok := strings.Cut(kv, "=")
		if ok && strings.HasPrefix(name, EnvToolkitVersionPrefix) && strings.TrimSpace(value) != "" {
			if slug := strings.ToLower(strings.TrimPrefix(name, EnvToolkitVersionPrefix)); slug != "" {
				src[slug] = "the " + name + " environment variable"
			}
		}
	}
	if !cfg.ToolkitVersions.IsNull() && !cfg.ToolkitVersions.IsUnknown() {
		for key, v := range cfg.ToolkitVersions.Elements() {
			if sv, ok := v.(types.String); ok && !sv.IsNull() && !sv.IsUnknown() {
				src[strings.ToLower(key)] = fmt.Sprintf("toolkit_versions[%q] in the provider block", key)
			}
		}
	}
	if !cfg.ToolkitVersion.IsNull() && !cfg.ToolkitVersion.IsUnknown() {
		src[""] = "toolkit_version in the provider block"
	}
	return src
}

// versionSource says where the version used for toolkit was set.
func (d *ProviderData) versionSource(toolkit string) string {
	if d == nil {
		return ""
	}
	if s, ok := d.VersionSources[strings.ToLower(toolkit)]; ok {
		return s
	}
	return d.VersionSources[""]
}

// addVersionNotFound turns a lookup failure caused by a toolkit version that
// does not exist into an error naming the setting (toolkit_version,
// toolkit_versions["<slug>"] or SERVICE_TOOLKIT_VERSION_<NAME>) and the
// versions that exist, and reports true. It confirms the cause with one read
// of the toolkit at its default version; for any other failure it reports
// false and adds nothing.
func (d *ProviderData) addVersionNotFound(ctx context.Context, diags *diag.Diagnostics, toolkit string, err error) bool {
	if !d.Configured() || err == nil || toolkit == "" {
		return false
	}
	version := d.VersionFor(toolkit)
	if version == latestVersion || (!client.IsStatus(err, http.StatusBadRequest) && !client.IsNotFound(err)) {
		return false
	}
	tk, gerr := d.Client.GetToolkit(ctx, toolkit, "")
	if gerr != nil {
		return false
	}
	for _, v := range tk.Meta.AvailableVersions {
		if v == version {
			return false // the version exists: the failure has another cause
		}
	}
	source := d.versionSource(toolkit)
	if source == "" {
		source = "the provider configuration"
	}
	available := "none listed"
	if len(tk.Meta.AvailableVersions) > 0 {
		available = strings.Join(tk.Meta.AvailableVersions, ", ")
	}
	diags.AddError("Toolkit version not found",
		fmt.Sprintf("Toolkit %q has no version %s, set by %s. Versions that exist: %s. Set %s to one of them, "+
			"or to \"latest\".", toolkit, version, source, available, strings.TrimPrefix(strings.TrimSuffix(source, " in the provider block"), "the ")))
	return true
}

// latestVersion is the version keyword meaning "the service's newest".
const latestVersion = client.VersionLatest

// resolveToolkitVersions is the one place toolkit versions are decided.
// Precedence per toolkit: toolkit_versions[slug] in the provider block, then
// SERVICE_TOOLKIT_VERSION_<NAME> (NAME = upper-case slug, mapped to the
// lower-case slug), then toolkit_version (Global). Every value is validated;
// diagnostics name the attribute or the environment variable. environ is in
// os.Environ() form ("KEY=value").
func resolveToolkitVersions(cfg providerModel, environ []string) (client.ToolkitVersions, diag.Diagnostics) {
	var diags diag.Diagnostics
	out := client.ToolkitVersions{PerToolkit: map[string]string{}}

	// Environment first, so that the configuration overrides it.
	for _, kv := range environ {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || !strings.HasPrefix(name, EnvToolkitVersionPrefix) {
			continue
		}
		slug := strings.ToLower(strings.TrimPrefix(name, EnvToolkitVersionPrefix))
		value = strings.TrimSpace(value)
		switch {
		case slug == "":
			diags.AddError("Invalid toolkit version environment variable",
				fmt.Sprintf("Environment variable %s has no toolkit name; use %s<NAME>, e.g. %sGITHUB.",
					name, EnvToolkitVersionPrefix, EnvToolkitVersionPrefix))
			continue
		case value == "":
			continue // set but empty: treated as unset
		}
		if err := client.ValidateVersion(value); err != nil {
			diags.AddError("Invalid toolkit version in environment variable "+name,
				fmt.Sprintf("Environment variable %s: %s.", name, err))
			continue
		}
		if prev, dup := out.PerToolkit[slug]; dup && prev != value {
			diags.AddWarning("Conflicting toolkit version environment variables",
				fmt.Sprintf("Several %s* variables name the toolkit %q with different versions; %s=%q is used.",
					EnvToolkitVersionPrefix, slug, name, value))
		}
		out.PerToolkit[slug] = value
	}

	// Per-toolkit map in the configuration.
	if !cfg.ToolkitVersions.IsNull() && !cfg.ToolkitVersions.IsUnknown() {
		for key, v := range cfg.ToolkitVersions.Elements() {
			sv, ok := v.(types.String)
			if !ok || sv.IsNull() || sv.IsUnknown() {
				continue
			}
			attr := path.Root("toolkit_versions").AtMapKey(key)
			value := strings.TrimSpace(sv.ValueString())
			if err := client.ValidateVersion(value); err != nil {
				diags.AddAttributeError(attr, "Invalid toolkit version",
					fmt.Sprintf("Attribute toolkit_versions[%q]: %s.", key, err))
				continue
			}
			out.PerToolkit[strings.ToLower(key)] = value
		}
	}

	// Global version.
	if !cfg.ToolkitVersion.IsNull() && !cfg.ToolkitVersion.IsUnknown() {
		value := strings.TrimSpace(cfg.ToolkitVersion.ValueString())
		if err := client.ValidateVersion(value); err != nil {
			diags.AddAttributeError(path.Root("toolkit_version"), "Invalid toolkit version",
				fmt.Sprintf("Attribute toolkit_version: %s.", err))
		} else {
			out.Global = value
		}
	}

	if len(out.PerToolkit) == 0 {
		out.PerToolkit = nil
	}
	return out, diags
}

// toolkitVersionFor returns the version the provider uses for a toolkit:
// the per-toolkit pin, else the global version, else "latest".
func toolkitVersionFor(v client.ToolkitVersions, slug string) string {
	return v.Resolve(slug)
}

// readConnectedAccount returns the account id for Read: from this run's
// listing of accounts when it holds it, else by GET.
func (d *ProviderData) readConnectedAccount(ctx context.Context, id string) (*client.ConnectedAccount, error) {
	if d.Refresh == nil {
		return d.Client.GetConnectedAccount(ctx, id)
	}
	return d.Refresh.ConnectedAccount(ctx, id)
}

// readAuthConfig is readConnectedAccount for auth configs.
func (d *ProviderData) readAuthConfig(ctx context.Context, id string) (*client.AuthConfig, error) {
	if d.Refresh == nil {
		return d.Client.GetAuthConfig(ctx, id)
	}
	return d.Refresh.AuthConfig(ctx, id)
}

// readTriggerInstance is readConnectedAccount for trigger instances.
func (d *ProviderData) readTriggerInstance(ctx context.Context, id string) (*client.TriggerInstance, error) {
	if d.Refresh == nil {
		return d.Client.GetTriggerInstance(ctx, id)
	}
	return d.Refresh.TriggerInstance(ctx, id)
}

// projectListing is the organization's projects as one plan walk lists
// them (once per ProviderData: Configure makes one per walk), for the
// name-clash check of new projects.
type projectListing struct {
	once  sync.Once
	names map[string]string // name -> id
	err   error

	mu sync.Mutex
	// managed are the ids of projects that are in the state of a resource
	// planned in this walk: a create whose name is one of theirs is the
	// second half of a replacement (`-replace`, a tainted project), not a
	// clash.
	managed map[string]bool
}

// projectListingFor returns the walk's listing, kept in its ProviderData (and
// gone with it).
func projectListingFor(d *ProviderData) *projectListing { return &d.projects }

func (l *projectListing) markManaged(id string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.managed == nil {
		l.managed = map[string]bool{}
	}
	l.managed[id] = true
}

func (l *projectListing) isManaged(id string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.managed[id]
}

// lookup returns the id of the organization's project named name ("" when
// none), listing the projects on first use.
func (l *projectListing) lookup(ctx context.Context, c *client.Client, name string) (string, error) {
	l.once.Do(func() {
		l.names = map[string]string{}
		for p, err := range c.Projects(ctx) {
			if err != nil {
				l.err = err
				return
			}
			if !p.Deleted {
				l.names[p.Name] = p.ID
			}
		}
	})
	if l.err != nil {
		return "", l.err
	}
	return l.names[name], nil
}
