package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/testutil"
)

const testAccCustomToolkitName = "service_custom_toolkit.test"

// testAccCustomSlugRe matches the service slug of a test's custom toolkit.
var testAccCustomSlugRe = regexp.MustCompile(`^CUSTOM_TFACC_CT_`)

func testAccCheckCustomToolkitDestroy(t *testing.T) resource.TestCheckFunc {
	return testAccCheckDestroyed(t, customToolkitType, "custom toolkit", func(ctx context.Context, c *client.Client, id string) error {
		_, err := c.GetToolkit(ctx, id, "")
		return err
	})
}

// testAccCustomSlug is a random slug for a custom toolkit (upper case, so the
// imported slug matches the configured one).
func testAccCustomSlug() string {
	return strings.ToUpper(strings.ReplaceAll(acctest.RandomWithPrefix("tfacc_ct"), "-", "_"))
}

func testAccCustomToolkitConfig(slug, name, mcpURL, authScheme, extra string) string {
	return fmt.Sprintf(`
resource "service_custom_toolkit" "test" {
  slug        = %q
  name        = %q
  mcp_url     = %q
  auth_scheme = %s
%s
}
`, slug, name, mcpURL, authScheme, extra)
}

const testAccCustomDCRScheme = `{
    mode          = "DCR_OAUTH"
    discovery_url = "https://mcp.example.com/.well-known/oauth-authorization-server"
  }`

const testAccCustomAPIKeyScheme = `{
    mode    = "API_KEY"
    headers = { Authorization = "Bearer {{generic_api_key}}" }
  }`

