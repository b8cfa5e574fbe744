// Package provider implements the Terraform provider for the integration
// service on top of terraform-plugin-framework.
package provider

import (
	"context"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/provider/codec"
	"github.com/integration-service/terraform-provider-service/internal/provider/destroyrun"
	"github.com/integration-service/terraform-provider-service/internal/provider/lookup"
	"github.com/integration-service/terraform-provider-service/internal/provider/protocol"
	"github.com/integration-service/terraform-provider-service/internal/provider/refreshlisting"
	"github.com/integration-service/terraform-provider-service/internal/provider/validators"
)

// RegistryAddress is the provider's address in the Terraform Registry.
const RegistryAddress = "registry.terraform.io/integration-service/service"

// registryDocsURL is the provider's documentation page, named in the User-Agent.
const registryDocsURL = "https://registry.terraform.io/providers/integration-service/service"

// Environment variables read by the provider.
const (
	EnvAPIKey                = "SERVICE_API_KEY"
	EnvOrgAPIKey             = "SERVICE_ORG_API_KEY" //nolint:gosec // G101: the name of an environment variable, not a credential
	EnvBaseURL               = "SERVICE_BASE_URL"
	EnvToolkitVersionPrefix  = "SERVICE_TOOLKIT_VERSION_"
	EnvMaxRequestsPerMinute  = "SERVICE_MAX_REQUESTS_PER_MINUTE"
	defaultBaseURL           = "https://backend.composio.dev"
	defaultRequestTimeoutStr = "30s"
)

// providerTypeName prefixes every resource and data source type name.
const providerTypeName = "service"

// defaultMaxRetries is the provider's max_retries when unset. It is higher
// than the bare client's default because one terraform run makes dozens of
// requests, each of which must get through: with 4 retries a service
// answering 429 or 503 to 40% of requests fails about every second apply;
// with 10, about one in a thousand. Only safe requests are retried, and a 429
// waits for Retry-After, so the cost is time, never duplicate objects.
const defaultMaxRetries = 10

// ServiceProvider is the provider implementation.
type ServiceProvider struct {
	version string
	// writes counts the writes of the provider server that serves it
	// (protocol.WriteTracking): a listing that predates a write serves no Read.
	writes *refreshlisting.Clock
	// getenv reads the environment (nil: os.Getenv).
	getenv func(string) string
}

// env is the provider's view of the environment variables.
func (p *ServiceProvider) env() envLookup {
	if p.getenv == nil {
		return envLookup{getenv: os.Getenv, environ: os.Environ}
	}
	return envLookup{getenv: p.getenv, environ: os.Environ}
}

var (
	_ provider.Provider                       = (*ServiceProvider)(nil)
	_ provider.ProviderWithConfigValidators   = (*ServiceProvider)(nil)
	_ provider.ProviderWithEphemeralResources = (*ServiceProvider)(nil)
	_ provider.ProviderWithListResources      = (*ServiceProvider)(nil)
	_ provider.ProviderWithActions            = (*ServiceProvider)(nil)
)

// providerModel maps the provider block.
type providerModel struct {
	APIKey                types.String `tfsdk:"api_key"`
	OrgAPIKey             types.String `tfsdk:"org_api_key"`
	BaseURL               types.String `tfsdk:"base_url"`
	ToolkitVersions       types.Map    `tfsdk:"toolkit_versions"`
	ToolkitVersion        types.String `tfsdk:"toolkit_version"`
	DefaultHeaders        types.Map    `tfsdk:"default_headers"`
	RequestTimeout        types.String `tfsdk:"request_timeout"`
	MaxRetries            types.Int64  `tfsdk:"max_retries"`
	MaxConcurrentRequests types.Int64  `tfsdk:"max_concurrent_requests"`
	MaxRequestsPerMinute  types.Int64  `tfsdk:"max_requests_per_minute"`
	AllowInsecureHTTP     types.Bool   `tfsdk:"allow_insecure_http"`
}

// Metadata names the provider.
func (p *ServiceProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = providerTypeName
	resp.Version = p.version
}

