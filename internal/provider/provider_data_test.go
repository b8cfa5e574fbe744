package provider

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"
	tfresource "github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/testutil"
)

// TestWriteOnlyWithoutVersionWarns: a write-only map or key set without its
// _version attribute gets a warning on the write-only attribute's own path
// (service_connected_account's credentials_wo, service_auth_config's
// proxy_config.proxy_auth_key_wo); service_auth_config's credentials_wo and
// shared_credentials_wo keep their errors.
func TestWriteOnlyWithoutVersionWarns(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	check := func(r resource.Resource, vals map[string]tftypes.Value, wantSeverity diag.Severity, wantPath path.Path, wantText string) {
		t.Helper()
		var sr resource.SchemaResponse
		r.Schema(ctx, resource.SchemaRequest{}, &sr)
		typ := sr.Schema.Type().TerraformType(ctx).(tftypes.Object)
		req := resource.ValidateConfigRequest{Config: tfsdk.Config{Schema: sr.Schema, Raw: testutil.ObjectValue(typ, vals)}}
		var resp resource.ValidateConfigResponse
		if v, ok := r.(resource.ResourceWithValidateConfig); ok {
			v.ValidateConfig(ctx, req, &resp)
		}
		if v, ok := r.(resource.ResourceWithConfigValidators); ok {
			for _, cv := range v.ConfigValidators(ctx) {
				cv.ValidateResource(ctx, req, &resp)
			}
		}
		for _, d := range resp.Diagnostics {
			wp, ok := d.(diag.DiagnosticWithPath)
			if d.Severity() == wantSeverity && ok && wp.Path().Equal(wantPath) && strings.Contains(d.Detail(), wantText) {
				return
			}
		}
		t.Errorf("no %v on %s containing %q; got %v", wantSeverity, wantPath, wantText, resp.Diagnostics)
	}
	str := func(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }
	creds := tftypes.NewValue(tftypes.Map{ElementType: tftypes.String}, map[string]tftypes.Value{"api_key": str("k")})

	check(NewConnectedAccountResource(), map[string]tftypes.Value{
		"user_id": str("u"), "auth_config_id": str("ac_abcdefghijkl"), "credentials_wo": creds,
	}, diag.SeverityWarning, path.Root("credentials_wo"), "Set credentials_wo_version = 1")

	custom := map[string]tftypes.Value{
		"toolkit": str("stripe"), "type": str(authConfigTypeCustom), "auth_scheme": str("API_KEY"),
	}
	withProxy := map[string]tftypes.Value{}
	for k, v := range custom {
		withProxy[k] = v
	}
	proxyType := tftypes.Object{AttributeTypes: map[string]tftypes.Type{
		"proxy_url": tftypes.String, "proxy_auth_key_wo": tftypes.String, "proxy_auth_key_wo_version": tftypes.Number,
	}}
	withProxy["proxy_config"] = tftypes.NewValue(proxyType, map[string]tftypes.Value{
		"proxy_url": str("https://proxy.example.com"), "proxy_auth_key_wo": str("key"),
		"proxy_auth_key_wo_version": tftypes.NewValue(tftypes.Number, nil),
	})
	check(NewAuthConfigResource(), withProxy, diag.SeverityWarning, path.Root("proxy_config").AtName("proxy_auth_key_wo"),
		"Set proxy_config.proxy_auth_key_wo_version = 1")

	withCreds := map[string]tftypes.Value{"credentials_wo": creds}
	for k, v := range custom {
		withCreds[k] = v
	}
	check(NewAuthConfigResource(), withCreds, diag.SeverityError, path.Root("credentials_wo_version"), "required with credentials_wo")
}

// TestAccPlanErrors_didYouMean: unknown toolkit, trigger type and tool slugs
// and unknown toolkit_versions keys (whether a resource or only a data
// source is planned) are named, with the closest slug of the catalog the
// check read; the MCP server's diagnostics name the set element.
func TestAccPlanErrors_didYouMean(t *testing.T) {
	t.Parallel()
	testAccRequireEmulator(t)
	name := acctest.RandomWithPrefix("tf-acc-dym")
	gh := fmt.Sprintf(`
resource "service_auth_config" "gh" {
  toolkit = "github"
  type    = "use_service_managed_auth"
  name    = %q
}
`, name)
	tfresource.Test(t, tfresource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps: []tfresource.TestStep{
			{
				Config: `
resource "service_auth_config" "typo" {
  toolkit = "githb"
  type    = "use_service_managed_auth"
}`,
				PlanOnly:    true,
				ExpectError: testAccErrRe(`Unknown toolkit`, `Attribute toolkit`, `"githb"`, `Did you mean "github"\?`),
			},
			{
				Config: `
provider "service" {
  toolkit_versions = { githb = "latest" }
}
` + gh,
				PlanOnly:    true,
				ExpectError: testAccErrRe(`Unknown toolkit in toolkit_versions`, `toolkit_versions\["githb"\]`, `Did you mean "github"\?`),
			},
			{
				// A configuration of data sources only: named too, not read
				// at the latest version in silence.
				Config: `
provider "service" {
  toolkit_versions = { githb = "latest" }
}

data "service_toolkit_categories" "all" {}
`,
				PlanOnly:    true,
				ExpectError: testAccErrRe(`Unknown toolkit in toolkit_versions`, `toolkit_versions\["githb"\]`, `Did you mean "github"\?`),
			},
			{
				Config: `
resource "service_trigger_instance" "typo" {
  user_id = "someone"
  slug    = "` + typoTrigger + `"
}`,
				PlanOnly:    true,
				ExpectError: testAccErrRe(`Unknown trigger type`, typoTrigger, `Did you mean "STRIPE_CHARGE_SUCCEEDED_TRIGGER"\?`),
			},
			{Config: gh},
			{
				Config: gh + `
resource "service_mcp_server" "srv" {
  name            = "dym-srv"
  auth_config_ids = [service_auth_config.gh.id]
  allowed_tools   = ["GITHUB_CREATE_ISSUE", "GITHUB_LIST_ISSUES"]
}`,
				PlanOnly:    true,
				ExpectError: testAccErrRe(`Unknown tool`, `no tool "GITHUB_CREATE_ISSUE"`, `Did you mean "GITHUB_CREATE_AN_ISSUE"\?`),
			},
		},
	})
}

