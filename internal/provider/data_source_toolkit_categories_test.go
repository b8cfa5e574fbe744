package provider

import (
	"errors"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

func TestAccToolkitCategoriesDataSource_basic(t *testing.T) {
	t.Parallel()
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps: []resource.TestStep{{
			Config: `data "service_toolkit_categories" "all" {}`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.service_toolkit_categories.all",
					tfjsonpath.New("categories").AtSliceIndex(0).AtMapKey("slug"), knownvalue.NotNull()),
			},
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttrWith("data.service_toolkit_categories.all", "categories.#", func(v string) error {
					if v == "0" {
						return errNoCategories
					}
					return nil
				}),
				resource.TestCheckTypeSetElemNestedAttrs("data.service_toolkit_categories.all", "categories.*",
					map[string]string{"slug": "developer-tools"}),
			),
		}},
	})
}

var errNoCategories = errors.New("no categories returned")
