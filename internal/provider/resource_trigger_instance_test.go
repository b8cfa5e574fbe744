package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/provider/importid"
)

// testAccTriggerAccount creates an ACTIVE connected account for userID on
// toolkit through the client (one auth config per call) and deletes both when
// the test ends. stripe and linear use a custom API_KEY auth config with a
// pre-filled api_key; github uses managed OAuth with a pre-filled token.
func testAccTriggerAccount(t *testing.T, toolkit, userID string) (authConfigID, accountID string) {
	t.Helper()
	ctx := context.Background()
	c := testAccClient(t)
	req := client.CreateAuthConfigRequest{ToolkitSlug: toolkit, Name: acctest.RandomWithPrefix("tf-acc-trigger")}
	state := &client.ConnectionState{}
	switch toolkit {
	case "github":
		req.Type = client.AuthConfigTypeManaged
		state.AuthScheme, state.Val = "OAUTH2", map[string]any{"access_token": "gho_acceptance", "token_type": "bearer"}
	default:
		req.Type, req.AuthScheme, req.Credentials = client.AuthConfigTypeCustom, "API_KEY", map[string]any{}
		state.AuthScheme, state.Val = "API_KEY", map[string]any{"api_key": "sk_test_acceptance"}
	}
	ac, err := c.CreateAuthConfig(ctx, req)
	if err != nil {
		t.Fatalf("creating %s auth config: %v", toolkit, err)
	}
	t.Cleanup(func() { _ = testAccDeleteAuthConfig(context.Background(), c, ac.ID) })
	conn, err := c.InitiateConnectedAccount(ctx, client.InitiateConnectedAccountRequest{AuthConfigID: ac.ID, UserID: userID, State: state})
	if err != nil {
		t.Fatalf("creating %s connected account: %v", toolkit, err)
	}
	t.Cleanup(func() { _ = c.DeleteConnectedAccount(context.Background(), conn.ID) })
	a, err := c.GetConnectedAccount(ctx, conn.ID)
	if err != nil || a.Status != "ACTIVE" {
		t.Fatalf("connected account %s: %+v, %v", conn.ID, a, err)
	}
	return ac.ID, conn.ID
}

// testAccCheckTriggerInstanceDestroy verifies every trigger instance in the
// state is gone (404 through the client).
func testAccCheckTriggerInstanceDestroy(t *testing.T) resource.TestCheckFunc {
	return testAccCheckDestroyed(t, triggerInstanceType, "trigger instance", func(ctx context.Context, c *client.Client, id string) error {
		_, err := c.GetTriggerInstance(ctx, id)
		return err
	})
}

func testAccTriggerInstanceConfig(userID, accountID, triggerConfig string, enabled bool) string {
	account := ""
	if accountID != "" {
		account = fmt.Sprintf("\n  connected_account_id = %q", accountID)
	}
	return fmt.Sprintf(`
resource "service_trigger_instance" "test" {
  user_id        = %q
  slug           = "GITHUB_COMMIT_EVENT"%s
  trigger_config = %s
  enabled        = %t
}
`, userID, account, triggerConfig, enabled)
}

func TestAccTriggerInstance_lifecycle(t *testing.T) {
	t.Parallel()
	testAccPreCheck(t)
	user := acctest.RandomWithPrefix("tf-acc-trig-user")
	_, accountID := testAccTriggerAccount(t, "github", user)
	c := testAccClient(t)
	name := "service_trigger_instance.test"
	holder := &testAccValue{}
	first := &testAccValue{}

	cfg := `jsonencode({ owner = "octo", repo = "hello", branch = "main" })`
	// Same document: other key order and whitespace.
	reformatted := "<<-EOT\n    {\"repo\": \"hello\",\n      \"branch\":\"main\", \"owner\" : \"octo\"}\n  EOT"

	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckTriggerInstanceDestroy(t),
		Steps: []resource.TestStep{
			// Create with an explicit account; branch is valid at the latest version.
			{
				Config: testAccTriggerInstanceConfig(user, accountID, cfg, true),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(name, tfjsonpath.New("id"), knownvalue.StringRegexp(regexp.MustCompile(`^ti_`))),
					statecheck.ExpectKnownValue(name, tfjsonpath.New("connected_account_id"), knownvalue.StringExact(accountID)),
					statecheck.ExpectKnownValue(name, tfjsonpath.New("user_id"), knownvalue.StringExact(user)),
					statecheck.ExpectKnownValue(name, tfjsonpath.New("toolkit"), knownvalue.StringExact("github")),
					statecheck.ExpectKnownValue(name, tfjsonpath.New("toolkit_version"), knownvalue.StringExact("20251015_00")),
					statecheck.ExpectKnownValue(name, tfjsonpath.New("enabled"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(name, tfjsonpath.New("disabled_at"), knownvalue.Null()),
					statecheck.ExpectKnownValue(name, tfjsonpath.New("updated_at"), testAccTimestamp),
					statecheck.ExpectKnownValue(name, tfjsonpath.New("trigger_config"),
						knownvalue.StringExact(`{"branch":"main","owner":"octo","repo":"hello"}`)),
				},
				Check: first.capture(name, "id"),
			},
			// Key order and whitespace never cause a diff.
			{
				Config: testAccTriggerInstanceConfig(user, accountID, reformatted, true),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			// Disable in place.
			{
				Config: testAccTriggerInstanceConfig(user, accountID, cfg, false),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(name, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(name, tfjsonpath.New("enabled"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(name, tfjsonpath.New("disabled_at"), testAccTimestamp),
				},
				Check: func(s *terraform.State) error {
					if got := s.RootModule().Resources[name].Primary.ID; got != first.v {
						return fmt.Errorf("disable replaced the instance: %s -> %s", first.v, got)
					}
					ti, err := c.GetTriggerInstance(context.Background(), first.v)
					if err != nil {
						return err
					}
					if !ti.IsDisabled() {
						return fmt.Errorf("want disabled on the service: %+v", ti)
					}
					return nil
				},
			},
			// Enable again in place.
			{
				Config: testAccTriggerInstanceConfig(user, accountID, cfg, true),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(name, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(name, tfjsonpath.New("enabled"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(name, tfjsonpath.New("disabled_at"), knownvalue.Null()),
				},
			},
			// Import by id.
			testAccImportStep(name),
			// Import with an import {} block.
			{
				ResourceName:    name,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithID,
			},
			// Out-of-band disable: the plan re-enables in place.
			{
				PreConfig: func() {
					if err := c.DisableTrigger(context.Background(), first.v); err != nil {
						t.Fatal(err)
					}
				},
				Config: testAccTriggerInstanceConfig(user, accountID, cfg, true),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(name, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(name, tfjsonpath.New("enabled"), knownvalue.Bool(true)),
				},
			},
			// Out-of-band delete: recreated.
			{
				PreConfig: func() {
					if err := c.DeleteTrigger(context.Background(), first.v); err != nil {
						t.Fatal(err)
					}
				},
				Config: testAccTriggerInstanceConfig(user, accountID, cfg, true),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(name, plancheck.ResourceActionCreate)},
				},
				Check: holder.capture(name, "id"),
			},
			// A different configuration replaces the instance.
			{
				Config: testAccTriggerInstanceConfig(user, accountID, `jsonencode({ owner = "octo", repo = "other" })`, true),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(name, plancheck.ResourceActionDestroyBeforeCreate)},
				},
				Check: func(s *terraform.State) error {
					_, err := c.GetTriggerInstance(context.Background(), holder.v)
					if err == nil {
						return fmt.Errorf("replaced instance %s still exists", holder.v)
					}
					if !client.IsNotFound(err) {
						return err
					}
					return nil
				},
			},
		},
	})
}

