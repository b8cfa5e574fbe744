package provider

import (
	"fmt"
	"regexp"
	"strconv"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

func TestAccTriggerTypesDataSource_basic(t *testing.T) {
	t.Parallel()
	github := "data.service_trigger_types.github"
	all := "data.service_trigger_types.all"
	pinned := "data.service_trigger_types.two"
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps: []resource.TestStep{{
			Config: `
provider "service" {
  toolkit_versions = { slack = "20250901_00" }
}

data "service_trigger_types" "github" {
  toolkits = ["github"]
}

data "service_trigger_types" "two" {
  toolkits = ["github", "slack"]
}

data "service_trigger_types" "all" {}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(github, tfjsonpath.New("slugs"), knownvalue.SetExact([]knownvalue.Check{
					knownvalue.StringExact("GITHUB_COMMIT_EVENT"),
					knownvalue.StringExact("GITHUB_STAR_ADDED_EVENT"),
					knownvalue.StringExact("GITHUB_PULL_REQUEST_EVENT"),
				})),
				statecheck.ExpectKnownValue(github, tfjsonpath.New("trigger_types").AtSliceIndex(0).AtMapKey("toolkit"), knownvalue.StringExact("github")),
				statecheck.ExpectKnownValue(github, tfjsonpath.New("trigger_types").AtSliceIndex(0).AtMapKey("version"), knownvalue.StringExact("20251015_00")),
				statecheck.ExpectKnownValue(github, tfjsonpath.New("trigger_types").AtSliceIndex(0).AtMapKey("input_schema"), knownvalue.NotNull()),
				statecheck.ExpectKnownValue(pinned, tfjsonpath.New("slugs"), knownvalue.SetPartial([]knownvalue.Check{
					knownvalue.StringExact("GITHUB_COMMIT_EVENT"), knownvalue.StringExact("SLACK_RECEIVE_MESSAGE"),
				})),
			},
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckTypeSetElemNestedAttrs(pinned, "trigger_types.*", map[string]string{
					"slug": "SLACK_RECEIVE_MESSAGE", "toolkit": "slack", "version": "20250901_00",
				}),
				resource.TestCheckTypeSetElemNestedAttrs(pinned, "trigger_types.*", map[string]string{
					"slug": "GITHUB_COMMIT_EVENT", "version": "20251015_00",
				}),
				resource.TestCheckTypeSetElemNestedAttrs(all, "trigger_types.*", map[string]string{
					"slug": "STRIPE_CHARGE_SUCCEEDED_TRIGGER", "toolkit": "stripe",
				}),
				resource.TestCheckResourceAttrWith(all, "slugs.#", func(v string) error {
					if n, err := strconv.Atoi(v); err != nil || n < 10 {
						return fmt.Errorf("want the trigger types of every toolkit, got %s", v)
					}
					return nil
				}),
			),
		}},
	})
}

func TestAccTriggerTypesDataSource_errors(t *testing.T) {
	t.Parallel()
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps: []resource.TestStep{
			{
				Config:      `data "service_trigger_types" "x" { toolkits = ["no_such_toolkit"] }`,
				ExpectError: regexp.MustCompile(`(?s)toolkits.*no_such_toolkit`),
			},
			{
				Config:      `data "service_trigger_types" "x" { toolkits = ["git hub"] }`,
				ExpectError: regexp.MustCompile(`(?s)toolkits.*not\s+a\s+toolkit\s+slug`),
			},
		},
	})
}