// Schema describes the provider configuration.
func (p *ServiceProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The `service` provider manages the projects of an organization and, in a project, auth " +
			"configs, connected accounts, trigger instances, webhooks, MCP servers and custom toolkits, and reads the " +
			"toolkit catalog. Every argument is optional: the keys and base URL can come from the environment (`" +
			EnvAPIKey + "`, `" + EnvOrgAPIKey + "`, `" + EnvBaseURL + "`).",
		Attributes: map[string]schema.Attribute{
			"api_key": schema.StringAttribute{
				MarkdownDescription: "API key of the project, sent as the `x-api-key` header on every project operation. " +
					"Falls back to the `" + EnvAPIKey + "` environment variable. Required (here or in the environment) " +
					"by every resource, data source and list resource except the organization's projects; a " +
					"configuration that manages only `service_project` needs `org_api_key` alone.",
				Optional:  true,
				Sensitive: true,
			},
			"org_api_key": schema.StringAttribute{
				MarkdownDescription: "API key of the organization, sent as the `x-org-api-key` header, and only on the " +
					"organization's operations: `service_project` and the `service_project`/`service_projects` data " +
					"sources and list resource. Falls back to the `" + EnvOrgAPIKey + "` environment variable. Each " +
					"request carries exactly one credential (the service refuses a request with two), so setting both " +
					"keys is fine.",
				Optional:  true,
				Sensitive: true,
			},
			"base_url": schema.StringAttribute{
				MarkdownDescription: "Base address of the service: an absolute `https://` (or `http://`) URL made of " +
					"the origin and an optional path prefix, without query or fragment; the provider appends `/api/v3.1`. " +
					"Falls back to the `" + EnvBaseURL + "` environment variable, then to `" + defaultBaseURL + "`. " +
					"A plain `http://` URL is only accepted for loopback hosts (`localhost`, `*.localhost`, `127.0.0.0/8`, " +
					"`[::1]`) unless `allow_insecure_http` is true.",
				Optional:   true,
				Validators: []validator.String{validators.BaseURL()},
			},
			"toolkit_versions": schema.MapAttribute{
				MarkdownDescription: "Toolkit versions by toolkit slug, e.g. `{ github = \"20251015_00\" }`. Each value is " +
					"`YYYYMMDD_NN` (a calendar date, underscore, two digits) or `latest`. Per-toolkit values take " +
					"precedence over the `" + EnvToolkitVersionPrefix + "<NAME>` environment variables (`<NAME>` is the " +
					"upper-case toolkit slug), which take precedence over `toolkit_version`. The versions decide which " +
					"trigger configuration schemas and auth fields apply. Pinning versions is recommended for production.",
				Optional:    true,
				ElementType: types.StringType,
				Validators: []validator.Map{
					mapvalidator.KeysAre(validators.ToolkitSlug()),
					mapvalidator.ValueStringsAre(validators.ToolkitVersion()),
				},
			},
			"toolkit_version": schema.StringAttribute{
				MarkdownDescription: "One version (`YYYYMMDD_NN` or `latest`) for every toolkit without a more specific " +
					"version in `toolkit_versions` or a `" + EnvToolkitVersionPrefix + "<NAME>` environment variable. " +
					"When unset, the service's latest versions are used.",
				Optional:   true,
				Validators: []validator.String{validators.ToolkitVersion()},
			},
			"default_headers": schema.MapAttribute{
				MarkdownDescription: "Extra HTTP headers sent with every request. `content-type` and the credential " +
					"headers `x-api-key`, `x-org-api-key` and `x-user-api-key` cannot be set: the keys come from `api_key` " +
					"and `org_api_key`, and each request carries exactly one.",
				Optional:    true,
				ElementType: types.StringType,
				Validators: []validator.Map{
					mapvalidator.KeysAre(headerNameValidator()),
					mapvalidator.ValueStringsAre(validators.HeaderValue()),
				},
			},
			"request_timeout": schema.StringAttribute{
				MarkdownDescription: "Time limit of each HTTP attempt, as a Go duration string such as `30s` or `2m`. " +
					"Defaults to `" + defaultRequestTimeoutStr + "`.",
				Optional:   true,
				Validators: []validator.String{validators.Duration()},
			},
			"max_retries": schema.Int64Attribute{
				MarkdownDescription: "Number of retries after the first attempt for unavailable (502, 503, 504) and " +
					"failed connections, with exponential backoff honouring `Retry-After`. Writes are only retried when " +
					"the service cannot have applied them. A request rate limited by the service (429) is not counted: " +
					"every request of the provider waits for the service's `Retry-After` (or a shared backoff) and the " +
					"request is retried until it passes, for up to 10 minutes. `0` disables retries, 429s included. " +
					"Defaults to `" + strconv.Itoa(defaultMaxRetries) + "`.",
				Optional:   true,
				Validators: []validator.Int64{int64validator.AtLeast(0)},
			},
			"max_concurrent_requests": schema.Int64Attribute{
				MarkdownDescription: "Upper bound on HTTP requests in flight at once from this provider. Defaults to `10`, Terraform's default `-parallelism`, so that no operation waits for another's request.",
				Optional:            true,
				Validators:          []validator.Int64{int64validator.AtLeast(1)},
			},
			"max_requests_per_minute": schema.Int64Attribute{
				MarkdownDescription: "Upper bound on the requests this provider sends in any minute, from its first " +
					"request: a positive whole number. Falls back to the `" + EnvMaxRequestsPerMinute + "` environment " +
					"variable. Unset, the provider paces itself to the limit the service announces in its " +
					"`X-RateLimit` headers (the organization's requests per minute, shared by every pipeline of the " +
					"organization), slowing down before it is reached, and after a 429 every request waits for the " +
					"service's `Retry-After` (or a shared backoff); set it below the organization's limit to leave room " +
					"for other pipelines, or when the service's answers carry no rate-limit header. Waiting is logged " +
					"at `TF_LOG=info` (\"throttled by the service, waiting N s\").",
				Optional:   true,
				Validators: []validator.Int64{int64validator.AtLeast(1)},
			},
			"allow_insecure_http": schema.BoolAttribute{
				MarkdownDescription: "Allow a plain `http://` `base_url` to a host other than loopback. The API key " +
					"would travel unencrypted, so this is off by default.",
				Optional: true,
			},
		},
	}
}

