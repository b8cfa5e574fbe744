package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"
	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/provider/destroyrun"
	"github.com/integration-service/terraform-provider-service/internal/provider/lookup"
	"github.com/integration-service/terraform-provider-service/internal/testutil"
)

const testAccWebhookEndpointAddr = "service_webhook_endpoint.slack"

// testAccWebhookEndpointConfig is a Slack endpoint of clientID whose data_wo
// body is data (HCL map entries) at version (0: neither data_wo nor its
// version).
func testAccWebhookEndpointConfig(clientID, data string, version int) string {
	wo := ""
	if version > 0 {
		wo = fmt.Sprintf("  data_wo = {\n%s  }\n  data_wo_version = %d\n", data, version)
	}
	return fmt.Sprintf("resource \"service_webhook_endpoint\" \"slack\" {\n  toolkit   = \"slack\"\n  client_id = %q\n%s}\n", clientID, wo)
}

// testAccWebhookEndpointData checks through the API that the endpoint of the
// state holds the given non-secret values and only the given fields (a
// secret field's value is masked: want "********").
func testAccWebhookEndpointData(t *testing.T, want map[string]string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[testAccWebhookEndpointAddr]
		if !ok {
			return fmt.Errorf("%s not in state", testAccWebhookEndpointAddr)
		}
		we, err := testAccClient(t).GetWebhookEndpoint(context.Background(), rs.Primary.ID)
		if err != nil {
			return err
		}
		if len(we.Data) != len(want) {
			return fmt.Errorf("the service holds the fields %v, want %v", we.Data, want)
		}
		for k, v := range want {
			if we.Data[k] != v {
				return fmt.Errorf("the service holds %s = %q, want %q (all: %v)", k, we.Data[k], v, we.Data)
			}
		}
		return nil
	}
}

// testAccWebhookEndpointStillExists is the CheckDestroy of the resource: the
// API has no delete, so every endpoint destroyed is still there.
func testAccWebhookEndpointStillExists(t *testing.T) func(*terraform.State) error {
	return func(s *terraform.State) error {
		n := 0
		for _, rs := range s.RootModule().Resources {
			if rs.Type != webhookEndpointType {
				continue
			}
			n++
			if _, err := testAccClient(t).GetWebhookEndpoint(context.Background(), rs.Primary.ID); err != nil {
				return fmt.Errorf("webhook endpoint %s after destroy: %w (the destroy must leave it on the service)", rs.Primary.ID, err)
			}
		}
		if n == 0 {
			return fmt.Errorf("no %s in the destroyed state", webhookEndpointType)
		}
		return nil
	}
}

