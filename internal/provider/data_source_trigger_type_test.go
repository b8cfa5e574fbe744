package provider

import (
	"encoding/json"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// testAccCheckSchemaProperty checks whether a JSON Schema attribute lists a
// property.
func testAccCheckSchemaProperty(name, attr, property string, want bool) resource.TestCheckFunc {
	return resource.TestCheckResourceAttrWith(name, attr, func(v string) error {
		var s struct {
			Properties map[string]any `json:"properties"`
		}
		if err := json.Unmarshal([]byte(v), &s); err != nil {
			return fmt.Errorf("%s is not JSON: %w", attr, err)
		}
		if _, has := s.Properties[property]; has != want {
			return fmt.Errorf("%s: property %q present = %t, want %t", attr, property, has, want)
		}
		return nil
	})
}

func TestAccTriggerTypeDataSource_latest(t *testing.T) {
	t.Parallel()
	name := "data.service_trigger_type.commit"
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps: []resource.TestStep{{
			Config: `
data "service_trigger_type" "commit" {
  slug = "GITHUB_COMMIT_EVENT"
}

output "required" {
  value = jsondecode(data.service_trigger_type.commit.input_schema).required
}

output "payload_required" {
  value = jsondecode(data.service_trigger_type.commit.payload_schema).required
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(name, tfjsonpath.New("name"), knownvalue.StringExact("Commit Event")),
				statecheck.ExpectKnownValue(name, tfjsonpath.New("description"),
					knownvalue.StringExact("Triggered when a new commit is pushed to a repository.")),
				statecheck.ExpectKnownValue(name, tfjsonpath.New("instructions"), knownvalue.StringExact(
					"Give the repository owner and name. From toolkit version 20251015_00 you may restrict events to one branch.")),
				statecheck.ExpectKnownValue(name, tfjsonpath.New("type"), knownvalue.StringExact("webhook")),
				statecheck.ExpectKnownValue(name, tfjsonpath.New("toolkit"), knownvalue.StringExact("github")),
				statecheck.ExpectKnownValue(name, tfjsonpath.New("version"), knownvalue.StringExact("20251015_00")),
				statecheck.ExpectKnownValue(name, tfjsonpath.New("payload_schema"), knownvalue.NotNull()),
				statecheck.ExpectKnownOutputValue("payload_required", knownvalue.ListExact([]knownvalue.Check{
					knownvalue.StringExact("id"), knownvalue.StringExact("message"),
				})),
				statecheck.ExpectKnownOutputValue("required", knownvalue.ListExact([]knownvalue.Check{
					knownvalue.StringExact("owner"), knownvalue.StringExact("repo"),
				})),
			},
			Check: resource.ComposeAggregateTestCheckFunc(
				testAccCheckSchemaProperty(name, "input_schema", "branch", true),
				testAccCheckSchemaProperty(name, "payload_schema", "message", true),
			),
		}},
	})
}

// TestAccTriggerTypeDataSource_pinned reads the type at the provider's
// pinned toolkit version: the older schema has no branch.
func TestAccTriggerTypeDataSource_pinned(t *testing.T) {
	t.Parallel()
	name := "data.service_trigger_type.commit"
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps: []resource.TestStep{{
			Config: `
provider "service" {
  toolkit_versions = { github = "20250901_00" }
}

data "service_trigger_type" "commit" {
  slug = "GITHUB_COMMIT_EVENT"
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(name, tfjsonpath.New("version"), knownvalue.StringExact("20250901_00")),
			},
			Check: testAccCheckSchemaProperty(name, "input_schema", "branch", false),
		}},
	})
}

func TestAccTriggerTypeDataSource_errors(t *testing.T) {
	t.Parallel()
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps: []resource.TestStep{
			{
				Config:      `data "service_trigger_type" "x" { slug = "GITHUB_NO_SUCH_EVENT" }`,
				ExpectError: regexp.MustCompile(`(?s)Unknown\s+trigger\s+type.*slug.*GITHUB_NO_SUCH_EVENT`),
			},
			{
				Config:      `data "service_trigger_type" "x" { slug = "github-commit" }`,
				ExpectError: regexp.MustCompile(`(?s)slug.*upper\s+snake\s+case`),
			},
		},
	})
}

// requires_webhook_endpoint_setup on service_trigger_type and
// service_trigger_types: true for the webhook trigger types of a toolkit
// with webhook endpoint setup fields (Slack, Notion's webhook type), false
// for a poll type of the same toolkit and for toolkits without (GitHub).
func TestAccTriggerTypeDataSource_requiresWebhookEndpointSetup(t *testing.T) {
	t.Parallel()
	requires := func(addr string, want bool) statecheck.StateCheck {
		return statecheck.ExpectKnownValue(addr, tfjsonpath.New("requires_webhook_endpoint_setup"), knownvalue.Bool(want))
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps: []resource.TestStep{{
			Config: `
data "service_trigger_type" "slack" {
  slug = "SLACK_RECEIVE_MESSAGE"
}

data "service_trigger_type" "github" {
  slug = "GITHUB_COMMIT_EVENT"
}

data "service_trigger_types" "notion" {
  toolkits = ["notion"]
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				requires("data.service_trigger_type.slack", true),
				requires("data.service_trigger_type.github", false),
			},
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckTypeSetElemNestedAttrs("data.service_trigger_types.notion", "trigger_types.*", map[string]string{
					"slug": "NOTION_PAGE_UPDATED", "type": "webhook", "requires_webhook_endpoint_setup": "true",
				}),
				resource.TestCheckTypeSetElemNestedAttrs("data.service_trigger_types.notion", "trigger_types.*", map[string]string{
					"slug": "NOTION_PAGE_ADDED_TO_DATABASE", "type": "poll", "requires_webhook_endpoint_setup": "false",
				}),
			),
		}},
	})
}
