package provider

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/integration-service/terraform-provider-service/internal/provider/refreshlisting"

	"github.com/integration-service/terraform-provider-service/internal/testutil"
)

func fakeEnv(vars map[string]string) envLookup {
	return envLookup{
		getenv: func(k string) string { return vars[k] },
		environ: func() []string {
			out := make([]string, 0, len(vars))
			for k, v := range vars {
				out = append(out, k+"="+v)
			}
			return out
		},
	}
}

func TestResolveSettingsEnvFallbacks(t *testing.T) {
	t.Parallel()
	s, diags := resolveSettings(nullModel(), fakeEnv(map[string]string{
		EnvAPIKey:                        "env-key",
		EnvBaseURL:                       "http://127.0.0.1:8080/",
		"SERVICE_TOOLKIT_VERSION_GITHUB": "20250901_00",
		EnvMaxRequestsPerMinute:          " 90 ",
	}), "1.2.3", "1.11.4")
	if diags.HasError() {
		t.Fatalf("unexpected diagnostics: %v", diags)
	}
	c := s.clientConfig
	if c.APIKey != "env-key" || c.BaseURL != "http://127.0.0.1:8080" {
		t.Errorf("env fallbacks not applied: key=%q url=%q", c.APIKey, c.BaseURL)
	}
	if s.versions.PerToolkit["github"] != "20250901_00" {
		t.Errorf("env toolkit version not applied: %+v", s.versions)
	}
	if c.MaxRequestsPerMinute != 90 {
		t.Errorf("env %s not applied: MaxRequestsPerMinute = %d, want 90", EnvMaxRequestsPerMinute, c.MaxRequestsPerMinute)
	}
	want := "terraform-provider-service/1.2.3 (+https://registry.terraform.io/providers/integration-service/service) Terraform/1.11.4"
	if c.UserAgent != want {
		t.Errorf("user agent %q, want %q", c.UserAgent, want)
	}
	if c.Timeout != 0 || c.MaxInFlight != 0 {
		t.Errorf("unset knobs must leave client defaults: %+v", c)
	}
	// Unset max_retries: the provider's own default (10), not the client's 4,
	// so that an apply gets through a service throttling many requests.
	if c.MaxRetries != defaultMaxRetries || defaultMaxRetries != 10 {
		t.Errorf("unset max_retries: client MaxRetries = %d, want %d", c.MaxRetries, defaultMaxRetries)
	}
}

func TestResolveSettingsConfigWinsOverEnv(t *testing.T) {
	t.Parallel()
	cfg := nullModel()
	cfg.APIKey = types.StringValue("cfg-key")
	cfg.BaseURL = types.StringValue("https://proxy.example.com/service/")
	cfg.RequestTimeout = types.StringValue("2m")
	cfg.MaxRetries = types.Int64Value(0)
	cfg.MaxConcurrentRequests = types.Int64Value(3)
	cfg.MaxRequestsPerMinute = types.Int64Value(120)
	cfg.DefaultHeaders = stringMap(t, map[string]string{"X-Team": "infra"})
	s, diags := resolveSettings(cfg, fakeEnv(map[string]string{EnvAPIKey: "env-key", EnvBaseURL: "https://other.example.com",
		EnvMaxRequestsPerMinute: "not read"}), "", "")
	if diags.HasError() {
		t.Fatalf("unexpected diagnostics: %v", diags)
	}
	c := s.clientConfig
	if c.APIKey != "cfg-key" || c.BaseURL != "https://proxy.example.com/service" {
		t.Errorf("config not preferred: key=%q url=%q", c.APIKey, c.BaseURL)
	}
	if c.Timeout != 2*time.Minute || c.MaxRetries != -1 || c.MaxInFlight != 3 || c.DefaultHeaders["X-Team"] != "infra" || c.MaxRequestsPerMinute != 120 {
		t.Errorf("knobs not applied: %+v", c)
	}
	if !strings.HasPrefix(c.UserAgent, "terraform-provider-service/dev ") {
		t.Errorf("user agent %q", c.UserAgent)
	}
}

