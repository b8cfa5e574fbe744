package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

func TestIsDestroyCommand(t *testing.T) {
	t.Parallel()
	for argv, want := range map[string]bool{
		"terraform destroy -auto-approve":                     true,
		"/usr/local/bin/terraform -chdir=infra destroy":       true,
		"terraform apply -destroy -auto-approve":              true,
		"terraform plan -destroy -out=tfplan":                 true,
		"tofu destroy":                                        true,
		"terraform apply -auto-approve":                       false,
		"terraform plan -refresh=false":                       false,
		"terraform apply tfplan":                              false,
		"terraform":                                           false,
		"/tmp/go-build/provider.test -test.run destroy":       false,
		"terraform-provider-service destroy":                  true,
		"terraform apply -var=destroy=true -target=x":         false,
		"terraform -chdir=destroy apply":                      false,
		"C:\\bin\\terraform.exe apply -destroy -auto-approve": true,
	} {
		if got := isDestroyCommand(strings.Fields(argv)); got != want {
			t.Errorf("isDestroyCommand(%q) = %v, want %v", argv, got, want)
		}
	}
}

// TestAccDestroy_afterPartialApplyWithPlanError: an apply stops half-way on
// provider-side plan checks that only run once the auth config and the
// account exist (credentials for the wrong scheme, a trigger whose user does
// not own the account); `terraform destroy` still succeeds, without
// -refresh=false, and leaves nothing on the service.
func TestAccDestroy_afterPartialApplyWithPlanError(t *testing.T) {
	t.Parallel()
	w := newE2EWorkspace(t)
	prefix := acctest.RandomWithPrefix("tf-acc-partial")
	w.WriteFile("main.tf", fmt.Sprintf(`
resource "service_auth_config" "ac" {
  toolkit     = "stripe"
  type        = "use_custom_auth"
  auth_scheme = "API_KEY"
  name        = "%[1]s"
}

resource "service_connected_account" "ok" {
  user_id        = "%[1]s-owner"
  auth_config_id = service_auth_config.ac.id
  credentials_wo = {
    api_key = "sk_test_partial"
  }
  credentials_wo_version = 1
}

# Wrong fields for the API_KEY scheme: known only once the auth config exists.
resource "service_connected_account" "bad_credentials" {
  user_id        = "%[1]s-other"
  auth_config_id = service_auth_config.ac.id
  credentials_wo = {
    access_token = "not-an-api-key"
  }
  credentials_wo_version = 1
}

# The account belongs to another user: known only once the account exists.
resource "service_trigger_instance" "wrong_owner" {
  user_id              = "%[1]s-someone-else"
  slug                 = "STRIPE_CHARGE_SUCCEEDED_TRIGGER"
  connected_account_id = service_connected_account.ok.id
}
`, prefix))
	res := w.Run(nil, "apply", "-auto-approve", "-no-color", "-input=false")
	if res.ExitCode == 0 {
		t.Fatalf("apply succeeded; the test needs the plan-time errors:\n%s", res.Stdout)
	}
	for _, want := range []string{"access_token", "belongs to user"} {
		if !strings.Contains(strings.Join(strings.Fields(res.Stdout+res.Stderr), " "), want) {
			t.Errorf("apply output lacks %q:\n%s%s", want, res.Stdout, res.Stderr)
		}
	}
	state := string(w.ReadFile("terraform.tfstate"))
	if !strings.Contains(state, `"service_auth_config"`) || !strings.Contains(state, `"service_connected_account"`) {
		t.Fatalf("the apply was expected to create the auth config and the good account first; state:\n%s", state)
	}
	w.RunOK("destroy", "-auto-approve", "-no-color", "-input=false")
	c := testAccClient(t)
	acs, err := c.ListAuthConfigs(t.Context(), client.AuthConfigListParams{Search: prefix, ShowDisabled: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, ac := range acs {
		if ac.Name == prefix {
			t.Errorf("auth config %s left on the service after destroy", ac.ID)
		}
	}
}