// ConfigValidators checks combinations of provider arguments at validate time.
func (p *ServiceProvider) ConfigValidators(_ context.Context) []provider.ConfigValidator {
	return []provider.ConfigValidator{validators.InsecureBaseURL{}}
}

// Configure builds the API client and hands *ProviderData to every resource,
// data source and ephemeral resource.
func (p *ServiceProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	destroyrun.SetCLIVersion(req.TerraformVersion) // whether a test's teardown plans first (destroyrun.InTest)
	var cfg providerModel
	resp.Diagnostics.Append(codec.Get(ctx, req.Config, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}

	settings, diags := resolveSettings(cfg, p.env(), p.version, req.TerraformVersion)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	if settings.unknown {
		// A value depends on something not yet known (for example an API key
		// produced by another resource). Do not fail the plan: defer when
		// Terraform allows it, otherwise leave the provider data unset so
		// resources skip remote plan-time checks and keep their prior state.
		tflog.Debug(ctx, "provider configuration has unknown values; deferring client creation")
		if req.ClientCapabilities.DeferralAllowed {
			resp.Deferred = &provider.Deferred{Reason: provider.DeferredReasonProviderConfigUnknown}
			return
		}
		resp.Diagnostics.AddWarning("Provider configuration not known until apply",
			"A value of this provider configuration (for example api_key taken from a service_project created in the "+
				"same run) is not known yet, and this Terraform cannot defer the provider's resources to a later plan. "+
				"Their plan-time checks against the service are skipped and their computed values show as known after "+
				"apply; each object is checked when it is created. To review every change before it is made, apply the "+
				"configuration that creates the value first and pass it to this one (see the guide \"Projects and environments\").")
		return
	}

	settings.clientConfig.OnRateLimitWait = noteRateLimitWait
	cc := &settings.clientConfig
	cc.CoalesceWindow, cc.CoalesceMaxWait, cc.CoalesceBusyWindow = coalesceFromEnv(os.Getenv(EnvCoalesce))
	c, err := client.New(settings.clientConfig)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("base_url"), "Unable to create API client",
			"The provider could not build its HTTP client: "+err.Error())
		return
	}
	// One short probe: an unreachable or refusing base_url fails here, in
	// seconds, instead of every data source and resource sitting through the
	// full retry budget. Requests made later keep that budget.
	if err := c.Probe(ctx, client.DefaultProbeWindow); err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("base_url"), "Cannot reach the service",
			fmt.Sprintf("The provider cannot connect to the service at %s: %s.\n\n"+
				"Check base_url (or the %s environment variable): it must be the service's origin, for example %s, "+
				"reachable from this machine. This check runs once when the provider starts; once connected, every "+
				"request is retried on connection failures up to max_retries times (currently %d), so raise "+
				"max_retries in the provider block to ride out longer outages.",
				strings.TrimSuffix(c.BaseURL(), client.APIPrefix), err, EnvBaseURL, client.DefaultBaseURL,
				max(settings.clientConfig.MaxRetries, 0)))
		return
	}
	tflog.Debug(ctx, "configured service API client", map[string]any{
		"base_url":    settings.clientConfig.BaseURL,
		"user_agent":  settings.clientConfig.UserAgent,
		"timeout":     settings.clientConfig.Timeout.String(),
		"max_retries": cfg.MaxRetries.ValueInt64(),
	})

	data := &ProviderData{
		Client:          c,
		ToolkitVersions: settings.versions,
		VersionSources:  settings.versionSources,
		Cache:           lookup.NewObjectCache(c, settings.versions),
		VersionKeys:     configuredVersionKeys(cfg),
		NoProjectKey:    settings.clientConfig.APIKey == "",
		NoOrgKey:        settings.clientConfig.OrgAPIKey == "",
	}
	if !refreshlisting.Off(os.Getenv) {
		data.Refresh = refreshlisting.New(c, p.writes)
	}
	resp.ResourceData = data
	resp.DataSourceData = data
	resp.EphemeralResourceData = data
	resp.ActionData = data
	resp.ListResourceData = data
}

