package provider

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

// Provider configuration tests. They plan a configuration that reads the
// service_toolkit_categories data source, which makes Terraform configure the
// provider. They change the environment, so they never call t.Parallel.

const testAccCategoriesConfig = `
data "service_toolkit_categories" "all" {}
`

func testAccProviderBlock(body string) string {
	return fmt.Sprintf("provider \"service\" {\n%s\n}\n%s", body, testAccCategoriesConfig)
}

// testAccUnsetProviderEnv points the provider's environment at nothing, so
// that each test sets exactly what it checks.
func testAccUnsetProviderEnv(t *testing.T) {
	t.Helper()
	t.Setenv(EnvAPIKey, "")
	t.Setenv(EnvOrgAPIKey, "")
	t.Setenv(EnvBaseURL, "")
	t.Setenv("SERVICE_TOOLKIT_VERSION_GITHUB", "")
}

func TestAccProvider_envFallbacks(t *testing.T) {
	ep := testAccEnvironment(t)
	testAccUnsetProviderEnv(t)
	t.Setenv(EnvAPIKey, ep.APIKey)
	t.Setenv(EnvBaseURL, ep.BaseURL)
	t.Setenv("SERVICE_TOOLKIT_VERSION_GITHUB", "20250901_00")
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps: []resource.TestStep{{
			Config: testAccCategoriesConfig + `
data "service_toolkit" "github" {
  slug = "github"
}

data "service_toolkit" "slack" {
  slug = "slack"
}
`,
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttrSet("data.service_toolkit_categories.all", "categories.0.slug"),
				// The env pin applies to github only; slack stays on latest.
				resource.TestCheckResourceAttr("data.service_toolkit.github", "version", "20250901_00"),
				resource.TestCheckResourceAttr("data.service_toolkit.github", "resolved_version", "20250901_00"),
				resource.TestCheckResourceAttr("data.service_toolkit.slack", "version", "latest"),
			),
		}},
	})
}

func TestAccProvider_configOverridesEnv(t *testing.T) {
	ep := testAccEnvironment(t)
	testAccUnsetProviderEnv(t)
	t.Setenv(EnvAPIKey, "wrong-key-from-env")
	t.Setenv(EnvBaseURL, "https://unused.invalid")
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps: []resource.TestStep{{
			Config: testAccProviderBlock(fmt.Sprintf(`
  api_key          = %q
  base_url         = %q
  toolkit_version  = "latest"
  toolkit_versions = { github = "20251015_00", slack = "latest" }
  request_timeout  = "10s"
  max_retries      = 2
  default_headers  = { "X-Team" = "platform" }
`, ep.APIKey, ep.BaseURL)),
			Check: resource.TestCheckResourceAttrSet("data.service_toolkit_categories.all", "categories.0.name"),
		}},
	})
}

func TestAccProvider_missingAPIKey(t *testing.T) {
	ep := testAccEnvironment(t)
	testAccUnsetProviderEnv(t)
	t.Setenv(EnvBaseURL, ep.BaseURL)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps: []resource.TestStep{{
			Config:      testAccCategoriesConfig,
			ExpectError: regexp.MustCompile(`(?s)Missing API key.*api_key.*SERVICE_API_KEY`),
		}},
	})
}

// With only the organization key, the provider configures (it manages
// projects), and every project object (a resource, a data source) fails at
// plan naming api_key and SERVICE_API_KEY, before any request of its own.
func TestAccProvider_projectObjectWithoutProjectKey(t *testing.T) {
	ep := testAccRequireOrgKey(t)
	testAccUnsetProviderEnv(t)
	t.Setenv(EnvBaseURL, ep.BaseURL)
	t.Setenv(EnvOrgAPIKey, ep.OrgAPIKey)
	before := testAccEmulatorWrites(t)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps: []resource.TestStep{
			{
				Config: `
resource "service_auth_config" "github" {
  toolkit = "github"
  name    = "tf-acc-no-project-key"
}
`,
				ExpectError: regexp.MustCompile(`(?s)Missing API key.*belongs to a project.*api_key.*SERVICE_API_KEY`),
			},
			{
				Config:      testAccCategoriesConfig,
				ExpectError: regexp.MustCompile(`(?s)Missing API key.*api_key.*SERVICE_API_KEY`),
			},
		},
	})
	testAccAssertNoWritesSince(t, before)
}