// TestAccTriggerInstance_autoAccount omits connected_account_id: the first
// ACTIVE account of the user on the trigger's toolkit is used, and removing
// or restating that id later plans nothing.
func TestAccTriggerInstance_autoAccount(t *testing.T) {
	t.Parallel()
	testAccPreCheck(t)
	user := acctest.RandomWithPrefix("tf-acc-trig-auto")
	_, accountID := testAccTriggerAccount(t, "stripe", user)
	name := "service_trigger_instance.test"
	config := fmt.Sprintf(`
resource "service_trigger_instance" "test" {
  user_id = %q
  slug    = "STRIPE_CHARGE_SUCCEEDED_TRIGGER"
}
`, user)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckTriggerInstanceDestroy(t),
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(name, tfjsonpath.New("connected_account_id"), knownvalue.StringExact(accountID)),
					statecheck.ExpectKnownValue(name, tfjsonpath.New("trigger_config"), knownvalue.StringExact("{}")),
					statecheck.ExpectKnownValue(name, tfjsonpath.New("toolkit"), knownvalue.StringExact("stripe")),
					statecheck.ExpectKnownValue(name, tfjsonpath.New("enabled"), knownvalue.Bool(true)),
				},
			},
			// Stating the chosen account explicitly changes nothing.
			{
				Config: fmt.Sprintf(`
resource "service_trigger_instance" "test" {
  user_id              = %q
  slug                 = "STRIPE_CHARGE_SUCCEEDED_TRIGGER"
  connected_account_id = %q
  trigger_config       = "{}"
}
`, user, accountID),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			testAccImportStep(name),
			// Created disabled.
			{
				Config: fmt.Sprintf(`
resource "service_trigger_instance" "test" {
  user_id        = %q
  slug           = "STRIPE_CHARGE_SUCCEEDED_TRIGGER"
  trigger_config = jsonencode({ min_amount = 500 })
  enabled        = false
}
`, user),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(name, plancheck.ResourceActionDestroyBeforeCreate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(name, tfjsonpath.New("enabled"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(name, tfjsonpath.New("disabled_at"), testAccTimestamp),
					statecheck.ExpectKnownValue(name, tfjsonpath.New("connected_account_id"), knownvalue.StringExact(accountID)),
				},
			},
		},
	})
}

// TestAccTriggerInstance_accountErrors: a user without an ACTIVE account on
// the toolkit, or an account of another user, is reported on
// connected_account_id.
func TestAccTriggerInstance_accountErrors(t *testing.T) {
	t.Parallel()
	testAccPreCheck(t)
	owner := acctest.RandomWithPrefix("tf-acc-trig-owner")
	_, accountID := testAccTriggerAccount(t, "stripe", owner)
	nobody := acctest.RandomWithPrefix("tf-acc-trig-nobody")
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps: []resource.TestStep{
			{
				Config: fmt.Sprintf(`
resource "service_trigger_instance" "test" {
  user_id = %q
  slug    = "STRIPE_CHARGE_SUCCEEDED_TRIGGER"
}
`, nobody),
				ExpectError: regexp.MustCompile(`(?s)connected_account_id.*no\s+ACTIVE`),
			},
			{
				Config: fmt.Sprintf(`
resource "service_trigger_instance" "test" {
  user_id              = %q
  slug                 = "STRIPE_CHARGE_SUCCEEDED_TRIGGER"
  connected_account_id = %q
}
`, nobody, accountID),
				ExpectError: regexp.MustCompile(`(?s)connected_account_id.*belongs\s+to\s+user`),
			},
		},
	})
}

