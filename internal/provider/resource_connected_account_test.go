package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflogtest"
	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"
	tfresource "github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"
	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/provider/lookup"
	"github.com/integration-service/terraform-provider-service/internal/provider/protocol"
)

const caAddr = "service_connected_account.test"

// caImportIgnore lists what an import cannot read back: write-only and
// sensitive credentials (the service masks them), creation-only options.
var caImportIgnore = []string{"credentials_wo", "credentials_wo_version", "credentials", "timeouts"}

// testAccCAStripeAuthConfig is a custom API_KEY auth config for stripe.
func testAccCAStripeAuthConfig(name string) string {
	return fmt.Sprintf(`
resource "service_auth_config" "stripe" {
  toolkit     = "stripe"
  type        = "use_custom_auth"
  auth_scheme = "API_KEY"
  name        = %q
}
`, name)
}

// testAccCAGitHubAuthConfig is a service-managed OAUTH2 auth config for github.
func testAccCAGitHubAuthConfig(name string) string {
	return fmt.Sprintf(`
resource "service_auth_config" "github" {
  toolkit = "github"
  name    = %q
}
`, name)
}

// testAccCAAccount renders service_connected_account.test with extra lines.
func testAccCAAccount(user, authConfigRef string, extra ...string) string {
	return fmt.Sprintf(`
resource "service_connected_account" "test" {
  user_id        = %q
  auth_config_id = %s
%s
}
`, user, authConfigRef, "  "+strings.Join(extra, "\n  "))
}

// testAccCheckConnectedAccountDestroy verifies every connected account in
// the state is gone (404 through the client).
func testAccCheckConnectedAccountDestroy(t *testing.T) func(*terraform.State) error {
	return testAccCheckDestroyed(t, connectedAccountType, "connected account", testAccGetConnectedAccount)
}

// testAccGetConnectedAccount reads the account id (the get of
// testAccCheckDestroyed and testAccCheckGone).
func testAccGetConnectedAccount(ctx context.Context, c *client.Client, id string) error {
	_, err := c.GetConnectedAccount(ctx, id)
	return err
}

// testAccCACompleteStep approves the OAuth connection of the account *id
// (the emulator's control route) before planning cfg: the refresh finds it
// ACTIVE and the plan is empty; checks are further state checks.
func testAccCACompleteStep(t *testing.T, id *string, cfg string, checks ...statecheck.StateCheck) tfresource.TestStep {
	return tfresource.TestStep{
		PreConfig: func() { testAccEmulatorPost(t, "/_emulator/connected_accounts/"+*id+"/complete") },
		Config:    cfg,
		ConfigPlanChecks: tfresource.ConfigPlanChecks{
			PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
		},
		ConfigStateChecks: append([]statecheck.StateCheck{
			statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("status"), knownvalue.StringExact("ACTIVE")),
		}, checks...),
	}
}

// testAccCAResource is the connected account resource as the provider
// configures it with the client c, and its schema (for tests that call
// Read or Update directly).
func testAccCAResource(ctx context.Context, c *client.Client) (*connectedAccountResource, schema.Schema) {
	r := NewConnectedAccountResource().(*connectedAccountResource)
	r.data = &ProviderData{Client: c, Cache: lookup.NewObjectCache(c, client.ToolkitVersions{})}
	var resp resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &resp)
	return r, resp.Schema
}

// testAccCAIDState is a state of the schema sch holding only the id.
func testAccCAIDState(ctx context.Context, t *testing.T, sch schema.Schema, id string) tfsdk.State {
	t.Helper()
	state := tfsdk.State{Schema: sch, Raw: tftypes.NewValue(sch.Type().TerraformType(ctx), nil)}
	if d := state.SetAttribute(ctx, path.Root("id"), id); d.HasError() {
		t.Fatal(d)
	}
	return state
}

// testAccCAID returns the id of the account at addr in state s.
func testAccCAID(s *terraform.State, addr string) (string, error) {
	rs, ok := s.RootModule().Resources[addr]
	if !ok {
		return "", fmt.Errorf("%s not in state", addr)
	}
	return rs.Primary.ID, nil
}

// testAccCAState captures the account id after a step (for PreConfig of the next).
func testAccCAState(id *string) tfresource.TestCheckFunc {
	return func(s *terraform.State) error {
		v, err := testAccCAID(s, caAddr)
		*id = v
		return err
	}
}

// TestAccConnectedAccount_apiKey: an API_KEY account is ACTIVE at once;
// credentials rotate in place (write-only version bump, then the sensitive
// map); import; enable/disable round trip with a reason.
func TestAccConnectedAccount_apiKey(t *testing.T) {
	user := acctest.RandomWithPrefix("tf-ca-key")
	ac := testAccCAStripeAuthConfig(user)
	ref := "service_auth_config.stripe.id"
	linear := fmt.Sprintf(`
resource "service_auth_config" "linear" {
  toolkit     = "linear"
  type        = "use_custom_auth"
  auth_scheme = "API_KEY"
  name        = %q
}
`, user)
	updatedAt := statecheck.CompareValue(compare.ValuesDiffer())
	tfresource.ParallelTest(t, tfresource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckConnectedAccountDestroy(t),
		Steps: []tfresource.TestStep{
			{
				Config: ac + testAccCAAccount(user, ref, `credentials_wo = { api_key = "sk_test_first" }`, `credentials_wo_version = 1`),
				ConfigPlanChecks: tfresource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(caAddr, plancheck.ResourceActionCreate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("id"), knownvalue.StringRegexp(regexp.MustCompile(`^ca_`))),
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("status"), knownvalue.StringExact("ACTIVE")),
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("toolkit"), knownvalue.StringExact("stripe")),
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("auth_scheme"), knownvalue.StringExact("API_KEY")),
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("redirect_url"), knownvalue.Null()),
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("credentials_wo"), knownvalue.Null()),
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("enabled"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("is_disabled"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("allow_multiple"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("created_at"), testAccTimestamp),
					updatedAt.AddStateValue(caAddr, tfjsonpath.New("updated_at")),
				},
			},
			{
				// Rotation through the write-only attribute: bump the version.
				Config: ac + testAccCAAccount(user, ref, `credentials_wo = { api_key = "sk_test_second" }`, `credentials_wo_version = 2`),
				ConfigPlanChecks: tfresource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(caAddr, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("status"), knownvalue.StringExact("ACTIVE")),
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("credentials_wo_version"), knownvalue.Int64Exact(2)),
					updatedAt.AddStateValue(caAddr, tfjsonpath.New("updated_at")),
				},
			},
			testAccImportStep(caAddr, caImportIgnore...),
			{
				// import {} block: plans as a pure import, no change.
				ResourceName:    caAddr,
				ImportState:     true,
				ImportStateKind: tfresource.ImportBlockWithID,
				ImportPlanChecks: tfresource.ImportPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(caAddr, plancheck.ResourceActionNoop)},
				},
				Config: ac + testAccCAAccount(user, ref, `credentials_wo = { api_key = "sk_test_second" }`),
			},
			{
				// Changed credentials of an existing account are checked at plan time too.
				Config:      ac + testAccCAAccount(user, ref, `credentials = { apikey = "sk_test_typo" }`),
				ExpectError: testAccErrRe(`Missing required credential fields`, `"api_key"`, `Unknown credential fields`, `"apikey"`),
			},
			{
				// Switch to the sensitive (stored) map: rotates in place too.
				Config: ac + testAccCAAccount(user, ref, `credentials = { api_key = "sk_test_third" }`),
				ConfigPlanChecks: tfresource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(caAddr, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectSensitiveValue(caAddr, tfjsonpath.New("credentials")),
					updatedAt.AddStateValue(caAddr, tfjsonpath.New("updated_at")),
				},
			},
			{
				Config: ac + testAccCAAccount(user, ref, `credentials = { api_key = "sk_test_third" }`, `enabled = false`, `disabled_reason = "offboarding"`),
				ConfigPlanChecks: tfresource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(caAddr, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("is_disabled"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("status_reason"), knownvalue.StringExact("offboarding")),
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("disabled_reason"), knownvalue.StringExact("offboarding")),
				},
			},
			{
				// A disabled account imports with its reason.
				ResourceName:            caAddr,
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: caImportIgnore,
			},
			{
				Config: ac + testAccCAAccount(user, ref, `credentials = { api_key = "sk_test_third" }`),
				ConfigPlanChecks: tfresource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(caAddr, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("is_disabled"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("enabled"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("status_reason"), knownvalue.Null()),
				},
			},
			{
				Config: ac + linear + testAccCAAccount(user, ref, `credentials = { api_key = "sk_test_third" }`),
			},
			{
				// Another auth config (known at plan time, another toolkit): the
				// account is replaced and the computed toolkit and scheme follow.
				Config: ac + linear + testAccCAAccount(user, "service_auth_config.linear.id", `credentials = { api_key = "lin_api_1" }`),
				ConfigPlanChecks: tfresource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(caAddr, plancheck.ResourceActionReplace)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("toolkit"), knownvalue.StringExact("linear")),
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("status"), knownvalue.StringExact("ACTIVE")),
				},
			},
		},
	})
}

// TestAccConnectedAccount_oauthApproval: an OAuth account stays INITIATED
// with a redirect_url; after approval (control route) the refresh shows
// ACTIVE with an empty plan; out-of-band disable and delete are detected.
func TestAccConnectedAccount_oauthApproval(t *testing.T) {
	testAccRequireEmulator(t)
	user := acctest.RandomWithPrefix("tf-ca-oauth")
	ac := testAccCAGitHubAuthConfig(user)
	cfg := ac + testAccCAAccount(user, "service_auth_config.github.id", `callback_url = "https://app.example.com/done"`)
	var id string
	tfresource.ParallelTest(t, tfresource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckConnectedAccountDestroy(t),
		Steps: []tfresource.TestStep{
			{
				Config: cfg,
				Check:  testAccCAState(&id),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("status"), knownvalue.StringExact("INITIATED")),
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("redirect_url"), knownvalue.StringRegexp(regexp.MustCompile(`^http.*/oauth/consent/`))),
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("auth_scheme"), knownvalue.StringExact("OAUTH2")),
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("toolkit"), knownvalue.StringExact("github")),
				},
			},
			testAccCACompleteStep(t, &id, cfg,
				// kept from creation
				statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("redirect_url"), knownvalue.NotNull())),
			testAccImportStep(caAddr, append([]string{"redirect_url"}, caImportIgnore...)...),
			{
				// Disabled outside Terraform: the plan shows the drift.
				PreConfig: func() {
					if err := testAccClient(t).UpdateConnectedAccountStatus(context.Background(), id, false, ""); err != nil {
						t.Fatal(err)
					}
				},
				Config:             cfg,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			{
				Config: cfg,
				ConfigPlanChecks: tfresource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(caAddr, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("is_disabled"), knownvalue.Bool(false)),
				},
			},
			{
				// Expired (or failed) outside Terraform: status follows, nothing
				// is replaced or changed.
				PreConfig: func() { testAccEmulatorPost(t, "/_emulator/connected_accounts/"+id+"/expire") },
				Config:    cfg,
				ConfigPlanChecks: tfresource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("status"), knownvalue.StringExact("EXPIRED")),
				},
			},
			{
				// Deleted outside Terraform: removed from state and created again.
				PreConfig: func() {
					if err := testAccClient(t).DeleteConnectedAccount(context.Background(), id); err != nil {
						t.Fatal(err)
					}
				},
				Config: cfg,
				ConfigPlanChecks: tfresource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(caAddr, plancheck.ResourceActionCreate)},
				},
				Check: func(s *terraform.State) error {
					newID, err := testAccCAID(s, caAddr)
					if err == nil && newID == id {
						return fmt.Errorf("account was not recreated (id %s)", id)
					}
					return err
				},
			},
		},
	})
}

