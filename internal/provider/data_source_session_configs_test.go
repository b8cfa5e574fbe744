package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// TestAccSessionConfigsDataSource_list lists seeded configs over several
// pages (the service answers at most 100 a page), filtered by name; archived
// ones only with archived = true; a project without the feature (403) is an
// error saying so.
func TestAccSessionConfigsDataSource_list(t *testing.T) {
	testAccRequireEmulator(t)
	testAccSessionConfigsFeature(t, true)
	prefix := acctest.RandomWithPrefix("tfacc-scs")
	const n = 103
	for i := range n {
		testAccSeedSessionConfig(t, map[string]any{"name": fmt.Sprintf("%s-%03d", prefix, i)})
	}
	old := testAccSeedSessionConfig(t, map[string]any{"name": prefix + "-old", "archived": true})
	cfg := func(extra string) string {
		return fmt.Sprintf("data \"service_session_configs\" \"test\" {\n  search = %q\n%s}\n", prefix, extra)
	}
	const ds = "data.service_session_configs.test"
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps: []resource.TestStep{
			{
				Config: cfg(""),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("ids"), knownvalue.ListSizeExact(n)),
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("session_configs").AtSliceIndex(0).AtMapKey("name"),
						knownvalue.StringExact(fmt.Sprintf("%s-%03d", prefix, n-1))),
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("session_configs").AtSliceIndex(0).AtMapKey("archived"), knownvalue.Bool(false)),
				},
			},
			{
				Config: cfg("  archived = true\n"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("ids"), knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact(old)})),
				},
			},
			{
				PreConfig:   func() { testAccSessionConfigsFeature(t, false) },
				Config:      cfg(""),
				ExpectError: testAccErrRe(`Session configs not enabled`, `403`),
			},
		},
	})
}