// TestAccTriggerInstance_planTimeChecks: bad input fails during plan, names
// the attribute, and writes nothing. Not parallel: it compares the
// emulator's process-wide counters.
func TestAccTriggerInstance_planTimeChecks(t *testing.T) {
	testAccRequireEmulator(t)
	testAccPreCheck(t)
	user := acctest.RandomWithPrefix("tf-acc-trig-plan")
	before := testAccEmulatorWrites(t)
	var typeGets int

	three := ""
	for i := range 3 {
		three += fmt.Sprintf(`
resource "service_trigger_instance" "t%d" {
  user_id        = %q
  slug           = "GITHUB_STAR_ADDED_EVENT"
  trigger_config = jsonencode({ owner = "o" })
}
`, i, user)
	}

	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps: []resource.TestStep{
			// Missing required field.
			{
				Config:      testAccTriggerInstanceConfig(user, "", `jsonencode({ owner = "o" })`, true),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)trigger_config.*field\s+"repo"\s+is\s+required`),
			},
			// Wrong type.
			{
				Config:      testAccTriggerInstanceConfig(user, "", `jsonencode({ owner = "o", repo = 5 })`, true),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)trigger_config.*field\s+"repo"\s+must\s+be\s+a\s+string`),
			},
			// Not a JSON object (validate time).
			{
				Config:      testAccTriggerInstanceConfig(user, "", `jsonencode(["owner"])`, true),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)trigger_config.*must\s+be\s+a\s+JSON\s+object`),
			},
			// Unknown trigger type.
			{
				Config: fmt.Sprintf(`
resource "service_trigger_instance" "test" {
  user_id = %q
  slug    = "GITHUB_NO_SUCH_EVENT"
}
`, user),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Unknown\s+trigger\s+type.*slug.*GITHUB_NO_SUCH_EVENT`),
			},
			// Not upper snake case (validate time).
			{
				Config: fmt.Sprintf(`
resource "service_trigger_instance" "test" {
  user_id = %q
  slug    = "github_commit_event"
}
`, user),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)slug.*upper\s+snake\s+case`),
			},
			// Bad version string in the provider configuration.
			{
				Config: `
provider "service" {
  toolkit_versions = { github = "2025-09-01" }
}
` + testAccTriggerInstanceConfig(user, "", `jsonencode({ owner = "o", repo = "r" })`, true),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)toolkit_versions.*invalid\s+toolkit\s+version\s+"2025-09-01"`),
			},
			// branch exists at the latest version only: a pin rejects it, naming the field.
			{
				Config: `
provider "service" {
  toolkit_versions = { github = "20250901_00" }
}
` + testAccTriggerInstanceConfig(user, "", `jsonencode({ owner = "o", repo = "r", branch = "main" })`, true),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)trigger_config.*field\s+"branch"\s+is\s+not\s+an\s+allowed\s+property.*20250901_00`),
			},
			// The same document plans at the latest version (no account needed to plan).
			{
				Config:             testAccTriggerInstanceConfig(user, "", `jsonencode({ owner = "o", repo = "r", branch = "main" })`, true),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			// Two resources for the same instance (the service upserts).
			{
				Config: fmt.Sprintf(`
resource "service_trigger_instance" "a" {
  user_id        = %[1]q
  slug           = "GITHUB_STAR_ADDED_EVENT"
  trigger_config = jsonencode({ owner = "o", repo = "r" })
}
resource "service_trigger_instance" "b" {
  user_id        = %[1]q
  slug           = "GITHUB_STAR_ADDED_EVENT"
  trigger_config = "{\"repo\": \"r\",   \"owner\": \"o\"}"
  enabled        = false
}
`, user),
				PlanOnly:    true,
				ExpectError: testAccErrRe(`Same trigger instance as another resource`, `Attribute trigger_config`, `GITHUB_STAR_ADDED_EVENT`),
			},
			// Three resources of one type: the type is fetched once per provider run.
			{
				PreConfig: func() {
					typeGets = testAccEmulatorStatsNow(t).Requests[routeGetTriggerType]
				},
				Config:      three,
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)field\s+"repo"\s+is\s+required`),
			},
		},
	})
	if got := testAccEmulatorStatsNow(t).Requests[routeGetTriggerType] - typeGets; got != 1 {
		t.Errorf("want the trigger type fetched once for three resources in one plan, got %d GETs", got)
	}
	testAccAssertNoWritesSince(t, before)
}

// TestAccTriggerInstance_readCost: a refresh reads a trigger instance with
// exactly one GET. Not parallel: it compares the emulator's counters.
func TestAccTriggerInstance_readCost(t *testing.T) {
	testAccRequireEmulator(t)
	testAccPreCheck(t)
	user := acctest.RandomWithPrefix("tf-acc-trig-read")
	_, accountID := testAccTriggerAccount(t, "linear", user)
	var reads int
	config := fmt.Sprintf(`
resource "service_trigger_instance" "test" {
  user_id              = %q
  slug                 = "LINEAR_ISSUE_CREATED_TRIGGER"
  connected_account_id = %q
  trigger_config       = jsonencode({ team_id = "TEAM1" })
}
`, user, accountID)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckTriggerInstanceDestroy(t),
		Steps: []resource.TestStep{
			{Config: config},
			{
				PreConfig:    func() { reads = testAccEmulatorStatsNow(t).Requests[routeListTriggers] },
				RefreshState: true,
				Check: func(*terraform.State) error {
					if got := testAccEmulatorStatsNow(t).Requests[routeListTriggers] - reads; got != 1 {
						return fmt.Errorf("want exactly one GET for a refresh, got %d", got)
					}
					return nil
				},
			},
		},
	})
}

// testAccDriftProxy is a reverse proxy in front of the acceptance endpoint
// that, while drift is set, reports drift as the trigger_config of every
// trigger instance it lists. The service has no operation that changes an
// existing instance's configuration (an upsert with another configuration
// creates another instance), so this is how a configuration changed outside
// Terraform is simulated.
type testAccDriftProxy struct {
	URL   string
	mu    sync.Mutex
	drift map[string]any
}

func (p *testAccDriftProxy) set(cfg map[string]any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.drift = cfg
}

