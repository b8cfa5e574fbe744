package provider

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/echoprovider"
	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

// testAccEchoFactories serves this provider and terraform-plugin-testing's
// echo provider, which copies its provider configuration into the state of
// an "echo" resource: what reaches another provider's configuration.
func testAccEchoFactories(t testing.TB) map[string]func() (tfprotov6.ProviderServer, error) {
	return map[string]func() (tfprotov6.ProviderServer, error){
		"service": testAccProviders(t)["service"],
		"echo":    echoprovider.NewProviderServer(),
	}
}

// absentFromArtifacts fails when secret appears anywhere in the JSON state
// or plan.
type absentFromArtifacts struct{ secret string }

// in fails when a.secret appears in v as JSON; where names v.
func (a absentFromArtifacts) in(v any, where string) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if strings.Contains(string(b), a.secret) {
		return fmt.Errorf("the connection secret is in the %s", where)
	}
	return nil
}

func (a absentFromArtifacts) CheckState(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	resp.Error = a.in(req.State, "state")
	if req.State != nil && req.State.Values != nil && req.State.Values.RootModule != nil {
		for _, r := range req.State.Values.RootModule.Resources {
			if r.Type == connectedAccountCredentialsType {
				resp.Error = fmt.Errorf("the ephemeral resource %s is in the state", r.Address)
			}
		}
	}
}

func (a absentFromArtifacts) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	resp.Error = a.in(req.Plan, "plan")
}

// testAccOAuthAccount creates an ACTIVE OAuth2 github account whose access
// token is a fresh random value.
func testAccOAuthAccount(t *testing.T, token string) string {
	t.Helper()
	ctx := context.Background()
	c := testAccClient(t)
	ac := testAccCreateAuthConfig(t, c, client.CreateAuthConfigRequest{ToolkitSlug: "github", Type: client.AuthConfigTypeManaged,
		Name: acctest.RandomWithPrefix("tf-acc-creds")})
	conn, err := c.InitiateConnectedAccount(ctx, client.InitiateConnectedAccountRequest{
		AuthConfigID: ac.ID, UserID: acctest.RandomWithPrefix("tf-acc-creds-user"),
		State: &client.ConnectionState{AuthScheme: "OAUTH2", Val: map[string]any{"access_token": token, "token_type": "bearer", "expires_in": 3600}},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.DeleteConnectedAccount(context.Background(), conn.ID) })
	return conn.ID
}

func testAccCredentialsConfig(accountID string) string {
	return testAccCredentialsEcho(accountID, `
    status      = ephemeral.service_connected_account_credentials.gh.status
    auth_scheme = ephemeral.service_connected_account_credentials.gh.auth_scheme
    toolkit     = ephemeral.service_connected_account_credentials.gh.toolkit
    expires_in  = ephemeral.service_connected_account_credentials.gh.values["expires_in"]
    token_hash  = sha256(ephemeral.service_connected_account_credentials.gh.values["access_token"])`)
}

// testAccCredentialsEcho is the ephemeral credentials of accountID and the
// echo provider's data built from them (data: its attributes).
func testAccCredentialsEcho(accountID, data string) string {
	return fmt.Sprintf(`
ephemeral "service_connected_account_credentials" "gh" {
  connected_account_id = %q
}

provider "echo" {
  data = {%s
  }
}

resource "echo" "test" {}
`, accountID, data)
}

// The connection's token reaches another provider's configuration (the echo
// provider sees its hash) and is absent from the plan and the state.
func TestAccConnectedAccountCredentials_feedsAnotherProvider(t *testing.T) {
	t.Parallel()
	testAccPreCheck(t)
	token := "gho_" + acctest.RandString(32)
	accountID := testAccOAuthAccount(t, token)
	sum := sha256.Sum256([]byte(token))
	check := absentFromArtifacts{secret: token}
	resource.Test(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_10_0)},
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccEchoFactories(t),
		Steps: []resource.TestStep{{
			Config:           testAccCredentialsConfig(accountID),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{check}, PostApplyPostRefresh: []plancheck.PlanCheck{check}},
			ConfigStateChecks: []statecheck.StateCheck{
				check,
				statecheck.ExpectKnownValue("echo.test", tfjsonpath.New("data").AtMapKey("status"), knownvalue.StringExact("ACTIVE")),
				statecheck.ExpectKnownValue("echo.test", tfjsonpath.New("data").AtMapKey("auth_scheme"), knownvalue.StringExact("OAUTH2")),
				statecheck.ExpectKnownValue("echo.test", tfjsonpath.New("data").AtMapKey("toolkit"), knownvalue.StringExact("github")),
				statecheck.ExpectKnownValue("echo.test", tfjsonpath.New("data").AtMapKey("expires_in"), knownvalue.StringExact("3600")),
				statecheck.ExpectKnownValue("echo.test", tfjsonpath.New("data").AtMapKey("token_hash"),
					knownvalue.StringExact(hex.EncodeToString(sum[:]))),
			},
		}},
	})
}