// testAccAccountReads returns how many GET /connected_accounts/{id} requests
// the emulator has served to the isolated project of key (from a goroutine:
// no *testing.T).
func testAccAccountReads(ctx context.Context, ep testAccEndpoint, key string) (int, error) {
	var i int
	if _, err := fmt.Sscanf(key, "emulator-key-isolated-%02d", &i); err != nil {
		return 0, fmt.Errorf("%q is not an isolated project's key", key)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, ep.BaseURL+"/_emulator/stats", nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("x-api-key", ep.APIKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	var st testAccEmulatorStats
	if err := json.NewDecoder(resp.Body).Decode(&st); err != nil {
		return 0, err
	}
	return st.Projects[fmt.Sprintf("isolated-%02d", i)]["GET "+client.APIPrefix+"/connected_accounts/{nanoid}"], nil
}

// testAccWaitAction is the outcome of testAccActWhenCreated: the reads of
// the account the provider had made when the action ran (at least one).
type testAccWaitAction struct {
	readsBefore int
	err         error
}

// testAccActWhenCreated calls the emulator control route
// /_emulator/connected_accounts/{id}/<action> (complete, fail, expire) on the
// first account of user in the isolated project of key (c is its client),
// once the provider has polled that account: the action lands while the
// provider waits, after it saw the account not yet connected. The outcome
// is an error when the provider never read the account.
func testAccActWhenCreated(ep testAccEndpoint, key string, c *client.Client, user, action string) <-chan testAccWaitAction {
	done := make(chan testAccWaitAction, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		var id string
		for ctx.Err() == nil && id == "" {
			accts, err := c.ListConnectedAccounts(ctx, client.ConnectedAccountListParams{UserIDs: []string{user}})
			if err == nil && len(accts) > 0 {
				id = accts[0].ID
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		if id == "" {
			done <- testAccWaitAction{err: fmt.Errorf("no account of %s appeared: %w", user, ctx.Err())}
			return
		}
		reads := 0
		for reads == 0 {
			n, err := testAccAccountReads(ctx, ep, key)
			if err != nil || ctx.Err() != nil {
				done <- testAccWaitAction{err: fmt.Errorf("the provider never polled connected account %s (%w, %w)", id, err, ctx.Err())}
				return
			}
			reads = n
			if reads == 0 {
				time.Sleep(50 * time.Millisecond)
			}
		}
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, ep.BaseURL+"/_emulator/connected_accounts/"+id+"/"+action, nil)
		req.Header.Set("x-api-key", key)
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				err = fmt.Errorf("%s: %s", action, resp.Status)
			}
		}
		done <- testAccWaitAction{readsBefore: reads, err: err}
	}()
	return done
}

// testAccPolledAfter fails unless the provider read the account again after
// the action (the wait saw the action's outcome by polling).
func testAccPolledAfter(ctx context.Context, ep testAccEndpoint, key string, a testAccWaitAction) error {
	if a.err != nil {
		return a.err
	}
	n, err := testAccAccountReads(ctx, ep, key)
	if err != nil {
		return err
	}
	if n <= a.readsBefore {
		return fmt.Errorf("the provider read the account %d times before the action and %d in all: it did not poll after it", a.readsBefore, n)
	}
	return nil
}

// testAccCheckConnectedAccountDestroyIn is testAccCheckConnectedAccountDestroy
// through the client of another project.
func testAccCheckConnectedAccountDestroyIn(c *client.Client) func(*terraform.State) error {
	return func(s *terraform.State) error {
		return testAccCheckGone(s, c, connectedAccountType, "connected account", testAccGetConnectedAccount)
	}
}

// TestAccConnectedAccount_cimdOAuth: CIMD_OAUTH (OAuth whose client_id is a
// client ID metadata document URL, in the service's v3 document) is accepted
// as an auth config's scheme and its accounts take the OAuth path: INITIATED
// with a redirect_url, ACTIVE once approved, pre-filled credentials refused
// at plan naming the scheme.
func TestAccConnectedAccount_cimdOAuth(t *testing.T) {
	testAccRequireEmulator(t)
	user := acctest.RandomWithPrefix("tf-ca-cimd")
	ac := fmt.Sprintf(`
resource "service_auth_config" "sentry" {
  toolkit     = "sentry"
  type        = "use_custom_auth"
  auth_scheme = "CIMD_OAUTH"
  name        = %q
}
`, user)
	cfg := ac + testAccCAAccount(user, "service_auth_config.sentry.id", `callback_url = "https://app.example.com/done"`)
	var id string
	tfresource.ParallelTest(t, tfresource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckConnectedAccountDestroy(t),
		Steps: []tfresource.TestStep{
			{
				Config: cfg,
				Check:  testAccCAState(&id),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("service_auth_config.sentry", tfjsonpath.New("auth_scheme"), knownvalue.StringExact("CIMD_OAUTH")),
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("status"), knownvalue.StringExact("INITIATED")),
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("redirect_url"), knownvalue.StringRegexp(regexp.MustCompile(`^http.*/oauth/consent/`))),
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("auth_scheme"), knownvalue.StringExact("CIMD_OAUTH")),
				},
			},
			testAccCACompleteStep(t, &id, cfg),
			{
				Config:      ac + testAccCAAccount(user, "service_auth_config.sentry.id", `credentials_wo = { token = "t" }`, `credentials_wo_version = 1`),
				ExpectError: testAccErrRe(`Credentials not accepted for OAuth`, `credentials_wo`, `CIMD_OAUTH`),
			},
		},
	})
}

// TestAccConnectedAccount_waitFailed: a connection that fails while apply
// waits ends the wait at once (well before timeouts.create) with an error;
// the account is kept in state, tainted, and replaced by the next apply.
func TestAccConnectedAccount_waitFailed(t *testing.T) {
	ep := testAccRequireEmulator(t)
	// A project of its own: its request counts show the provider polling.
	key, c := testAccIsolatedProject(t)
	provider := listProvider(key)
	user := acctest.RandomWithPrefix("tf-ca-waitfail")
	var done <-chan testAccWaitAction
	var started time.Time
	tfresource.ParallelTest(t, tfresource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckConnectedAccountDestroyIn(c),
		Steps: []tfresource.TestStep{
			{
				PreConfig: func() {
					started = time.Now()
					done = testAccActWhenCreated(ep, key, c, user, "fail")
				},
				Config: provider + testAccCAGitHubAuthConfig(user) + testAccCAAccount(user, "service_auth_config.github.id",
					`wait_for_connection = true`, `timeouts = { create = "5m" }`),
				ExpectError: testAccErrRe(`failed to connect`, `FAILED`, `kept in the Terraform\s+state`, `tainted`),
			},
			{
				PreConfig: func() {
					// The provider polled the account before it failed, and
					// again after: that is how the wait learnt it.
					if err := testAccPolledAfter(context.Background(), ep, key, <-done); err != nil {
						t.Fatal(err)
					}
					if d := time.Since(started); d > time.Minute {
						t.Fatalf("the wait did not stop when the connection failed (%s)", d)
					}
				},
				Config: provider + testAccCAGitHubAuthConfig(user) + testAccCAAccount(user, "service_auth_config.github.id"),
				ConfigPlanChecks: tfresource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(caAddr, plancheck.ResourceActionReplace)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("status"), knownvalue.StringExact("INITIATED")),
				},
			},
		},
	})
}

// TestAccConnectedAccount_waitForConnection: with wait_for_connection the
// create polls the account until it is ACTIVE: it read the account before
// the connection completed, and again after.
func TestAccConnectedAccount_waitForConnection(t *testing.T) {
	ep := testAccRequireEmulator(t)
	// A project of its own: its request counts show the provider polling.
	key, c := testAccIsolatedProject(t)
	user := acctest.RandomWithPrefix("tf-ca-wait")
	var done <-chan testAccWaitAction
	tfresource.ParallelTest(t, tfresource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckConnectedAccountDestroyIn(c),
		Steps: []tfresource.TestStep{
			{
				PreConfig: func() { done = testAccActWhenCreated(ep, key, c, user, "complete") },
				Config: listProvider(key) + testAccCAGitHubAuthConfig(user) + testAccCAAccount(user, "service_auth_config.github.id",
					`wait_for_connection = true`, `timeouts = { create = "45s" }`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("status"), knownvalue.StringExact("ACTIVE")),
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("wait_for_connection"), knownvalue.Bool(true)),
				},
				Check: func(*terraform.State) error { return testAccPolledAfter(context.Background(), ep, key, <-done) },
			},
		},
	})
}

// TestConnectionWaitAnnounced: a wait_for_connection wait logs at WARN, at
// once and then at every interval until it stops, which account it waits
// for and where the user approves it.
func TestConnectionWaitAnnounced(t *testing.T) {
	out := &lockedLog{}
	ctx := tflogtest.RootLogger(context.Background(), out)
	const url = "https://consent.example/s/abc123"
	stop := announceConnectionWait(ctx, "ca_wait1", url, time.Minute, 20*time.Millisecond)
	for deadline := time.Now().Add(10 * time.Second); out.lines() < 3 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	stop()
	n := out.lines()
	time.Sleep(60 * time.Millisecond)
	if out.lines() != n {
		t.Error("the wait is still announced after stop")
	}
	entries, err := tflogtest.MultilineJSONDecode(bytes.NewBufferString(out.String()))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) < 3 {
		t.Fatalf("%d log entries, want the start and at least two still-waiting ones: %v", len(entries), entries)
	}
	for i, e := range entries {
		msg, _ := e["@message"].(string)
		want := "wait_for_connection: still waiting ("
		if i == 0 {
			want = "wait_for_connection: waiting up to 1m0s for connected account ca_wait1 to become ACTIVE; "
		}
		if e["@level"] != "warn" || !strings.Contains(msg, want) || !strings.Contains(msg, "the user approves the connection at "+url) ||
			e["redirect_url"] != url || e["connected_account_id"] != "ca_wait1" {
			t.Errorf("entry %d = %v, want a warn entry saying %q and the redirect_url", i, e, want)
		}
	}
}

// lockedLog is a log sink the announcing goroutine writes while the test reads.
type lockedLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func (l *lockedLog) lines() int { return strings.Count(l.String(), "\n") }