func newTestAccDriftProxy(t *testing.T) *testAccDriftProxy {
	t.Helper()
	target, err := url.Parse(testAccEnvironment(t).BaseURL)
	if err != nil {
		t.Fatal(err)
	}
	p := &testAccDriftProxy{}
	rp := httputil.NewSingleHostReverseProxy(target)
	rp.ModifyResponse = func(resp *http.Response) error {
		p.mu.Lock()
		drift := p.drift
		p.mu.Unlock()
		if drift == nil || resp.Request.Method != http.MethodGet || !strings.HasSuffix(resp.Request.URL.Path, "/trigger_instances/active") {
			return nil
		}
		body, err := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if err != nil {
			return err
		}
		var page map[string]any
		if err := json.Unmarshal(body, &page); err != nil {
			return err
		}
		items, _ := page["items"].([]any)
		for _, it := range items {
			if m, ok := it.(map[string]any); ok {
				m["trigger_config"], m["triggerConfig"] = drift, drift
			}
		}
		out, err := json.Marshal(page)
		if err != nil {
			return err
		}
		resp.Body = io.NopCloser(bytes.NewReader(out))
		resp.ContentLength = int64(len(out))
		resp.Header.Set("Content-Length", strconv.Itoa(len(out)))
		resp.Header.Del("Content-Encoding")
		return nil
	}
	srv := httptest.NewServer(rp)
	t.Cleanup(srv.Close)
	p.URL = srv.URL
	return p
}

// TestAccTriggerInstance_configDrift: a trigger_config changed outside
// Terraform shows up in the plan (as a replacement).
func TestAccTriggerInstance_configDrift(t *testing.T) {
	t.Parallel()
	testAccPreCheck(t)
	user := acctest.RandomWithPrefix("tf-acc-trig-drift")
	_, accountID := testAccTriggerAccount(t, "stripe", user)
	proxy := newTestAccDriftProxy(t)
	name := "service_trigger_instance.test"
	config := fmt.Sprintf(`
provider "service" {
  base_url = %q
}

resource "service_trigger_instance" "test" {
  user_id              = %q
  slug                 = "STRIPE_CHARGE_SUCCEEDED_TRIGGER"
  connected_account_id = %q
  trigger_config       = jsonencode({ min_amount = 100 })
}
`, proxy.URL, user, accountID)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckTriggerInstanceDestroy(t),
		Steps: []resource.TestStep{
			{Config: config},
			{
				PreConfig:          func() { proxy.set(map[string]any{"min_amount": 999}) },
				RefreshState:       true,
				ExpectNonEmptyPlan: true,
				Check:              resource.TestCheckResourceAttr(name, "trigger_config", `{"min_amount":999}`),
			},
			{
				Config:             config,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			{
				PreConfig: func() { proxy.set(nil) },
				Config:    config,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(name, tfjsonpath.New("trigger_config"), knownvalue.StringExact(`{"min_amount":100}`)),
				},
			},
		},
	})
}

// TestAccTriggerInstance_hclFixtures builds the whole chain in HCL: a custom
// API_KEY auth config on stripe, a connected account with write-only
// credentials, and a trigger on it (once with the account chosen
// automatically, once explicitly).
func TestAccTriggerInstance_hclFixtures(t *testing.T) {
	t.Parallel()
	user := acctest.RandomWithPrefix("tf-acc-trig-hcl")
	config := testAccCAStripeAuthConfig(user) + fmt.Sprintf(`
resource "service_connected_account" "stripe" {
  user_id        = %[1]q
  auth_config_id = service_auth_config.stripe.id
  credentials_wo = { api_key = "sk_test_trigger_hcl" }
}

resource "service_trigger_instance" "explicit" {
  user_id              = service_connected_account.stripe.user_id
  slug                 = "STRIPE_CHARGE_SUCCEEDED_TRIGGER"
  connected_account_id = service_connected_account.stripe.id
  trigger_config       = jsonencode({ min_amount = 1 })
}

resource "service_trigger_instance" "auto" {
  user_id        = %[1]q
  slug           = "STRIPE_CHARGE_SUCCEEDED_TRIGGER"
  trigger_config = jsonencode({ min_amount = 2 })
  depends_on     = [service_connected_account.stripe]
}
`, user)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckTriggerInstanceDestroy(t),
		Steps: []resource.TestStep{
			{
				Config: config,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttrPair("service_trigger_instance.explicit", "connected_account_id",
						"service_connected_account.stripe", "id"),
					resource.TestCheckResourceAttrPair("service_trigger_instance.auto", "connected_account_id",
						"service_connected_account.stripe", "id"),
					resource.TestCheckResourceAttr("service_trigger_instance.auto", "toolkit", "stripe"),
				),
			},
			testAccImportStep("service_trigger_instance.explicit"),
		},
	})
}

func TestApplyTriggerInstance(t *testing.T) {
	t.Parallel()
	disabledAt := "2026-01-02T03:04:05Z"
	m := triggerInstanceModel{
		TriggerConfig: jsontypes.NewNormalizedValue("{ \"repo\": \"r\", \"owner\": \"o\" }"),
		Toolkit:       types.StringUnknown(),
	}
	ti := &client.TriggerInstance{ID: "ti_1", UserID: "u", TriggerName: "GITHUB_COMMIT_EVENT", ConnectedAccountID: "ca_1",
		TriggerConfig: map[string]any{"owner": "o", "repo": "r"}, UpdatedAt: "t", Version: "20251015_00"}
	if d := m.fill(context.Background(), ti); d.HasError() {
		t.Fatal(d)
	}
	if m.TriggerConfig.ValueString() != "{ \"repo\": \"r\", \"owner\": \"o\" }" {
		t.Errorf("user formatting not kept: %s", m.TriggerConfig.ValueString())
	}
	if !m.Enabled.ValueBool() || !m.DisabledAt.IsNull() || m.Toolkit.ValueString() != "github" || m.ToolkitVersion.ValueString() != "20251015_00" {
		t.Errorf("%+v", m)
	}
	// Drift: another configuration and disabled.
	ti.TriggerConfig, ti.DisabledAt = map[string]any{"owner": "o", "repo": "x"}, &disabledAt
	if d := m.fill(context.Background(), ti); d.HasError() {
		t.Fatal(d)
	}
	if m.TriggerConfig.ValueString() != `{"owner":"o","repo":"x"}` || m.Enabled.ValueBool() || m.DisabledAt.ValueString() != disabledAt {
		t.Errorf("%+v", m)
	}
}