// typoTrigger is STRIPE_CHARGE_SUCCEEDED_TRIGGER misspelt on purpose (built
// from two halves so that the spelling linter lets it be).
const typoTrigger = "STRIPE_CHARGE_SUC" + "EEDED_TRIGGER"

func stringMap(t *testing.T, m map[string]string) types.Map {
	t.Helper()
	if m == nil {
		return types.MapNull(types.StringType)
	}
	elems := map[string]attr.Value{}
	for k, v := range m {
		elems[k] = types.StringValue(v)
	}
	mv, diags := types.MapValue(types.StringType, elems)
	if diags.HasError() {
		t.Fatalf("map: %v", diags)
	}
	return mv
}

func nullModel() providerModel {
	return providerModel{
		APIKey:                types.StringNull(),
		OrgAPIKey:             types.StringNull(),
		BaseURL:               types.StringNull(),
		ToolkitVersions:       types.MapNull(types.StringType),
		ToolkitVersion:        types.StringNull(),
		DefaultHeaders:        types.MapNull(types.StringType),
		RequestTimeout:        types.StringNull(),
		MaxRetries:            types.Int64Null(),
		MaxConcurrentRequests: types.Int64Null(),
		MaxRequestsPerMinute:  types.Int64Null(),
		AllowInsecureHTTP:     types.BoolNull(),
	}
}

func TestResolveToolkitVersions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		perConfig map[string]string
		global    string
		environ   []string
		want      client.ToolkitVersions
		wantErr   string // substring of an error detail; "" = no error
	}{
		{name: "nothing", want: client.ToolkitVersions{}},
		{name: "global only", global: "20250901_00", want: client.ToolkitVersions{Global: "20250901_00"}},
		{name: "global latest", global: "latest", want: client.ToolkitVersions{Global: "latest"}},
		{
			name:    "env maps NAME to lower-case slug",
			environ: []string{"PATH=/bin", "SERVICE_TOOLKIT_VERSION_GITHUB=20250901_00", "SERVICE_TOOLKIT_VERSION_GOOGLECALENDAR=latest"},
			want:    client.ToolkitVersions{PerToolkit: map[string]string{"github": "20250901_00", "googlecalendar": "latest"}},
		},
		{
			name:      "config map overrides env, env overrides global",
			perConfig: map[string]string{"GitHub": "20251015_00"},
			global:    "20250901_00",
			environ:   []string{"SERVICE_TOOLKIT_VERSION_GITHUB=20250901_00", "SERVICE_TOOLKIT_VERSION_SLACK=20251015_00"},
			want: client.ToolkitVersions{Global: "20250901_00", PerToolkit: map[string]string{
				"github": "20251015_00", "slack": "20251015_00",
			}},
		},
		{name: "empty env value ignored", environ: []string{"SERVICE_TOOLKIT_VERSION_GITHUB="}, want: client.ToolkitVersions{}},
		{name: "bad global", global: "2025-09-01", wantErr: "Attribute toolkit_version"},
		{name: "impossible date", global: "20250230_00", wantErr: "Attribute toolkit_version"},
		{name: "bad map value", perConfig: map[string]string{"github": "v1"}, wantErr: `Attribute toolkit_versions["github"]`},
		{name: "bad env value", environ: []string{"SERVICE_TOOLKIT_VERSION_GITHUB=20251301_00"}, wantErr: "Environment variable SERVICE_TOOLKIT_VERSION_GITHUB"},
		{name: "env without name", environ: []string{"SERVICE_TOOLKIT_VERSION_=latest"}, wantErr: "has no toolkit name"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := nullModel()
			cfg.ToolkitVersions = stringMap(t, tc.perConfig)
			if tc.global != "" {
				cfg.ToolkitVersion = types.StringValue(tc.global)
			}
			got, diags := resolveToolkitVersions(cfg, tc.environ)
			if tc.wantErr != "" {
				if !diags.HasError() {
					t.Fatalf("want error containing %q, got none", tc.wantErr)
				}
				found := false
				for _, d := range diags.Errors() {
					if strings.Contains(d.Detail(), tc.wantErr) || strings.Contains(d.Summary(), tc.wantErr) {
						found = true
					}
				}
				if !found {
					t.Fatalf("want error containing %q, got %v", tc.wantErr, diags)
				}
				return
			}
			if diags.HasError() {
				t.Fatalf("unexpected diagnostics: %v", diags)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestToolkitVersionFor(t *testing.T) {
	t.Parallel()
	v := client.ToolkitVersions{Global: "20250901_00", PerToolkit: map[string]string{"github": "20251015_00"}}
	if got := toolkitVersionFor(v, "GITHUB"); got != "20251015_00" {
		t.Errorf("github: got %q", got)
	}
	if got := toolkitVersionFor(v, "slack"); got != "20250901_00" {
		t.Errorf("slack: got %q", got)
	}
	if got := toolkitVersionFor(client.ToolkitVersions{}, "slack"); got != "latest" {
		t.Errorf("default: got %q", got)
	}
	var nilData *ProviderData
	if got := nilData.VersionFor("slack"); got != "latest" {
		t.Errorf("nil provider data: got %q", got)
	}
}