// TestAccConnectedAccount_waitAnnouncesRedirectURL: through the CLI, an
// apply waiting for an OAuth account's approval logs its redirect_url where
// TF_LOG_PROVIDER=WARN shows it, and never the API key.
func TestAccConnectedAccount_waitAnnouncesRedirectURL(t *testing.T) {
	t.Parallel()
	w := newE2EWorkspace(t)
	user := acctest.RandomWithPrefix("tf-ca-announce")
	w.WriteFile("main.tf", testAccCAGitHubAuthConfig(user)+testAccCAAccount(user, "service_auth_config.github.id",
		`wait_for_connection = true`, `timeouts = { create = "2s" }`))
	logFile := w.Path("provider.log")
	res := w.Run([]string{"TF_LOG_PROVIDER=warn", "TF_LOG_PATH=" + logFile}, "apply", "-auto-approve", "-input=false", "-no-color")
	t.Cleanup(func() { w.Run(nil, "destroy", "-auto-approve", "-input=false", "-no-color") })
	if res.ExitCode == 0 || !strings.Contains(res.Stderr, "is not connected yet") {
		t.Fatalf("the apply did not time out waiting (exit %d):\n%s", res.ExitCode, res.Stderr)
	}
	url := regexp.MustCompile(`approve it at redirect_url:\s+(\S+)`).FindStringSubmatch(res.Stderr)
	if url == nil {
		t.Fatalf("the timeout error names no redirect_url:\n%s", res.Stderr)
	}
	log, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(log), "to become ACTIVE; the user approves the connection at "+url[1]) {
		t.Errorf("the provider log at WARN does not say where the user approves the connection (%s):\n%s", url[1], log)
	}
	if strings.Contains(string(log), testAccAPIKey) {
		t.Error("the provider log holds the API key")
	}
}

func TestAccConnectedAccount_waitTimeout(t *testing.T) {
	testAccRequireEmulator(t)
	user := acctest.RandomWithPrefix("tf-ca-timeout")
	tfresource.ParallelTest(t, tfresource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckConnectedAccountDestroy(t),
		Steps: []tfresource.TestStep{
			{
				Config: testAccCAGitHubAuthConfig(user) + testAccCAAccount(user, "service_auth_config.github.id",
					`wait_for_connection = true`, `timeouts = { create = "3s" }`),
				ExpectError: testAccErrRe(`is not connected yet`, `within 3s`, `still INITIATED`, `redirect_url`, `kept in the Terraform\s+state`),
			},
			{
				// The account was saved (tainted), not orphaned: the next apply replaces it.
				Config: testAccCAGitHubAuthConfig(user) + testAccCAAccount(user, "service_auth_config.github.id"),
				ConfigPlanChecks: tfresource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(caAddr, plancheck.ResourceActionReplace)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("status"), knownvalue.StringExact("INITIATED")),
				},
			},
		},
	})
}

func TestAccConnectedAccount_hostedLink(t *testing.T) {
	testAccRequireEmulator(t)
	user := acctest.RandomWithPrefix("tf-ca-link")
	cfg := testAccCAGitHubAuthConfig(user) + testAccCAAccount(user, "service_auth_config.github.id", `hosted_link = true`)
	var id string
	tfresource.ParallelTest(t, tfresource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckConnectedAccountDestroy(t),
		Steps: []tfresource.TestStep{
			{
				Config: cfg,
				Check:  testAccCAState(&id),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("status"), knownvalue.StringExact("INITIATED")),
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("redirect_url"), knownvalue.StringRegexp(regexp.MustCompile(`/link/lt_`))),
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("hosted_link"), knownvalue.Bool(true)),
				},
			},
			testAccCACompleteStep(t, &id, cfg),
			{
				// Creation-only options change in place without touching the account.
				Config: testAccCAGitHubAuthConfig(user) + testAccCAAccount(user, "service_auth_config.github.id",
					`hosted_link = false`, `allow_multiple = true`, `wait_for_connection = true`),
				ConfigPlanChecks: tfresource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(caAddr, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("status"), knownvalue.StringExact("ACTIVE")),
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("redirect_url"), knownvalue.StringRegexp(regexp.MustCompile(`/link/lt_`))),
				},
			},
		},
	})
}

// TestAccConnectedAccount_allowMultiple: a second ACTIVE account for the same
// user and auth config is refused with import instructions, unless
// allow_multiple is set.
func TestAccConnectedAccount_allowMultiple(t *testing.T) {
	user := acctest.RandomWithPrefix("tf-ca-multi")
	ac := testAccCAStripeAuthConfig(user)
	first := testAccCAAccount(user, "service_auth_config.stripe.id", `credentials_wo = { api_key = "sk_1" }`)
	second := func(extra string) string {
		return fmt.Sprintf(`
resource "service_connected_account" "second" {
  user_id        = %q
  auth_config_id = service_auth_config.stripe.id
  credentials_wo = { api_key = "sk_2" }
  depends_on     = [service_connected_account.test]
  %s
}
`, user, extra)
	}
	tfresource.ParallelTest(t, tfresource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckConnectedAccountDestroy(t),
		Steps: []tfresource.TestStep{
			{Config: ac + first},
			{
				Config: ac + first + second(""),
				ExpectError: testAccErrRe(`already has an ACTIVE connected account`, `import \{ to = service_connected_account\.NAME id = "ca_`,
					`terraform import service_connected_account\.NAME ca_`, `allow_multiple = true`),
			},
			{
				Config: ac + first + second("allow_multiple = true"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("service_connected_account.second", tfjsonpath.New("status"), knownvalue.StringExact("ACTIVE")),
					statecheck.CompareValuePairs(caAddr, tfjsonpath.New("id"), "service_connected_account.second", tfjsonpath.New("id"), compare.ValuesDiffer()),
				},
			},
		},
	})
}

// TestAccConnectedAccount_planTimeChecks: bad inputs fail at plan time naming
// the attribute, and nothing is written. Not parallel: it compares the
// emulator's write counter.
func TestAccConnectedAccount_planTimeChecks(t *testing.T) {
	testAccRequireEmulator(t)
	c := testAccClient(t)
	user := acctest.RandomWithPrefix("tf-ca-bad")
	stripe := testAccStripeAPIKeyAuthConfig(t, c, user)
	github := testAccCreateAuthConfig(t, c, client.CreateAuthConfigRequest{ToolkitSlug: "github", Type: client.AuthConfigTypeManaged, Name: user})
	jira := testAccCreateAuthConfig(t, c, client.CreateAuthConfigRequest{ToolkitSlug: "jira", Type: client.AuthConfigTypeCustom, Name: user, AuthScheme: "BASIC"})

	q := func(s string) string { return fmt.Sprintf("%q", s) }
	testAccNoWritesTest(t, []tfresource.TestStep{
		{
			Config:      testAccCAAccount(user, q(stripe.ID)),
			ExpectError: testAccErrRe(`Missing credentials`, `"api_key"`, `credentials_wo`),
		},
		{
			Config:      testAccCAAccount(user, q(stripe.ID), `credentials_wo = { api_key = "k", region = "eu" }`),
			ExpectError: testAccErrRe(`Unknown credential fields`, `credentials_wo`, `"region"`),
		},
		{
			Config:      testAccCAAccount(user, q(stripe.ID), `credentials = { token = "k" }`),
			ExpectError: testAccErrRe(`Missing required credential fields`, `Attribute credentials is\s+missing`, `"api_key"`),
		},
		{
			Config:      testAccCAAccount(user, q(jira.ID), `credentials_wo = { username = "me" }`),
			ExpectError: testAccErrRe(`credentials_wo`, `"password"`),
		},
		{
			Config:      testAccCAAccount(user, q(github.ID), `credentials_wo = { api_key = "k" }`),
			ExpectError: testAccErrRe(`Credentials not accepted for OAuth`, `credentials_wo`, `OAUTH2`),
		},
		{
			Config:      testAccCAAccount(user, q(github.ID), `credentials = { api_key = "k" }`),
			ExpectError: testAccErrRe(`Credentials not accepted for OAuth`, `Attribute\s+credentials:`),
		},
		{
			Config:      testAccCAAccount(user, q("ac_doesnotexist"+user[len(user)-6:])),
			ExpectError: testAccErrRe(`Unknown auth config`, `auth_config_id`),
		},
		{
			Config:      testAccCAAccount(user, q("not an id!")),
			ExpectError: testAccErrRe(`auth_config_id`, `must be the id of an auth config`),
		},
		{
			Config:      testAccCAAccount(user, q(github.ID), `callback_url = "not a url"`),
			ExpectError: testAccErrRe(`callback_url`, `not an absolute URL`),
		},
		{
			Config:      testAccCAAccount(user, q(stripe.ID), `credentials_wo_version = 1`, `credentials = { api_key = "k" }`),
			ExpectError: testAccErrRe(`credentials_wo_version`, `credentials_wo`),
		},
		{
			Config:      testAccCAAccount(user, q(stripe.ID), `credentials_wo = { api_key = "k" }`, `credentials = { api_key = "k" }`),
			ExpectError: testAccErrRe(`credentials_wo`, `credentials`),
		},
		{
			Config:      testAccCAAccount(user, q(github.ID), `hosted_link = true`, `credentials = { api_key = "k" }`),
			ExpectError: testAccErrRe(`hosted_link`, `credentials`),
		},
		{
			// hosted_link = false, as -generate-config-out writes it, goes
			// with credentials.
			Config:             testAccCAAccount(user, q(stripe.ID), `hosted_link = false`, `credentials_wo = { api_key = "k" }`, `credentials_wo_version = 1`),
			PlanOnly:           true,
			ExpectNonEmptyPlan: true,
		},
		{
			Config:      testAccCAAccount(user, q(github.ID), `timeouts = { create = "soon" }`),
			ExpectError: testAccErrRe(`Invalid duration`, `Attribute timeouts.create`, `"soon" is not a duration`),
		},
		{
			Config:      `data "service_connected_accounts" "x" { statuses = ["ACTIVE", "DONE"] }`,
			ExpectError: testAccErrRe(`statuses`, `ACTIVE`),
		},
		{
			Config:      testAccCAAccount(user, q(stripe.ID), `credentials_wo = { api_key = "k" }`, `enabled = false`, `disabled_reason = "   "`),
			ExpectError: testAccErrRe(`Invalid text`, `Attribute disabled_reason`, `is blank`),
		},
		{
			// A blank value counts as a missing field on the service.
			Config:      testAccCAAccount(user, q(stripe.ID), `credentials_wo = { api_key = " " }`),
			ExpectError: testAccErrRe(`Blank credential value`, `credentials_wo\["api_key"\]`, `the value is blank`),
		},
		{
			Config:      testAccCAAccount(user, q(stripe.ID), `credentials = { api_key = "" }`),
			ExpectError: testAccErrRe(`Blank credential value`, `credentials\["api_key"\]`, `the value is blank`),
		},
	})
}