func TestAccCustomToolkit_lifecycle(t *testing.T) {
	t.Parallel()
	slug := testAccCustomSlug()
	want := client.CustomToolkitPrefix + slug
	var firstID string
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckCustomToolkitDestroy(t),
		Steps: []resource.TestStep{
			{
				Config: testAccCustomToolkitConfig(slug, "Acme", "https://mcp.example.com/mcp", testAccCustomAPIKeyScheme, `  description = "first"`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccCustomToolkitName, tfjsonpath.New("id"), knownvalue.StringExact(want)),
					statecheck.ExpectKnownValue(testAccCustomToolkitName, tfjsonpath.New("description"), knownvalue.StringExact("first")),
					statecheck.ExpectKnownValue(testAccCustomToolkitName, tfjsonpath.New("auth_scheme").AtMapKey("mode"), knownvalue.StringExact("API_KEY")),
				},
				Check: resource.TestCheckResourceAttrWith(testAccCustomToolkitName, "id", func(v string) error { firstID = v; return nil }),
			},
			{
				// the name changes in place
				Config: testAccCustomToolkitConfig(slug, "Acme Renamed", "https://mcp.example.com/mcp", testAccCustomAPIKeyScheme, `  description = "first"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccCustomToolkitName, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(testAccCustomToolkitName, tfjsonpath.New("id"), knownvalue.StringExact(want)),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccCustomToolkitName, tfjsonpath.New("name"), knownvalue.StringExact("Acme Renamed")),
					statecheck.ExpectKnownValue(testAccCustomToolkitName, tfjsonpath.New("description"), knownvalue.StringExact("first")),
				},
			},
			{
				// the service cannot change the description (its update
				// takes only the name, logo and API key field texts):
				// replacement
				Config: testAccCustomToolkitConfig(slug, "Acme Renamed", "https://mcp.example.com/mcp", testAccCustomAPIKeyScheme, `  description = "second"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccCustomToolkitName, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccCustomToolkitName, tfjsonpath.New("description"), knownvalue.StringExact("second")),
				},
			},
			// headers and discovery_url are not reported by the service
			testAccImportStep(testAccCustomToolkitName, "auth_scheme.headers", "auth_scheme.%"),
			{
				// mcp_url cannot change on the service: replacement
				Config: testAccCustomToolkitConfig(slug, "Acme Renamed", "https://mcp2.example.com/mcp", testAccCustomAPIKeyScheme, `  description = "second"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccCustomToolkitName, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccCustomToolkitName, tfjsonpath.New("mcp_url"), knownvalue.StringExact("https://mcp2.example.com/mcp")),
					statecheck.ExpectKnownValue(testAccCustomToolkitName, tfjsonpath.New("app_url"), knownvalue.Null()),
				},
			},
			{
				// so does the auth scheme
				Config: testAccCustomToolkitConfig(slug, "Acme Renamed", "https://mcp2.example.com/mcp", `{ mode = "NO_AUTH" }`, `  description = "second"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccCustomToolkitName, plancheck.ResourceActionDestroyBeforeCreate),
				}},
			},
			{
				// a change of case of the slug names the same toolkit: an
				// in-place update (no write), not a replacement
				Config: testAccCustomToolkitConfig(strings.ToLower(slug), "Acme Renamed", "https://mcp2.example.com/mcp", `{ mode = "NO_AUTH" }`, `  description = "second"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccCustomToolkitName, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccCustomToolkitName, tfjsonpath.New("id"), knownvalue.StringExact(want)),
				},
			},
		},
	})
	if firstID != want {
		t.Errorf("first id %q, want %q", firstID, want)
	}
}

func TestAccCustomToolkit_drift(t *testing.T) {
	t.Parallel()
	slug := testAccCustomSlug()
	id := client.CustomToolkitPrefix + slug
	cfg := testAccCustomToolkitConfig(slug, "Drift", "https://mcp.example.com/mcp", testAccCustomDCRScheme, "")
	ctx := context.Background()
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckCustomToolkitDestroy(t),
		Steps: []resource.TestStep{
			{Config: cfg},
			{
				// renamed outside Terraform: renamed back in place
				PreConfig: func() {
					other := "Elsewhere"
					if err := testAccClient(t).UpdateCustomToolkit(ctx, id, client.UpdateCustomToolkitRequest{Name: &other}); err != nil {
						t.Fatal(err)
					}
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccCustomToolkitName, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccCustomToolkitName, tfjsonpath.New("name"), knownvalue.StringExact("Drift")),
				},
			},
			{
				// deleted outside Terraform: created again
				PreConfig: func() {
					if err := testAccClient(t).DeleteCustomToolkit(ctx, id); err != nil {
						t.Fatal(err)
					}
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccCustomToolkitName, plancheck.ResourceActionCreate),
				}},
			},
		},
	})
}

// TestAccCustomToolkit_authConfigSameApply creates a custom toolkit and an
// auth config on it in one apply; replacing the toolkit replaces the auth
// config (the service deletes a toolkit's auth configs with it).
func TestAccCustomToolkit_authConfigSameApply(t *testing.T) {
	t.Parallel()
	slug := testAccCustomSlug()
	cfg := func(mcpURL string) string {
		return testAccCustomToolkitConfig(slug, "With AC", mcpURL, testAccCustomAPIKeyScheme, "") + `
resource "service_auth_config" "test" {
  toolkit     = service_custom_toolkit.test.id
  type        = "use_custom_auth"
  auth_scheme = "API_KEY"
}
`
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy: func(s *terraform.State) error {
			if err := testAccCheckAuthConfigDestroy(t)(s); err != nil {
				return err
			}
			return testAccCheckCustomToolkitDestroy(t)(s)
		},
		Steps: []resource.TestStep{
			{
				Config: cfg("https://mcp.example.com/mcp"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("toolkit"), knownvalue.StringExact(client.CustomToolkitPrefix+slug)),
					statecheck.ExpectKnownValue(testAccAuthConfigName, tfjsonpath.New("auth_scheme"), knownvalue.StringExact("API_KEY")),
				},
			},
			{
				Config: cfg("https://mcp3.example.com/mcp"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccCustomToolkitName, plancheck.ResourceActionDestroyBeforeCreate),
					plancheck.ExpectResourceAction(testAccAuthConfigName, plancheck.ResourceActionDestroyBeforeCreate),
				}},
			},
		},
	})
}

// TestAccCustomToolkit_badInputs: each fails at validate or plan naming the
// attribute, without a write (not parallel, so the write count is ours).
func TestAccCustomToolkit_badInputs(t *testing.T) {
	testAccRequireEmulator(t)
	slug := testAccCustomSlug()
	step := func(slug, mcpURL, scheme string, want ...string) resource.TestStep {
		return testAccPlanError(testAccCustomToolkitConfig(slug, "Bad", mcpURL, scheme, ""), want...)
	}
	const url = "https://mcp.example.com/mcp"
	testAccNoWritesTest(t, []resource.TestStep{
		step(slug, url, `{
    mode    = "API_KEY"
    headers = { "X-Key" = "static" }
  }`, "auth_scheme.headers", `\{\{generic_api_key\}\}`),
		step(slug, url, `{ mode = "API_KEY" }`, "auth_scheme.headers", "required with mode API_KEY"),
		step(slug, url, `{ mode = "DCR_OAUTH" }`, "auth_scheme.discovery_url", "required with mode DCR_OAUTH"),
		step(slug, url, `{ mode = "OAUTH2" }`, "auth_scheme.mode", "NO_AUTH"),
		step(slug, url, `{
    mode          = "NO_AUTH"
    discovery_url = "https://x.example/d"
  }`, "auth_scheme.discovery_url", "only used with mode"),
		step(slug, "mcp.example.com", `{ mode = "NO_AUTH" }`, "mcp_url", "absolute"),
		step("bad-slug!", url, `{ mode = "NO_AUTH" }`, "slug", "letters, digits"),
		// a new toolkit's slug: at most 30 characters (an existing one,
		// up to 64, can be imported)
		step(strings.Repeat("s", 31), url, `{ mode = "NO_AUTH" }`, "slug", "at most 30 characters", "got 31"),
		// the URL under both names: refused at validate
		testAccPlanError(testAccCustomToolkitConfig(slug, "Bad", url, `{ mode = "NO_AUTH" }`, `  app_url = "`+url+`"`), "mcp_url and app_url both set", "app_url is the deprecated former name of mcp_url"),
		{
			// and under neither
			Config: fmt.Sprintf(`
resource "service_custom_toolkit" "test" {
  slug        = %q
  name        = "Bad"
  auth_scheme = { mode = "NO_AUTH" }
}
`, slug),
			PlanOnly:    true,
			ExpectError: testAccErrRe("Missing mcp_url", "Attribute mcp_url is required"),
		},
		{
			// the old name is checked as the new one
			Config: fmt.Sprintf(`
resource "service_custom_toolkit" "test" {
  slug        = %q
  name        = "Bad"
  app_url     = "javascript:alert(1)"
  auth_scheme = { mode = "NO_AUTH" }
}
`, slug),
			PlanOnly:    true,
			ExpectError: testAccErrRe("app_url", "https://"),
		},
		testAccPlanError(testAccCustomToolkitConfig(slug, "   ", url, `{ mode = "NO_AUTH" }`, ""), "name", "is blank"),
	})
}

// TestAccCustomToolkit_importAdoptsAuthDetails: the service never reports
// headers or discovery_url, so an import leaves them unset; adopting the
// toolkit with its configuration (an import block) takes them in place, with
// no replacement (which would delete the toolkit's auth configs and
// connected accounts), and the next plan is empty.
func TestAccCustomToolkit_importAdoptsAuthDetails(t *testing.T) {
	t.Parallel()
	for name, scheme := range map[string]string{
		"api_key": testAccCustomAPIKeyScheme,
		"dcr":     testAccCustomDCRScheme,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			slug := testAccCustomSlug()
			cfg := testAccCustomToolkitConfig(slug, "Adopted", "https://mcp.example.com/mcp", scheme, "")
			resource.Test(t, resource.TestCase{
				PreCheck:                 func() { testAccPreCheck(t) },
				ProtoV6ProviderFactories: testAccProviders(t),
				CheckDestroy:             testAccCheckCustomToolkitDestroy(t),
				Steps: []resource.TestStep{
					{Config: cfg},
					{
						// Forget it (the toolkit stays on the service) ...
						Config: fmt.Sprintf(`
removed {
  from = %s
  lifecycle { destroy = false }
}
`, testAccCustomToolkitName),
					},
					{
						// ... and adopt it again with the same configuration.
						Config: cfg + fmt.Sprintf(`
import {
  to = %s
  id = %q
}
`, testAccCustomToolkitName, client.CustomToolkitPrefix+slug),
						ConfigPlanChecks: resource.ConfigPlanChecks{
							PreApply: []plancheck.PlanCheck{
								plancheck.ExpectResourceAction(testAccCustomToolkitName, plancheck.ResourceActionUpdate),
							},
							PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
						},
					},
				},
			})
		})
	}
}

// TestAccCustomToolkit_mcpURL: the MCP server URL goes on the wire as
// toolkit_config.mcp_url only (the service's name since 2026-11-09), whether
// the configuration gives it as mcp_url or as the deprecated app_url (never
// both names: the requests are recorded by a proxy in front of the
// endpoint). In state mcp_url holds it either way, app_url only where it is
// configured; renaming app_url to mcp_url then plans no change.
func TestAccCustomToolkit_mcpURL(t *testing.T) {
	t.Parallel()
	proxy := newTestAccRecordingProxy(t)
	slugNew, slugOld := testAccCustomSlug(), testAccCustomSlug()
	const urlNew, urlOld = "https://mcp.new.example/mcp", "https://mcp.old.example/mcp"
	cfg := func(oldName string) string {
		return fmt.Sprintf(`
provider "service" {
  base_url = %q
}

resource "service_custom_toolkit" "new" {
  slug        = %q
  name        = "New"
  mcp_url     = %q
  auth_scheme = { mode = "NO_AUTH" }
}

resource "service_custom_toolkit" "old" {
  slug        = %q
  name        = "Old"
  %s = %q
  auth_scheme = { mode = "NO_AUTH" }
}
`, proxy.URL, slugNew, urlNew, slugOld, oldName, urlOld)
	}
	creates := func(*terraform.State) error {
		posts := proxy.requests(http.MethodPost, client.APIPrefix+"/custom/toolkits")
		if len(posts) != 2 {
			return fmt.Errorf("%d registrations recorded, want 2", len(posts))
		}
		sent := map[string]string{}
		for _, r := range posts {
			var body struct {
				Slug          string         `json:"slug"`
				ToolkitConfig map[string]any `json:"toolkit_config"`
			}
			if err := json.Unmarshal(r.Body, &body); err != nil {
				return fmt.Errorf("registration body %s: %w", r.Body, err)
			}
			if _, has := body.ToolkitConfig["app_url"]; has {
				return fmt.Errorf("registration of %s sent app_url: %s", body.Slug, r.Body)
			}
			u, _ := body.ToolkitConfig["mcp_url"].(string)
			sent[strings.ToUpper(body.Slug)] = u
		}
		if sent[slugNew] != urlNew || sent[slugOld] != urlOld {
			return fmt.Errorf("toolkit_config.mcp_url sent: %v; want %s for %s and %s for %s", sent, urlNew, slugNew, urlOld, slugOld)
		}
		return nil
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckCustomToolkitDestroy(t),
		Steps: []resource.TestStep{
			{
				Config: cfg("app_url"),
				Check:  creates,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("service_custom_toolkit.new", tfjsonpath.New("mcp_url"), knownvalue.StringExact(urlNew)),
					statecheck.ExpectKnownValue("service_custom_toolkit.new", tfjsonpath.New("app_url"), knownvalue.Null()),
					statecheck.ExpectKnownValue("service_custom_toolkit.old", tfjsonpath.New("mcp_url"), knownvalue.StringExact(urlOld)),
					statecheck.ExpectKnownValue("service_custom_toolkit.old", tfjsonpath.New("app_url"), knownvalue.StringExact(urlOld)),
				},
			},
			{
				// The deprecated name renamed: nothing to do.
				Config:           cfg("mcp_url"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("service_custom_toolkit.old", tfjsonpath.New("mcp_url"), knownvalue.StringExact(urlOld)),
				},
			},
		},
	})
}

// The state upgrader, through the provider's protocol server: the
// attributes of a state the release before mcp_url wrote (schema version
// 0, testdata) become version 1 with mcp_url and app_url both holding the
// URL and everything else as it was.
func TestCustomToolkitUpgradeStateV0(t *testing.T) {
	ctx := context.Background()
	for writtenBy, file := range customToolkitV0States {
		t.Run(writtenBy, func(t *testing.T) {
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var st struct {
				Resources []struct {
					Instances []struct {
						SchemaVersion int64           `json:"schema_version"`
						Attributes    json.RawMessage `json:"attributes"`
					} `json:"instances"`
				} `json:"resources"`
			}
			if err := json.Unmarshal(raw, &st); err != nil {
				t.Fatal(err)
			}
			inst := st.Resources[0].Instances[0]
			if inst.SchemaVersion != 0 {
				t.Fatalf("fixture schema version %d, want 0", inst.SchemaVersion)
			}
			srv, err := NewServer("test")()
			if err != nil {
				t.Fatal(err)
			}
			resp, err := srv.UpgradeResourceState(ctx, &tfprotov6.UpgradeResourceStateRequest{
				TypeName: customToolkitType, Version: inst.SchemaVersion, RawState: &tfprotov6.RawState{JSON: inst.Attributes},
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range resp.Diagnostics {
				t.Errorf("diagnostic: %s: %s", d.Summary, d.Detail)
			}
			var sr fwresource.SchemaResponse
			(&customToolkitResource{}).Schema(ctx, fwresource.SchemaRequest{}, &sr)
			v, err := resp.UpgradedState.Unmarshal(sr.Schema.Type().TerraformType(ctx))
			if err != nil {
				t.Fatal(err)
			}
			state := tfsdk.State{Schema: sr.Schema, Raw: v}
			var m customToolkitModel
			if d := state.Get(ctx, &m); d.HasError() {
				t.Fatal(d)
			}
			const url = "https://mcp.docs.example/mcp"
			if m.MCPURL.ValueString() != url || m.AppURL.ValueString() != url || m.ID.ValueString() != "CUSTOM_V0_UPGRADE" ||
				m.Slug.ValueString() != "V0_UPGRADE" || m.Name.ValueString() != "Docs" || m.Description.ValueString() != "Documentation search" ||
				m.AuthScheme == nil || m.AuthScheme.Mode.ValueString() != "API_KEY" || len(m.AuthScheme.Headers.Elements()) != 1 ||
				!m.AuthScheme.DiscoveryURL.IsNull() {
				t.Errorf("upgraded state %+v (auth scheme %+v)", m, m.AuthScheme)
			}
		})
	}
}

func TestAccIdentity_customToolkit(t *testing.T) {
	t.Parallel()
	slug := testAccCustomSlug()
	testAccIdentity(t, identityCase{
		addr: "service_custom_toolkit.test", idRe: regexp.MustCompile(`^CUSTOM_\S+$`),
		create: testAccCustomToolkitConfig(slug, "Identity A", "https://mcp.example.com/a", testAccCustomDCRScheme, ""),
		update: testAccCustomToolkitConfig(slug, "Identity B", "https://mcp.example.com/a", testAccCustomDCRScheme, ""),
		remove: func(ctx context.Context, c *client.Client, id string) error { return c.DeleteCustomToolkit(ctx, id) },
		gone:   testAccCheckCustomToolkitDestroy,
		// The service never returns the DCR discovery_url: an import adopts
		// it from the configuration with an in-place update.
		importNE: true,
	})
}

// customToolkitV0States are states of a service_custom_toolkit written by
// the release before mcp_url (commit a3a6d60, schema version 0: the MCP
// server URL as app_url): its provider build applied the configuration of
// TestAccE2E_customToolkitStateUpgrade (with app_url) against its emulator,
// once with Terraform 1.11.4 and once with 1.16.4 (which adds the resource
// identity), and the state files were kept as written.
var customToolkitV0States = map[string]string{
	"1.11.4": "testdata/custom_toolkit_v0_state_terraform-1.11.4.json",
	"1.16.4": "testdata/custom_toolkit_v0_state_terraform-1.16.4.json",
}

// TestAccE2E_customToolkitStateUpgrade: a state the release before mcp_url
// wrote moves to schema version 1 through the CLI with no replacement and
// no change. The toolkit it names is registered on the endpoint, the
// recorded state file is put in the workspace, and `plan
// -detailed-exitcode` is empty (exit 0) whether the configuration already
// says mcp_url or still app_url (with the deprecation warning then); an
// apply writes the upgraded state (schema version 1, mcp_url and app_url
// holding the URL) and sends nothing to the service.
func TestAccE2E_customToolkitStateUpgrade(t *testing.T) {
	w := newE2EWorkspace(t)
	cli := testutil.RequireTerraform(t)
	writtenBy := "1.16.4"
	if ok, _ := testutil.TerraformAtLeast(t, cli, 1, 16); !ok {
		writtenBy = "1.11.4" // Terraform refuses a state a later version wrote
	}
	raw, err := os.ReadFile(filepath.Clean(customToolkitV0States[writtenBy]))
	if err != nil {
		t.Fatal(err)
	}
	const url = "https://mcp.docs.example/mcp"
	slug := "V0_" + strings.TrimPrefix(testAccCustomSlug(), "TFACC_CT_")
	state := strings.ReplaceAll(string(raw), "V0_UPGRADE", slug)
	if testutil.CLIName(cli) == "tofu" {
		// OpenTofu names the provider on its own registry.
		state = strings.ReplaceAll(state, "registry.terraform.io/", "registry.opentofu.org/")
	}

	c := testAccClient(t)
	ctx := context.Background()
	id, err := c.CreateCustomToolkit(ctx, slug, client.CustomToolkitConfig{Name: "Docs", Description: "Documentation search",
		MCPURL: url, AuthSchemes: []client.CustomAuthScheme{{Mode: client.CustomAuthAPIKey,
			Headers: map[string]string{"Authorization": "Bearer " + client.CustomAPIKeyPlaceholder}}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.DeleteCustomToolkit(context.Background(), id) })
	w.WriteFile("terraform.tfstate", state)

	config := func(urlName string) string {
		return fmt.Sprintf(`
resource "service_custom_toolkit" "docs" {
  slug        = %q
  name        = "Docs"
  description = "Documentation search"
  %s = %q
  auth_scheme = {
    mode    = "API_KEY"
    headers = { Authorization = "Bearer {{generic_api_key}}" }
  }
}
`, slug, urlName, url)
	}
	writes := func() int {
		if !testAccEnvironment(t).Emulated {
			return 0 // a real endpoint: the plan's and apply's output say it
		}
		return testAccEmulatorStatsNow(t).Writes
	}
	before := writes()
	for _, urlName := range []string{"app_url", "mcp_url"} {
		w.WriteFile("main.tf", config(urlName))
		res := w.Run(nil, "plan", "-detailed-exitcode", "-no-color")
		if res.ExitCode != 0 {
			t.Fatalf("%s (state written by Terraform %s): plan exit %d, want 0 (no changes)\n%s\n%s",
				urlName, writtenBy, res.ExitCode, res.Stdout, res.Stderr)
		}
		deprecated := strings.Contains(res.Stdout+res.Stderr, "Use mcp_url")
		if deprecated != (urlName == "app_url") {
			t.Errorf("%s: deprecation warning shown: %v\n%s%s", urlName, deprecated, res.Stdout, res.Stderr)
		}
	}
	res := w.RunOK("apply", "-auto-approve", "-no-color")
	if !strings.Contains(res.Stdout, "0 added, 0 changed, 0 destroyed") {
		t.Errorf("apply after the upgrade:\n%s", res.Stdout)
	}
	if got := writes() - before; got != 0 {
		t.Errorf("the upgrade made %d writes, want none", got)
	}

	var upgraded struct {
		Resources []struct {
			Instances []struct {
				SchemaVersion int            `json:"schema_version"`
				Attributes    map[string]any `json:"attributes"`
			} `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(w.ReadFile("terraform.tfstate"), &upgraded); err != nil {
		t.Fatal(err)
	}
	if len(upgraded.Resources) != 1 || len(upgraded.Resources[0].Instances) != 1 {
		t.Fatalf("state after apply: %+v", upgraded)
	}
	inst := upgraded.Resources[0].Instances[0]
	if inst.SchemaVersion != customToolkitSchemaVersion || inst.Attributes["mcp_url"] != url || inst.Attributes["app_url"] != url ||
		inst.Attributes["id"] != client.CustomToolkitPrefix+slug || inst.Attributes["description"] != "Documentation search" {
		t.Errorf("upgraded state: schema version %d, attributes %v", inst.SchemaVersion, inst.Attributes)
	}
	if res := w.Run(nil, "plan", "-detailed-exitcode", "-no-color"); res.ExitCode != 0 {
		t.Errorf("plan after the upgrade: exit %d\n%s\n%s", res.ExitCode, res.Stdout, res.Stderr)
	}
}