// rateLimitNoticeMin is the shortest wait for the service's rate limit the
// user is told of: as a warning of the operation (protocol.RateLimitNotices)
// and a WARN log line as it ends.
const rateLimitNoticeMin = 5 * time.Second

// noteRateLimitWait is the client's OnRateLimitWait: a wait of
// rateLimitNoticeMin or more is logged at WARN and counted towards the
// warning of the RPC the request belongs to.
func noteRateLimitWait(ctx context.Context, w client.RateLimitWait) {
	if w.Waited < rateLimitNoticeMin {
		return
	}
	tflog.Warn(ctx, fmt.Sprintf("a request waited %s for the service's rate limit: %s", w.Waited.Round(100*time.Millisecond), w.Cause),
		map[string]any{"wait_ms": w.Waited.Milliseconds()})
	protocol.NoteRateLimitWait(ctx, w.Waited, w.Cause)
}

// Resources lists the managed resource types. Add one constructor per line.
func (p *ServiceProvider) Resources(_ context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		NewAuthConfigResource,
		NewConnectedAccountResource,
		NewMCPServerResource,
		NewToolRouterSessionResource,
		NewTriggerInstanceResource,
		NewCustomToolkitResource,
		NewWebhookSubscriptionResource,
		NewProjectResource,
		NewWebhookEndpointResource,
	}
}

// DataSources lists the data source types. Add one constructor per line.
func (p *ServiceProvider) DataSources(_ context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		NewAuthConfigDataSource,
		NewAuthConfigsDataSource,
		NewConnectedAccountsDataSource,
		NewMCPServerDataSource,
		NewMCPServersDataSource,
		NewToolkitCategoriesDataSource,
		NewToolkitDataSource,
		NewToolkitsDataSource,
		NewTriggerTypeDataSource,
		NewTriggerTypesDataSource,
		NewTriggerInstancesDataSource,
		NewToolsDataSource,
		NewWebhookEventTypesDataSource,
		NewProjectDataSource,
		NewProjectsDataSource,
		NewWebhookEndpointsDataSource,
		NewSessionConfigDataSource,
		NewSessionConfigsDataSource,
	}
}

// ListResources lists the list resource types (`terraform query`), one per
// resource type, named as the resource. Add one constructor per line.
func (p *ServiceProvider) ListResources(_ context.Context) []func() list.ListResource {
	return []func() list.ListResource{
		NewAuthConfigListResource,
		NewWebhookSubscriptionListResource,
		NewConnectedAccountListResource,
		NewTriggerInstanceListResource,
		NewMCPServerListResource,
		NewCustomToolkitListResource,
		NewProjectListResource,
		NewWebhookEndpointListResource,
	}
}