// TestAccConnectedAccount_callbackURL: callback_url follows the service's
// rule (https, or http to localhost, 127.0.0.0/8 or [::1]): javascript:,
// data: and plain http to another host fail at validate naming
// callback_url, for an OAuth account and a hosted link alike, and nothing is
// written; a loopback http callback plans. Not parallel: it compares the
// emulator's write counter.
func TestAccConnectedAccount_callbackURL(t *testing.T) {
	testAccRequireEmulator(t)
	c := testAccClient(t)
	user := acctest.RandomWithPrefix("tf-ca-cb")
	github := testAccCreateAuthConfig(t, c, client.CreateAuthConfigRequest{ToolkitSlug: "github", Type: client.AuthConfigTypeManaged, Name: user})
	ac := fmt.Sprintf("%q", github.ID)
	testAccNoWritesTest(t, []tfresource.TestStep{
		{
			Config:      testAccCAAccount(user, ac, `callback_url = "javascript:alert(1)"`),
			ExpectError: testAccErrRe(`Invalid callback URL`, `Attribute callback_url`, `not javascript:`),
		},
		{
			Config:      testAccCAAccount(user, ac, `hosted_link = true`, `callback_url = "javascript:alert(document.cookie)"`),
			ExpectError: testAccErrRe(`Attribute callback_url`, `not javascript:`),
		},
		{
			Config:      testAccCAAccount(user, ac, `callback_url = "data:text/html,<script>alert(1)</script>"`),
			ExpectError: testAccErrRe(`Attribute callback_url`, `not data:`),
		},
		{
			Config:      testAccCAAccount(user, ac, `callback_url = "http://app.example.com/done"`),
			ExpectError: testAccErrRe(`Attribute callback_url`, `plain http to the host "app.example.com"`),
		},
		{
			Config:             testAccCAAccount(user, ac, `callback_url = "http://localhost:3000/done"`),
			PlanOnly:           true,
			ExpectNonEmptyPlan: true,
		},
	})
}

// TestConnectedAccountRead_oneGET calls Read directly and checks that it
// makes exactly one request, a GET of the account. Not parallel: it compares
// the emulator's request counters.
func TestConnectedAccountRead_oneGET(t *testing.T) {
	testAccRequireEmulator(t)
	ctx := context.Background()
	c := testAccClient(t)
	user := acctest.RandomWithPrefix("tf-ca-read")
	ac := testAccStripeAPIKeyAuthConfig(t, c, user)
	cr, err := c.InitiateConnectedAccount(ctx, client.InitiateConnectedAccountRequest{AuthConfigID: ac.ID, UserID: user,
		State: &client.ConnectionState{AuthScheme: "API_KEY", Val: map[string]any{"status": "ACTIVE", "api_key": "k"}}})
	if err != nil {
		t.Fatal(err)
	}

	r, sch := testAccCAResource(ctx, c)
	state := testAccCAIDState(ctx, t, sch, cr.ID)

	total := func() (all, get int) {
		for k, v := range testAccEmulatorStatsNow(t).Requests {
			all += v
			if strings.HasPrefix(k, "GET ") && strings.HasSuffix(k, "/connected_accounts/{nanoid}") {
				get += v
			}
		}
		return
	}
	all0, get0 := total()
	resp := resource.ReadResponse{State: state}
	r.Read(ctx, resource.ReadRequest{State: state}, &resp)
	if resp.Diagnostics.HasError() {
		t.Fatal(resp.Diagnostics)
	}
	all1, get1 := total()
	if all1-all0 != 1 || get1-get0 != 1 {
		t.Fatalf("Read made %d requests (%d GETs of the account), want exactly 1 GET", all1-all0, get1-get0)
	}
	var got connectedAccountModel
	resp.Diagnostics.Append(resp.State.Get(ctx, &got)...)
	if got.Status.ValueString() != "ACTIVE" || got.UserID.ValueString() != user || got.AuthConfigID.ValueString() != ac.ID ||
		got.Toolkit.ValueString() != "stripe" || !got.Enabled.ValueBool() {
		t.Fatalf("state after Read: %+v", got)
	}

	// Deleted outside Terraform: Read removes it with a warning.
	if err := c.DeleteConnectedAccount(ctx, cr.ID); err != nil {
		t.Fatal(err)
	}
	resp = resource.ReadResponse{State: state}
	r.Read(ctx, resource.ReadRequest{State: state}, &resp)
	if resp.Diagnostics.HasError() || resp.Diagnostics.WarningsCount() != 1 || !resp.State.Raw.IsNull() {
		t.Fatalf("after delete: diags %v, state null %v", resp.Diagnostics, resp.State.Raw.IsNull())
	}
}

// TestAccConnectedAccount_e2eSecretsNotPersisted runs the real CLI against the
// built provider and proves that an api_key given in credentials_wo appears
// neither in the state file, nor in the saved plan (raw file and every entry
// of its archive, and `terraform show -json`), nor in the TF_LOG=trace output,
// on create and on rotation.
func TestAccConnectedAccount_e2eSecretsNotPersisted(t *testing.T) {
	w := newE2EWorkspace(t)
	user := acctest.RandomWithPrefix("tf-ca-e2e")
	secrets := []string{"sk_live_" + acctest.RandString(24), "sk_live_" + acctest.RandString(24)}
	config := func(i int) string {
		return testAccCAStripeAuthConfig(user) + fmt.Sprintf(`
variable "api_key" {
  type      = string
  sensitive = true
  ephemeral = true
}

resource "service_connected_account" "test" {
  user_id                = %q
  auth_config_id         = service_auth_config.stripe.id
  credentials_wo         = { api_key = var.api_key }
  credentials_wo_version = %d
}
`, user, i+1)
	}
	logPath := w.Path("trace.log")
	trace := []string{"TF_LOG=trace", "TF_LOG_PATH=" + logPath}
	var logs strings.Builder
	assertAbsent := func(what string, data []byte) {
		t.Helper()
		for _, s := range secrets {
			if strings.Contains(string(data), s) {
				t.Errorf("the credentials_wo api_key appears in %s", what)
			}
		}
	}
	for i, secret := range secrets {
		w.WriteFile("main.tf", config(i))
		// Through the environment: Terraform itself logs its command line.
		env := append([]string{"TF_VAR_api_key=" + secret}, trace...)
		plan := w.RunEnvOK(env, "plan", "-input=false", "-out=tfplan")
		logs.WriteString(plan.Stdout + plan.Stderr)
		show := w.RunOK("show", "-json", "tfplan")
		assertAbsent("`terraform show -json tfplan`", []byte(show.Stdout))
		assertAbsent("the saved plan file", w.ReadFile("tfplan"))
		for name, b := range w.PlanEntries("tfplan") {
			assertAbsent("the saved plan entry "+name, b)
		}
		apply := w.RunEnvOK(env, "apply", "-input=false", "-auto-approve")
		logs.WriteString(apply.Stdout + apply.Stderr)
		if i == 1 && !strings.Contains(apply.Stdout, "1 changed") {
			t.Errorf("rotation did not update in place:\n%s", apply.Stdout)
		}
		assertAbsent("terraform.tfstate", w.ReadFile("terraform.tfstate"))
	}
	logFile := w.ReadFile("trace.log")
	if !bytes.Contains(logFile, []byte("connected_accounts")) {
		t.Fatal("the trace log does not show the provider's requests; the check would prove nothing")
	}
	for _, line := range strings.Split(string(logFile), "\n") {
		for _, s := range secrets {
			if strings.Contains(line, s) {
				t.Logf("LEAK: %.600s", line)
			}
		}
	}
	assertAbsent("the TF_LOG=trace log", logFile)
	assertAbsent("the terraform output", []byte(logs.String()))
	w.RunEnvOK([]string{"TF_VAR_api_key=" + secrets[1]}, "destroy", "-input=false", "-auto-approve")
}