// The lifecycle: a create with data_wo (URL, fields, nothing of data_wo in
// the state), a changed data_wo without a new version (no change planned),
// a rotation through data_wo_version (in place; the replace drops the field
// left out), import by id, and a destroy that leaves the endpoint on the
// service.
func TestAccWebhookEndpoint_lifecycle(t *testing.T) {
	t.Parallel()
	clientID := "tf-acc-" + acctest.RandString(10)
	// the emulator names its own (shared) origin in the URLs it makes
	ep := testAccSharedEndpoint(t)
	id := &testAccValue{}
	v1 := testAccWebhookEndpointConfig(clientID, "    signing_secret = \"first-secret\"\n    app_id = \"A1\"\n", 1)
	v1Changed := testAccWebhookEndpointConfig(clientID, "    signing_secret = \"second-secret\"\n", 1)
	v2 := testAccWebhookEndpointConfig(clientID, "    signing_secret = \"second-secret\"\n", 2)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_11_0)},
		CheckDestroy:             testAccWebhookEndpointStillExists(t),
		Steps: []resource.TestStep{
			{
				Config: v1,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccWebhookEndpointAddr, tfjsonpath.New("id"), knownvalue.StringRegexp(regexp.MustCompile(`^we_\S+$`))),
					statecheck.ExpectKnownValue(testAccWebhookEndpointAddr, tfjsonpath.New("toolkit"), knownvalue.StringExact("slack")),
					statecheck.ExpectKnownValue(testAccWebhookEndpointAddr, tfjsonpath.New("client_id"), knownvalue.StringExact(clientID)),
					statecheck.ExpectKnownValue(testAccWebhookEndpointAddr, tfjsonpath.New("webhook_url"),
						knownvalue.StringRegexp(regexp.MustCompile(`^`+regexp.QuoteMeta(ep.BaseURL)+`/webhook_ingress/we_\S+$`))),
					statecheck.ExpectKnownValue(testAccWebhookEndpointAddr, tfjsonpath.New("data_keys"), knownvalue.SetExact([]knownvalue.Check{
						knownvalue.StringExact("app_id"), knownvalue.StringExact("signing_secret"),
					})),
					statecheck.ExpectKnownValue(testAccWebhookEndpointAddr, tfjsonpath.New("created_at"), testAccTimestamp),
					statecheck.ExpectKnownValue(testAccWebhookEndpointAddr, tfjsonpath.New("data_wo"), knownvalue.Null()),
					statecheck.ExpectKnownValue(testAccWebhookEndpointAddr, tfjsonpath.New("data_wo_version"), knownvalue.Int64Exact(1)),
					// Identity is checked by TestAccWebhookEndpoint_importByIdentity
					// (Terraform 1.12+): this test also runs on 1.11 (make test's
					// compatibility pass).
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					id.capture(testAccWebhookEndpointAddr, "id"),
					testAccWebhookEndpointData(t, map[string]string{"signing_secret": "********", "app_id": "A1"}),
					testAccWebhookURLIsTheID(),
				),
			},
			{
				// A new data_wo without a new version: Terraform cannot see it, nothing is sent.
				Config: v1Changed,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccWebhookEndpointAddr, plancheck.ResourceActionNoop),
				}},
				Check: testAccWebhookEndpointData(t, map[string]string{"signing_secret": "********", "app_id": "A1"}),
			},
			{
				// The rotation: in place, the whole set replaces the fields (app_id
				// cleared); data_keys is known at plan, the keys of data_wo.
				Config: v2,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccWebhookEndpointAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(testAccWebhookEndpointAddr, tfjsonpath.New("data_keys"), knownvalue.SetExact([]knownvalue.Check{
						knownvalue.StringExact("signing_secret"),
					})),
					plancheck.ExpectKnownValue(testAccWebhookEndpointAddr, tfjsonpath.New("webhook_url"), knownvalue.NotNull()),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testAccWebhookEndpointAddr, tfjsonpath.New("data_keys"), knownvalue.SetExact([]knownvalue.Check{
						knownvalue.StringExact("signing_secret"),
					})),
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					testAccWebhookEndpointData(t, map[string]string{"signing_secret": "********"}),
					func(s *terraform.State) error {
						if got := s.RootModule().Resources[testAccWebhookEndpointAddr].Primary.ID; got != id.v {
							return fmt.Errorf("the rotation replaced %s by %s", id.v, got)
						}
						return nil
					},
				),
			},
			testAccImportStep(testAccWebhookEndpointAddr, "data_wo_version"),
			{
				// Another client_id: a replacement; the old endpoint stays on the
				// service. The create sends data_wo: its keys are known at plan.
				Config: testAccWebhookEndpointConfig(clientID+"-2", "    signing_secret = \"second-secret\"\n", 2),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccWebhookEndpointAddr, plancheck.ResourceActionDestroyBeforeCreate),
					plancheck.ExpectKnownValue(testAccWebhookEndpointAddr, tfjsonpath.New("data_keys"), knownvalue.SetExact([]knownvalue.Check{
						knownvalue.StringExact("signing_secret"),
					})),
				}},
				Check: func(s *terraform.State) error {
					if got := s.RootModule().Resources[testAccWebhookEndpointAddr].Primary.ID; got == id.v {
						return fmt.Errorf("a new client_id kept the endpoint %s", got)
					}
					if _, err := testAccClient(t).GetWebhookEndpoint(context.Background(), id.v); err != nil {
						return fmt.Errorf("the replaced endpoint %s: %w (it must stay on the service)", id.v, err)
					}
					return nil
				},
			},
			{
				Config:        v2,
				ResourceName:  testAccWebhookEndpointAddr,
				ImportState:   true,
				ImportStateId: "we_doesNotExist0",
				ExpectError:   testAccErrRe(`Cannot import non-existent remote object`),
			},
			{
				Config:        v2,
				ResourceName:  testAccWebhookEndpointAddr,
				ImportState:   true,
				ImportStateId: "not an id",
				ExpectError:   testAccErrRe(`Invalid import id`, `webhook endpoint id such as we_AbC123`, `"not an id"`),
			},
		},
	})
}

