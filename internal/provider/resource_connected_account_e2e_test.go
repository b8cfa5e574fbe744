package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"
)

// TestAccE2E_accountMissingFieldOnNewAuthConfig: an account on a new custom
// API_KEY auth config for okta, whose accounts need api_key and subdomain.
// The credentials cannot be checked at plan (the auth config, hence its
// toolkit and scheme, does not exist yet); the final plan during apply checks
// them once the auth config exists and stops before the account is written,
// naming the missing field; `terraform destroy` then succeeds.
func TestAccE2E_accountMissingFieldOnNewAuthConfig(t *testing.T) {
	t.Parallel()
	name := acctest.RandomWithPrefix("tf-acc-okta")
	e2eApplyStopsThenDestroys(t, fmt.Sprintf(`
resource "service_auth_config" "okta" {
  toolkit     = "okta"
  type        = "use_custom_auth"
  auth_scheme = "API_KEY"
  name        = %[1]q
}

resource "service_connected_account" "okta" {
  user_id                = "%[1]s-user"
  auth_config_id         = service_auth_config.okta.id
  credentials_wo         = { api_key = "00abc" }
  credentials_wo_version = 1
}
`, name), []string{"service_auth_config.okta"},
		"Missing required credential fields", `"subdomain"`, `toolkit "okta", scheme API_KEY`)
}
