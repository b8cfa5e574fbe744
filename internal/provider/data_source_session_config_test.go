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

// testAccSeedSessionConfig stores a session config through the emulator's
// control route (the service writes them only in its dashboard).
func testAccSeedSessionConfig(t *testing.T, body map[string]any) string {
	t.Helper()
	var out struct {
		ID string `json:"id"`
	}
	testAccEmulatorDo(t, "POST", "/_emulator/session_configs", body, &out)
	return out.ID
}

// TestAccSessionConfigDataSource_read reads a seeded config's policy; an
// unknown id and a project without the feature (403) are errors saying so.
func TestAccSessionConfigDataSource_read(t *testing.T) {
	testAccRequireEmulator(t)
	testAccSessionConfigsFeature(t, true)
	name := acctest.RandomWithPrefix("tfacc-sc")
	id := testAccSeedSessionConfig(t, map[string]any{"name": name, "description": "Support agents", "config": map[string]any{
		"toolkits": map[string]any{"enable": []string{"github", "slack"}},
		"tags":     map[string]any{"enable": []string{"readOnlyHint"}, "disable": []string{"destructiveHint"}},
		"tools":    map[string]any{"github": map[string]any{"disable": []string{"GITHUB_DELETE_A_REPOSITORY"}}},
	}})
	cfg := func(id string) string {
		return fmt.Sprintf("data \"service_session_config\" \"test\" {\n  id = %q\n}\n", id)
	}
	const ds = "data.service_session_config.test"
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps: []resource.TestStep{
			{
				Config: cfg(id),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("name"), knownvalue.StringExact(name)),
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("description"), knownvalue.StringExact("Support agents")),
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("archived"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("toolkits"), testAccStrings("github", "slack")),
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("disabled_toolkits"), knownvalue.Null()),
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("tags"), testAccStrings("readOnlyHint")),
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("disabled_tags"), testAccStrings("destructiveHint")),
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("tools").AtMapKey("github").AtMapKey("disabled"), testAccStrings("GITHUB_DELETE_A_REPOSITORY")),
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("created_at"), testAccTimestamp),
				},
			},
			{Config: cfg("sc_missing000000"), ExpectError: testAccErrRe(`no session config "sc_missing000000"`)},
			{
				PreConfig:   func() { testAccSessionConfigsFeature(t, false) },
				Config:      cfg(id),
				ExpectError: testAccErrRe(`Session configs not enabled`, `experimental feature`, `enable Session configs for the project`, `403`),
			},
		},
	})
}