// TestConnectedAccountRead_deletedStatus: an account the service reports in
// status DELETED is removed from state with a warning.
func TestConnectedAccountRead_deletedStatus(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":"ca_gone","user_id":"u","status":"DELETED","is_disabled":false,"toolkit":{"slug":"stripe"},`+
			`"auth_config":{"id":"ac_1","auth_scheme":"API_KEY"},"created_at":"c","updated_at":"u"}`)
	}))
	defer srv.Close()
	c, err := client.New(client.Config{BaseURL: srv.URL, APIKey: "k", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	r, sch := testAccCAResource(ctx, c)
	state := testAccCAIDState(ctx, t, sch, "ca_gone")
	resp := resource.ReadResponse{State: state}
	r.Read(ctx, resource.ReadRequest{State: state}, &resp)
	if resp.Diagnostics.HasError() || resp.Diagnostics.WarningsCount() != 1 || !resp.State.Raw.IsNull() {
		t.Fatalf("diags %v, state removed %v", resp.Diagnostics, resp.State.Raw.IsNull())
	}
}

// TestAccE2E_ConnectedAccountCost counts requests per terraform command (real
// CLI, separate plan and apply runs) when creating one account:
//
//   - Create (ApplyResourceChange) makes one write and at most two reads: the
//     duplicate-check list and the read-back GET; it never reads the auth config.
//   - The plan-time check reads the auth config once per plan: in `terraform
//     plan` when auth_config_id is known, and in the final plan Terraform makes
//     during apply (the check that catches bad credentials for an auth config
//     created in the same apply). That GET is counted separately below.
//   - A refresh reads each account with exactly one GET.
//
// Cases: (a) API_KEY account whose auth config is created in the same apply,
// (b) existing auth config, (b2) existing auth config already used by another
// user's account, (c) OAuth account. Not parallel: it compares process-wide
// counters.
func TestAccE2E_ConnectedAccountCost(t *testing.T) {
	w := newE2EWorkspace(t)
	testAccRequireEmulator(t)
	ctx := context.Background()
	c := testAccClient(t)
	user := acctest.RandomWithPrefix("tf-ca-cost")
	existing := testAccStripeAPIKeyAuthConfig(t, c, user)
	shared := testAccStripeAPIKeyAuthConfig(t, c, user+"-shared")
	if _, err := c.InitiateConnectedAccount(ctx, client.InitiateConnectedAccountRequest{AuthConfigID: shared.ID, UserID: user + "-other",
		State: &client.ConnectionState{AuthScheme: "API_KEY", Val: map[string]any{"status": "ACTIVE", "api_key": "k"}}}); err != nil {
		t.Fatal(err)
	}

	type counts struct{ list, get, initiate, authConfigGet, authConfigCreate, writes int }
	snap := func() counts {
		s := testAccEmulatorStatsNow(t)
		return counts{s.Requests[routeListAccounts], s.Requests[routeGetAccount], s.Requests[routeInitiateAccount],
			s.Requests[routeGetAuthConfig], s.Requests[routeCreateAuthCfg], s.Writes}
	}
	delta := func(a, b counts) counts {
		return counts{b.list - a.list, b.get - a.get, b.initiate - a.initiate, b.authConfigGet - a.authConfigGet,
			b.authConfigCreate - a.authConfigCreate, b.writes - a.writes}
	}
	cases := []struct {
		name, config string
		// auth config GETs expected in plan and apply: the account's
		// plan-time check, plus the auth config resource's own read-back
		// when it is created in the same apply.
		planACGets, applyACGets int
		newAuthConfig           bool
	}{
		{"a: API_KEY, auth config in the same apply",
			testAccCAStripeAuthConfig(user+"-a") + testAccCAAccount(user+"-a", "service_auth_config.stripe.id", `credentials_wo = { api_key = "sk_a" }`),
			0, 2, true},
		{"b: existing auth config",
			testAccCAAccount(user+"-b", fmt.Sprintf("%q", existing.ID), `credentials = { api_key = "sk_b" }`),
			1, 1, false},
		{"b2: existing auth config with another user's account",
			testAccCAAccount(user+"-b2", fmt.Sprintf("%q", shared.ID), `credentials_wo = { api_key = "sk_b2" }`),
			1, 1, false},
		{"c: OAuth",
			testAccCAGitHubAuthConfig(user+"-c") + testAccCAAccount(user+"-c", "service_auth_config.github.id"),
			0, 2, true},
	}
	for _, tc := range cases {
		w.WriteFile("main.tf", tc.config)
		c0 := snap()
		w.RunOK("plan", "-out=tfplan", "-no-color")
		c1 := snap()
		w.RunOK("apply", "-no-color", "tfplan")
		c2 := snap()
		res := w.Run(nil, "plan", "-detailed-exitcode", "-no-color")
		if res.ExitCode != 0 {
			t.Fatalf("%s: plan after apply not empty (exit %d):\n%s\n%s", tc.name, res.ExitCode, res.Stdout, res.Stderr)
		}
		c3 := snap()
		w.RunOK("destroy", "-auto-approve", "-no-color")

		plan, apply, refresh := delta(c0, c1), delta(c1, c2), delta(c2, c3)
		t.Logf("%s: plan %+v; apply %+v; refresh+plan %+v", tc.name, plan, apply, refresh)
		if plan.writes != 0 || plan.list+plan.get+plan.initiate != 0 || plan.authConfigGet != tc.planACGets {
			t.Errorf("%s: plan: want %d auth config GET(s), no account request, no write; got %+v", tc.name, tc.planACGets, plan)
		}
		createReads := apply.list + apply.get
		wantWrites := 1
		if tc.newAuthConfig {
			wantWrites = 2 // the auth config and the account
		}
		if apply.initiate != 1 || apply.writes != wantWrites || createReads > 2 || apply.authConfigGet != tc.applyACGets {
			t.Errorf("%s: apply: want 1 initiate (%d writes in all), at most 2 account reads in Create, %d auth config GET(s); got %+v",
				tc.name, wantWrites, tc.applyACGets, apply)
		}
		if refresh.get != 1 || refresh.list != 0 || refresh.writes != 0 {
			t.Errorf("%s: refresh: want exactly one GET of the account, no list, no write; got %+v", tc.name, refresh)
		}
	}
}

// TestAccConnectedAccount_badCredentialsSameApply: when the auth config is
// created in the same configuration, auth_config_id is unknown during plan,
// so the credentials are checked in the final plan Terraform makes during
// apply: the apply fails naming the attribute and the fields, and no
// connected account is created (only the auth config is).
func TestAccConnectedAccount_badCredentialsSameApply(t *testing.T) {
	user := acctest.RandomWithPrefix("tf-ca-badsame")
	noAccount := func() {
		accts, err := testAccClient(t).ListConnectedAccounts(context.Background(), client.ConnectedAccountListParams{UserIDs: []string{user}})
		if err != nil {
			t.Fatal(err)
		}
		if len(accts) != 0 {
			t.Fatalf("a connected account was created for %s despite bad credentials: %s", user, accts[0].ID)
		}
	}
	tfresource.ParallelTest(t, tfresource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy: func(s *terraform.State) error {
			noAccount()
			return nil
		},
		Steps: []tfresource.TestStep{
			{
				Config: testAccCAStripeAuthConfig(user) + testAccCAAccount(user, "service_auth_config.stripe.id",
					`credentials_wo = { apikey = "sk_typo" }`),
				ExpectError: testAccErrRe(`Missing required credential fields`, `Attribute credentials_wo is missing`, `"api_key"`,
					`Unknown credential fields`, `"apikey"`),
			},
			{
				// The auth config exists now, the account still not.
				PreConfig: noAccount,
				Config: testAccCAStripeAuthConfig(user) + testAccCAAccount(user, "service_auth_config.stripe.id",
					`credentials = { api_key = "sk_ok", region = "eu" }`),
				ExpectError: testAccErrRe(`Unknown credential fields`, `Attribute credentials has`, `"region"`),
			},
			{
				PreConfig:   noAccount,
				Config:      testAccCAStripeAuthConfig(user) + testAccCAAccount(user, "service_auth_config.stripe.id"),
				ExpectError: testAccErrRe(`Missing credentials`, `"api_key"`, `credentials_wo`),
			},
			{
				PreConfig:   noAccount,
				Config:      testAccCAGitHubAuthConfig(user) + testAccCAAccount(user, "service_auth_config.github.id", `credentials_wo = { api_key = "k" }`),
				ExpectError: testAccErrRe(`Credentials not accepted for OAuth`, `credentials_wo`, `OAUTH2`),
			},
		},
	})
}

// TestConnectedAccountCreate_serviceRejectsCredentials drives Create directly
// with credentials the plan-time check did not see (as when the service's
// fields differ from the toolkit version the provider read): the service
// refuses them before storing anything, and the error is attached to the
// credentials attribute and names the field. Not parallel: it compares the
// emulator's write counter.
func TestConnectedAccountCreate_serviceRejectsCredentials(t *testing.T) {
	testAccRequireEmulator(t)
	ctx := context.Background()
	c := testAccClient(t)
	user := acctest.RandomWithPrefix("tf-ca-svc")
	ac := testAccStripeAPIKeyAuthConfig(t, c, user)

	r, sch := testAccCAResource(ctx, c)

	for _, tc := range []struct {
		attr, scheme string
		creds        map[string]string
		want         *regexp.Regexp
	}{
		{"credentials_wo", "API_KEY", map[string]string{"api_key": "k", "pin": "1"},
			testAccErrRe(`Attribute credentials_wo: the service refused the credential field "pin"`, `connection\.state\.val\.pin is not a field`)},
		{"credentials", "API_KEY", map[string]string{"token": "k"},
			testAccErrRe(`Attribute credentials: the service refused the credential field "api_key"`, `api_key is required`)},
		// Scheme unknown at Create: sent without it, the service validates.
		{"credentials_wo", "", map[string]string{"apikey": "k"},
			testAccErrRe(`credential field "api_key"`, `HTTP status: 400`)},
	} {
		credVals := map[string]attr.Value{}
		for k, v := range tc.creds {
			credVals[k] = types.StringValue(v)
		}
		credMap := types.MapValueMust(types.StringType, credVals)
		m := connectedAccountModel{
			ID: types.StringUnknown(), UserID: types.StringValue(user), AuthConfigID: types.StringValue(ac.ID),
			CallbackURL: types.StringNull(), CredentialsWO: types.MapNull(types.StringType), CredentialsWOVersion: types.Int64Null(),
			Credentials: types.MapNull(types.StringType), AllowMultiple: types.BoolValue(false), HostedLink: types.BoolValue(false),
			WaitForConnection: types.BoolValue(false), Enabled: types.BoolValue(true), DisabledReason: types.StringNull(),
			Timeouts: timeouts.Value{Object: types.ObjectNull(map[string]attr.Type{"create": types.StringType})},
			Status:   types.StringUnknown(), StatusReason: types.StringUnknown(), IsDisabled: types.BoolUnknown(),
			RedirectURL: types.StringUnknown(), Toolkit: types.StringValue("stripe"), AuthScheme: types.StringValue(tc.scheme),
			CreatedAt: types.StringUnknown(), UpdatedAt: types.StringUnknown(),
		}
		if tc.scheme == "" {
			m.AuthScheme = types.StringUnknown()
		}
		cfg := m
		if tc.attr == "credentials_wo" {
			cfg.CredentialsWO = credMap // write-only: in the config, null in the plan
		} else {
			m.Credentials, cfg.Credentials = credMap, credMap
		}
		plan := tfsdk.Plan{Schema: sch, Raw: tftypes.NewValue(sch.Type().TerraformType(ctx), nil)}
		config := tfsdk.Config{Schema: sch, Raw: tftypes.NewValue(sch.Type().TerraformType(ctx), nil)}
		var d diag.Diagnostics
		d.Append(plan.Set(ctx, &m)...)
		st := tfsdk.State{Schema: sch, Raw: tftypes.NewValue(sch.Type().TerraformType(ctx), nil)}
		d.Append(st.Set(ctx, &cfg)...)
		config.Raw = st.Raw
		if d.HasError() {
			t.Fatal(d)
		}

		before := testAccEmulatorWrites(t)
		resp := resource.CreateResponse{State: tfsdk.State{Schema: sch, Raw: tftypes.NewValue(sch.Type().TerraformType(ctx), nil)}}
		r.Create(ctx, resource.CreateRequest{Plan: plan, Config: config}, &resp)
		testAccAssertNoWritesSince(t, before)
		if resp.Diagnostics.ErrorsCount() != 1 {
			t.Fatalf("%s %v: want one error, got %v", tc.attr, tc.creds, resp.Diagnostics)
		}
		e := resp.Diagnostics.Errors()[0]
		ad, ok := e.(diag.DiagnosticWithPath)
		if !ok || !ad.Path().Equal(path.Root(tc.attr)) {
			t.Errorf("%s %v: error not attached to %s: %v", tc.attr, tc.creds, tc.attr, e)
		}
		if !tc.want.MatchString(e.Detail()) {
			t.Errorf("%s %v: detail does not match %s:\n%s", tc.attr, tc.creds, tc.want, e.Detail())
		}
		if !resp.State.Raw.IsNull() {
			t.Errorf("%s %v: state saved although nothing was created", tc.attr, tc.creds)
		}
	}
	accts, err := c.ListConnectedAccounts(ctx, client.ConnectedAccountListParams{UserIDs: []string{user}})
	if err != nil || len(accts) != 0 {
		t.Fatalf("accounts of %s: %v, %v", user, accts, err)
	}
}

// testAccPlanDiagnostics records the diagnostics the provider answers to
// PlanResourceChange for one resource type, so that a test can check the
// warnings of a plan (terraform-plugin-testing checks errors only).
type testAccPlanDiagnostics struct {
	typeName string
	mu       sync.Mutex
	diags    []*tfprotov6.Diagnostic
}