// Import by identity (Terraform 1.12+) of an endpoint without data_wo: the
// plan after the import is empty.
func TestAccWebhookEndpoint_importByIdentity(t *testing.T) {
	t.Parallel()
	config := testAccWebhookEndpointConfig("tf-acc-"+acctest.RandString(10), "", 0)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)},
		CheckDestroy:             testAccWebhookEndpointStillExists(t),
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectIdentity(testAccWebhookEndpointAddr, map[string]knownvalue.Check{
						"id": knownvalue.StringRegexp(regexp.MustCompile(`^we_\S+$`)),
					}),
					statecheck.ExpectKnownValue(testAccWebhookEndpointAddr, tfjsonpath.New("data_keys"), knownvalue.SetExact(nil)),
				},
			},
			{
				Config:          config,
				ResourceName:    testAccWebhookEndpointAddr,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithResourceIdentity,
			},
			{
				Config:          config,
				ResourceName:    testAccWebhookEndpointAddr,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithID,
			},
		},
	})
}

// testAccWebhookURLIsTheID: webhook_url ends with the endpoint's id.
func testAccWebhookURLIsTheID() resource.TestCheckFunc {
	return func(s *terraform.State) error {
		a := s.RootModule().Resources[testAccWebhookEndpointAddr].Primary.Attributes
		if want := "/webhook_ingress/" + a["id"]; len(a["webhook_url"]) < len(want) || a["webhook_url"][len(a["webhook_url"])-len(want):] != want {
			return fmt.Errorf("webhook_url %q does not end with %q", a["webhook_url"], want)
		}
		return nil
	}
}

// Bad inputs fail at validate or plan, naming the attribute, with no write.
// Not parallel: it compares the emulator's write counter.
func TestAccWebhookEndpoint_invalidConfig(t *testing.T) {
	testAccRequireEmulator(t)
	before := testAccEmulatorWrites(t)
	cases := []struct {
		config string
		err    *regexp.Regexp
	}{
		{`resource "service_webhook_endpoint" "x" {
  toolkit   = "sl ack"
  client_id = "c"
}`, testAccErrRe(`Invalid toolkit slug`, `Attribute toolkit: "sl ack" is not a toolkit slug`)},
		{`resource "service_webhook_endpoint" "x" {
  toolkit   = "slack"
  client_id = "   "
}`, testAccErrRe(`Invalid client_id`, `Attribute client_id: "   " is blank`)},
		{`resource "service_webhook_endpoint" "x" {
  toolkit   = "slack"
  client_id = " 123.456"
}`, testAccErrRe(`Invalid client_id`, `Attribute client_id: " 123.456" has white space around it`)},
		{`resource "service_webhook_endpoint" "x" {
  toolkit   = "slack"
  client_id = "c"
  data_wo   = { signing_secret = "s" }
}`, testAccErrRe(`Missing data_wo_version`, `Attribute data_wo_version is required with data_wo`)},
		{`resource "service_webhook_endpoint" "x" {
  toolkit         = "slack"
  client_id       = "c"
  data_wo_version = 1
}`, testAccErrRe(`data_wo_version without data_wo`)},
		{`resource "service_webhook_endpoint" "x" {
  toolkit         = "slack"
  client_id       = "c"
  data_wo         = {}
  data_wo_version = 1
}`, testAccErrRe(`data_wo`, `at least 1`)},
		{`resource "service_webhook_endpoint" "x" {
  toolkit         = "slack"
  client_id       = "c"
  data_wo         = { "signing secret" = "s" }
  data_wo_version = 1
}`, testAccErrRe(`Invalid setup field name`, `"signing secret" is not a setup field name`)},
		{`resource "service_webhook_endpoint" "x" {
  toolkit         = "slack"
  client_id       = "c"
  data_wo         = { signing_secret = " " }
  data_wo_version = 1
}`, testAccErrRe(`Blank setup field value`, `Attribute data_wo\["signing_secret"\]: the value is blank`)},
	}
	steps := make([]resource.TestStep, 0, len(cases))
	for _, c := range cases {
		steps = append(steps, resource.TestStep{Config: c.config, PlanOnly: true, ExpectError: c.err})
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_11_0)},
		Steps:                    steps,
	})
	testAccAssertNoWritesSince(t, before)
}

