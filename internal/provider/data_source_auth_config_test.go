package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

func TestAccAuthConfigDataSource_byIDAndName(t *testing.T) {
	t.Parallel()
	name := acctest.RandomWithPrefix("tfacc-acds")
	cfg := fmt.Sprintf(`
resource "service_auth_config" "src" {
  toolkit                    = "github"
  name                       = %q
  scopes                     = ["repo"]
  is_enabled_for_tool_router = true
  enabled                    = false
}

data "service_auth_config" "by_id" {
  id = service_auth_config.src.id
}

data "service_auth_config" "by_name" {
  toolkit = "github"
  name    = service_auth_config.src.name
}
`, name)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps: []resource.TestStep{{
			Config: cfg,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.service_auth_config.by_id", tfjsonpath.New("name"), knownvalue.StringExact(name)),
				statecheck.ExpectKnownValue("data.service_auth_config.by_id", tfjsonpath.New("toolkit"), knownvalue.StringExact("github")),
				statecheck.ExpectKnownValue("data.service_auth_config.by_id", tfjsonpath.New("type"), knownvalue.StringExact("use_service_managed_auth")),
				statecheck.ExpectKnownValue("data.service_auth_config.by_id", tfjsonpath.New("auth_scheme"), knownvalue.StringExact("OAUTH2")),
				statecheck.ExpectKnownValue("data.service_auth_config.by_id", tfjsonpath.New("is_service_managed"), knownvalue.Bool(true)),
				statecheck.ExpectKnownValue("data.service_auth_config.by_id", tfjsonpath.New("is_enabled_for_tool_router"), knownvalue.Bool(true)),
				statecheck.ExpectKnownValue("data.service_auth_config.by_id", tfjsonpath.New("status"), knownvalue.StringExact("DISABLED")),
				statecheck.ExpectKnownValue("data.service_auth_config.by_id", tfjsonpath.New("enabled"), knownvalue.Bool(false)),
				statecheck.ExpectKnownValue("data.service_auth_config.by_id", tfjsonpath.New("scopes"),
					knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("repo")})),
				statecheck.ExpectKnownValue("data.service_auth_config.by_id", tfjsonpath.New("no_of_connections"), knownvalue.Int64Exact(0)),
				statecheck.ExpectKnownValue("data.service_auth_config.by_id", tfjsonpath.New("tool_access_config").AtMapKey("tools_available_for_execution"),
					knownvalue.ListSizeExact(0)),
			},
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttrPair("data.service_auth_config.by_id", "id", "service_auth_config.src", "id"),
				resource.TestCheckResourceAttrPair("data.service_auth_config.by_name", "id", "service_auth_config.src", "id"),
				resource.TestCheckResourceAttrPair("data.service_auth_config.by_name", "created_at", "service_auth_config.src", "created_at"),
			),
		}},
	})
}

func TestAccAuthConfigDataSource_errors(t *testing.T) {
	t.Parallel()
	missing := acctest.RandomWithPrefix("tfacc-acds-missing")
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps: []resource.TestStep{
			{
				Config:      `data "service_auth_config" "x" {}`,
				ExpectError: regexp.MustCompile(`(?s)Missing Attribute Configuration.*\[id,name\]`),
			},
			{
				Config: `
data "service_auth_config" "x" {
  id      = "ac_abc"
  toolkit = "github"
  name    = "n"
}
`,
				ExpectError: testAccErrRe(`Invalid Attribute Combination`, `Exactly one of these attributes must be configured: \[id,name\]`),
			},
			{
				Config:      `data "service_auth_config" "x" { name = "n" }`,
				ExpectError: regexp.MustCompile(`(?s)Invalid Attribute Combination.*toolkit`),
			},
			{
				Config:      `data "service_auth_config" "x" { id = "not an id" }`,
				ExpectError: regexp.MustCompile(`(?s)Invalid Attribute Value Match.*auth config id`),
			},
			{
				Config:      `data "service_auth_config" "x" { id = "ac_doesnotexist" }`,
				ExpectError: regexp.MustCompile(`(?s)Auth config not found.*ac_doesnotexist`),
			},
			{
				Config: fmt.Sprintf(`
data "service_auth_config" "x" {
  toolkit = "github"
  name    = %q
}
`, missing),
				ExpectError: regexp.MustCompile(`(?s)Auth config not found.*` + missing),
			},
		},
	})
}