func TestTriggerImportIDProblem(t *testing.T) {
	t.Parallel()
	for id, want := range map[string]string{
		"ti_AbC123":                            "",
		"0b9f8e4a-3c2d-4e5f-8a7b-1c2d3e4f5a6b": "",
		"":                                     "such as ti_AbC123",
		"x/y":                                  "such as ti_AbC123",
		"bogus":                                "such as ti_AbC123",
		"ac_AbC123":                            "auth config id: import it with service_auth_config",
		"ca_AbC123":                            "connected account id: import it with service_connected_account",
	} {
		got := importid.Problem(importid.TriggerInstance, id)
		if want == "" && got != "" || want != "" && !strings.Contains(got, want) {
			t.Errorf("importid.Problem(trigger instance, %q) = %q, want %q", id, got, want)
		}
	}
}

// TestAccTriggerInstance_planTimeAccountChecks: a connected_account_id of
// another user or toolkit fails during plan, on connected_account_id, with
// no writes; an import id of another kind of object is refused by name; and
// enabling a trigger plans disabled_at as null, not "(known after apply)".
// Not parallel: it compares the emulator's counters.
func TestAccTriggerInstance_planTimeAccountChecks(t *testing.T) {
	testAccRequireEmulator(t)
	testAccPreCheck(t)
	owner := acctest.RandomWithPrefix("tf-acc-trig-plan-acct")
	authConfigID, accountID := testAccTriggerAccount(t, "stripe", owner)
	before := testAccEmulatorWrites(t)
	stripe := func(userID string, enabled bool) string {
		return fmt.Sprintf(`
resource "service_trigger_instance" "test" {
  user_id              = %q
  slug                 = "STRIPE_CHARGE_SUCCEEDED_TRIGGER"
  connected_account_id = %q
  enabled              = %t
}
`, userID, accountID, enabled)
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckTriggerInstanceDestroy(t),
		Steps: []resource.TestStep{
			{
				Config:      stripe("someone-else", true),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)connected_account_id.*belongs\s+to\s+user`),
			},
			{
				Config: fmt.Sprintf(`
resource "service_trigger_instance" "test" {
  user_id              = %q
  slug                 = "GITHUB_COMMIT_EVENT"
  connected_account_id = %q
  trigger_config       = jsonencode({ owner = "o", repo = "r" })
}
`, owner, accountID),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)connected_account_id.*on\s+toolkit\s+"stripe"`),
			},
			{
				PreConfig: func() { testAccAssertNoWritesSince(t, before) },
				Config:    stripe(owner, false),
			},
			{
				Config: stripe(owner, true),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("service_trigger_instance.test", plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue("service_trigger_instance.test", tfjsonpath.New("disabled_at"), knownvalue.Null()),
					},
				},
			},
			{
				ResourceName:  "service_trigger_instance.test",
				ImportState:   true,
				ImportStateId: authConfigID,
				ExpectError:   regexp.MustCompile(`(?s)Invalid import id.*auth\s+config\s+id`),
			},
		},
	})
}

// TestAccE2E_TriggerOnDisabledAccountWarns: a trigger on a connected account
// that is disabled now gets a warning on connected_account_id during plan (the
// same apply could still enable it), and the create fails before anything is
// written when the account is still disabled.
func TestAccE2E_TriggerOnDisabledAccountWarns(t *testing.T) {
	w := newE2EWorkspace(t)
	testAccPreCheck(t)
	owner := acctest.RandomWithPrefix("tf-acc-trig-disabled")
	_, accountID := testAccTriggerAccount(t, "stripe", owner)
	if err := testAccClient(t).UpdateConnectedAccountStatus(context.Background(), accountID, false, ""); err != nil {
		t.Fatal(err)
	}
	w.WriteFile("main.tf", fmt.Sprintf(`
resource "service_trigger_instance" "test" {
  user_id              = %q
  slug                 = "STRIPE_CHARGE_SUCCEEDED_TRIGGER"
  connected_account_id = %q
}
`, owner, accountID))
	plan := w.RunOK("plan", "-no-color")
	if !regexp.MustCompile(`(?s)Warning: Connected account is not usable.*connected_account_id.*disabled: true.*will fail unless`).MatchString(plan.Stdout + plan.Stderr) {
		t.Fatalf("plan: want a warning on connected_account_id\n%s\n%s", plan.Stdout, plan.Stderr)
	}
	apply := w.Run(nil, "apply", "-auto-approve", "-no-color")
	if apply.ExitCode == 0 || !regexp.MustCompile(`(?s)Error: Connected account is not usable.*triggers\s+need\s+an\s+ACTIVE,\s+enabled\s+account`).MatchString(apply.Stdout+apply.Stderr) {
		t.Fatalf("apply: want the create to fail on the disabled account (exit %d)\n%s\n%s", apply.ExitCode, apply.Stdout, apply.Stderr)
	}
	if list := w.Run(nil, "state", "list"); strings.Contains(list.Stdout, "service_trigger_instance") {
		t.Fatalf("the failed create left a trigger in the state:\n%s", list.Stdout)
	}
}

// TestAccTriggerInstance_typeCheckedOnNewAccount: the trigger type and
// trigger_config are checked at plan even when connected_account_id is
// unknown (an account created in the same apply): an unknown trigger type
// and a trigger_config its schema refuses fail the plan with zero writes
// (neither the auth config nor the account is created). Not parallel: it
// compares the emulator's write counter.
func TestAccTriggerInstance_typeCheckedOnNewAccount(t *testing.T) {
	testAccRequireEmulator(t)
	name := acctest.RandomWithPrefix("tfacc-trig-new")
	cfg := func(slug, config string) string {
		return fmt.Sprintf(`
resource "service_auth_config" "gh" {
  toolkit = "github"
  name    = %[1]q
}

resource "service_connected_account" "gh" {
  user_id        = "%[1]s-user"
  auth_config_id = service_auth_config.gh.id
}

resource "service_trigger_instance" "test" {
  user_id              = "%[1]s-user"
  slug                 = %[2]q
  connected_account_id = service_connected_account.gh.id
  trigger_config       = jsonencode(%[3]s)
}
`, name, slug, config)
	}
	testAccNoWritesTest(t, []resource.TestStep{
		{
			Config:      cfg("GITHUB_COMMIT_EVENTS", `{ owner = "acme", repo = "app" }`),
			ExpectError: testAccErrRe(`slug`, `GITHUB_COMMIT_EVENTS`, `GITHUB_COMMIT_EVENT"`),
		},
		{
			Config:      cfg("GITHUB_COMMIT_EVENT", `{ owner = "acme" }`),
			ExpectError: testAccErrRe(`trigger_config`, `repo`),
		},
	})
}