// Actions lists the action types (Terraform 1.14 and later). Add one
// constructor per line.
func (p *ServiceProvider) Actions(_ context.Context) []func() action.Action {
	return []func() action.Action{
		NewConnectedAccountRevokeAction,
		NewToolExecuteAction,
	}
}

// EphemeralResources lists the ephemeral resource types.
func (p *ServiceProvider) EphemeralResources(_ context.Context) []func() ephemeral.EphemeralResource {
	return []func() ephemeral.EphemeralResource{
		NewConnectedAccountCredentialsEphemeralResource,
	}
}

// envLookup abstracts the process environment for tests.
type envLookup struct {
	getenv  func(string) string
	environ func() []string
}

// settings is the outcome of resolving the provider block against the environment.
type settings struct {
	clientConfig client.Config
	versions     client.ToolkitVersions
	// versionSources: see ProviderData.VersionSources.
	versionSources map[string]string
	// unknown is true when a value needed to build the client is not yet known.
	unknown bool
}

// userAgent builds the User-Agent header value.
func userAgent(providerVersion, terraformVersion string) string {
	if providerVersion == "" {
		providerVersion = "dev"
	}
	ua := fmt.Sprintf("terraform-provider-service/%s (+%s)", providerVersion, registryDocsURL)
	if terraformVersion != "" {
		ua += " Terraform/" + terraformVersion
	}
	return ua
}

