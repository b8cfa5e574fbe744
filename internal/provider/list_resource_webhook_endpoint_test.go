package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
)

// The list resource in a project of its own: every endpoint, or one
// toolkit's, with the identity, a display name (toolkit · client_id) and,
// with include_resource, the state an import reads (one GET per result).
func TestAccWebhookEndpointList_query(t *testing.T) {
	t.Parallel()
	key, c := testAccIsolatedProject(t)
	a := adoptedEndpoint(t, c, "slack", "list-a", map[string]string{"signing_secret": "s", "app_id": "A"})
	b := adoptedEndpoint(t, c, "discord", "list-b", nil)
	imported := importCapture{}
	counter := &requestCounter{t: t, key: key, routes: []string{routeListWebhookEndpoints, routeGetWebhookEndpoint}}
	steps := imported.steps(key, webhookEndpointType, "  toolkit = \"slack\"\n  client_id = \"list-a\"\n", a.ID)
	steps = append(steps,
		resource.TestStep{
			PreConfig: counter.start,
			Query:     true,
			Config: listBlock(webhookEndpointType, "all", "", "") +
				listBlock(webhookEndpointType, "slack", "    toolkit = \"slack\"\n", "  include_resource = true\n"),
			QueryResultChecks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("service_webhook_endpoint.all", 2),
				querycheck.ExpectIdentity("service_webhook_endpoint.all", listIDCheck(a.ID)),
				querycheck.ExpectIdentity("service_webhook_endpoint.all", listIDCheck(b.ID)),
				querycheck.ExpectResourceDisplayName("service_webhook_endpoint.all", listByID(b.ID),
					knownvalue.StringRegexp(regexp.MustCompile(`^discord · list-b \(`+listShortID(b.ID)+`\)$`))),
				querycheck.ExpectLength("service_webhook_endpoint.slack", 1),
				querycheck.ExpectResourceKnownValues("service_webhook_endpoint.slack", listByID(a.ID), []querycheck.KnownValueCheck{
					listValue("webhook_url", knownvalue.StringRegexp(regexp.MustCompile(`/webhook_ingress/`+a.ID+`$`))),
					listValue("data_keys", knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("app_id"), knownvalue.StringExact("signing_secret")})),
				}),
				imported.matches("service_webhook_endpoint.slack", 1),
			},
		},
		resource.TestStep{
			PreConfig: func() {
				counter.expect(routeListWebhookEndpoints, 2, "list requests (one per list block)")
				counter.expect(routeGetWebhookEndpoint, 1, "reads (one per include_resource result)")
			},
			Config: listProvider(key) + `data "service_toolkit_categories" "any" {}`,
		},
	)
	testAccListTest(t, steps)
}