func TestResolveSettingsDefaultBaseURL(t *testing.T) {
	t.Parallel()
	cfg := nullModel()
	cfg.APIKey = types.StringValue("k")
	s, diags := resolveSettings(cfg, fakeEnv(nil), "1", "1")
	if diags.HasError() || s.clientConfig.BaseURL != "https://backend.composio.dev" {
		t.Fatalf("got %q, %v", s.clientConfig.BaseURL, diags)
	}
}

func TestResolveSettingsErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		mutate func(*providerModel)
		env    map[string]string
		want   []string
	}{
		{
			name: "missing key",
			want: []string{"Missing API key", "api_key", EnvAPIKey},
		},
		{
			name:   "empty key in config",
			mutate: func(m *providerModel) { m.APIKey = types.StringValue("") },
			want:   []string{"Empty API key", "api_key"},
		},
		{
			name:   "empty key in config hides env",
			mutate: func(m *providerModel) { m.APIKey = types.StringValue("  ") },
			want:   []string{"Empty API key", EnvAPIKey + " environment variable is not consulted"},
		},
		{
			name:   "key with a line break inside",
			mutate: func(m *providerModel) { m.APIKey = types.StringValue("abc\ndef") },
			want:   []string{"Invalid API key", "api_key value contains a control character"},
		},
		{
			name: "env key with a control character",
			env:  map[string]string{EnvAPIKey: "abc\x01def"},
			want: []string{"Invalid API key", EnvAPIKey + " environment variable value"},
		},
		{
			name:   "http to remote host",
			mutate: func(m *providerModel) { m.BaseURL = types.StringValue("http://api.example.com") },
			want:   []string{"Insecure base URL", "base_url", "allow_insecure_http"},
		},
		{
			name: "http to remote host from env names the variable",
			env:  map[string]string{EnvBaseURL: "http://api.example.com"},
			want: []string{"Insecure base URL", EnvBaseURL},
		},
		{
			name:   "bad base url",
			mutate: func(m *providerModel) { m.BaseURL = types.StringValue("backend.composio.dev") },
			want:   []string{"Invalid base URL", "base_url"},
		},
		{
			name:   "bad timeout",
			mutate: func(m *providerModel) { m.RequestTimeout = types.StringValue("30") },
			want:   []string{"Attribute request_timeout"},
		},
		{
			name:   "reserved header",
			mutate: func(m *providerModel) { m.DefaultHeaders = stringMap(t, map[string]string{"X-API-Key": "x"}) },
			want:   []string{"default_headers", "cannot be overridden"},
		},
		{
			name:   "max_requests_per_minute 0",
			mutate: func(m *providerModel) { m.MaxRequestsPerMinute = types.Int64Value(0) },
			want:   []string{"Invalid max_requests_per_minute", "Attribute max_requests_per_minute must be a whole number of 1 or more, got 0"},
		},
		{
			name: "max_requests_per_minute from env not a number",
			env:  map[string]string{EnvMaxRequestsPerMinute: "100/min"},
			want: []string{"Invalid max_requests_per_minute", EnvMaxRequestsPerMinute + " environment variable (used for max_requests_per_minute)", `got "100/min"`},
		},
		{
			name: "max_requests_per_minute from env negative",
			env:  map[string]string{EnvMaxRequestsPerMinute: "-5"},
			want: []string{EnvMaxRequestsPerMinute, "1 or more", `got "-5"`},
		},
		{
			name: "bad env toolkit version",
			env:  map[string]string{"SERVICE_TOOLKIT_VERSION_GITHUB": "2025"},
			want: []string{"SERVICE_TOOLKIT_VERSION_GITHUB"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := nullModel()
			env := map[string]string{EnvAPIKey: "k"}
			if tc.name == "missing key" || tc.name == "empty key in config" || tc.name == "env key with a control character" {
				env = map[string]string{}
			}
			for k, v := range tc.env {
				env[k] = v
			}
			if tc.mutate != nil {
				tc.mutate(&cfg)
			}
			_, diags := resolveSettings(cfg, fakeEnv(env), "1", "1")
			if !diags.HasError() {
				t.Fatal("want an error")
			}
			for _, w := range tc.want {
				if !testutil.DiagsContain(diags, w) {
					t.Errorf("diagnostics do not mention %q: %v", w, diags)
				}
			}
		})
	}
}