// A toolkit that takes no webhook endpoint (none of its trigger types
// requires webhook endpoint setup) or that does not exist fails the plan,
// with an error on toolkit (a did-you-mean for a misspelt slug): nothing is
// written and no create is even attempted. Not parallel: it compares the
// emulator's process-wide counters.
func TestAccWebhookEndpoint_refusedToolkit(t *testing.T) {
	testAccRequireEmulator(t)
	before := testAccEmulatorStatsNow(t)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		// Apply steps: without the plan-time check the apply would send the
		// create (counted below) and fail with the service's error instead.
		Steps: []resource.TestStep{
			{
				Config: `resource "service_webhook_endpoint" "x" {
  toolkit   = "github"
  client_id = "gh-app"
}`,
				ExpectError: testAccErrRe(`Toolkit takes no webhook endpoint`,
					`Attribute toolkit: toolkit "github" does not need a webhook endpoint at toolkit version latest`,
					`requires webhook endpoint setup`, `requires_webhook_endpoint_setup is true`, `service_trigger_types`),
			},
			{
				Config: `resource "service_webhook_endpoint" "x" {
  toolkit   = "slakc"
  client_id = "app"
}`,
				ExpectError: testAccErrRe(`Unknown toolkit`, `Attribute toolkit: the service has no toolkit "slakc"`, `Did you mean "slack"\?`),
			},
			{
				Config: `resource "service_webhook_endpoint" "x" {
  toolkit   = "nosuchtoolkit"
  client_id = "app"
}`,
				ExpectError: testAccErrRe(`Unknown toolkit`, `Attribute toolkit: the service has no toolkit "nosuchtoolkit"`),
			},
		},
	})
	after := testAccEmulatorStatsNow(t)
	if n := after.Writes - before.Writes; n != 0 {
		t.Errorf("the refused plans made %d writes, want 0", n)
	}
	if n := after.Requests[routeCreateWebhookEndpoint] - before.Requests[routeCreateWebhookEndpoint]; n != 0 {
		t.Errorf("the refused plans sent %d %s, want 0 (refused at plan)", n, routeCreateWebhookEndpoint)
	}
}