// testAccCredentialsStatusConfig hands another provider what the ephemeral
// resource gives for an account that may not be ACTIVE: values read with
// lookup(), so the expression evaluates whatever the status.
func testAccCredentialsStatusConfig(accountID string) string {
	return testAccCredentialsEcho(accountID, `
    status   = ephemeral.service_connected_account_credentials.gh.status
    toolkit  = ephemeral.service_connected_account_credentials.gh.toolkit
    n_values = length(ephemeral.service_connected_account_credentials.gh.values)
    token    = lookup(ephemeral.service_connected_account_credentials.gh.values, "access_token", "none")`)
}

// An account that is not ACTIVE (EXPIRED here) is a warning, not an error:
// the plan and apply go on with its status and no values. An id of another
// kind is refused at validate, an account the service does not have with
// the service's 404 (outside a destroy). The last step is the EXPIRED one:
// the test's destroy then reads it too.
func TestAccConnectedAccountCredentials_notActive(t *testing.T) {
	testAccRequireEmulator(t)
	testAccPreCheck(t)
	accountID := testAccOAuthAccount(t, "gho_"+acctest.RandString(16))
	testAccEmulatorPostJSON(t, "connected_accounts/"+accountID+"/expire", map[string]any{"reason": "refresh token revoked"})
	resource.Test(t, resource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_10_0)},
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccEchoFactories(t),
		Steps: []resource.TestStep{
			{
				Config:      testAccCredentialsConfig("not an id"),
				ExpectError: testAccErrRe("connected_account_id", "must be the id of a connected account"),
			},
			{
				Config:      testAccCredentialsConfig("ca_doesnotexist"),
				ExpectError: testAccErrRe("ca_doesnotexist", "404"),
			},
			{
				Config: testAccCredentialsStatusConfig(accountID),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("echo.test", tfjsonpath.New("data").AtMapKey("status"), knownvalue.StringExact("EXPIRED")),
					statecheck.ExpectKnownValue("echo.test", tfjsonpath.New("data").AtMapKey("toolkit"), knownvalue.StringExact("github")),
					statecheck.ExpectKnownValue("echo.test", tfjsonpath.New("data").AtMapKey("n_values"), knownvalue.Int64Exact(0)),
					statecheck.ExpectKnownValue("echo.test", tfjsonpath.New("data").AtMapKey("token"), knownvalue.StringExact("none")),
				},
			},
		},
	})
}

// TestAccConnectedAccountCredentials_destroyAfterRevocation: a configuration
// with the ephemeral credentials of an account, applied while the account
// is ACTIVE; once the account is REVOKED (the revoke action's call) or
// EXPIRED, a plan warns and names the status (and no secret), and
// `terraform destroy` (without -refresh=false) succeeds; once the account
// is deleted, destroy still succeeds. Through the CLI that TF_CLI names.
func TestAccConnectedAccountCredentials_destroyAfterRevocation(t *testing.T) {
	testAccRequireEmulator(t)
	t.Parallel()
	for _, status := range []string{"REVOKED", "EXPIRED", "deleted"} {
		t.Run(status, func(t *testing.T) {
			t.Parallel()
			token := "gho_" + acctest.RandString(24)
			accountID := testAccOAuthAccount(t, token)
			w := newE2EWorkspace(t)
			name := acctest.RandomWithPrefix("tf-acc-offboard")
			w.WriteFile("main.tf", fmt.Sprintf(`
ephemeral "service_connected_account_credentials" "gh" {
  connected_account_id = %[1]q
}

# A write-only argument takes the ephemeral value: the consumer of the token.
resource "service_auth_config" "consumer" {
  toolkit     = "stripe"
  type        = "use_custom_auth"
  auth_scheme = "API_KEY"
  name        = %[2]q
  credentials_wo = {
    base_url = "https://api.example.com/${lookup(ephemeral.service_connected_account_credentials.gh.values, "token_type", "none")}"
  }
  credentials_wo_version = 1
}
`, accountID, name))
			w.RunOK("apply", "-auto-approve", "-no-color", "-input=false")
			c := testAccClient(t)
			switch status {
			case "REVOKED":
				if _, err := c.RevokeConnectedAccount(t.Context(), accountID); err != nil {
					t.Fatal(err)
				}
			case "EXPIRED":
				testAccEmulatorPostJSON(t, "connected_accounts/"+accountID+"/expire", map[string]any{"reason": "token expired"})
			case "deleted":
				if err := c.DeleteConnectedAccount(t.Context(), accountID); err != nil {
					t.Fatal(err)
				}
			}
			if status != "deleted" {
				plan := w.RunOK("plan", "-no-color", "-input=false")
				out := strings.Join(strings.Fields(plan.Stdout+plan.Stderr), " ")
				if !strings.Contains(out, "Warning: Connected account is not usable") || !strings.Contains(out, "is "+status) {
					t.Errorf("the plan after the account became %s does not warn naming the status:\n%s", status, plan.Stdout+plan.Stderr)
				}
				if strings.Contains(out, token) {
					t.Errorf("the plan's output has the account's token")
				}
			}
			res := w.RunOK("destroy", "-auto-approve", "-no-color", "-input=false")
			if strings.Contains(res.Stdout+res.Stderr, token) {
				t.Errorf("the destroy's output has the account's token")
			}
			if left := w.stateResources(); len(left) != 0 {
				t.Errorf("state after destroy still has %v", left)
			}
		})
	}
}