func TestResolveSettingsTrimsAPIKey(t *testing.T) {
	t.Parallel()
	cfg := nullModel()
	cfg.APIKey = types.StringValue("key-from-file\n")
	s, diags := resolveSettings(cfg, fakeEnv(map[string]string{}), "1", "1")
	if diags.HasError() {
		t.Fatalf("unexpected diagnostics: %v", diags)
	}
	if s.clientConfig.APIKey != "key-from-file" {
		t.Fatalf("api key not trimmed: %q", s.clientConfig.APIKey)
	}
	for _, d := range diags {
		if strings.Contains(d.Detail(), "key-from-file") {
			t.Fatalf("diagnostic leaks the key: %v", d)
		}
	}
}

func TestResolveSettingsInsecureOptIn(t *testing.T) {
	t.Parallel()
	cfg := nullModel()
	cfg.APIKey = types.StringValue("k")
	cfg.BaseURL = types.StringValue("http://api.example.com")
	cfg.AllowInsecureHTTP = types.BoolValue(true)
	if _, diags := resolveSettings(cfg, fakeEnv(nil), "1", "1"); diags.HasError() {
		t.Fatalf("opt-in refused: %v", diags)
	}
}

func TestResolveSettingsUnknownDefers(t *testing.T) {
	t.Parallel()
	cfg := nullModel()
	cfg.APIKey = types.StringUnknown()
	s, diags := resolveSettings(cfg, fakeEnv(nil), "1", "1")
	if diags.HasError() {
		t.Fatalf("unknown api_key must not error: %v", diags)
	}
	if !s.unknown {
		t.Fatal("want unknown = true")
	}
}

// configValue builds a provider configuration from attribute values; unset
// attributes are null.
func configValue(t *testing.T, attrs map[string]tftypes.Value) tfsdk.Config {
	t.Helper()
	ctx := context.Background()
	var sresp provider.SchemaResponse
	New("test")().Schema(ctx, provider.SchemaRequest{}, &sresp)
	objType, ok := sresp.Schema.Type().TerraformType(ctx).(tftypes.Object)
	if !ok {
		t.Fatal("schema type is not an object")
	}
	return tfsdk.Config{Schema: sresp.Schema, Raw: testutil.ObjectValue(objType, attrs)}
}

func TestConfigureSetsProviderData(t *testing.T) {
	t.Setenv(EnvAPIKey, "")
	t.Setenv(EnvBaseURL, "")
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	p := New("test")()
	var resp provider.ConfigureResponse
	p.Configure(context.Background(), provider.ConfigureRequest{
		TerraformVersion: "1.11.4",
		Config: configValue(t, map[string]tftypes.Value{
			"api_key":         tftypes.NewValue(tftypes.String, "k"),
			"base_url":        tftypes.NewValue(tftypes.String, srv.URL),
			"toolkit_version": tftypes.NewValue(tftypes.String, "20250901_00"),
		}),
	}, &resp)
	if resp.Diagnostics.HasError() {
		t.Fatalf("unexpected diagnostics: %v", resp.Diagnostics)
	}
	for name, d := range map[string]any{"resource": resp.ResourceData, "data source": resp.DataSourceData, "ephemeral": resp.EphemeralResourceData} {
		pd, ok := d.(*ProviderData)
		if !ok || !pd.Configured() || pd.Cache == nil || pd.ToolkitVersions.Global != "20250901_00" {
			t.Errorf("%s data: %#v", name, d)
		}
	}
}