// factories serve the provider with the recording.
func (r *testAccPlanDiagnostics) factories() map[string]func() (tfprotov6.ProviderServer, error) {
	return map[string]func() (tfprotov6.ProviderServer, error){
		"service": func() (tfprotov6.ProviderServer, error) {
			s, err := NewServer("test")()
			if err != nil {
				return nil, err
			}
			return planDiagnosticsServer{s.(protocol.WholeNumbers), r}, nil
		},
	}
}

func (r *testAccPlanDiagnostics) reset() {
	r.mu.Lock()
	r.diags = nil
	r.mu.Unlock()
}

// expectWarning is a plan check passing when, since the last reset, a plan
// of the type warned with summary and a detail matching detail, and no plan
// of the type failed.
func (r *testAccPlanDiagnostics) expectWarning(summary string, detail *regexp.Regexp) plancheck.PlanCheck {
	return planWarningCheck{r, summary, detail}
}

type planWarningCheck struct {
	r       *testAccPlanDiagnostics
	summary string
	detail  *regexp.Regexp
}

func (c planWarningCheck) CheckPlan(_ context.Context, _ plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	c.r.mu.Lock()
	defer c.r.mu.Unlock()
	found := false
	var got []string
	for _, d := range c.r.diags {
		got = append(got, fmt.Sprintf("%v %q: %s", d.Severity, d.Summary, d.Detail))
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			resp.Error = fmt.Errorf("a plan of %s failed: %s: %s", c.r.typeName, d.Summary, d.Detail)
			return
		}
		found = found || d.Severity == tfprotov6.DiagnosticSeverityWarning && d.Summary == c.summary && c.detail.MatchString(d.Detail)
	}
	if !found {
		resp.Error = fmt.Errorf("no plan of %s warned %q with a detail matching %s; diagnostics: %q", c.r.typeName, c.summary, c.detail, got)
	}
}

type planDiagnosticsServer struct {
	protocol.WholeNumbers
	r *testAccPlanDiagnostics
}

func (s planDiagnosticsServer) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	resp, err := s.WholeNumbers.PlanResourceChange(ctx, req)
	if resp != nil && req.TypeName == s.r.typeName {
		s.r.mu.Lock()
		s.r.diags = append(s.r.diags, resp.Diagnostics...)
		s.r.mu.Unlock()
	}
	return resp, err
}

// TestAccConnectedAccount_destroyAfterAuthConfigDeleted: an account whose auth
// config (a literal id) was deleted outside Terraform can still be destroyed,
// even when it is tainted (Terraform's preliminary destroy plan plans its
// replacement as a creation, with no prior state). Replacing plans warn
// instead of failing (the warnings are checked through the provider's plan
// diagnostics); a new account with that id still fails at plan time.
func TestAccConnectedAccount_destroyAfterAuthConfigDeleted(t *testing.T) {
	testAccPreCheck(t)
	user := acctest.RandomWithPrefix("tf-ca-acgone")
	c := testAccClient(t)
	created, err := c.CreateAuthConfig(context.Background(), client.CreateAuthConfigRequest{
		ToolkitSlug: "stripe", Type: client.AuthConfigTypeCustom, AuthScheme: "API_KEY", Name: user,
	})
	if err != nil {
		t.Fatal(err)
	}
	acID := created.ID
	t.Cleanup(func() { _ = testAccDeleteAuthConfig(context.Background(), c, acID) })
	creds := `credentials = { api_key = "sk_test_acgone" }`
	deleteAC := func() {
		if err := testAccDeleteAuthConfig(context.Background(), c, acID); err != nil && !client.IsNotFound(err) {
			t.Fatal(err)
		}
	}
	plans := &testAccPlanDiagnostics{typeName: connectedAccountType}
	unknownAC := regexp.MustCompile(`the service has no auth config "` + regexp.QuoteMeta(acID) + `" \(it was probably deleted outside Terraform\)`)
	tfresource.ParallelTest(t, tfresource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: plans.factories(),
		CheckDestroy:             testAccCheckConnectedAccountDestroy(t),
		Steps: []tfresource.TestStep{
			{
				Config: testAccCAAccount(user, strconvQuote(acID), creds),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("status"), knownvalue.StringExact("ACTIVE")),
				},
			},
			{
				// A replace-forcing change (another user) after the auth config
				// was deleted: the creation half of the replacement warns.
				PreConfig:          func() { deleteAC(); plans.reset() },
				Config:             testAccCAAccount(user+"-b", strconvQuote(acID), creds),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: tfresource.ConfigPlanChecks{PostApplyPreRefresh: []plancheck.PlanCheck{
					plans.expectWarning("Unknown auth config", regexp.MustCompile(unknownAC.String()+`.*This plan replaces an existing connected account\.`)),
				}},
			},
			{
				// Tainted (as after a wait_for_connection timeout): planned as a
				// creation with no prior state; the account still using the
				// auth config marks it as a replacement, so only a warning.
				PreConfig:          plans.reset,
				Taint:              []string{caAddr},
				Config:             testAccCAAccount(user, strconvQuote(acID), creds),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: tfresource.ConfigPlanChecks{PostApplyPreRefresh: []plancheck.PlanCheck{
					plans.expectWarning("Unknown auth config", regexp.MustCompile(unknownAC.String()+
						`.*User "`+regexp.QuoteMeta(user)+`" still has connected account \S+ using it, which this plan replaces`)),
				}},
			},
			{
				// A brand-new account with the deleted auth config: plan-time error.
				Config: testAccCAAccount(user, strconvQuote(acID), creds) +
					strings.Replace(testAccCAAccount(user+"-new", strconvQuote(acID), creds), `"test"`, `"other"`, 1),
				PlanOnly:    true,
				ExpectError: testAccErrRe(`Unknown auth config`, `auth_config_id`, acID),
			},
			// The test's final `terraform destroy` (its preliminary plan
			// replans the tainted account) must succeed: CheckDestroy.
		},
	})
}

// TestAccConnectedAccount_planComputedOnUpdate: enabling, disabling and
// credential rotation plan is_disabled exactly and keep status where the
// operation cannot change it (rotation of a non-ACTIVE account leaves it
// unknown); an update that calls nothing plans every computed value.
func TestAccConnectedAccount_planComputedOnUpdate(t *testing.T) {
	testAccRequireEmulator(t)
	user := acctest.RandomWithPrefix("tf-ca-plan")
	ac := testAccCAStripeAuthConfig(user)
	ref := "service_auth_config.stripe.id"
	cfg := func(version int, extra ...string) string {
		return ac + testAccCAAccount(user, ref, append([]string{`credentials_wo = { api_key = "sk_test_plan" }`,
			fmt.Sprintf("credentials_wo_version = %d", version)}, extra...)...)
	}
	known := func(attr string, v knownvalue.Check) plancheck.PlanCheck {
		return plancheck.ExpectKnownValue(caAddr, tfjsonpath.New(attr), v)
	}
	unknown := func(attr string) plancheck.PlanCheck {
		return plancheck.ExpectUnknownValue(caAddr, tfjsonpath.New(attr))
	}
	update := plancheck.ExpectResourceAction(caAddr, plancheck.ResourceActionUpdate)
	var id string
	tfresource.ParallelTest(t, tfresource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckConnectedAccountDestroy(t),
		Steps: []tfresource.TestStep{
			{
				Config: cfg(1),
				Check:  testAccCAState(&id),
			},
			{
				Config: cfg(1, `enabled = false`, `disabled_reason = "paused"`),
				ConfigPlanChecks: tfresource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{update,
					known("is_disabled", knownvalue.Bool(true)), known("status", knownvalue.StringExact("ACTIVE")),
					unknown("status_reason"), unknown("updated_at")}},
			},
			{
				Config: cfg(1, `enabled = false`, `disabled_reason = "still paused"`),
				ConfigPlanChecks: tfresource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{update,
					known("is_disabled", knownvalue.Bool(true)), known("status", knownvalue.StringExact("ACTIVE"))}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("status_reason"), knownvalue.StringExact("still paused")),
				},
			},
			{
				// Enable and rotate an ACTIVE account at once: stays ACTIVE.
				Config: cfg(2),
				ConfigPlanChecks: tfresource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{update,
					known("is_disabled", knownvalue.Bool(false)), known("status", knownvalue.StringExact("ACTIVE")),
					unknown("updated_at")}},
			},
			{
				// Only a creation-time option changed: nothing is called, so
				// every computed value is planned.
				Config: cfg(2, `wait_for_connection = true`),
				ConfigPlanChecks: tfresource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{update,
					known("is_disabled", knownvalue.Bool(false)), known("status", knownvalue.StringExact("ACTIVE")),
					known("status_reason", knownvalue.Null()), known("updated_at", knownvalue.NotNull())}},
			},
			{
				// Rotation of an EXPIRED account may reactivate it: unknown.
				PreConfig: func() { testAccEmulatorPost(t, "/_emulator/connected_accounts/"+id+"/expire") },
				Config:    cfg(3, `wait_for_connection = true`),
				ConfigPlanChecks: tfresource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{update,
					known("is_disabled", knownvalue.Bool(false)), unknown("status")}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("status"), knownvalue.StringExact("ACTIVE")),
				},
			},
			{
				// Disabling an EXPIRED account keeps it EXPIRED.
				PreConfig: func() { testAccEmulatorPost(t, "/_emulator/connected_accounts/"+id+"/expire") },
				Config:    cfg(3, `wait_for_connection = true`, `enabled = false`),
				ConfigPlanChecks: tfresource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{update,
					known("is_disabled", knownvalue.Bool(true)), known("status", knownvalue.StringExact("EXPIRED"))}},
			},
		},
	})
}

// TestAccConnectedAccount_importIDs: an import id that is not a connected
// account id fails before any API call, naming the kind of id it is.
func TestAccConnectedAccount_importIDs(t *testing.T) {
	user := acctest.RandomWithPrefix("tf-ca-impid")
	cfg := testAccCAStripeAuthConfig(user) + testAccCAAccount(user, "service_auth_config.stripe.id",
		`credentials = { api_key = "sk_test_imp" }`)
	step := func(id string, re *regexp.Regexp) tfresource.TestStep {
		return tfresource.TestStep{Config: cfg, ResourceName: caAddr, ImportState: true, ImportStateId: id, ExpectError: re}
	}
	tfresource.ParallelTest(t, tfresource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckConnectedAccountDestroy(t),
		Steps: []tfresource.TestStep{
			{Config: cfg},
			step("bogus", testAccErrRe(`Invalid import id`, `Expected a connected account id such as ca_AbC123`, `"bogus"`)),
			step("ac_AbC123", testAccErrRe(`Invalid import id`, `which is an auth config id`, `service_auth_config`)),
			step("ti_AbC123", testAccErrRe(`Invalid import id`, `which is a trigger instance id`, `service_trigger_instance`)),
			step("0b9f8e4a-3c2d-4e5f-8a7b-1c2d3e4f5a6b", testAccErrRe(`Invalid import id`, `connected account id`)),
		},
	})
}

func strconvQuote(s string) string { return fmt.Sprintf("%q", s) }

