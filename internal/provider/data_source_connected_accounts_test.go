package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

func TestAccConnectedAccountsDataSource(t *testing.T) {
	user := acctest.RandomWithPrefix("tf-cas-ds")
	fixtures := testAccCAStripeAuthConfig(user) + testAccCAGitHubAuthConfig(user) + fmt.Sprintf(`
resource "service_connected_account" "key" {
  user_id        = %[1]q
  auth_config_id = service_auth_config.stripe.id
  credentials_wo = { api_key = "sk_ds" }
  alias          = "billing"
}

resource "service_connected_account" "oauth" {
  user_id        = %[1]q
  auth_config_id = service_auth_config.github.id
}
`, user)
	deps := `depends_on = [service_connected_account.key, service_connected_account.oauth]`
	ds := "data.service_connected_accounts."
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckConnectedAccountDestroy(t),
		Steps: []resource.TestStep{
			{
				Config: fixtures + fmt.Sprintf(`
data "service_connected_accounts" "user" {
  user_ids = [%[1]q]
  %[2]s
}

data "service_connected_accounts" "active" {
  user_ids = [%[1]q]
  statuses = ["ACTIVE"]
  %[2]s
}

data "service_connected_accounts" "github" {
  user_ids        = [%[1]q]
  toolkit_slugs   = ["github"]
  auth_config_ids = [service_auth_config.github.id]
  %[2]s
}

data "service_connected_accounts" "nobody" {
  user_ids = ["%[1]s-nobody"]
  %[2]s
}
`, user, deps),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(ds+"user", tfjsonpath.New("accounts"), knownvalue.ListSizeExact(2)),
					statecheck.ExpectKnownValue(ds+"active", tfjsonpath.New("accounts"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.ObjectExact(map[string]knownvalue.Check{
							"id":             knownvalue.StringRegexp(regexp.MustCompile(`^ca_`)),
							"user_id":        knownvalue.StringExact(user),
							"alias":          knownvalue.StringExact("billing"),
							"status":         knownvalue.StringExact("ACTIVE"),
							"status_reason":  knownvalue.Null(),
							"is_disabled":    knownvalue.Bool(false),
							"toolkit":        knownvalue.StringExact("stripe"),
							"auth_config_id": knownvalue.StringRegexp(regexp.MustCompile(`^ac_`)),
							"auth_scheme":    knownvalue.StringExact("API_KEY"),
							"created_at":     testAccTimestamp,
							"updated_at":     testAccTimestamp,
						}),
					})),
					statecheck.CompareValuePairs(ds+"active", tfjsonpath.New("accounts").AtSliceIndex(0).AtMapKey("id"),
						"service_connected_account.key", tfjsonpath.New("id"), compare.ValuesSame()),
					statecheck.ExpectKnownValue(ds+"github", tfjsonpath.New("accounts"), knownvalue.ListSizeExact(1)),
					statecheck.ExpectKnownValue(ds+"github", tfjsonpath.New("accounts").AtSliceIndex(0).AtMapKey("status"), knownvalue.StringExact("INITIATED")),
					statecheck.ExpectKnownValue(ds+"github", tfjsonpath.New("accounts").AtSliceIndex(0).AtMapKey("auth_scheme"), knownvalue.StringExact("OAUTH2")),
					statecheck.ExpectKnownValue(ds+"nobody", tfjsonpath.New("accounts"), knownvalue.ListSizeExact(0)),
				},
			},
		},
	})
}

func TestAccConnectedAccountsDataSource_invalidFilters(t *testing.T) {
	resource.ParallelTest(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps: []resource.TestStep{
			{
				Config:      `data "service_connected_accounts" "x" { statuses = ["active"] }`,
				ExpectError: testAccErrRe(`statuses`, `INITIATED`),
			},
			{
				Config:      `data "service_connected_accounts" "x" { toolkit_slugs = ["git hub"] }`,
				ExpectError: testAccErrRe(`toolkit_slugs`),
			},
			{
				Config:      `data "service_connected_accounts" "x" { user_ids = [] }`,
				ExpectError: testAccErrRe(`user_ids`, `at least 1`),
			},
		},
	})
}