// resolveSettings turns the provider block and the environment into the
// client configuration. It is a pure function of its inputs so that it can be
// unit tested without Terraform.
func resolveSettings(cfg providerModel, env envLookup, providerVersion, terraformVersion string) (settings, diag.Diagnostics) {
	var diags diag.Diagnostics
	var s settings

	for _, v := range []interface{ IsUnknown() bool }{
		cfg.APIKey, cfg.OrgAPIKey, cfg.BaseURL, cfg.ToolkitVersions, cfg.ToolkitVersion, cfg.DefaultHeaders,
		cfg.RequestTimeout, cfg.MaxRetries, cfg.MaxConcurrentRequests, cfg.MaxRequestsPerMinute, cfg.AllowInsecureHTTP,
	} {
		if v.IsUnknown() {
			s.unknown = true
		}
	}

	// Keys: config, then environment. Surrounding white space (a trailing
	// newline from file()) is dropped; any other control character is refused
	// because it cannot travel in an HTTP header. At least one key is needed;
	// which objects need which key is checked where they are used
	// (providerDataFrom, orgProviderDataFrom).
	apiKey, apiKeySet := resolveKey(cfg.APIKey, "api_key", EnvAPIKey, env, &diags)
	orgKey, orgKeySet := resolveKey(cfg.OrgAPIKey, "org_api_key", EnvOrgAPIKey, env, &diags)
	if apiKey == "" && orgKey == "" && apiKeySet && orgKeySet && !cfg.APIKey.IsUnknown() && !cfg.OrgAPIKey.IsUnknown() {
		diags.AddAttributeError(path.Root("api_key"), "Missing API key",
			"The provider needs an API key to call the service. Set `api_key` in the provider block "+
				"(for example from a variable marked sensitive) or set the "+EnvAPIKey+" environment variable; "+
				"a configuration that manages only the organization's projects sets `org_api_key` (or "+EnvOrgAPIKey+") instead.")
	}

	// Base URL: config, then environment, then the public service.
	baseURL := cfg.BaseURL.ValueString()
	baseURLSource := "base_url"
	if cfg.BaseURL.IsNull() {
		if e := strings.TrimSpace(env.getenv(EnvBaseURL)); e != "" {
			baseURL, baseURLSource = e, EnvBaseURL+" environment variable"
		} else {
			baseURL = defaultBaseURL
		}
	}
	if !cfg.BaseURL.IsUnknown() {
		normalized, err := validators.NormalizeBaseURL(baseURL)
		if err != nil {
			diags.AddAttributeError(path.Root("base_url"), "Invalid base URL",
				fmt.Sprintf("The %s value %q is not usable: %s.", baseURLSource, baseURL, err))
		} else {
			baseURL = normalized
			if !cfg.AllowInsecureHTTP.IsUnknown() && !cfg.AllowInsecureHTTP.ValueBool() {
				if err := validators.CheckTransportSecurity(baseURL); err != nil {
					diags.AddAttributeError(path.Root("base_url"), "Insecure base URL",
						fmt.Sprintf("The %s value %q %s.", baseURLSource, baseURL, err))
				}
			}
		}
	}

	// Toolkit versions.
	if !cfg.ToolkitVersions.IsUnknown() && !cfg.ToolkitVersion.IsUnknown() {
		versions, vd := resolveToolkitVersions(cfg, env.environ())
		diags.Append(vd...)
		s.versions = versions
		s.versionSources = toolkitVersionSources(cfg, env.environ())
	}

	// Headers.
	headers := map[string]string{}
	if !cfg.DefaultHeaders.IsNull() && !cfg.DefaultHeaders.IsUnknown() {
		for k, v := range cfg.DefaultHeaders.Elements() {
			sv, ok := v.(types.String)
			if !ok || sv.IsNull() {
				continue
			}
			if sv.IsUnknown() {
				s.unknown = true
				continue
			}
			if err := checkHeaderName(k); err != nil {
				diags.AddAttributeError(path.Root("default_headers").AtMapKey(k), "Invalid default header",
					fmt.Sprintf("default_headers[%q]: %s.", k, err))
				continue
			}
			headers[k] = sv.ValueString()
		}
	}

	// Timeout.
	timeout := time.Duration(0)
	if !cfg.RequestTimeout.IsNull() && !cfg.RequestTimeout.IsUnknown() {
		d, err := validators.ParsePositiveDuration(cfg.RequestTimeout.ValueString())
		if err != nil {
			diags.AddAttributeError(path.Root("request_timeout"), "Invalid request timeout",
				fmt.Sprintf("Attribute request_timeout: %q %s.", cfg.RequestTimeout.ValueString(), err))
		}
		timeout = d
	}

	// Retries: the client treats 0 as "default" and negative as "none".
	maxRetries := defaultMaxRetries
	if !cfg.MaxRetries.IsNull() && !cfg.MaxRetries.IsUnknown() {
		switch n := cfg.MaxRetries.ValueInt64(); {
		case n < 0:
			diags.AddAttributeError(path.Root("max_retries"), "Invalid max_retries",
				fmt.Sprintf("Attribute max_retries must be 0 or more, got %d.", n))
		case n == 0:
			maxRetries = -1
		default:
			maxRetries = int(n)
		}
	}
	maxInFlight := 0
	if !cfg.MaxConcurrentRequests.IsNull() && !cfg.MaxConcurrentRequests.IsUnknown() {
		n := cfg.MaxConcurrentRequests.ValueInt64()
		if n < 1 {
			diags.AddAttributeError(path.Root("max_concurrent_requests"), "Invalid max_concurrent_requests",
				fmt.Sprintf("Attribute max_concurrent_requests must be 1 or more, got %d.", n))
		}
		maxInFlight = int(n)
	}
	perMinute := resolveMaxRequestsPerMinute(cfg.MaxRequestsPerMinute, env, &diags)

	s.clientConfig = client.Config{
		BaseURL:        baseURL,
		APIKey:         apiKey,
		OrgAPIKey:      orgKey,
		UserAgent:      userAgent(providerVersion, terraformVersion),
		DefaultHeaders: headers,
		Timeout:        timeout,
		MaxRetries:     maxRetries,
		MaxInFlight:    maxInFlight,

		MaxRequestsPerMinute: perMinute,
	}
	return s, diags
}

