package provider

import (
	"context"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

// The service_webhook_subscription list resource in a project of its own:
// nothing before the subscription exists, then the one subscription, with
// its identity, a display name of its URL and version, and with
// include_resource the state an import's Read sets (secret_rotation null:
// the baseline is the user's). One list request per query.
func TestAccWebhookSubscriptionList_query(t *testing.T) {
	t.Parallel()
	key, c := testAccIsolatedProject(t)
	provider := listProvider(key)
	list := `list "service_webhook_subscription" "current" {
  provider         = service
  include_resource = true
  config {}
}
`
	var sub *client.WebhookSubscription
	var before int
	testAccListTest(t, []resource.TestStep{
		{Config: `data "service_toolkit_categories" "any" {}`},
		{
			Query:             true,
			Config:            provider + list,
			QueryResultChecks: []querycheck.QueryResultCheck{querycheck.ExpectLength("service_webhook_subscription.current", 0)},
		},
		{
			Config: `data "service_toolkit_categories" "any" {}`,
			Check: func(*terraform.State) error {
				var err error
				sub, err = c.CreateWebhookSubscription(context.Background(), client.CreateWebhookSubscriptionRequest{
					WebhookURL: "https://hooks.example.com/list", EnabledEvents: []string{"composio.trigger.message"}, Version: "V2"})
				before = testAccProjectRequests(t, key, routeListWebhookSubs)
				return err
			},
		},
		{
			Query:  true,
			Config: provider + list,
			QueryResultChecks: []querycheck.QueryResultCheck{
				querycheck.ExpectLength("service_webhook_subscription.current", 1),
				querycheck.ExpectIdentity("service_webhook_subscription.current", map[string]knownvalue.Check{"id": knownvalue.StringRegexp(regexp.MustCompile(`^\S+$`))}),
				querycheck.ExpectResourceDisplayName("service_webhook_subscription.current",
					queryfilter.ByDisplayName(knownvalue.StringRegexp(regexp.MustCompile(`hooks`))),
					knownvalue.StringRegexp(regexp.MustCompile(`^https://hooks\.example\.com/list · V2 \(`))),
				querycheck.ExpectResourceKnownValues("service_webhook_subscription.current",
					queryfilter.ByDisplayName(knownvalue.StringRegexp(regexp.MustCompile(`hooks`))),
					[]querycheck.KnownValueCheck{
						{Path: tfjsonpath.New("webhook_url"), KnownValue: knownvalue.StringExact("https://hooks.example.com/list")},
						{Path: tfjsonpath.New("version"), KnownValue: knownvalue.StringExact("V2")},
						{Path: tfjsonpath.New("enabled_events"), KnownValue: knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("composio.trigger.message")})},
						{Path: tfjsonpath.New("secret_rotation"), KnownValue: knownvalue.Null()},
						{Path: tfjsonpath.New("created_at"), KnownValue: testAccTimestamp},
					}),
			},
		},
	})
	if sub == nil {
		t.Fatal("the subscription was not created")
	}
	if got := testAccProjectRequests(t, key, routeListWebhookSubs) - before; got != 1 {
		t.Errorf("the query made %d list requests, want 1", got)
	}
}