// A setup field the toolkit does not have: the service refuses data_wo at
// apply, naming the field and listing the toolkit's fields; the endpoint,
// created by then (and not deletable), stays in the state, tainted. The
// corrected configuration then replaces it: destroy forgets it, the create
// adopts it (same id) and sends the fields.
func TestAccWebhookEndpoint_refusedData(t *testing.T) {
	t.Parallel()
	clientID := "tf-acc-" + acctest.RandString(10)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_11_0)},
		CheckDestroy:             testAccWebhookEndpointStillExists(t),
		Steps: []resource.TestStep{
			{
				Config: testAccWebhookEndpointConfig(clientID, "    signing_secret = \"s\"\n    verification_token = \"t\"\n", 1),
				ExpectError: testAccErrRe(`Error setting the setup fields \(data_wo\) of service_webhook_endpoint we_`,
					`data.verification_token is not a setup field of toolkit slack`, `signing_secret \(required, secret\), app_id`,
					`Webhook endpoint not configured`, `Attribute data_wo: the webhook endpoint we_\S+ exists on the service`),
			},
			{
				Config: testAccWebhookEndpointConfig(clientID, "    signing_secret = \"s\"\n", 1),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testAccWebhookEndpointAddr, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(
					testAccWebhookEndpointData(t, map[string]string{"signing_secret": "********"}),
					func(s *terraform.State) error {
						got := s.RootModule().Resources[testAccWebhookEndpointAddr].Primary.ID
						we, err := testAccClient(t).ListWebhookEndpoints(context.Background(), "slack")
						if err != nil {
							return err
						}
						n := 0
						for _, e := range we {
							if e.ClientID != nil && *e.ClientID == clientID {
								n++
								if e.ID != got {
									return fmt.Errorf("the state holds %s, the service %s", got, e.ID)
								}
							}
						}
						if n != 1 {
							return fmt.Errorf("%d endpoints of client_id %s, want 1 (adopted, not duplicated)", n, clientID)
						}
						return nil
					},
				),
			},
		},
	})
}

// adoptedEndpoint creates an endpoint through the client, configured with
// data, as one created outside Terraform.
func adoptedEndpoint(t *testing.T, c *client.Client, toolkit, clientID string, data map[string]string) *client.WebhookEndpoint {
	t.Helper()
	ctx := context.Background()
	we, err := c.CreateWebhookEndpoint(ctx, toolkit, clientID)
	if err != nil {
		t.Fatal(err)
	}
	if data != nil {
		if we, err = c.ReplaceWebhookEndpoint(ctx, we.ID, data); err != nil {
			t.Fatal(err)
		}
	}
	return we
}

