package provider

import (
	"regexp"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

func TestAccToolkitDataSource_github(t *testing.T) {
	t.Parallel()
	const addr = "data.service_toolkit.github"
	oauth := tfjsonpath.New("auth_config_details").AtSliceIndex(0)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps: []resource.TestStep{{
			Config: `
data "service_toolkit" "github" {
  slug = "github"
}

output "oauth2_required" {
  value = data.service_toolkit.github.required_auth_config_creation_fields["OAUTH2"]
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("slug"), knownvalue.StringExact("github")),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("name"), knownvalue.StringExact("GitHub")),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("version"), knownvalue.StringExact("latest")),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("resolved_version"), knownvalue.StringRegexp(regexp.MustCompile(`^\d{8}_\d{2}$`))),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("description"),
					knownvalue.StringExact("GitHub is a code hosting platform for version control and collaboration.")),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("logo"), knownvalue.StringExact("https://logos.composio.dev/api/github")),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("enabled"), knownvalue.Bool(true)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("is_local"), knownvalue.Bool(false)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("is_deprecated"), knownvalue.Bool(false)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("categories"), knownvalue.ListPartial(map[int]knownvalue.Check{
					0: knownvalue.ObjectExact(map[string]knownvalue.Check{
						"slug": knownvalue.StringExact("developer-tools"),
						"name": knownvalue.StringExact("Developer Tools"),
					}),
				})),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("auth_schemes"), knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("OAUTH2")})),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("service_managed_auth_schemes"), knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("OAUTH2")})),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("available_versions"), knownvalue.ListSizeExact(2)),
				statecheck.ExpectKnownValue(addr, oauth.AtMapKey("mode"), knownvalue.StringExact("OAUTH2")),
				statecheck.ExpectKnownValue(addr, oauth.AtMapKey("service_managed"), knownvalue.Bool(true)),
				statecheck.ExpectKnownValue(addr, oauth.AtMapKey("auth_config_creation_fields").AtMapKey("required"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectPartial(map[string]knownvalue.Check{
						"name": knownvalue.StringExact("client_id"), "required": knownvalue.Bool(true),
						"is_secret": knownvalue.Bool(false), "type": knownvalue.StringExact("string"),
						"display_name": knownvalue.StringExact("Client ID"), "default": knownvalue.Null(),
					}),
					knownvalue.ObjectPartial(map[string]knownvalue.Check{
						"name": knownvalue.StringExact("client_secret"), "required": knownvalue.Bool(true),
						"is_secret": knownvalue.Bool(true), "description": knownvalue.NotNull(),
					}),
				})),
				statecheck.ExpectKnownValue(addr, oauth.AtMapKey("auth_config_creation_fields").AtMapKey("optional"), knownvalue.ListPartial(map[int]knownvalue.Check{
					0: knownvalue.ObjectPartial(map[string]knownvalue.Check{
						"name": knownvalue.StringExact("scopes"), "required": knownvalue.Bool(false),
						"default": knownvalue.StringExact("repo,read:user"),
					}),
				})),
				statecheck.ExpectKnownValue(addr, oauth.AtMapKey("connected_account_initiation_fields").AtMapKey("required"), knownvalue.ListSizeExact(0)),
				statecheck.ExpectKnownValue(addr, oauth.AtMapKey("required_auth_config_creation_field_names"),
					knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("client_id"), knownvalue.StringExact("client_secret")})),
				statecheck.ExpectKnownValue(addr, oauth.AtMapKey("secret_field_names"),
					knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("client_secret")})),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("required_auth_config_creation_fields"), knownvalue.MapExact(map[string]knownvalue.Check{
					"OAUTH2": knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("client_id"), knownvalue.StringExact("client_secret")}),
				})),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("required_connected_account_initiation_fields"), knownvalue.MapExact(map[string]knownvalue.Check{
					"OAUTH2": knownvalue.ListSizeExact(0),
				})),
				statecheck.ExpectKnownOutputValue("oauth2_required",
					knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("client_id"), knownvalue.StringExact("client_secret")})),
			},
		}},
	})
}

func TestAccToolkitDataSource_stripeAPIKey(t *testing.T) {
	t.Parallel()
	const addr = "data.service_toolkit.stripe"
	apiKey := tfjsonpath.New("auth_config_details").AtSliceIndex(0)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps: []resource.TestStep{{
			Config: `data "service_toolkit" "stripe" { slug = "stripe" }`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("auth_schemes"), knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("API_KEY")})),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("service_managed_auth_schemes"), knownvalue.ListSizeExact(0)),
				statecheck.ExpectKnownValue(addr, apiKey.AtMapKey("mode"), knownvalue.StringExact("API_KEY")),
				statecheck.ExpectKnownValue(addr, apiKey.AtMapKey("service_managed"), knownvalue.Bool(false)),
				statecheck.ExpectKnownValue(addr, apiKey.AtMapKey("auth_config_creation_fields").AtMapKey("required"), knownvalue.ListSizeExact(0)),
				statecheck.ExpectKnownValue(addr, apiKey.AtMapKey("connected_account_initiation_fields").AtMapKey("required"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectPartial(map[string]knownvalue.Check{
						"name": knownvalue.StringExact("api_key"), "required": knownvalue.Bool(true), "is_secret": knownvalue.Bool(true),
					}),
				})),
				statecheck.ExpectKnownValue(addr, apiKey.AtMapKey("required_connected_account_initiation_field_names"),
					knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("api_key")})),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("required_connected_account_initiation_fields"), knownvalue.MapExact(map[string]knownvalue.Check{
					"API_KEY": knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("api_key")}),
				})),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("required_auth_config_creation_fields"), knownvalue.MapExact(map[string]knownvalue.Check{
					"API_KEY": knownvalue.ListSizeExact(0),
				})),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("categories").AtSliceIndex(0).AtMapKey("slug"), knownvalue.StringExact("finance")),
			},
		}},
	})
}

// The version comes from the data source's own `version`, else from the
// provider's toolkit_versions pin, else "latest".
func TestAccToolkitDataSource_versions(t *testing.T) {
	t.Parallel()
	testAccRequireEmulator(t) // relies on the emulator's two catalog versions
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps: []resource.TestStep{
			{
				Config: `
data "service_toolkit" "explicit" {
  slug    = "github"
  version = "20250901_00"
}
data "service_toolkit" "latest" {
  slug    = "github"
  version = "latest"
}
`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.service_toolkit.explicit", tfjsonpath.New("version"), knownvalue.StringExact("20250901_00")),
					statecheck.ExpectKnownValue("data.service_toolkit.explicit", tfjsonpath.New("resolved_version"), knownvalue.StringExact("20250901_00")),
					statecheck.ExpectKnownValue("data.service_toolkit.latest", tfjsonpath.New("version"), knownvalue.StringExact("latest")),
					statecheck.ExpectKnownValue("data.service_toolkit.latest", tfjsonpath.New("resolved_version"), knownvalue.StringExact("20251015_00")),
				},
			},
			{
				Config: `
provider "service" {
  toolkit_versions = { github = "20250901_00" }
}
data "service_toolkit" "pinned" {
  slug = "github"
}
data "service_toolkit" "other" {
  slug = "stripe"
}
`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.service_toolkit.pinned", tfjsonpath.New("version"), knownvalue.StringExact("20250901_00")),
					statecheck.ExpectKnownValue("data.service_toolkit.pinned", tfjsonpath.New("resolved_version"), knownvalue.StringExact("20250901_00")),
					statecheck.ExpectKnownValue("data.service_toolkit.other", tfjsonpath.New("version"), knownvalue.StringExact("latest")),
					statecheck.ExpectKnownValue("data.service_toolkit.other", tfjsonpath.New("resolved_version"), knownvalue.StringExact("20251015_00")),
				},
			},
		},
	})
}

func TestAccToolkitDataSource_errors(t *testing.T) {
	t.Parallel()
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps: []resource.TestStep{
			{
				Config:      `data "service_toolkit" "x" { slug = "no-such-toolkit" }`,
				ExpectError: regexp.MustCompile(`(?s)Unknown toolkit.*Attribute\s+slug.*no-such-toolkit`),
			},
			{
				Config:      `data "service_toolkit" "x" { slug = "not a slug" }`,
				ExpectError: regexp.MustCompile(`(?s)Invalid toolkit slug.*Attribute\s+slug`),
			},
			{
				Config: `
data "service_toolkit" "x" {
  slug    = "github"
  version = "2025-09-01"
}`,
				ExpectError: regexp.MustCompile(`(?s)Invalid toolkit version.*Attribute\s+version`),
			},
		},
	})
}

func TestAccToolkitDataSource_unknownVersion(t *testing.T) {
	t.Parallel()
	testAccRequireEmulator(t) // the emulator has exactly two versions
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps: []resource.TestStep{{
			Config: `
data "service_toolkit" "x" {
  slug    = "github"
  version = "20200101_00"
}`,
			ExpectError: regexp.MustCompile(`(?s)Error\s+reading\s+service_toolkit\s+github@20200101_00.*version\s+=\s+"20200101_00"`),
		}},
	})
}

// Unit test of the wire → model mapping (no Terraform, no network).
func TestToolkitModelFrom(t *testing.T) {
	t.Parallel()
	def := "us1"
	tk := &client.Toolkit{
		Slug: "acme", Name: "Acme", Enabled: true, IsDeprecated: true,
		ComposioManagedAuthSchemes: []string{"OAUTH2"},
		AuthConfigDetails: []client.AuthConfigDetail{
			{Mode: "OAUTH2", Name: "OAuth 2.0", Fields: client.AuthFields{
				AuthConfigCreation: client.FieldGroup{
					Required: []client.Field{{Name: "client_id"}, {Name: "client_secret", IsSecret: true}},
					Optional: []client.Field{{Name: "scopes", Default: &def, Required: true /* group wins */}},
				},
			}},
			{Mode: "API_KEY", Name: "API Key", Fields: client.AuthFields{
				ConnectedAccountInitiation: client.FieldGroup{
					Required: []client.Field{{Name: "api_key", IsSecret: true, DisplayName: "API Key"}},
				},
			}},
		},
		Meta: client.ToolkitMeta{Version: "20251015_00", Categories: []client.Category{{ID: "crm", Name: "CRM"}}, ToolsCount: 3},
	}
	m := toolkitModelFrom(tk)
	if got := m.AuthSchemes; !slices.Equal(got, []string{"OAUTH2", "API_KEY"}) {
		t.Errorf("auth_schemes = %v", got)
	}
	if got := m.ServiceManagedAuthSchemes; !slices.Equal(got, []string{"OAUTH2"}) {
		t.Errorf("service_managed_auth_schemes = %v", got)
	}
	if m.AvailableVersions == nil {
		t.Error("available_versions must be an empty list, not null")
	}
	if got := m.RequiredAuthConfigCreationFields["OAUTH2"]; !slices.Equal(got, []string{"client_id", "client_secret"}) {
		t.Errorf("required_auth_config_creation_fields[OAUTH2] = %v", got)
	}
	if got := m.RequiredConnectedAccountInitiationFields["API_KEY"]; !slices.Equal(got, []string{"api_key"}) {
		t.Errorf("required_connected_account_initiation_fields[API_KEY] = %v", got)
	}
	if got := m.RequiredAuthConfigCreationFields["API_KEY"]; got == nil || len(got) != 0 {
		t.Errorf("required_auth_config_creation_fields[API_KEY] = %#v, want empty list", got)
	}
	oauth, apiKey := m.AuthConfigDetails[0], m.AuthConfigDetails[1]
	if !oauth.ServiceManaged.ValueBool() || apiKey.ServiceManaged.ValueBool() {
		t.Errorf("service_managed = %v / %v", oauth.ServiceManaged, apiKey.ServiceManaged)
	}
	scopes := oauth.AuthConfigCreationFields.Optional[0]
	if scopes.Required.ValueBool() || scopes.Default.ValueString() != "us1" {
		t.Errorf("scopes field = %+v", scopes)
	}
	if !oauth.AuthConfigCreationFields.Required[0].Default.IsNull() {
		t.Error("a field without a default must have a null default")
	}
	if got := oauth.SecretFieldNames; !slices.Equal(got, []string{"client_secret"}) {
		t.Errorf("secret_field_names = %v", got)
	}
	if got := m.Categories[0].Slug.ValueString(); got != "crm" {
		t.Errorf("category slug = %q (from id)", got)
	}
	if !m.IsDeprecated.ValueBool() || m.ToolsCount.ValueInt64() != 3 || m.ResolvedVersion.ValueString() != "20251015_00" {
		t.Errorf("scalars: %+v", m)
	}
}
