package provider

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

// The service_auth_config list resource in a project of its own: 23 github
// auth configs (more than the service's default page of 20, which the
// provider does not use: it asks for pages of 200), a custom stripe one and
// a disabled gmail one.
func TestAccAuthConfigList_query(t *testing.T) {
	t.Parallel()
	key, c := testAccIsolatedProject(t)
	ctx := context.Background()
	var first string
	for i := range 23 {
		ac, err := c.CreateAuthConfig(ctx, client.CreateAuthConfigRequest{ToolkitSlug: "github", Type: client.AuthConfigTypeManaged, Name: fmt.Sprintf("gh-%02d", i)})
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = ac.ID
		}
	}
	custom := testAccStripeAPIKeyAuthConfig(t, c, "Billing")
	disabled, err := c.CreateAuthConfig(ctx, client.CreateAuthConfigRequest{ToolkitSlug: "gmail", Type: client.AuthConfigTypeManaged, Name: "Old mail"})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.DisableAuthConfig(ctx, disabled.ID); err != nil {
		t.Fatal(err)
	}
	provider := listProvider(key)
	blocks, lengths := listQueries("service_auth_config",
		// Enabled only by default: 23 + 1.
		listQuery{"all", "", "", 24},
		listQuery{"github", `    toolkit = "github"` + "\n", "", 23},
		listQuery{"custom", `    is_service_managed = false` + "\n", "", 1},
		listQuery{"with_disabled", `    toolkit = "gmail"` + "\n" + `    show_disabled = true` + "\n", "", 1},
		listQuery{"without_disabled", `    toolkit = "gmail"` + "\n", "", 0},
		listQuery{"limited", "", "  limit = 3\n", 3},
	)
	var pagesBefore int
	testAccListTest(t, []resource.TestStep{
		{
			// A query step follows a configuration step; this one reads
			// the catalog (with the shared project's key).
			Config: `data "service_toolkit_categories" "any" {}`,
			Check: func(*terraform.State) error {
				pagesBefore = testAccProjectRequests(t, key, routeListAuthConfigs)
				return nil
			},
		},
		{
			Query:  true,
			Config: provider + blocks,
			QueryResultChecks: append(lengths,
				querycheck.ExpectIdentity("service_auth_config.custom", listIDCheck(custom.ID)),
				querycheck.ExpectIdentity("service_auth_config.with_disabled", listIDCheck(disabled.ID)),
				querycheck.ExpectIdentity("service_auth_config.github", listIDCheck(first)),
				querycheck.ExpectResourceDisplayName("service_auth_config.custom", listByID(custom.ID),
					knownvalue.StringRegexp(regexp.MustCompile(`^stripe · Billing \(ac_.{7}…\)$`))),
				querycheck.ExpectResourceDisplayName("service_auth_config.all", listByID(first),
					knownvalue.StringRegexp(regexp.MustCompile(`^github · gh-00 \(ac_`))),
			),
		},
	})
	// Pages of 200: each of the six lists reads one page; nothing else
	// lists auth configs here. (TestAccE2E_authConfigsPagesOf200 reads more
	// than one page.)
	if got := testAccProjectRequests(t, key, routeListAuthConfigs) - pagesBefore; got != 6 {
		t.Errorf("the query made %d list requests, want 6 (one per list: pages of 200)", got)
	}
}

// include_resource: each result holds the auth config as the resource's
// Read sets it after an import of the same object.
func TestAccAuthConfigList_includeResource(t *testing.T) {
	t.Parallel()
	key, c := testAccIsolatedProject(t)
	ac := testAccStripeAPIKeyAuthConfig(t, c, "Billing")
	provider := listProvider(key)
	imported := provider + fmt.Sprintf(`import {
  to = service_auth_config.billing
  id = %q
}
resource "service_auth_config" "billing" {
  toolkit     = "stripe"
  type        = "use_custom_auth"
  auth_scheme = "API_KEY"
  name        = "Billing"
}
`, ac.ID)
	testAccListTest(t, []resource.TestStep{
		{
			Config: imported,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("service_auth_config.billing", tfjsonpath.New("id"), knownvalue.StringExact(ac.ID)),
			},
		},
		{
			Query: true,
			// The provider block of the configuration (the .tf file the
			// previous step wrote) serves the query too.
			Config: `list "service_auth_config" "billing" {
  provider         = service
  include_resource = true
  config {
    toolkit = "stripe"
  }
}
`,
			QueryResultChecks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("service_auth_config.billing", 1),
				querycheck.ExpectResourceKnownValues("service_auth_config.billing",
					listByID(ac.ID),
					[]querycheck.KnownValueCheck{
						{Path: tfjsonpath.New("id"), KnownValue: knownvalue.StringExact(ac.ID)},
						{Path: tfjsonpath.New("toolkit"), KnownValue: knownvalue.StringExact("stripe")},
						{Path: tfjsonpath.New("name"), KnownValue: knownvalue.StringExact("Billing")},
						{Path: tfjsonpath.New("type"), KnownValue: knownvalue.StringExact("use_custom_auth")},
						{Path: tfjsonpath.New("auth_scheme"), KnownValue: knownvalue.StringExact("API_KEY")},
						{Path: tfjsonpath.New("status"), KnownValue: knownvalue.StringExact("ENABLED")},
						{Path: tfjsonpath.New("is_service_managed"), KnownValue: knownvalue.Bool(false)},
						{Path: tfjsonpath.New("created_at"), KnownValue: testAccTimestamp},
						{Path: tfjsonpath.New("credentials_wo"), KnownValue: knownvalue.Null()},
					}),
			},
		},
	})
}

// An error of the service reaches the user as a diagnostic of the query,
// naming the list resource and the service's message (here: a key the
// service does not know).
func TestAccAuthConfigList_serviceError(t *testing.T) {
	t.Parallel()
	testAccRequireEmulator(t)
	testAccListTest(t, []resource.TestStep{
		{Config: `data "service_toolkit_categories" "any" {}`},
		{
			Query: true,
			Config: listProvider("not-a-key-of-this-service") + `list "service_auth_config" "all" {
  provider = service
  config {}
}
`,
			ExpectError: testAccErrRe(`Error listing service_auth_config`, `invalid API key`),
		},
	})
}