func TestAccIdentity_triggerInstance(t *testing.T) {
	t.Parallel()
	user := acctest.RandomWithPrefix("tf-acc-ident-trig")
	_, accountID := testAccTriggerAccount(t, "github", user)
	const cfg = `jsonencode({ owner = "acme", repo = "widgets" })`
	testAccIdentity(t, identityCase{
		addr: "service_trigger_instance.test", idRe: regexp.MustCompile(`^ti_\S+$`),
		create: testAccTriggerInstanceConfig(user, accountID, cfg, true),
		update: testAccTriggerInstanceConfig(user, accountID, cfg, false),
		remove: func(ctx context.Context, c *client.Client, id string) error { return c.DeleteTrigger(ctx, id) },
		gone:   testAccCheckTriggerInstanceDestroy,
	})
}

// e2eAPIKeyAccountConfig is a custom API_KEY auth config of toolkit named
// name and a connected account on it of user <name>-user with api_key, both
// labelled toolkit.
func e2eAPIKeyAccountConfig(toolkit, name, apiKey string) string {
	return fmt.Sprintf(`
resource "service_auth_config" %[1]q {
  toolkit     = %[1]q
  type        = "use_custom_auth"
  auth_scheme = "API_KEY"
  name        = %[2]q
}

resource "service_connected_account" %[1]q {
  user_id                = "%[2]s-user"
  auth_config_id         = service_auth_config.%[1]s.id
  credentials_wo         = { api_key = %[3]q }
  credentials_wo_version = 1
}
`, toolkit, name, apiKey)
}

// e2eApplyStopsThenDestroys applies cfg (in a new workspace, through the CLI
// that TF_CLI names), which must pass `terraform plan` and then fail at apply
// with every fragment of wantErr after creating exactly the resources
// created; then `terraform destroy` must succeed and leave an empty state.
// It is for the checks that cannot run before the object they look at
// exists (created in the same apply): they run in the final plan Terraform
// makes during apply, before the resource's own write.
func e2eApplyStopsThenDestroys(t *testing.T, cfg string, created []string, wantErr ...string) {
	t.Helper()
	w := newE2EWorkspace(t)
	w.WriteFile("main.tf", cfg)
	t.Cleanup(func() { w.Run(nil, "destroy", "-auto-approve", "-no-color", "-input=false") })
	res := w.Run(nil, "plan", "-no-color", "-input=false")
	if res.ExitCode != 0 {
		t.Fatalf("plan failed; the check is expected at apply only:\n%s%s", res.Stdout, res.Stderr)
	}
	if strings.Count(res.Stdout+res.Stderr, "Warning:") > strings.Count(res.Stdout+res.Stderr, "Warning: Provider development overrides") {
		t.Errorf("plan of an ordinary first apply has warnings:\n%s%s", res.Stdout, res.Stderr)
	}
	res = w.Run(nil, "apply", "-auto-approve", "-no-color", "-input=false")
	out := strings.Join(strings.Fields(res.Stdout+res.Stderr), " ")
	if res.ExitCode == 0 {
		t.Fatalf("apply succeeded; want an error with %q:\n%s", wantErr, res.Stdout)
	}
	for _, want := range wantErr {
		if !strings.Contains(out, want) {
			t.Fatalf("apply error lacks %q:\n%s%s", want, res.Stdout, res.Stderr)
		}
	}
	got := w.stateResources()
	slices.Sort(got)
	if want := slices.Sorted(slices.Values(created)); !slices.Equal(got, want) {
		t.Errorf("after the failed apply the state has %v, want %v", got, want)
	}
	w.RunOK("destroy", "-auto-approve", "-no-color", "-input=false")
	if left := w.stateResources(); len(left) != 0 {
		t.Errorf("state after destroy still has %v", left)
	}
}

// TestAccE2E_triggerOnAccountOfAnotherToolkit: a GITHUB_COMMIT_EVENT trigger
// on a new account of a stripe auth config. The plan checks what it can (the
// trigger type exists and trigger_config fits it) but not the account's
// toolkit, unknown until the account exists: the apply creates the auth
// config and the account, then stops on connected_account_id before writing
// the trigger; `terraform destroy` then succeeds.
func TestAccE2E_triggerOnAccountOfAnotherToolkit(t *testing.T) {
	t.Parallel()
	name := acctest.RandomWithPrefix("tf-acc-trig-tk")
	e2eApplyStopsThenDestroys(t, e2eAPIKeyAccountConfig("stripe", name, "sk_test_e2e")+fmt.Sprintf(`
resource "service_trigger_instance" "commits" {
  user_id              = "%[1]s-user"
  slug                 = "GITHUB_COMMIT_EVENT"
  connected_account_id = service_connected_account.stripe.id
  trigger_config       = jsonencode({ owner = "acme", repo = "app" })
}
`, name), []string{"service_auth_config.stripe", "service_connected_account.stripe"},
		"Connected account is on another toolkit", `is on toolkit "stripe"`, `trigger GITHUB_COMMIT_EVENT belongs to toolkit "github"`)
}

