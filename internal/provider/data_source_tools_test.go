package provider

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

func TestAccToolsDataSource(t *testing.T) {
	t.Parallel()
	testAccPreCheck(t)
	t1, _ := testAccToolSlugs(t, "github")
	slug := testAccCustomSlug()
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps: []resource.TestStep{
			{
				Config: fmt.Sprintf(`
data "service_tools" "github" {
  toolkit = "github"
}

data "service_tools" "old" {
  toolkit = "github"
  version = "20250901_00"
}

data "service_toolkit" "github" {
  slug = "github"
}

resource "service_custom_toolkit" "test" {
  slug        = %q
  name        = "Listed"
  mcp_url     = "https://mcp.example.com/mcp"
  auth_scheme = { mode = "NO_AUTH" }
}

data "service_toolkits" "custom" {
  type       = "custom"
  depends_on = [service_custom_toolkit.test]
}

data "service_toolkit" "custom" {
  slug = service_custom_toolkit.test.id
}
`, slug),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.service_tools.github", tfjsonpath.New("slugs").AtSliceIndex(0), knownvalue.StringExact(t1)),
					statecheck.ExpectKnownValue("data.service_tools.github", tfjsonpath.New("version"), knownvalue.StringExact("latest")),
					statecheck.ExpectKnownValue("data.service_tools.old", tfjsonpath.New("version"), knownvalue.StringExact("20250901_00")),
					statecheck.ExpectKnownValue("data.service_tools.github", tfjsonpath.New("tools").AtSliceIndex(0).AtMapKey("slug"), knownvalue.StringExact(t1)),
					statecheck.ExpectKnownValue("data.service_toolkit.github", tfjsonpath.New("type"), knownvalue.StringExact("native")),
					statecheck.ExpectKnownValue("data.service_toolkit.custom", tfjsonpath.New("type"), knownvalue.StringExact("custom")),
					statecheck.ExpectKnownValue("data.service_toolkit.custom", tfjsonpath.New("app_url"), knownvalue.StringExact("https://mcp.example.com/mcp")),
					statecheck.ExpectKnownValue("data.service_toolkits.custom", tfjsonpath.New("slugs"),
						knownvalue.ListPartial(map[int]knownvalue.Check{0: knownvalue.StringRegexp(testAccCustomSlugRe)})),
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttrWith("data.service_tools.github", "tools.0.input_schema", func(v string) error {
						var s map[string]any
						if err := json.Unmarshal([]byte(v), &s); err != nil {
							return fmt.Errorf("input_schema is not JSON: %w", err)
						}
						if s["type"] != "object" || s["properties"] == nil {
							return fmt.Errorf("input_schema %s: want an object schema with properties", v)
						}
						return nil
					}),
					resource.TestCheckResourceAttrWith("data.service_toolkits.custom", "toolkits.#", func(v string) error {
						if v == "0" {
							return fmt.Errorf("no custom toolkit listed")
						}
						return nil
					}),
				),
			},
			{
				Config: `
data "service_tools" "bad" {
  toolkit = "no_such_toolkit"
}`,
				ExpectError: testAccErrRe("toolkit", "no_such_toolkit"),
			},
		},
	})
}