// resolveMaxRequestsPerMinute resolves max_requests_per_minute against its
// environment variable: a positive whole number, or 0 when neither is set
// (or the attribute is not yet known).
func resolveMaxRequestsPerMinute(v types.Int64, env envLookup, diags *diag.Diagnostics) int {
	switch {
	case v.IsUnknown():
		return 0
	case !v.IsNull():
		n := v.ValueInt64()
		if n < 1 {
			diags.AddAttributeError(path.Root("max_requests_per_minute"), "Invalid max_requests_per_minute",
				fmt.Sprintf("Attribute max_requests_per_minute must be a whole number of 1 or more, got %d.", n))
			return 0
		}
		return int(min(n, int64(math.MaxInt32)))
	}
	raw := strings.TrimSpace(env.getenv(EnvMaxRequestsPerMinute))
	if raw == "" {
		return 0
	}
	n, err := strconv.ParseInt(raw, 10, 32)
	if err != nil || n < 1 {
		diags.AddAttributeError(path.Root("max_requests_per_minute"), "Invalid max_requests_per_minute",
			fmt.Sprintf("The %s environment variable (used for max_requests_per_minute) must be a whole number of 1 "+
				"or more, got %q.", EnvMaxRequestsPerMinute, raw))
		return 0
	}
	return int(n)
}

// resolveKey resolves one credential of the provider block (attr) against its
// environment variable. It returns the key ("" when none or not yet known)
// and whether the attribute is unset or valid (false when it is set but empty
// or invalid: an error is added then, and the missing-key error would repeat
// it).
func resolveKey(v types.String, attr, envVar string, env envLookup, diags *diag.Diagnostics) (string, bool) {
	if v.IsUnknown() {
		return "", true
	}
	key := strings.TrimSpace(v.ValueString())
	source := attr
	if v.IsNull() {
		key = strings.TrimSpace(env.getenv(envVar))
		source = envVar + " environment variable"
	}
	switch {
	case key == "" && !v.IsNull():
		diags.AddAttributeError(path.Root(attr), "Empty API key",
			"`"+attr+"` is set in the provider block but is empty, so the "+envVar+" environment variable "+
				"is not consulted. Give `"+attr+"` a non-empty value or remove it to use the environment variable.")
		return "", false
	case strings.ContainsFunc(key, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		diags.AddAttributeError(path.Root(attr), "Invalid API key",
			"The "+source+" value contains a control character (such as a line break inside the key); "+
				"an API key must be a single line of printable characters. The value is not shown because it is secret.")
		return "", false
	}
	return key, true
}

// reservedHeaders cannot be set through default_headers.
var reservedHeaders = map[string]string{
	"x-api-key":      "it is a credential header: set the project key with api_key or " + EnvAPIKey,
	"x-org-api-key":  "it is a credential header: set the organization key with org_api_key or " + EnvOrgAPIKey,
	"x-user-api-key": "it is a credential header, and the service refuses a request carrying two credentials",
	"content-type":   "the provider always sends JSON",
}

// checkHeaderName refuses a default_headers key that is not an HTTP header
// name or is reserved (kept here, beside the environment variables its
// messages name).
func checkHeaderName(name string) error {
	if !validators.IsHeaderName(name) {
		return fmt.Errorf("%q is not a valid HTTP header name", name)
	}
	if why, ok := reservedHeaders[strings.ToLower(name)]; ok {
		return fmt.Errorf("header %q cannot be overridden (%s)", name, why)
	}
	return nil
}

// headerNameValidator validates default_headers keys.
func headerNameValidator() validator.String {
	return validators.StringCheck{
		Desc:    "value must be a valid HTTP header name other than x-api-key, x-org-api-key, x-user-api-key and content-type",
		Summary: "Invalid default header",
		Check:   checkHeaderName,
	}
}

// EnvCoalesce sets the client's coalesced reads (client.Config
// CoalesceWindow, CoalesceMaxWait and CoalesceBusyWindow): "off" sends every
// read alone, "WINDOW", "WINDOW/MAXWAIT" or "WINDOW/MAXWAIT/BUSY" (Go
// durations, e.g. "300ms/2s") sets them. An internal switch for tests and
// benchmarks, not a user setting; unset or unreadable, the client's
// defaults apply.
const EnvCoalesce = "SERVICE_INTERNAL_COALESCE"

func coalesceFromEnv(v string) (window, maxWait, busy time.Duration) {
	v = strings.TrimSpace(v)
	if strings.EqualFold(v, "off") {
		return -1, 0, 0
	}
	parts := strings.SplitN(v, "/", 3)
	d := make([]time.Duration, 3)
	for i, p := range parts {
		d[i], _ = time.ParseDuration(p)
		d[i] = max(d[i], 0)
	}
	return d[0], d[1], d[2]
}