// A trigger whose type requires webhook endpoint setup, on an account of the
// developer's own OAuth app, is planned with a warning naming
// service_webhook_endpoint; on a service-managed account (the service's app,
// whose endpoint the service runs) it is not.
func TestAccE2E_triggerNeedsWebhookEndpointWarning(t *testing.T) {
	t.Parallel()
	w := newE2EWorkspace(t)
	c := testAccClient(t)
	ctx := context.Background()
	rnd := acctest.RandString(10)
	account := func(custom bool) string {
		t.Helper()
		req := client.CreateAuthConfigRequest{ToolkitSlug: "slack", Type: client.AuthConfigTypeManaged, Name: "tf-acc-wh-managed-" + rnd}
		if custom {
			req = client.CreateAuthConfigRequest{ToolkitSlug: "slack", Type: client.AuthConfigTypeCustom, AuthScheme: "OAUTH2",
				Name: "tf-acc-wh-custom-" + rnd, Credentials: map[string]any{"client_id": "cid-" + rnd, "client_secret": "cs-" + rnd}}
		}
		ac, err := c.CreateAuthConfig(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		cr, err := c.InitiateConnectedAccount(ctx, client.InitiateConnectedAccountRequest{AuthConfigID: ac.ID, UserID: "tf-acc-wh-" + rnd})
		if err != nil {
			t.Fatal(err)
		}
		testAccEmulatorPost(t, "/_emulator/connected_accounts/"+cr.ID+"/complete")
		return cr.ID
	}
	config := func(accountID string) string {
		return fmt.Sprintf(`
resource "service_trigger_instance" "messages" {
  user_id              = "tf-acc-wh-%s"
  slug                 = "SLACK_RECEIVE_MESSAGE"
  connected_account_id = %q
  trigger_config       = jsonencode({ channel = "C123" })
}
`, rnd, accountID)
	}

	w.WriteFile("main.tf", config(account(true)))
	res := w.RunOK("plan", "-no-color", "-input=false")
	out := res.Stdout + res.Stderr
	for _, want := range []string{"Trigger needs a webhook endpoint", "SLACK_RECEIVE_MESSAGE", "service_webhook_endpoint", `toolkit = "slack"`} {
		if !strings.Contains(out, want) {
			t.Errorf("plan on an account of an own OAuth app lacks %q:\n%s", want, out)
		}
	}

	w.WriteFile("main.tf", config(account(false)))
	res = w.RunOK("plan", "-no-color", "-input=false")
	if out := res.Stdout + res.Stderr; strings.Contains(out, "Trigger needs a webhook endpoint") {
		t.Errorf("plan on a service-managed account warns about a webhook endpoint:\n%s", out)
	}
}

// TestAccTriggerInstance_egressURL: egress_url (the service's v3 document: a
// per-instance https delivery override, set by the upsert, null removes it)
// is sent at create, changed and removed in place through the upsert of the
// same instance (which keeps the instance's own toolkit version), kept from
// state by a refresh (no read answer carries it, so a change outside
// Terraform is not detected) and null after an import. The upsert bodies are
// read from a recording proxy.
func TestAccTriggerInstance_egressURL(t *testing.T) {
	t.Parallel()
	testAccPreCheck(t)
	user := acctest.RandomWithPrefix("tf-acc-trig-egress")
	_, accountID := testAccTriggerAccount(t, "github", user)
	proxy := newTestAccRecordingProxy(t)
	name := "service_trigger_instance.test"
	upsertPath := "/api/v3.1/trigger_instances/GITHUB_COMMIT_EVENT/upsert"
	config := func(egress string) string {
		line := ""
		if egress != "" {
			line = fmt.Sprintf("\n  egress_url           = %q", egress)
		}
		return fmt.Sprintf(`
provider "service" {
  base_url = %q
}

resource "service_trigger_instance" "test" {
  user_id              = %q
  slug                 = "GITHUB_COMMIT_EVENT"
  connected_account_id = %q
  trigger_config       = jsonencode({ owner = "octo", repo = "egress" })%s
}
`, proxy.URL, user, accountID, line)
	}
	// lastUpsert checks the newest upsert body's egress_url member: want is
	// its JSON ("null", a quoted URL) or "" for absent.
	lastUpsert := func(want string) resource.TestCheckFunc {
		return func(*terraform.State) error {
			reqs := proxy.requests(http.MethodPost, upsertPath)
			if len(reqs) == 0 {
				return fmt.Errorf("no upsert sent")
			}
			var body map[string]json.RawMessage
			if err := json.Unmarshal(reqs[len(reqs)-1].Body, &body); err != nil {
				return err
			}
			if got := string(body["egress_url"]); got != want {
				return fmt.Errorf("the upsert sent egress_url %s, want %s (body %s)", got, want, reqs[len(reqs)-1].Body)
			}
			if want != "" && string(body["toolkit_versions"]) != `{"github":"20251015_00"}` && len(reqs) > 1 {
				return fmt.Errorf("an in-place upsert must keep the instance's own version, sent toolkit_versions %s", body["toolkit_versions"])
			}
			return nil
		}
	}
	first := &testAccValue{}
	const a, b, outside = "https://hooks.example.com/ti-a", "https://hooks.example.com/ti-b", "https://elsewhere.example.com/x"
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckTriggerInstanceDestroy(t),
		Steps: []resource.TestStep{
			{
				Config:      config("http://hooks.example.com/plain"),
				ExpectError: testAccErrRe(`egress_url`, `absolute https URL`),
			},
			{
				Config: config(a),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(name, tfjsonpath.New("egress_url"), knownvalue.StringExact(a)),
				},
				Check: resource.ComposeTestCheckFunc(first.capture(name, "id"), lastUpsert(strconv.Quote(a))),
			},
			{
				Config: config(b),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(name, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(name, tfjsonpath.New("egress_url"), knownvalue.StringExact(b)),
					statecheck.ExpectKnownValue(name, tfjsonpath.New("toolkit_version"), knownvalue.StringExact("20251015_00")),
				},
				Check: resource.ComposeTestCheckFunc(lastUpsert(strconv.Quote(b)), resource.TestCheckResourceAttrPtr(name, "id", &first.v)),
			},
			// No read answer carries egress_url: an import leaves it null.
			testAccImportStep(name, "egress_url"),
			{
				// Changed outside Terraform: not detected (documented).
				PreConfig: func() {
					u := outside
					if _, err := testAccClient(t).UpsertTrigger(context.Background(), "GITHUB_COMMIT_EVENT", client.UpsertTriggerRequest{
						ConnectedAccountID: accountID, TriggerConfig: map[string]any{"owner": "octo", "repo": "egress"}, EgressURL: &u,
					}); err != nil {
						t.Fatal(err)
					}
				},
				Config: config(b),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				// Removed from the configuration: sent as null, in place.
				Config: config(""),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(name, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(name, tfjsonpath.New("egress_url"), knownvalue.Null()),
				},
				Check: resource.ComposeTestCheckFunc(lastUpsert("null"), resource.TestCheckResourceAttrPtr(name, "id", &first.v)),
			},
		},
	})
}