func TestAccProvider_validationNamesAttribute(t *testing.T) {
	ep := testAccEnvironment(t)
	testAccUnsetProviderEnv(t)
	t.Setenv(EnvAPIKey, ep.APIKey)
	t.Setenv(EnvBaseURL, ep.BaseURL)
	cases := []struct {
		name string
		body string
		want string
	}{
		{"toolkit_version", `toolkit_version = "2025-10-15"`, `(?s)Invalid toolkit version.*toolkit_version`},
		{"toolkit_version impossible date", `toolkit_version = "20250231_00"`, `(?s)toolkit_version.*not a valid date`},
		{"toolkit_versions value", `toolkit_versions = { github = "v2" }`, `(?s)Invalid toolkit version.*toolkit_versions\["github"\]`},
		{"request_timeout", `request_timeout = "thirty"`, `(?s)Invalid duration.*request_timeout`},
		{"max_retries", `max_retries = -1`, `(?s)Attribute\s+max_retries\s+value\s+must\s+be\s+at\s+least\s+0,\s+got:\s+-1`},
		{"base_url", `base_url = "backend.composio.dev"`, `(?s)Invalid base URL.*base_url`},
		{"base_url query", `base_url = "https://backend.composio.dev/?x=1"`, `(?s)base_url.*query`},
		{"http non-loopback", `base_url = "http://api.example.com"`, `(?s)Insecure base URL.*allow_insecure_http`},
		{"reserved header", `default_headers = { "X-API-Key" = "k" }`, `(?s)default_headers.*cannot\s+be\s+overridden`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resource.UnitTest(t, resource.TestCase{
				ProtoV6ProviderFactories: testAccProviders(t),
				Steps: []resource.TestStep{{
					Config:      testAccProviderBlock(tc.body),
					ExpectError: regexp.MustCompile(tc.want),
				}},
			})
		})
	}
}

func TestAccProvider_envValidation(t *testing.T) {
	ep := testAccEnvironment(t)
	testAccUnsetProviderEnv(t)
	t.Setenv(EnvAPIKey, ep.APIKey)
	t.Setenv(EnvBaseURL, ep.BaseURL)
	t.Setenv("SERVICE_TOOLKIT_VERSION_GITHUB", "20251015")
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps: []resource.TestStep{{
			Config: testAccCategoriesConfig,
			ExpectError: testAccErrRe(`Invalid toolkit version in environment variable SERVICE_TOOLKIT_VERSION_GITHUB`,
				`invalid toolkit version "20251015": expected YYYYMMDD_NN`),
		}},
	})
}

func TestAccProvider_insecureFromEnvRefused(t *testing.T) {
	testAccUnsetProviderEnv(t)
	t.Setenv(EnvAPIKey, "k")
	t.Setenv(EnvBaseURL, "http://api.example.com")
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps: []resource.TestStep{{
			Config:      testAccCategoriesConfig,
			ExpectError: regexp.MustCompile(`(?s)Insecure base URL.*SERVICE_BASE_URL`),
		}},
	})
}

func TestAccProvider_insecureOptIn(t *testing.T) {
	testAccUnsetProviderEnv(t)
	// 192.0.2.1 (TEST-NET-1) is not loopback and never answers: getting as far
	// as the connection probe proves the configuration was accepted.
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps: []resource.TestStep{{
			Config: testAccProviderBlock(`
  api_key             = "k"
  base_url            = "http://192.0.2.1"
  allow_insecure_http = true
  request_timeout     = "1s"
  max_retries         = 0
`),
			ExpectError: regexp.MustCompile(`(?s)Cannot reach the service.*http://192\.0\.2\.1`),
		}},
	})
}

// TestAccProvider_retriesThroughFaults: with the default max_retries, an
// apply, its refreshes and the destroy get through a service answering 429 or
// 503 to a large share of requests, and retried creates make no duplicates.
// Not parallel: faults are process-wide.
func TestAccProvider_retriesThroughFaults(t *testing.T) {
	testAccRequireEmulator(t)
	testAccPreCheck(t)
	name := acctest.RandomWithPrefix("tf-acc-faults")
	var config string
	for i := range 3 {
		config += fmt.Sprintf(`
resource "service_auth_config" "a%d" {
  toolkit = "github"
  name    = "%s-%d"
}
`, i, name, i)
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps: []resource.TestStep{{
			PreConfig: func() { testAccEmulatorSetFaults(t, "status=429:0.3,status=503:0.2") },
			// Half of all requests fail. A request gives up only after every
			// one of its attempts failed: with the default 10 retries that is
			// 0.5^11 per request, a few percent over the ~100 requests of this
			// test, so the test raises the budget to keep that chance
			// negligible (0.5^26 per request). The default itself is checked
			// by TestResolveSettings*.
			Config: testAccProviderBlock("  max_retries = 25") + config,
			Check: func(*terraform.State) error {
				testAccEmulatorDo(t, http.MethodPut, "/_emulator/faults", rawBody(""), nil)
				configs, err := testAccClient(t).ListAuthConfigs(context.Background(), client.AuthConfigListParams{ToolkitSlug: "github"})
				if err != nil {
					return err
				}
				seen := map[string]int{}
				for _, ac := range configs {
					if strings.HasPrefix(ac.Name, name) {
						seen[ac.Name]++
					}
				}
				if len(seen) != 3 {
					return fmt.Errorf("want 3 auth configs named %s-*, found %v", name, seen)
				}
				for n, c := range seen {
					if c != 1 {
						return fmt.Errorf("auth config %s created %d times", n, c)
					}
				}
				testAccEmulatorSetFaults(t, "status=429:0.3,status=503:0.2")
				return nil
			},
		}},
	})
}
