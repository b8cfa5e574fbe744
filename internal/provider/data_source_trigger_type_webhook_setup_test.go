package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

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
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
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
