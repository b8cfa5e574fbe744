package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"
)

// TestAccE2E_credentialsWriteOnlyNeverPersisted proves that values given in
// credentials_wo reach the service but never the state file, the saved plan
// (every entry of the plan zip, and `terraform show -json`), terraform's
// output or the TF_LOG=trace log (which includes the provider's own logs).
//
// It covers a custom OAUTH2 auth config (client_secret) and a custom API_KEY
// auth config with a connected account whose api_key is write-only.
// Not parallel: it runs terraform several times and is heavy for CI machines.
func TestAccE2E_credentialsWriteOnlyNeverPersisted(t *testing.T) {
	w := newE2EWorkspace(t)
	rnd := acctest.RandString(16)
	clientID := "e2e-client-" + rnd
	clientSecret := "e2e-oauth-secret-" + rnd + "-Zq9"
	apiKey := "e2e-api-key-" + rnd + "-Kx7"
	secrets := []string{clientSecret, apiKey}
	user := "e2e-user-" + rnd

	// Secrets come in through ephemeral variables (Terraform 1.10+), as they
	// should with write-only arguments: a literal in main.tf would be copied
	// into the saved plan's configuration snapshot, and a non-ephemeral
	// variable's value is saved in the plan.
	secretEnv := []string{"TF_VAR_client_secret=" + clientSecret, "TF_VAR_api_key=" + apiKey}
	w.WriteFile("main.tf", fmt.Sprintf(`
variable "client_secret" {
  type      = string
  sensitive = true
  ephemeral = true
}

variable "api_key" {
  type      = string
  sensitive = true
  ephemeral = true
}

resource "service_auth_config" "oauth" {
  toolkit     = "github"
  type        = "use_custom_auth"
  auth_scheme = "OAUTH2"
  name        = "e2e-oauth-%[1]s"
  credentials_wo = {
    client_id     = %[2]q
    client_secret = var.client_secret
  }
  credentials_wo_version = 1
}

resource "service_auth_config" "stripe" {
  toolkit     = "stripe"
  type        = "use_custom_auth"
  auth_scheme = "API_KEY"
  name        = "e2e-stripe-%[1]s"
}

resource "service_connected_account" "stripe" {
  user_id        = %[3]q
  auth_config_id = service_auth_config.stripe.id
  credentials_wo = {
    api_key = var.api_key
  }
  credentials_wo_version = 1
}

output "oauth_id" {
  value = service_auth_config.oauth.id
}

output "account_id" {
  value = service_connected_account.stripe.id
}
`, rnd, clientID, user))
	t.Cleanup(func() { w.Run(secretEnv, "destroy", "-auto-approve", "-no-color") })

	planLog, applyLog := w.Path("plan-trace.log"), w.Path("apply-trace.log")
	plan := w.RunEnvOK(append([]string{"TF_LOG=trace", "TF_LOG_PATH=" + planLog}, secretEnv...), "plan", "-out=tfplan", "-no-color")
	apply := w.RunEnvOK(append([]string{"TF_LOG=trace", "TF_LOG_PATH=" + applyLog}, secretEnv...), "apply", "-no-color", "tfplan")
	show := w.RunOK("show", "-json", "tfplan")
	state := w.ReadFile("terraform.tfstate")

	// The secrets reached the service.
	var outputs map[string]struct {
		Value string `json:"value"`
	}
	if err := json.Unmarshal([]byte(w.RunOK("output", "-json").Stdout), &outputs); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	c := testAccClient(t)
	ac, err := c.GetAuthConfig(ctx, outputs["oauth_id"].Value)
	if err != nil {
		t.Fatal(err)
	}
	if ac.Credentials["client_id"] != clientID || ac.Credentials["client_secret"] != "********" {
		t.Fatalf("the OAuth credentials did not reach the service: %v", ac.Credentials)
	}
	acct, err := c.GetConnectedAccount(ctx, outputs["account_id"].Value)
	if err != nil {
		t.Fatal(err)
	}
	// An API_KEY account is only ACTIVE when its api_key was sent.
	if acct.Status != "ACTIVE" {
		t.Fatalf("connected account status = %s, want ACTIVE (api_key sent)", acct.Status)
	}
	if !strings.Contains(string(state), clientID) && !strings.Contains(string(state), outputs["oauth_id"].Value) {
		t.Fatal("state file does not look like this run's state")
	}

	// The logs really are trace logs with the provider's output in them, so
	// that scanning them means something.
	for _, p := range []string{planLog, applyLog} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), "[TRACE]") || !strings.Contains(string(b), "tf_rpc=ApplyResourceChange") && p == applyLog {
			t.Fatalf("%s is not a trace log of the apply (%d bytes)", p, len(b))
		}
	}

	haystacks := map[string][]byte{
		"terraform.tfstate":         state,
		"terraform show -json":      []byte(show.Stdout),
		"plan output":               []byte(plan.Stdout + plan.Stderr),
		"apply output":              []byte(apply.Stdout + apply.Stderr),
		"plan TF_LOG=trace output":  mustRead(t, planLog),
		"apply TF_LOG=trace output": mustRead(t, applyLog),
	}
	for name, b := range w.PlanEntries("tfplan") {
		haystacks["tfplan:"+name] = b
	}
	for where, b := range haystacks {
		for _, s := range secrets {
			if strings.Contains(string(b), s) {
				t.Errorf("a credentials_wo value appears in %s", where)
			}
		}
	}
	// Sanity check of the scan itself: a non-secret configured value is found.
	if !strings.Contains(string(haystacks["tfplan:tfplan"]), "e2e-oauth-"+rnd) {
		t.Error("the plan entry does not contain the auth config name: the scan would not find anything")
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