// testAccCheckRevokedOnDelete checks the emulator's revocation log for the
// account captured in v: revoked by its delete (revoke_on_delete=true, with
// the answer's revoke job) when want, else never revoked.
func testAccCheckRevokedOnDelete(t *testing.T, v *testAccValue, want bool) tfresource.TestCheckFunc {
	return func(*terraform.State) error {
		log := testAccRevocationsOf(t, v.v)
		switch {
		case want && (len(log) != 1 || log[0].Via != "delete" || !strings.HasPrefix(log[0].RevokeJobID, "rvk_")):
			return fmt.Errorf("connected account %s: want one revocation by its delete, the emulator logged %+v", v.v, log)
		case !want && len(log) != 0:
			return fmt.Errorf("connected account %s was deleted without revoke_on_delete, yet the emulator logged %+v", v.v, log)
		}
		return nil
	}
}

// TestAccConnectedAccount_revokeOnDelete: with revoke_on_delete = true, the
// delete half of a replacement and the final destroy send
// revoke_on_delete=true (the emulator logs the revocation); an account
// deleted with the default false is not revoked. Changing revoke_on_delete
// is an in-place update that writes nothing (updated_at unchanged).
func TestAccConnectedAccount_revokeOnDelete(t *testing.T) {
	testAccRequireEmulator(t) // the revocation log is the emulator's
	user := acctest.RandomWithPrefix("tf-ca-revoke")
	ac := testAccCAStripeAuthConfig(user)
	ref := "service_auth_config.stripe.id"
	plain := func(extra string) string {
		return fmt.Sprintf(`
resource "service_connected_account" "plain" {
  user_id        = "%s-plain"
  auth_config_id = service_auth_config.stripe.id
  credentials    = { api_key = "sk_plain" }
  %s
}
`, user, extra)
	}
	const plainAddr = "service_connected_account.plain"
	first, second, plainID := &testAccValue{}, &testAccValue{}, &testAccValue{}
	plainUpdatedAt := statecheck.CompareValue(compare.ValuesSame())
	tfresource.ParallelTest(t, tfresource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy: func(s *terraform.State) error {
			if err := testAccCheckConnectedAccountDestroy(t)(s); err != nil {
				return err
			}
			return testAccCheckRevokedOnDelete(t, second, true)(s)
		},
		Steps: []tfresource.TestStep{
			{
				Config: ac + testAccCAAccount(user, ref, `credentials = { api_key = "sk_1" }`, `revoke_on_delete = true`) + plain(""),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("revoke_on_delete"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(plainAddr, tfjsonpath.New("revoke_on_delete"), knownvalue.Bool(false)),
					plainUpdatedAt.AddStateValue(plainAddr, tfjsonpath.New("updated_at")),
				},
				Check: tfresource.ComposeTestCheckFunc(first.capture(caAddr, "id"), plainID.capture(plainAddr, "id")),
			},
			{
				// A replace-forcing change: the delete half revokes.
				Config: ac + testAccCAAccount(user+"-b", ref, `credentials = { api_key = "sk_1" }`, `revoke_on_delete = true`) + plain(""),
				ConfigPlanChecks: tfresource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(caAddr, plancheck.ResourceActionReplace),
				}},
				Check: tfresource.ComposeTestCheckFunc(second.capture(caAddr, "id"), testAccCheckRevokedOnDelete(t, first, true),
					testAccCheckRevokedOnDelete(t, second, false)),
			},
			{
				Config: ac + testAccCAAccount(user+"-b", ref, `credentials = { api_key = "sk_1" }`, `revoke_on_delete = true`) +
					plain(`revoke_on_delete = true`),
				ConfigPlanChecks: tfresource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(plainAddr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(plainAddr, tfjsonpath.New("revoke_on_delete"), knownvalue.Bool(true)),
					plainUpdatedAt.AddStateValue(plainAddr, tfjsonpath.New("updated_at")),
				},
			},
			{
				Config: ac + testAccCAAccount(user+"-b", ref, `credentials = { api_key = "sk_1" }`, `revoke_on_delete = true`) +
					plain(`revoke_on_delete = false`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(plainAddr, tfjsonpath.New("revoke_on_delete"), knownvalue.Bool(false)),
				},
			},
			{
				// Deleted with revoke_on_delete = false: not revoked.
				Config: ac + testAccCAAccount(user+"-b", ref, `credentials = { api_key = "sk_1" }`, `revoke_on_delete = true`),
				Check:  testAccCheckRevokedOnDelete(t, plainID, false),
			},
		},
	})
}

func TestAccIdentity_connectedAccount(t *testing.T) {
	t.Parallel()
	user := acctest.RandomWithPrefix("tf-acc-ident-ca")
	ac := testAccCAStripeAuthConfig(user)
	ref := "service_auth_config.stripe.id"
	testAccIdentity(t, identityCase{
		addr: caAddr, idRe: regexp.MustCompile(`^ca_\S+$`),
		create: ac + testAccCAAccount(user, ref, `credentials_wo = { api_key = "sk_test_first" }`, `credentials_wo_version = 1`),
		update: ac + testAccCAAccount(user, ref, `credentials_wo = { api_key = "sk_test_second" }`, `credentials_wo_version = 2`),
		remove: func(ctx context.Context, c *client.Client, id string) error { return c.DeleteConnectedAccount(ctx, id) },
		gone:   func(t *testing.T) tfresource.TestCheckFunc { return testAccCheckConnectedAccountDestroy(t) },
		// An import cannot read the key back: credentials_wo_version plans
		// an update that sends it again (documented in the import guide).
		importNE: true,
	})
}

// testAccCAServiceAlias checks the alias the service holds for the account
// at caAddr ("" for none: null on the wire).
func testAccCAServiceAlias(t *testing.T, want string) tfresource.TestCheckFunc {
	return func(s *terraform.State) error {
		id, err := testAccCAID(s, caAddr)
		if err != nil {
			return err
		}
		a, err := testAccClient(t).GetConnectedAccount(context.Background(), id)
		if err != nil {
			return err
		}
		got := ""
		if a.Alias != nil {
			if *a.Alias == "" {
				return fmt.Errorf("the service reports alias \"\" for %s, want null", id)
			}
			got = *a.Alias
		}
		if got != want {
			return fmt.Errorf("the service holds alias %q for %s, want %q", got, id, want)
		}
		return nil
	}
}

// TestAccConnectedAccount_alias: an alias is set at creation, changed in
// place, cleared by removing it (the service then reads null) and set again,
// each an in-place update of the same account that plans status unchanged;
// an import reads it back; the service_connected_accounts data source lists
// it.
func TestAccConnectedAccount_alias(t *testing.T) {
	user := acctest.RandomWithPrefix("tf-ca-alias")
	ac := testAccCAGitHubAuthConfig(user)
	ref := "service_auth_config.github.id"
	sameID := statecheck.CompareValue(compare.ValuesSame())
	ds := fmt.Sprintf(`
data "service_connected_accounts" "user" {
  user_ids   = [%q]
  depends_on = [service_connected_account.test]
}
`, user)
	updateKeepingStatus := tfresource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
		plancheck.ExpectResourceAction(caAddr, plancheck.ResourceActionUpdate),
		plancheck.ExpectKnownValue(caAddr, tfjsonpath.New("status"), knownvalue.StringExact("INITIATED")),
	}}
	tfresource.ParallelTest(t, tfresource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckConnectedAccountDestroy(t),
		Steps: []tfresource.TestStep{
			{
				Config:      ac + testAccCAAccount(user, ref, `alias = "  "`),
				ExpectError: testAccErrRe(`Invalid text`, `Attribute alias`, `is blank`, `leave the attribute out`),
			},
			{
				Config: ac + testAccCAAccount(user, ref, `alias = "work"`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("alias"), knownvalue.StringExact("work")),
					sameID.AddStateValue(caAddr, tfjsonpath.New("id")),
				},
				Check: testAccCAServiceAlias(t, "work"),
			},
			{
				Config:           ac + testAccCAAccount(user, ref, `alias = "personal"`),
				ConfigPlanChecks: updateKeepingStatus,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("alias"), knownvalue.StringExact("personal")),
					sameID.AddStateValue(caAddr, tfjsonpath.New("id")),
				},
				Check: testAccCAServiceAlias(t, "personal"),
			},
			{
				// Removed from the configuration: cleared on the service.
				Config:           ac + testAccCAAccount(user, ref),
				ConfigPlanChecks: updateKeepingStatus,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("alias"), knownvalue.Null()),
					sameID.AddStateValue(caAddr, tfjsonpath.New("id")),
				},
				Check: testAccCAServiceAlias(t, ""),
			},
			{
				Config:           ac + testAccCAAccount(user, ref, `alias = "work"`) + ds,
				ConfigPlanChecks: updateKeepingStatus,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("alias"), knownvalue.StringExact("work")),
					sameID.AddStateValue(caAddr, tfjsonpath.New("id")),
					statecheck.ExpectKnownValue("data.service_connected_accounts.user", tfjsonpath.New("accounts").AtSliceIndex(0).AtMapKey("alias"),
						knownvalue.StringExact("work")),
				},
				Check: testAccCAServiceAlias(t, "work"),
			},
			testAccImportStep(caAddr, caImportIgnore...),
			{
				// An alias set outside Terraform shows as a change back.
				PreConfig: func() {
					c := testAccClient(t)
					accounts, err := c.ListConnectedAccounts(context.Background(), client.ConnectedAccountListParams{UserIDs: []string{user}})
					if err != nil || len(accounts) != 1 {
						t.Fatalf("listing the user's account: %v (%d accounts)", err, len(accounts))
					}
					if err := c.UpdateConnectedAccount(context.Background(), accounts[0].ID, client.ConnectedAccountUpdate{Alias: ptrTo("drifted")}); err != nil {
						t.Fatal(err)
					}
				},
				Config:             ac + testAccCAAccount(user, ref, `alias = "work"`) + ds,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			{
				Config: ac + testAccCAAccount(user, ref, `alias = "work"`) + ds,
				Check:  testAccCAServiceAlias(t, "work"),
			},
		},
	})
}

func ptrTo[T any](v T) *T { return &v }