// TestAccE2E_credentialsOfANewOAuthAccount runs what the authentication flows
// guide says of reading a new OAuth account's token in the apply that
// creates it: with wait_for_connection the ephemeral resource is opened once
// the user approved, and its token reaches a write-only argument (here the
// API key of another account); without it the account is still INITIATED
// when the ephemeral resource is opened, and the apply fails naming that.
func TestAccE2E_credentialsOfANewOAuthAccount(t *testing.T) {
	t.Parallel()
	testAccRequireEmulator(t)
	ep := testAccEnvironment(t)
	c := testAccClient(t)
	cfg := func(user string, wait bool) string {
		return fmt.Sprintf(`
resource "service_auth_config" "github" {
  toolkit = "github"
  name    = %[1]q
}

resource "service_connected_account" "github" {
  user_id             = %[1]q
  auth_config_id      = service_auth_config.github.id
  wait_for_connection = %[2]t
  timeouts = {
    create = "45s"
  }
}

ephemeral "service_connected_account_credentials" "github" {
  connected_account_id = service_connected_account.github.id
}

resource "service_auth_config" "stripe" {
  toolkit     = "stripe"
  type        = "use_custom_auth"
  auth_scheme = "API_KEY"
  name        = %[1]q
}

resource "service_connected_account" "consumer" {
  user_id                = "%[1]s-consumer"
  auth_config_id         = service_auth_config.stripe.id
  credentials_wo         = { api_key = ephemeral.service_connected_account_credentials.github.values["access_token"] }
  credentials_wo_version = 1
}
`, user, wait)
	}
	for _, wait := range []bool{true, false} {
		t.Run(fmt.Sprintf("wait_for_connection=%t", wait), func(t *testing.T) {
			t.Parallel()
			user := acctest.RandomWithPrefix("tf-ephem-new")
			w := newE2EWorkspace(t)
			w.WriteFile("main.tf", cfg(user, wait))
			t.Cleanup(func() { w.Run(nil, "destroy", "-auto-approve", "-input=false", "-no-color", "-refresh=false") })
			approved := make(chan error, 1)
			if wait {
				go func() { approved <- testAccApproveWhenCreated(ep, c, user) }()
			}
			res := w.Run(nil, "apply", "-auto-approve", "-input=false", "-no-color")
			if !wait {
				// The ephemeral resource warns (its account is INITIATED: no
				// credentials), and what reads the token then fails.
				if res.ExitCode == 0 || !testAccErrRe("Warning: Connected account is not usable", "INITIATED").MatchString(res.Stdout+res.Stderr) {
					t.Fatalf("without wait_for_connection the apply did not fail on the INITIATED account (exit %d):\n%s\n%s", res.ExitCode, res.Stdout, res.Stderr)
				}
				return
			}
			if res.ExitCode != 0 {
				t.Fatalf("apply with wait_for_connection: exit %d\n%s\n%s", res.ExitCode, res.Stdout, res.Stderr)
			}
			if err := <-approved; err != nil {
				t.Fatal(err)
			}
			accts, err := c.ListConnectedAccounts(context.Background(), client.ConnectedAccountListParams{UserIDs: []string{user + "-consumer"}})
			if err != nil || len(accts) != 1 || accts[0].Status != client.StatusActive {
				t.Fatalf("the account given the token: %+v (%v), want one ACTIVE", accts, err)
			}
		})
	}
}

// testAccApproveWhenCreated approves (the emulator's control route) the
// first connected account of user once it exists, as the user would.
func testAccApproveWhenCreated(ep testAccEndpoint, c *client.Client, user string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Second)
	defer cancel()
	for ctx.Err() == nil {
		accts, err := c.ListConnectedAccounts(ctx, client.ConnectedAccountListParams{UserIDs: []string{user}})
		if err == nil && len(accts) > 0 {
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, ep.BaseURL+"/_emulator/connected_accounts/"+accts[0].ID+"/complete", nil)
			if err != nil {
				return err
			}
			req.Header.Set("x-api-key", ep.APIKey)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				return err
			}
			_ = resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				return fmt.Errorf("approving %s: %s", accts[0].ID, resp.Status)
			}
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("no connected account of %s appeared: %w", user, ctx.Err())
}
