package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// TestAccPlanChecks_consistent: each bad input of the plan-time check rules
// fails at validate or plan, names the attribute (or the provider setting),
// and the service receives no write. Not parallel: it compares the
// emulator's process-wide write counter.
func TestAccPlanChecks_consistent(t *testing.T) {
	testAccRequireEmulator(t)
	user := acctest.RandomWithPrefix("tf-acc-planchk")
	acID, accountID := testAccTriggerAccount(t, "stripe", user)
	trigger := func(userID, account string, extra ...string) string {
		more := ""
		for _, e := range extra {
			more += "\n  " + e
		}
		return fmt.Sprintf(`
resource "service_trigger_instance" "test" {
  user_id              = %q
  slug                 = "STRIPE_CHARGE_SUCCEEDED_TRIGGER"
  connected_account_id = %q%s
}
`, userID, account, more)
	}
	account := func(userID string, extra ...string) string {
		return testAccCAAccount(userID, fmt.Sprintf("%q", acID), append([]string{`credentials_wo = { api_key = "sk_x" }`, "credentials_wo_version = 1"}, extra...)...)
	}
	versionPinned := func(block string) string {
		return fmt.Sprintf("provider \"service\" {\n  %s\n}\n", block) + trigger(user, accountID)
	}
	before := testAccEmulatorWrites(t)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps: []resource.TestStep{
			// One user_id rule everywhere: blank, padded, too long.
			{Config: account("   "), ExpectError: testAccErrRe(`Invalid user id`, `Attribute user_id`, `is blank`)},
			{Config: trigger("   ", accountID), ExpectError: testAccErrRe(`Invalid user id`, `Attribute user_id`, `is blank`)},
			{Config: trigger(" "+user, accountID), ExpectError: testAccErrRe(`Attribute user_id`, `white space around it`)},
			{Config: account(fmt.Sprintf("%0256d", 0)), ExpectError: testAccErrRe(`Attribute user_id`, `256 characters long, at most 255`)},
			{
				Config:      `data "service_connected_accounts" "x" { user_ids = ["\t"] }`,
				ExpectError: testAccErrRe(`Attribute user_ids\[0\]`, `is blank`),
			},
			{
				Config:      `data "service_trigger_instances" "x" { user_ids = [" "] }`,
				ExpectError: testAccErrRe(`Attribute user_ids\[0\]`, `is blank`),
			},
			// connected_account_id: kind at validate, existence at plan.
			{
				Config:      trigger(user, acID),
				ExpectError: testAccErrRe(`Attribute connected_account_id`, `is the id of an auth config, not of a connected account`),
			},
			{
				Config:      trigger(user, "ca_doesnotexist1"),
				PlanOnly:    true,
				ExpectError: testAccErrRe(`Connected account not found`, `Attribute connected_account_id`, `ca_doesnotexist1`),
			},
			{
				Config:      trigger(user+"-other", accountID),
				PlanOnly:    true,
				ExpectError: testAccErrRe(`Attribute connected_account_id`, `belongs to user`),
			},
			// timeouts values name the attribute.
			{
				Config:      account(user+"-t", `timeouts = { create = "soon" }`),
				ExpectError: testAccErrRe(`Invalid duration`, `Attribute timeouts.create`, `"soon" is not a duration`),
			},
			// A well-formed toolkit version that does not exist names the setting
			// and lists the versions that exist.
			{
				Config:      versionPinned(`toolkit_version = "20240101_00"`),
				PlanOnly:    true,
				ExpectError: testAccErrRe(`Toolkit version not found`, `"stripe" has no version 20240101_00`, `toolkit_version in the provider block`, `Versions that exist:`, `latest`),
			},
			{
				Config:      versionPinned(`toolkit_versions = { stripe = "20240101_00" }`),
				PlanOnly:    true,
				ExpectError: testAccErrRe(`Toolkit version not found`, `toolkit_versions\["stripe"\]`, `Versions that exist:`),
			},
		},
	})
	testAccAssertNoWritesSince(t, before)
}

// TestAccPlanChecks_toolkitVersionFromEnvironment: the error names the
// SERVICE_TOOLKIT_VERSION_<NAME> variable that set the missing version.
func TestAccPlanChecks_toolkitVersionFromEnvironment(t *testing.T) {
	testAccRequireEmulator(t)
	t.Setenv(EnvToolkitVersionPrefix+"STRIPE", "20240101_00")
	before := testAccEmulatorWrites(t)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps: []resource.TestStep{{
			Config: `
resource "service_auth_config" "x" {
  toolkit     = "stripe"
  type        = "use_custom_auth"
  auth_scheme = "API_KEY"
}
`,
			PlanOnly:    true,
			ExpectError: testAccErrRe(`Toolkit version not found`, `SERVICE_TOOLKIT_VERSION_STRIPE environment variable`, `Versions that exist:`),
		}},
	})
	testAccAssertNoWritesSince(t, before)
}
