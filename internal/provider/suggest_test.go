package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"
	tfresource "github.com/hashicorp/terraform-plugin-testing/helper/resource"
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
		all := map[string]tftypes.Value{}
		for name, at := range typ.AttributeTypes {
			if v, ok := vals[name]; ok {
				all[name] = v
			} else {
				all[name] = tftypes.NewValue(at, nil)
			}
		}
		req := resource.ValidateConfigRequest{Config: tfsdk.Config{Schema: sr.Schema, Raw: tftypes.NewValue(typ, all)}}
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
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
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