// TestAccE2E_triggerInstanceNeverShared: the service's create is an upsert,
// so a second service_trigger_instance with the slug, account and
// trigger_config of one that exists would answer (and share) its ti_. It is
// refused before anything is written: at plan when the account is known
// (the first is in this state), at apply when it is not (no
// connected_account_id: the user's first ACTIVE account, chosen at create),
// and for an instance of no resource (made outside Terraform) alike, each
// time naming the instance and the import block to use. The first
// instance survives the second's removal. Through the CLI that TF_CLI names.
func TestAccE2E_triggerInstanceNeverShared(t *testing.T) {
	t.Parallel()
	w := newE2EWorkspace(t)
	name := acctest.RandomWithPrefix("tf-acc-shared")
	base := fmt.Sprintf(`
resource "service_auth_config" "ac" {
  toolkit     = "stripe"
  type        = "use_custom_auth"
  auth_scheme = "API_KEY"
  name        = %[1]q
}

resource "service_connected_account" "a" {
  user_id        = "%[1]s-user"
  auth_config_id = service_auth_config.ac.id
  credentials_wo = {
    api_key = "sk_test_shared"
  }
  credentials_wo_version = 1
}

resource "service_trigger_instance" "first" {
  user_id              = "%[1]s-user"
  slug                 = "STRIPE_CHARGE_SUCCEEDED_TRIGGER"
  connected_account_id = service_connected_account.a.id
  trigger_config       = jsonencode({ min_amount = 5 })
}
`, name)
	second := func(account string) string {
		return fmt.Sprintf(`
resource "service_trigger_instance" "second" {
  user_id        = "%[1]s-user"
  slug           = "STRIPE_CHARGE_SUCCEEDED_TRIGGER"
  %[2]s
  trigger_config = jsonencode({ min_amount = 5 })
}
`, name, account)
	}
	w.WriteFile("main.tf", base)
	w.RunOK("apply", "-auto-approve", "-no-color", "-input=false", "-parallelism=10")
	var firstID, accountID string
	for _, r := range w.stateInstances() {
		switch r.address {
		case "service_trigger_instance.first":
			firstID = r.attrs["id"].(string)
		case "service_connected_account.a":
			accountID = r.attrs["id"].(string)
		}
	}
	c := testAccClient(t)
	instances := func() []string {
		list, err := c.ListActiveTriggers(t.Context(), client.TriggerInstanceListParams{ConnectedAccountIDs: []string{accountID}, ShowDisabled: true})
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, ti := range list {
			ids = append(ids, ti.ID)
		}
		return ids
	}
	refused := func(res e2eResult, outcome string) {
		t.Helper()
		out := strings.Join(strings.Fields(res.Stdout+res.Stderr), " ")
		for _, want := range []string{"Trigger instance already exists", firstID, outcome, "import { to = service_trigger_instance.NAME id = \"" + firstID + "\" }"} {
			if res.ExitCode == 0 || !strings.Contains(out, want) {
				t.Errorf("exit %d, want the refusal naming %q:\n%s%s", res.ExitCode, want, res.Stdout, res.Stderr)
			}
		}
		if ids := instances(); len(ids) != 1 || ids[0] != firstID {
			t.Errorf("the account's trigger instances are %v, want only %s", ids, firstID)
		}
	}

	// In this state, the account known at plan: refused by the plan.
	w.WriteFile("main.tf", base+second("connected_account_id = service_connected_account.a.id"))
	refused(w.Run(nil, "plan", "-no-color", "-input=false"), "The plan stops here")
	// The account chosen at create: refused by the apply, before the upsert.
	w.WriteFile("main.tf", base+second(""))
	refused(w.Run(nil, "apply", "-auto-approve", "-no-color", "-input=false", "-parallelism=10"), "No trigger instance was created")
	// Removing the second (never created) leaves the first's trigger.
	w.WriteFile("main.tf", base)
	w.RunOK("apply", "-auto-approve", "-no-color", "-input=false")
	if ti, err := c.GetTriggerInstance(t.Context(), firstID); err != nil || ti.ID != firstID {
		t.Errorf("the first resource's trigger %s after the second's removal: %v", firstID, err)
	}

	// An instance of no resource in this state (made outside Terraform)
	// with a third resource's key: refused at plan too.
	outside, err := c.UpsertTrigger(t.Context(), "STRIPE_CHARGE_SUCCEEDED_TRIGGER", client.UpsertTriggerRequest{
		ConnectedAccountID: accountID, UserID: name + "-user", TriggerConfig: map[string]any{"min_amount": 7}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.DeleteTrigger(context.Background(), outside) })
	w.WriteFile("main.tf", base+strings.ReplaceAll(second("connected_account_id = service_connected_account.a.id"), "min_amount = 5", "min_amount = 7"))
	res := w.Run(nil, "plan", "-no-color", "-input=false")
	if out := strings.Join(strings.Fields(res.Stdout+res.Stderr), " "); res.ExitCode == 0 || !strings.Contains(out, "Trigger instance already exists") ||
		!strings.Contains(out, `id = "`+outside+`"`) {
		t.Errorf("a trigger that would answer %s (made outside Terraform) was not refused:\n%s%s", outside, res.Stdout, res.Stderr)
	}
	w.WriteFile("main.tf", base)
	w.RunOK("destroy", "-auto-approve", "-no-color", "-input=false")
}
