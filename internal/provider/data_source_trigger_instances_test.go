package provider

import (
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/provider/importid"
)

func TestAccTriggerInstancesDataSource_filters(t *testing.T) {
	t.Parallel()
	testAccPreCheck(t)
	ctx := context.Background()
	c := testAccClient(t)
	user := acctest.RandomWithPrefix("tf-acc-trig-ds")
	authConfigID, accountID := testAccTriggerAccount(t, "stripe", user)

	enabledID, err := c.UpsertTrigger(ctx, "STRIPE_CHARGE_SUCCEEDED_TRIGGER", client.UpsertTriggerRequest{
		ConnectedAccountID: accountID, TriggerConfig: map[string]any{"min_amount": 100},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.DeleteTrigger(context.Background(), enabledID) })
	disabledID, err := c.UpsertTrigger(ctx, "STRIPE_CHARGE_SUCCEEDED_TRIGGER", client.UpsertTriggerRequest{
		ConnectedAccountID: accountID, TriggerConfig: map[string]any{"min_amount": 200},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.DeleteTrigger(context.Background(), disabledID) })
	if err := c.DisableTrigger(ctx, disabledID); err != nil {
		t.Fatal(err)
	}

	active := "data.service_trigger_instances.active"
	all := "data.service_trigger_instances.all"
	byID := "data.service_trigger_instances.by_id"
	none := "data.service_trigger_instances.none"
	config := fmt.Sprintf(`
data "service_trigger_instances" "active" {
  user_ids = [%[1]q]
}

data "service_trigger_instances" "all" {
  connected_account_ids = [%[2]q]
  auth_config_ids       = [%[3]q]
  trigger_names         = ["STRIPE_CHARGE_SUCCEEDED_TRIGGER"]
  show_disabled         = true
}

data "service_trigger_instances" "by_id" {
  trigger_ids   = [%[4]q]
  show_disabled = true
}

data "service_trigger_instances" "none" {
  user_ids      = [%[1]q]
  trigger_names = ["STRIPE_PAYMENT_FAILED_TRIGGER"]
}
`, user, accountID, authConfigID, disabledID)

	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(active, tfjsonpath.New("ids"), knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact(enabledID)})),
				statecheck.ExpectKnownValue(active, tfjsonpath.New("trigger_instances").AtSliceIndex(0), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"id":                   knownvalue.StringExact(enabledID),
					"uuid":                 knownvalue.StringRegexp(importid.UUIDRe),
					"slug":                 knownvalue.StringExact("STRIPE_CHARGE_SUCCEEDED_TRIGGER"),
					"connected_account_id": knownvalue.StringExact(accountID),
					"user_id":              knownvalue.StringExact(user),
					"trigger_config":       knownvalue.StringExact(`{"min_amount":100}`),
					"enabled":              knownvalue.Bool(true),
					"disabled_at":          knownvalue.Null(),
					"updated_at":           testAccTimestamp,
					"toolkit_version":      knownvalue.StringExact("20251015_00"),
				})),
				// Newest first.
				statecheck.ExpectKnownValue(all, tfjsonpath.New("ids"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.StringExact(disabledID), knownvalue.StringExact(enabledID),
				})),
				statecheck.ExpectKnownValue(all, tfjsonpath.New("trigger_instances").AtSliceIndex(0).AtMapKey("enabled"), knownvalue.Bool(false)),
				statecheck.ExpectKnownValue(all, tfjsonpath.New("trigger_instances").AtSliceIndex(0).AtMapKey("disabled_at"), testAccTimestamp),
				statecheck.ExpectKnownValue(byID, tfjsonpath.New("ids"), knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact(disabledID)})),
				statecheck.ExpectKnownValue(none, tfjsonpath.New("ids"), knownvalue.ListSizeExact(0)),
			},
		}},
	})
}

// TestAccTriggerInstancesDataSource_pages lists more instances than one page
// of the service holds.
func TestAccTriggerInstancesDataSource_pages(t *testing.T) {
	t.Parallel()
	testAccPreCheck(t)
	ctx := context.Background()
	c := testAccClient(t)
	user := acctest.RandomWithPrefix("tf-acc-trig-pages")
	_, accountID := testAccTriggerAccount(t, "stripe", user)
	const n = 55
	for i := range n {
		id, err := c.UpsertTrigger(ctx, "STRIPE_CHARGE_SUCCEEDED_TRIGGER", client.UpsertTriggerRequest{
			ConnectedAccountID: accountID, TriggerConfig: map[string]any{"min_amount": i},
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.DeleteTrigger(context.Background(), id) })
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps: []resource.TestStep{{
			Config: fmt.Sprintf(`
data "service_trigger_instances" "test" {
  user_ids = [%q]
}
`, user),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.service_trigger_instances.test", tfjsonpath.New("ids"), knownvalue.ListSizeExact(n)),
			},
		}},
	})
}