// TestAccConnectedAccount_importKeepsDefaults: an account created with an
// alias and revoke_on_delete = true on an auth config with revoke_on_delete =
// true, each imported (by identity and by id, import blocks) into a
// configuration that leaves revoke_on_delete out: the import reads the alias
// back and sets revoke_on_delete to its default (the service never reports
// it), so the plan is empty. Terraform 1.12+ (identity).
func TestAccConnectedAccount_importKeepsDefaults(t *testing.T) {
	user := acctest.RandomWithPrefix("tf-ca-impdef")
	ac := testAccCAGitHubAuthConfig(user)
	ref := "service_auth_config.github.id"
	imported := ac + testAccCAAccount(user, ref, `alias = "work"`)
	const acAddr = "service_auth_config.github"
	acRevoking := fmt.Sprintf(`
resource "service_auth_config" "github" {
  toolkit          = "github"
  name             = %q
  revoke_on_delete = true
}
`, user)
	tfresource.ParallelTest(t, tfresource.TestCase{
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)},
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckConnectedAccountDestroy(t),
		Steps: []tfresource.TestStep{
			{
				Config: acRevoking + testAccCAAccount(user, ref, `alias = "work"`, `revoke_on_delete = true`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(caAddr, tfjsonpath.New("revoke_on_delete"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(acAddr, tfjsonpath.New("revoke_on_delete"), knownvalue.Bool(true)),
				},
			},
			{
				ResourceName: acAddr, ImportState: true, ImportStateKind: tfresource.ImportBlockWithResourceIdentity,
				Config: imported,
				ImportPlanChecks: tfresource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(acAddr, plancheck.ResourceActionNoop),
					plancheck.ExpectKnownValue(acAddr, tfjsonpath.New("revoke_on_delete"), knownvalue.Bool(false)),
				}},
			},
			{
				ResourceName: acAddr, ImportState: true, ImportStateKind: tfresource.ImportBlockWithID,
				Config: imported,
				ImportPlanChecks: tfresource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(acAddr, plancheck.ResourceActionNoop),
					plancheck.ExpectKnownValue(acAddr, tfjsonpath.New("revoke_on_delete"), knownvalue.Bool(false)),
				}},
			},
			{
				ResourceName: caAddr, ImportState: true, ImportStateKind: tfresource.ImportBlockWithResourceIdentity,
				Config: imported,
				ImportPlanChecks: tfresource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(caAddr, plancheck.ResourceActionNoop),
					plancheck.ExpectKnownValue(caAddr, tfjsonpath.New("revoke_on_delete"), knownvalue.Bool(false)),
					plancheck.ExpectKnownValue(caAddr, tfjsonpath.New("alias"), knownvalue.StringExact("work")),
				}},
			},
			{
				ResourceName: caAddr, ImportState: true, ImportStateKind: tfresource.ImportBlockWithID,
				Config: imported,
				ImportPlanChecks: tfresource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(caAddr, plancheck.ResourceActionNoop),
					plancheck.ExpectKnownValue(caAddr, tfjsonpath.New("revoke_on_delete"), knownvalue.Bool(false)),
				}},
			},
		},
	})
}

// TestAccConnectedAccount_aliasDuplicate: an alias another account of the
// same user and toolkit has is refused with nothing written, naming `alias`
// and the account that has it:
//   - at plan, for a new account on another auth config of the toolkit and
//     for a change in place;
//   - at plan, for two resources of one plan giving the user the same alias;
//   - at apply, before the write, for a new account on the same auth config
//     (the plan only warns: it may be a tainted account being replaced) and
//     for a user_id that is not known at plan.
//
// Not parallel: it compares the emulator's write counter.
func TestAccConnectedAccount_aliasDuplicate(t *testing.T) {
	testAccRequireEmulator(t)
	ctx := context.Background()
	c := testAccClient(t)
	user := acctest.RandomWithPrefix("tf-ca-dupalias")
	newAC := func() string {
		ac := testAccStripeAPIKeyAuthConfig(t, c, user)
		return ac.ID
	}
	first, second := newAC(), newAC()
	holder, err := c.InitiateConnectedAccount(ctx, client.InitiateConnectedAccountRequest{AuthConfigID: first, UserID: user, Alias: "work",
		State: &client.ConnectionState{AuthScheme: "API_KEY", Val: map[string]any{"api_key": "sk_holder"}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.DeleteConnectedAccount(context.Background(), holder.ID) })
	account := func(name, userExpr, acID string, extra string) string {
		return fmt.Sprintf(`
resource "service_connected_account" %q {
  user_id        = %s
  auth_config_id = %q
  credentials    = { api_key = "sk_%s" }
  %s
}
`, name, userExpr, acID, name, extra)
	}
	q := func(s string) string { return fmt.Sprintf("%q", s) }
	taken := func(where string) *regexp.Regexp {
		return testAccErrRe(`Alias already used`, `Attribute alias: user "`+user+`" already has connected account `+holder.ID,
			`on toolkit "stripe" with the alias "work"`, where)
	}
	// run runs steps and checks that nothing was written, and that no
	// create was even sent (the provider refused before the write, rather
	// than leaving it to the service).
	run := func(name string, steps ...tfresource.TestStep) {
		t.Helper()
		before := testAccEmulatorStatsNow(t)
		tfresource.Test(t, tfresource.TestCase{
			PreCheck:                 func() { testAccPreCheck(t) },
			ProtoV6ProviderFactories: testAccProviders(t),
			Steps:                    steps,
		})
		after := testAccEmulatorStatsNow(t)
		if after.Writes != before.Writes {
			t.Errorf("%s: the emulator counted %d writes, want none", name, after.Writes-before.Writes)
		}
		if n := after.Requests[routeInitiateAccount] - before.Requests[routeInitiateAccount]; n != 0 {
			t.Errorf("%s: %d connected account creates were sent, want none", name, n)
		}
	}

	run("new account, another auth config", tfresource.TestStep{
		Config:      account("test", q(user), second, `alias = "work"`),
		ExpectError: taken(`The plan stops here: nothing was created or changed`),
	})
	run("two accounts of one plan", tfresource.TestStep{
		Config: account("test", q(user+"-b"), second, `alias = "home"`) +
			account("other", q(user+"-b"), first, `alias = "home"`+"\n  allow_multiple = true"),
		ExpectError: testAccErrRe(`Same alias as another connected account`, `user "`+user+`-b"`, `toolkit "stripe"`, `alias "home"`),
	})
	run("new account, same auth config: refused at apply before the write", tfresource.TestStep{
		Config:      account("test", q(user), first, `alias = "work"`+"\n  allow_multiple = true"),
		ExpectError: taken(`No connected account was created`),
	})
	run("user_id unknown at plan: refused at apply before the write", tfresource.TestStep{
		Config: fmt.Sprintf(`
resource "terraform_data" "user" {
  input = %q
}
`, user) + account("test", "terraform_data.user.output", second, `alias = "work"`),
		ExpectError: taken(`nothing was created or changed`),
	})

	// A change in place to the taken alias: refused at plan, nothing written.
	var before int
	tfresource.Test(t, tfresource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckConnectedAccountDestroy(t),
		Steps: []tfresource.TestStep{
			{Config: account("test", q(user), second, `alias = "personal"`)},
			{
				PreConfig:   func() { before = testAccEmulatorWrites(t) },
				Config:      account("test", q(user), second, `alias = "work"`),
				ExpectError: taken(`The plan stops here: nothing was created or changed`),
			},
			{
				PreConfig: func() { testAccAssertNoWritesSince(t, before) },
				Config:    account("test", q(user), second, `alias = "personal"`),
				PlanOnly:  true,
			},
		},
	})
}

// TestConnectedAccountUpdate_aliasRefusedByService: when the service refuses
// an alias at apply (another account got it after the plan), Update reports
// it on `alias`, naming the account that has it (one listing finds it), with
// the service's message and request id, and writes nothing.
func TestConnectedAccountUpdate_aliasRefusedByService(t *testing.T) {
	testAccRequireEmulator(t)
	ctx := context.Background()
	c := testAccClient(t)
	user := acctest.RandomWithPrefix("tf-ca-aliasapply")
	ac := testAccStripeAPIKeyAuthConfig(t, c, user)
	newAccount := func(alias string) *client.ConnectedAccount {
		cr, err := c.InitiateConnectedAccount(ctx, client.InitiateConnectedAccountRequest{AuthConfigID: ac.ID, UserID: user, Alias: alias,
			State: &client.ConnectionState{AuthScheme: "API_KEY", Val: map[string]any{"api_key": "sk_" + alias}}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.DeleteConnectedAccount(context.Background(), cr.ID) })
		a, err := c.GetConnectedAccount(ctx, cr.ID)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	holder, mine := newAccount("work"), newAccount("personal")

	r, sch := testAccCAResource(ctx, c)
	var state connectedAccountModel
	state.fill(ctx, mine) // no user_id yet: as after an import
	state.UserID, state.AuthConfigID = types.StringValue(user), types.StringValue(ac.ID)
	state.Timeouts = timeouts.Value{Object: types.ObjectNull(map[string]attr.Type{"create": types.StringType})}
	state.CredentialsWO, state.Credentials = types.MapNull(types.StringType), types.MapNull(types.StringType)
	plan := state
	plan.Alias = types.StringValue("work")
	raw := func(m connectedAccountModel) tftypes.Value {
		st := tfsdk.State{Schema: sch, Raw: tftypes.NewValue(sch.Type().TerraformType(ctx), nil)}
		if d := st.Set(ctx, &m); d.HasError() {
			t.Fatal(d)
		}
		return st.Raw
	}
	before := testAccEmulatorWrites(t)
	resp := resource.UpdateResponse{State: tfsdk.State{Schema: sch, Raw: raw(state)}}
	r.Update(ctx, resource.UpdateRequest{
		Plan:   tfsdk.Plan{Schema: sch, Raw: raw(plan)},
		Config: tfsdk.Config{Schema: sch, Raw: raw(plan)},
		State:  tfsdk.State{Schema: sch, Raw: raw(state)},
	}, &resp)
	testAccAssertNoWritesSince(t, before)
	if resp.Diagnostics.ErrorsCount() != 1 {
		t.Fatalf("want one error, got %v", resp.Diagnostics)
	}
	e := resp.Diagnostics.Errors()[0]
	if ad, ok := e.(diag.DiagnosticWithPath); !ok || !ad.Path().Equal(path.Root("alias")) {
		t.Errorf("error not attached to alias: %v", e)
	}
	want := testAccErrRe(`Attribute alias: user "`+user+`" already has connected account `+holder.ID, `with the alias "work"`,
		`The alias was not changed`, `HTTP status: 409`, `Request ID: req_`)
	if !want.MatchString(e.Detail()) {
		t.Errorf("detail does not match %s:\n%s", want, e.Detail())
	}
	if a, err := c.GetConnectedAccount(ctx, mine.ID); err != nil || a.Alias == nil || *a.Alias != "personal" {
		t.Errorf("the refused update changed the alias: %v %v", a, err)
	}
}

// TestAccE2E_accountMissingFieldOnNewAuthConfig: an account on a new custom
// API_KEY auth config for okta, whose accounts need api_key and subdomain.
// The credentials cannot be checked at plan (the auth config, hence its
// toolkit and scheme, does not exist yet); the final plan during apply checks
// them once the auth config exists and stops before the account is written,
// naming the missing field; `terraform destroy` then succeeds.
func TestAccE2E_accountMissingFieldOnNewAuthConfig(t *testing.T) {
	t.Parallel()
	name := acctest.RandomWithPrefix("tf-acc-okta")
	e2eApplyStopsThenDestroys(t, e2eAPIKeyAccountConfig("okta", name, "00abc"), []string{"service_auth_config.okta"},
		"Missing required credential fields", `"subdomain"`, `toolkit "okta", scheme API_KEY`)
}