func TestConfigureUnknownAPIKeyDefers(t *testing.T) {
	t.Setenv(EnvAPIKey, "")
	p := New("test")()
	var resp provider.ConfigureResponse
	p.Configure(context.Background(), provider.ConfigureRequest{
		Config: configValue(t, map[string]tftypes.Value{
			"api_key": tftypes.NewValue(tftypes.String, tftypes.UnknownValue),
		}),
	}, &resp)
	if resp.Diagnostics.HasError() {
		t.Fatalf("unknown api_key must not error: %v", resp.Diagnostics)
	}
	if resp.ResourceData != nil {
		t.Fatalf("no client expected while the configuration is unknown, got %#v", resp.ResourceData)
	}

	resp = provider.ConfigureResponse{}
	p.Configure(context.Background(), provider.ConfigureRequest{
		ClientCapabilities: provider.ConfigureProviderClientCapabilities{DeferralAllowed: true},
		Config: configValue(t, map[string]tftypes.Value{
			"api_key": tftypes.NewValue(tftypes.String, tftypes.UnknownValue),
		}),
	}, &resp)
	if resp.Deferred == nil || resp.Deferred.Reason != provider.DeferredReasonProviderConfigUnknown {
		t.Fatalf("want a deferral, got %#v", resp.Deferred)
	}
	if len(resp.Diagnostics) != 0 {
		t.Errorf("a deferral needs no diagnostic, got %v", resp.Diagnostics)
	}
}

// Without deferral, an unknown configuration says what it costs (no plan-time
// checks) and points to the two-stage layout.
func TestConfigureUnknownWithoutDeferralWarns(t *testing.T) {
	t.Setenv(EnvAPIKey, "")
	var resp provider.ConfigureResponse
	New("test")().Configure(context.Background(), provider.ConfigureRequest{
		Config: configValue(t, map[string]tftypes.Value{
			"api_key": tftypes.NewValue(tftypes.String, tftypes.UnknownValue),
		}),
	}, &resp)
	if resp.Diagnostics.HasError() || resp.Diagnostics.WarningsCount() != 1 ||
		!strings.Contains(resp.Diagnostics.Warnings()[0].Detail(), "Projects and environments") {
		t.Fatalf("diagnostics = %v; want one warning pointing to the guide", resp.Diagnostics)
	}
}

// The organization key alone is a valid configuration (it manages projects);
// neither key is an error naming both; each key is resolved from its own
// attribute or environment variable.
func TestResolveSettingsOrganizationKey(t *testing.T) {
	t.Parallel()
	cfg := nullModel()
	s, diags := resolveSettings(cfg, fakeEnv(map[string]string{EnvOrgAPIKey: "org-k\n"}), "1", "1")
	if diags.HasError() {
		t.Fatalf("organization key alone refused: %v", diags)
	}
	if s.clientConfig.OrgAPIKey != "org-k" || s.clientConfig.APIKey != "" {
		t.Fatalf("keys = %q / %q; want the organization key only", s.clientConfig.APIKey, s.clientConfig.OrgAPIKey)
	}

	_, diags = resolveSettings(nullModel(), fakeEnv(nil), "1", "1")
	if !diags.HasError() || !strings.Contains(diags.Errors()[0].Detail(), "org_api_key") ||
		!strings.Contains(diags.Errors()[0].Detail(), EnvAPIKey) {
		t.Fatalf("no key: %v; want one error naming api_key's variable and org_api_key", diags)
	}

	cfg = nullModel()
	cfg.OrgAPIKey = types.StringValue("")
	cfg.APIKey = types.StringValue("k")
	_, diags = resolveSettings(cfg, fakeEnv(nil), "1", "1")
	if !diags.HasError() || !strings.Contains(diags.Errors()[0].Summary(), "Empty API key") ||
		!strings.Contains(diags.Errors()[0].Detail(), "org_api_key") {
		t.Fatalf("empty org_api_key: %v; want an error naming it", diags)
	}
}