// The plan-time toolkit check reads each toolkit and its trigger types once
// per provider process whatever the number of endpoints, only for a create or
// a replacement, and not at all for an unchanged plan, an in-place update or
// an unconfigured provider.
func TestWebhookEndpointModifyPlanReads(t *testing.T) {
	t.Parallel()
	ctx := destroyrun.WithDetection(t.Context(), destroyrun.NotDestroying)
	r := &webhookEndpointResource{}
	var sr fwresource.SchemaResponse
	r.Schema(ctx, fwresource.SchemaRequest{}, &sr)
	typ := sr.Schema.Type().TerraformType(ctx).(tftypes.Object)
	obj := func(toolkit, clientID string, version int64) tftypes.Value {
		return testutil.ObjectValue(typ, map[string]tftypes.Value{
			"toolkit":         tftypes.NewValue(tftypes.String, toolkit),
			"client_id":       tftypes.NewValue(tftypes.String, clientID),
			"data_wo_version": tftypes.NewValue(tftypes.Number, version),
		})
	}
	null := tftypes.NewValue(typ, nil)

	var toolkitReads, triggerReads int
	var fetch lookup.Fetchers
	fetch.Toolkit = func(_ context.Context, slug, _ string) (*client.Toolkit, error) {
		toolkitReads++
		return &client.Toolkit{Slug: slug}, nil
	}
	fetch.TriggerTypes = func(_ context.Context, p client.TriggerTypeListParams) ([]client.TriggerType, error) {
		triggerReads++
		return []client.TriggerType{
			{Slug: "X_POLL"},
			{Slug: "X_EVENT", RequiresWebhookEndpointSetup: p.ToolkitSlugs[0] == "slack"},
		}, nil
	}
	c, err := client.New(client.Config{BaseURL: "http://plan.invalid", APIKey: "k", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	configured := &ProviderData{Client: c, Cache: lookup.NewObjectCacheWith(client.ToolkitVersions{}, fetch)}

	plan := func(data *ProviderData, state, planned tftypes.Value) diag.Diagnostics {
		r := NewWebhookEndpointResource().(*webhookEndpointResource)
		r.data = data
		req := fwresource.ModifyPlanRequest{
			Config: tfsdk.Config{Schema: sr.Schema, Raw: planned},
			Plan:   tfsdk.Plan{Schema: sr.Schema, Raw: planned},
			State:  tfsdk.State{Schema: sr.Schema, Raw: state},
		}
		resp := &fwresource.ModifyPlanResponse{Plan: req.Plan}
		r.ModifyPlan(ctx, req, resp)
		return resp.Diagnostics
	}
	reads := func(step string, toolkits, triggers int) {
		t.Helper()
		if toolkitReads != toolkits || triggerReads != triggers {
			t.Errorf("%s: %d toolkit reads and %d trigger type lists, want %d and %d", step, toolkitReads, triggerReads, toolkits, triggers)
		}
	}

	for _, clientID := range []string{"app-1", "app-2", "app-3"} {
		if d := plan(configured, null, obj("slack", clientID, 1)); d.HasError() {
			t.Fatalf("create of a slack endpoint: %v", d)
		}
	}
	reads("three slack creates", 1, 1)
	if d := plan(configured, obj("slack", "app-1", 1), obj("slack", "app-4", 1)); d.HasError() {
		t.Fatalf("replacement: %v", d)
	}
	reads("a replacement (cached)", 1, 1)
	plan(configured, obj("github", "gh", 1), obj("github", "gh", 1))
	plan(configured, obj("github", "gh", 1), obj("github", "gh", 2))
	plan(nil, null, obj("github", "gh", 1))
	reads("unchanged, in-place update, unconfigured", 1, 1)

	d := plan(configured, null, obj("github", "gh", 1))
	reads("a github create", 2, 2)
	if !d.HasError() || !strings.Contains(d.Errors()[0].Detail(), `toolkit "github" does not need a webhook endpoint`) ||
		!strings.Contains(d.Errors()[0].Detail(), "none of its 2 trigger types requires webhook endpoint setup") {
		t.Errorf("a toolkit without webhook endpoint setup: %v", d)
	}
	if d := plan(configured, null, obj("github", "gh-2", 1)); !d.HasError() {
		t.Error("the second github create: no error")
	}
	reads("a second github create (cached)", 2, 2)
}

// TestAccE2E_webhookEndpoint runs service_webhook_endpoint through the real
// CLI in a project of its own:
//
//   - create: a Slack endpoint with data_wo from an ephemeral variable, and a
//     Discord endpoint that already existed (created through the API), which
//     the apply adopts with the warning naming its id, without a duplicate
//     and keeping its fields; the data_wo value reaches the service but never
//     the state (attributes, private data), the saved plan, the output or
//     the TF_LOG=trace logs;
//   - the request budget, route by route: plan reads the catalog only, for
//     the plan-time toolkit check (one GET of each toolkit and one list of
//     its trigger types, cached for the provider process); the apply is those
//     reads again (its final plan runs in a new provider process) plus one
//     POST per endpoint and one POST of the fields; a refresh is one GET per
//     endpoint (nothing changed: no check); destroy is the refresh and no
//     write (no check during a destroy);
//   - destroy: a warning per endpoint that it stays active; it still exists;
//   - a create after the destroy adopts the endpoint again (same id).
//
// Parallel-safe: the counters are the project's own.
func TestAccE2E_webhookEndpoint(t *testing.T) {
	t.Parallel()
	w := newE2EWorkspace(t)
	key, c := testAccIsolatedProject(t)
	ctx := context.Background()
	rnd := acctest.RandString(12)
	secret := "e2e-signing-secret-" + rnd + "-Qw8"
	slackClient := "e2e-slack-" + rnd
	pre := adoptedEndpoint(t, c, "discord", "e2e-discord-"+rnd, map[string]string{"public_key": "pk-before"})

	w.WriteFile("main.tf", fmt.Sprintf(`
provider "service" {
  api_key = %[1]q
}

variable "signing_secret" {
  type      = string
  sensitive = true
  ephemeral = true
}

resource "service_webhook_endpoint" "slack" {
  toolkit   = "slack"
  client_id = %[2]q
  data_wo = {
    signing_secret = var.signing_secret
    app_id         = "A-%[3]s"
  }
  data_wo_version = 1
}

resource "service_webhook_endpoint" "discord" {
  toolkit   = "discord"
  client_id = "e2e-discord-%[3]s"
}

output "slack_id" {
  value = service_webhook_endpoint.slack.id
}
`, key, slackClient, rnd))
	env := []string{"TF_VAR_signing_secret=" + secret}

	// The routes of webhook endpoints, and the plan-time toolkit check's
	// catalog reads.
	routes := []string{routeCreateWebhookEndpoint, routeReplaceWebhookEndpoint, routeGetWebhookEndpoint,
		routeListWebhookEndpoints, routeUpdateWebhookEndpoint, routeGetToolkit, routeListTriggerTypes}
	counts := func() map[string]int {
		out := map[string]int{}
		for _, r := range routes {
			out[r] = testAccProjectRequests(t, key, r)
		}
		return out
	}
	run := func(phase string, want map[string]int, extra []string, args ...string) e2eResult {
		t.Helper()
		before := counts()
		res := w.RunEnvOK(append(append([]string{}, env...), extra...), args...)
		got := requestDelta(before, counts())
		if !maps.Equal(got, want) {
			t.Errorf("%s: requests differ from the budget\n got: %s\nwant: %s", phase, formatCounts(got), formatCounts(want))
		}
		return res
	}

	planLog, applyLog := w.Path("plan-trace.log"), w.Path("apply-trace.log")
	// The plan-time toolkit check reads each toolkit (slack, discord) and its
	// trigger types once per provider process: Terraform starts one for the
	// plan and another for the apply of the saved plan, whose final plan
	// checks again (the cache lives in the process, so each walk pays once
	// per toolkit, not once per resource).
	catalog := map[string]int{routeGetToolkit: 2, routeListTriggerTypes: 2}
	plan := run("plan", catalog, []string{"TF_LOG=trace", "TF_LOG_PATH=" + planLog}, "plan", "-out=tfplan", "-no-color")
	apply := run("apply", map[string]int{routeGetToolkit: 2, routeListTriggerTypes: 2, routeCreateWebhookEndpoint: 2, routeReplaceWebhookEndpoint: 1},
		[]string{"TF_LOG=trace", "TF_LOG_PATH=" + applyLog}, "apply", "-no-color", "tfplan")

	// Adoption: the warning names the id; one endpoint of that client_id; its fields kept.
	for _, want := range []string{"Adopted the existing webhook endpoint " + pre.ID,
		"already existed and is now managed by this resource", "kept as they are (data_wo is not set)"} {
		if !strings.Contains(normalizeSpace(apply.Stdout), want) {
			t.Errorf("the apply output lacks %q:\n%s", want, apply.Stdout)
		}
	}
	if strings.Count(apply.Stdout, "Adopted the existing webhook endpoint") != 1 {
		t.Errorf("want exactly one adoption warning (the Slack endpoint is new):\n%s", apply.Stdout)
	}
	list, err := c.ListWebhookEndpoints(ctx, "discord")
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].ID != pre.ID {
		t.Errorf("discord endpoints after the adoption: %+v, want only %s", list, pre.ID)
	}
	if got, err := c.GetWebhookEndpoint(ctx, pre.ID); err != nil || got.Data["public_key"] != "pk-before" {
		t.Errorf("the adopted endpoint's fields changed: %+v, %v", got, err)
	}

	// data_wo reached the service (secret masked, app_id as sent)...
	var outputs map[string]struct {
		Value string `json:"value"`
	}
	if err := json.Unmarshal([]byte(w.RunOK("output", "-json").Stdout), &outputs); err != nil {
		t.Fatal(err)
	}
	slackID := outputs["slack_id"].Value
	we, err := c.GetWebhookEndpoint(ctx, slackID)
	if err != nil {
		t.Fatal(err)
	}
	if we.Data["signing_secret"] != "********" || we.Data["app_id"] != "A-"+rnd {
		t.Fatalf("data_wo did not reach the service: %v", we.Data)
	}
	// ...and nowhere else.
	state := w.ReadFile("terraform.tfstate")
	if !strings.Contains(string(state), slackID) {
		t.Fatal("the state file does not hold the endpoint: the scan would prove nothing")
	}
	haystacks := map[string][]byte{
		"terraform.tfstate":         state,
		"terraform show -json":      []byte(w.RunOK("show", "-json", "tfplan").Stdout),
		"plan output":               []byte(plan.Stdout + plan.Stderr),
		"apply output":              []byte(apply.Stdout + apply.Stderr),
		"plan TF_LOG=trace output":  mustRead(t, planLog),
		"apply TF_LOG=trace output": mustRead(t, applyLog),
	}
	if !strings.Contains(string(haystacks["apply TF_LOG=trace output"]), "tf_rpc=ApplyResourceChange") {
		t.Fatal("the apply log is not a trace log of the apply")
	}
	for name, b := range w.PlanEntries("tfplan") {
		haystacks["tfplan:"+name] = b
	}
	privates, instances := statePrivateData(t, state)
	if instances != 2 {
		t.Fatalf("the state has %d resource instances, want 2", instances)
	}
	for addr, b := range privates {
		haystacks["terraform.tfstate private data of "+addr] = b
	}
	for where, b := range haystacks {
		for _, s := range findEncodedSecrets(b, []string{secret}) {
			t.Errorf("the data_wo value %q appears in %s (as written or encoded)", s, where)
		}
	}

	// Refresh and plan with nothing to change: one GET per endpoint.
	refresh := run("refresh plan", map[string]int{routeGetWebhookEndpoint: 2}, nil, "plan", "-detailed-exitcode", "-no-color")
	if !strings.Contains(refresh.Stdout, "No changes") {
		t.Errorf("the plan after the apply is not empty:\n%s", refresh.Stdout)
	}

	// Destroy: the refresh, no write; a warning per endpoint; both still exist.
	destroy := run("destroy", map[string]int{routeGetWebhookEndpoint: 2}, nil, "destroy", "-auto-approve", "-no-color")
	for _, id := range []string{slackID, pre.ID} {
		for _, want := range []string{"Webhook endpoint " + id + " stays active on the service",
			"The service has no API to delete webhook endpoints", "A later create with the same toolkit and client_id adopts this endpoint"} {
			if !strings.Contains(normalizeSpace(destroy.Stdout), want) {
				t.Errorf("the destroy output lacks %q:\n%s", want, destroy.Stdout)
			}
		}
		if _, err := c.GetWebhookEndpoint(ctx, id); err != nil {
			t.Errorf("endpoint %s after the destroy: %v (it must stay)", id, err)
		}
	}
	if out := w.RunOK("state", "list").Stdout; strings.TrimSpace(out) != "" {
		t.Errorf("the state after destroy is not empty:\n%s", out)
	}

	// A create after the destroy adopts both again, with the same ids.
	// Two provider processes (the plan, then the final plan and the apply),
	// each reading the two toolkits and their trigger types once.
	again := run("apply again", map[string]int{routeGetToolkit: 4, routeListTriggerTypes: 4, routeCreateWebhookEndpoint: 2, routeReplaceWebhookEndpoint: 1}, nil,
		"apply", "-auto-approve", "-no-color")
	for _, id := range []string{slackID, pre.ID} {
		if !strings.Contains(again.Stdout, "Adopted the existing webhook endpoint "+id) {
			t.Errorf("the second apply did not adopt %s:\n%s", id, again.Stdout)
		}
	}
	if all, err := c.ListWebhookEndpoints(ctx, ""); err != nil || len(all) != 2 {
		t.Errorf("the project's endpoints after the second apply: %+v, %v; want the 2 adopted", all, err)
	}
}

// normalizeSpace collapses runs of white space and the frame of diagnostics
// (Terraform wraps warnings, each line starting with "│").
func normalizeSpace(s string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "│", " ")), " ")
}
