package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

// The data source in a project of its own: every endpoint, oldest first,
// and those of one toolkit (matched without regard to case); an invalid
// toolkit filter fails at validate. One list request per read.
func TestAccWebhookEndpointsDataSource_basic(t *testing.T) {
	t.Parallel()
	key, c := testAccIsolatedProject(t)
	a := adoptedEndpoint(t, c, "slack", "app-a", nil)
	b := adoptedEndpoint(t, c, "discord", "app-b", map[string]string{"public_key": "pk"})
	d := adoptedEndpoint(t, c, "slack", "app-d", nil)
	item := func(we *client.WebhookEndpoint, toolkit, clientID string) knownvalue.Check {
		return knownvalue.ObjectExact(map[string]knownvalue.Check{
			"id": knownvalue.StringExact(we.ID), "toolkit": knownvalue.StringExact(toolkit), "client_id": knownvalue.StringExact(clientID),
		})
	}
	var before int
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps: []resource.TestStep{
			{
				Config:      `data "service_webhook_endpoints" "x" { toolkit = "not a slug" }`,
				ExpectError: regexp.MustCompile(`(?s)Invalid toolkit slug.*Attribute toolkit: "not a slug"`),
			},
			{
				PreConfig: func() { before = testAccProjectRequests(t, key, routeListWebhookEndpoints) },
				Config: listProvider(key) + `
data "service_webhook_endpoints" "all" {}

data "service_webhook_endpoints" "slack" {
  toolkit = "Slack"
}

data "service_webhook_endpoints" "notion" {
  toolkit = "notion"
}
`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.service_webhook_endpoints.all", tfjsonpath.New("ids"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.StringExact(a.ID), knownvalue.StringExact(b.ID), knownvalue.StringExact(d.ID),
					})),
					statecheck.ExpectKnownValue("data.service_webhook_endpoints.all", tfjsonpath.New("endpoints"), knownvalue.ListExact([]knownvalue.Check{
						item(a, "slack", "app-a"), item(b, "discord", "app-b"), item(d, "slack", "app-d"),
					})),
					statecheck.ExpectKnownValue("data.service_webhook_endpoints.slack", tfjsonpath.New("endpoints"), knownvalue.ListExact([]knownvalue.Check{
						item(a, "slack", "app-a"), item(d, "slack", "app-d"),
					})),
					statecheck.ExpectKnownValue("data.service_webhook_endpoints.notion", tfjsonpath.New("ids"), knownvalue.ListSizeExact(0)),
				},
				Check: func(*terraform.State) error {
					// Three data sources, read at plan and at apply at most: one request each per read.
					if got := testAccProjectRequests(t, key, routeListWebhookEndpoints) - before; got > 6 || got < 3 {
						t.Errorf("%d list requests for 3 data sources", got)
					}
					return nil
				},
			},
		},
	})
}