func TestResolveSettingsRefusesCredentialHeaders(t *testing.T) {
	t.Parallel()
	for _, h := range []string{"x-api-key", "X-Org-Api-Key", "x-user-api-key"} {
		cfg := nullModel()
		cfg.APIKey = types.StringValue("k")
		cfg.DefaultHeaders = types.MapValueMust(types.StringType, map[string]attr.Value{h: types.StringValue("v")})
		_, diags := resolveSettings(cfg, fakeEnv(nil), "1", "1")
		if !diags.HasError() || !strings.Contains(diags.Errors()[0].Detail(), "credential header") {
			t.Errorf("default_headers[%q]: %v; want an error saying it is a credential header", h, diags)
		}
	}
}

// TestConfigureUnreachableBaseURL: a refusing base_url fails at configure,
// within seconds, naming the URL, the cause, base_url and max_retries.
func TestConfigureUnreachableBaseURL(t *testing.T) {
	t.Setenv(EnvAPIKey, "")
	t.Setenv(EnvBaseURL, "")
	ln, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String()
	ln.Close()
	p := New("test")()
	var resp provider.ConfigureResponse
	start := time.Now()
	p.Configure(context.Background(), provider.ConfigureRequest{
		Config: configValue(t, map[string]tftypes.Value{
			"api_key":  tftypes.NewValue(tftypes.String, "k"),
			"base_url": tftypes.NewValue(tftypes.String, url),
		}),
	}, &resp)
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("configure took %s, want a few seconds", d)
	}
	for _, want := range []string{"Cannot reach the service", url, "base_url", EnvBaseURL, "max_retries"} {
		if !testutil.DiagsContain(resp.Diagnostics, want) {
			t.Errorf("diagnostics lack %q: %v", want, resp.Diagnostics)
		}
	}
	// The cause: normally refused; a busy machine may hand the freed port to
	// another process that leaves the connection hanging.
	if !testutil.DiagsContain(resp.Diagnostics, "connection refused") && !testutil.DiagsContain(resp.Diagnostics, "timeout") {
		t.Errorf("diagnostics do not give the cause: %v", resp.Diagnostics)
	}
	if resp.ResourceData != nil {
		t.Error("provider data set although the service is unreachable")
	}
}

func TestConfigureMissingKey(t *testing.T) {
	t.Setenv(EnvAPIKey, "")
	t.Setenv(EnvOrgAPIKey, "") // the acceptance harness sets it for the process
	p := New("test")()
	var resp provider.ConfigureResponse
	p.Configure(context.Background(), provider.ConfigureRequest{Config: configValue(t, nil)}, &resp)
	if !testutil.DiagsContain(resp.Diagnostics, "Missing API key") || !testutil.DiagsContain(resp.Diagnostics, EnvAPIKey) {
		t.Fatalf("want the missing key error, got %v", resp.Diagnostics)
	}
}

func TestProviderDataFrom(t *testing.T) {
	t.Parallel()
	var diags diag.Diagnostics
	if d := providerDataFrom(nil, &diags); d != nil || diags.HasError() {
		t.Fatalf("nil: %v %v", d, diags)
	}
	if d := providerDataFrom("nope", &diags); d != nil || !testutil.DiagsContain(diags, "Unexpected provider data type") {
		t.Fatalf("wrong type: %v %v", d, diags)
	}
	diags = nil
	if requireClient(nil, &diags) || !testutil.DiagsContain(diags, "Provider not configured") {
		t.Fatalf("requireClient(nil): %v", diags)
	}
}

// New returns a constructor for the provider at the given version, for the
// tests that call the provider directly (NewServer serves it to Terraform).
func New(version string) func() provider.Provider {
	return func() provider.Provider { return &ServiceProvider{version: version, writes: &refreshlisting.Clock{}} }
}
