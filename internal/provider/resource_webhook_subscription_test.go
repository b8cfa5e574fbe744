package provider

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/client/webhooktest"
)

// Webhook subscription tests never call t.Parallel: the service allows one
// subscription per project and the acceptance project is shared.

const webhookSubName = "service_webhook_subscription.test"

func testAccWebhookSubConfig(url, version, rotation string, events ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "resource \"service_webhook_subscription\" \"test\" {\n  webhook_url    = %q\n", url)
	quoted := make([]string, len(events))
	for i, e := range events {
		quoted[i] = fmt.Sprintf("%q", e)
	}
	fmt.Fprintf(&b, "  enabled_events = [%s]\n", strings.Join(quoted, ", "))
	if version != "" {
		fmt.Fprintf(&b, "  version        = %q\n", version)
	}
	if rotation != "" {
		fmt.Fprintf(&b, "  secret_rotation = %q\n", rotation)
	}
	b.WriteString("}\n")
	return b.String()
}

// testAccNoWebhookSubscription fails when the shared project already has a
// subscription (left over by another test) and deletes it at the end.
func testAccNoWebhookSubscription(t *testing.T) {
	t.Helper()
	c := testAccClient(t)
	subs, err := c.ListWebhookSubscriptions(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range subs {
		t.Logf("deleting leftover webhook subscription %s", s.ID)
		if err := c.DeleteWebhookSubscription(context.Background(), s.ID); err != nil {
			t.Fatal(err)
		}
	}
}

func testAccCheckWebhookSubDestroy(t *testing.T) func(*terraform.State) error {
	return testAccCheckDestroyed(t, webhookSubscriptionType, "webhook subscription", func(ctx context.Context, c *client.Client, id string) error {
		_, err := c.GetWebhookSubscription(ctx, id)
		return err
	})
}

func TestAccWebhookSubscription_lifecycle(t *testing.T) {
	testAccPreCheck(t)
	testAccNoWebhookSubscription(t)
	c := testAccClient(t)
	const urlA, urlB = "https://hooks.example.com/a", "https://hooks.example.com/b"
	id, secret, rotated := &testAccValue{}, &testAccValue{}, &testAccValue{}
	var writes, reads int
	stats := func() (int, int) {
		s := testAccEmulatorStatsNow(t)
		return s.Writes, s.Requests[routeGetWebhookSub]
	}
	emulated := testAccEnvironment(t).Emulated
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckWebhookSubDestroy(t),
		Steps: []resource.TestStep{
			{
				PreConfig: func() {
					if emulated {
						writes, reads = stats()
					}
				},
				Config: testAccWebhookSubConfig(urlA, "", "", "composio.trigger.message"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(webhookSubName, tfjsonpath.New("id"), knownvalue.StringRegexp(regexp.MustCompile(`^\S+$`))),
					statecheck.ExpectKnownValue(webhookSubName, tfjsonpath.New("version"), knownvalue.StringExact("V3")),
					statecheck.ExpectKnownValue(webhookSubName, tfjsonpath.New("enabled_events"),
						knownvalue.SetExact([]knownvalue.Check{knownvalue.StringExact("composio.trigger.message")})),
					statecheck.ExpectKnownValue(webhookSubName, tfjsonpath.New("secret"), knownvalue.StringRegexp(regexp.MustCompile(`^.{16,}$`))),
					statecheck.ExpectKnownValue(webhookSubName, tfjsonpath.New("created_at"), testAccTimestamp),
					statecheck.ExpectKnownValue(webhookSubName, tfjsonpath.New("updated_at"), testAccTimestamp),
					statecheck.ExpectKnownValue(webhookSubName, tfjsonpath.New("secret_rotation"), knownvalue.Null()),
				},
				Check: resource.ComposeTestCheckFunc(id.capture(webhookSubName, "id"), secret.capture(webhookSubName, "secret"),
					func(*terraform.State) error {
						if !emulated {
							return nil
						}
						// create = 1 write; the post-apply refresh/plan of the test framework reads once.
						w, r := stats()
						if w-writes != 1 || r-reads > 1 {
							return fmt.Errorf("create cost %d writes and %d GETs of the subscription, want 1 and at most 1", w-writes, r-reads)
						}
						return nil
					}),
			},
			// Refresh costs exactly one GET.
			{
				PreConfig: func() {
					if emulated {
						_, reads = stats()
					}
				},
				RefreshState: true,
				Check: func(*terraform.State) error {
					if !emulated {
						return nil
					}
					if _, r := stats(); r-reads != 1 {
						return fmt.Errorf("refresh cost %d GETs, want 1", r-reads)
					}
					return nil
				},
			},
			// URL and events change in place; the secret stays.
			{
				Config: testAccWebhookSubConfig(urlB, "V3", "", "composio.trigger.message", "composio.connected_account.expired"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(webhookSubName, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(webhookSubName, tfjsonpath.New("secret"), knownvalue.NotNull()),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(webhookSubName, tfjsonpath.New("webhook_url"), knownvalue.StringExact(urlB)),
					statecheck.ExpectKnownValue(webhookSubName, tfjsonpath.New("enabled_events"), knownvalue.SetSizeExact(2)),
				},
				Check: func(s *terraform.State) error {
					rs := s.RootModule().Resources[webhookSubName].Primary
					if rs.ID != id.v || rs.Attributes["secret"] != secret.v {
						return fmt.Errorf("update replaced the subscription or changed its secret")
					}
					w, err := c.GetWebhookSubscription(context.Background(), id.v)
					if err != nil {
						return err
					}
					if w.WebhookURL != urlB || len(w.EnabledEvents) != 2 {
						return fmt.Errorf("service has %+v", w)
					}
					return nil
				},
			},
			// The version changes in place.
			{
				Config: testAccWebhookSubConfig(urlB, "V1", "", "composio.trigger.message"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(webhookSubName, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(webhookSubName, tfjsonpath.New("version"), knownvalue.StringExact("V1")),
					statecheck.ExpectKnownValue(webhookSubName, tfjsonpath.New("id"), knownvalue.StringFunc(func(v string) error {
						if v != id.v {
							return fmt.Errorf("replaced: %s", v)
						}
						return nil
					})),
				},
			},
			// Adding secret_rotation to the existing subscription is the
			// baseline of its secret: nothing rotates (the receiver keeps
			// verifying), as after an import.
			{
				Config: testAccWebhookSubConfig(urlB, "V1", "2026-01", "composio.trigger.message"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(webhookSubName, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(webhookSubName, tfjsonpath.New("secret"), knownvalue.NotNull()),
				}},
				Check: func(s *terraform.State) error {
					if got := s.RootModule().Resources[webhookSubName].Primary.Attributes["secret"]; got != secret.v {
						return fmt.Errorf("adding secret_rotation changed the secret in state")
					}
					w, err := c.GetWebhookSubscription(context.Background(), id.v)
					if err != nil {
						return err
					}
					if w.Secret != secret.v {
						return fmt.Errorf("adding secret_rotation rotated the secret on the service")
					}
					return nil
				},
			},
			// Changing secret_rotation rotates the secret in place.
			{
				Config: testAccWebhookSubConfig(urlB, "V1", "2026-02", "composio.trigger.message"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(webhookSubName, plancheck.ResourceActionUpdate),
					plancheck.ExpectUnknownValue(webhookSubName, tfjsonpath.New("secret")),
				}},
				Check: resource.ComposeTestCheckFunc(rotated.capture(webhookSubName, "secret"), func(s *terraform.State) error {
					if rotated.v == "" || rotated.v == secret.v {
						return fmt.Errorf("secret not rotated")
					}
					w, err := c.GetWebhookSubscription(context.Background(), id.v)
					if err != nil {
						return err
					}
					if w.Secret != rotated.v {
						return fmt.Errorf("state secret differs from the service's")
					}
					return nil
				}),
			},
			// Same rotation value: nothing to do.
			{
				Config:   testAccWebhookSubConfig(urlB, "V1", "2026-02", "composio.trigger.message"),
				PlanOnly: true,
			},
			testAccImportStep(webhookSubName, "secret_rotation"),
			// Changed outside Terraform: the plan puts it back in place.
			{
				PreConfig: func() {
					u, v := "https://elsewhere.example.com/x", "V3"
					if _, err := c.UpdateWebhookSubscription(context.Background(), id.v,
						client.UpdateWebhookSubscriptionRequest{WebhookURL: &u, Version: &v}); err != nil {
						t.Fatal(err)
					}
				},
				Config: testAccWebhookSubConfig(urlB, "V1", "2026-02", "composio.trigger.message"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(webhookSubName, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(webhookSubName, tfjsonpath.New("webhook_url"), knownvalue.StringExact(urlB)),
					statecheck.ExpectKnownValue(webhookSubName, tfjsonpath.New("version"), knownvalue.StringExact("V1")),
				},
			},
			// Deleted outside Terraform: created again.
			{
				PreConfig: func() {
					if err := c.DeleteWebhookSubscription(context.Background(), id.v); err != nil {
						t.Fatal(err)
					}
				},
				Config: testAccWebhookSubConfig(urlB, "V1", "2026-02", "composio.trigger.message"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(webhookSubName, plancheck.ResourceActionCreate),
				}},
				Check: func(s *terraform.State) error {
					if s.RootModule().Resources[webhookSubName].Primary.ID == id.v {
						return fmt.Errorf("not recreated")
					}
					return nil
				},
			},
		},
	})
}

// Bad inputs fail at validate or plan, naming the attribute, without a write.
func TestAccWebhookSubscription_badInputs(t *testing.T) {
	testAccRequireEmulator(t)
	testAccPreCheck(t)
	testAccNoWebhookSubscription(t)
	testAccNoWritesTest(t, []resource.TestStep{
		testAccPlanError(testAccWebhookSubConfig("https://h.example.com", "", "", "composio.nope"),
			"Unsupported webhook event", "enabled_events", `unknown event type "composio.nope"`, "composio.trigger.message"),
		testAccPlanError(testAccWebhookSubConfig("https://h.example.com", "V4", "", "composio.trigger.message"), "version", "V1", "V2", "V3"),
		testAccPlanError(testAccWebhookSubConfig("http://h.example.com/x", "", "", "composio.trigger.message"),
			"Invalid webhook URL", "webhook_url", "plain http", "h.example.com"),
		testAccPlanError(testAccWebhookSubConfig("hooks.example.com", "", "", "composio.trigger.message"), "webhook_url", "not an absolute URL"),
		testAccPlanError(testAccWebhookSubConfig("https://h.example.com", "V1", "", "composio.connected_account.expired"),
			"enabled_events", "not delivered in version V1"),
		testAccPlanError(`resource "service_webhook_subscription" "test" {
  webhook_url    = "https://h.example.com"
  enabled_events = []
}`, "enabled_events", "at least 1"),
	})
}

// testAccExistingWebhookSubscription checks that the project has no webhook
// subscription, then creates one out of band to url for
// composio.trigger.message events, deleted when the test ends.
func testAccExistingWebhookSubscription(t *testing.T, url string) (*client.Client, *client.WebhookSubscription) {
	t.Helper()
	testAccNoWebhookSubscription(t)
	c := testAccClient(t)
	w, err := c.CreateWebhookSubscription(context.Background(), client.CreateWebhookSubscriptionRequest{
		WebhookURL: url, EnabledEvents: []string{"composio.trigger.message"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.DeleteWebhookSubscription(context.Background(), w.ID) })
	return c, w
}

// A second subscription for the project fails at plan, naming the import command.
func TestAccWebhookSubscription_existing(t *testing.T) {
	testAccRequireEmulator(t)
	testAccPreCheck(t)
	_, w := testAccExistingWebhookSubscription(t, "https://dashboard.example.com/hook")
	testAccNoWritesTest(t, []resource.TestStep{
		testAccPlanError(testAccWebhookSubConfig("https://h.example.com", "", "", "composio.trigger.message"),
			"already has a webhook subscription", "webhook_url", w.ID, "import {", "to = service_webhook_subscription.NAME", `id = "`+w.ID+`"`, "}",
			"terraform import service_webhook_subscription.NAME "+w.ID),
	})
}

// TestAccWebhookSubscription_importKeepsSecret: adopting an existing
// subscription with a configuration that sets secret_rotation (an import
// block) takes that value as the baseline and keeps the secret receivers
// verify with; a later change of secret_rotation rotates it.
func TestAccWebhookSubscription_importKeepsSecret(t *testing.T) {
	testAccRequireEmulator(t)
	testAccPreCheck(t)
	c, w := testAccExistingWebhookSubscription(t, "https://adopt.example.com/hook")
	serviceSecret := func(want string, same bool) resource.TestCheckFunc {
		return func(*terraform.State) error {
			got, err := c.GetWebhookSubscription(context.Background(), w.ID)
			if err != nil {
				return err
			}
			if (got.Secret == want) != same {
				return fmt.Errorf("secret on the service: same as the original = %t, want %t", got.Secret == want, same)
			}
			return nil
		}
	}
	cfg := func(rotation string) string {
		return testAccWebhookSubConfig("https://adopt.example.com/hook", "", rotation, "composio.trigger.message")
	}
	importBlock := fmt.Sprintf("\nimport {\n  to = %s\n  id = %q\n}\n", webhookSubName, w.ID)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckWebhookSubDestroy(t),
		Steps: []resource.TestStep{
			{
				Config: cfg("2026-01") + importBlock,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(webhookSubName, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(webhookSubName, tfjsonpath.New("secret"), knownvalue.StringExact(w.Secret)),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				Check: serviceSecret(w.Secret, true),
			},
			{
				Config: cfg("2026-02"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectUnknownValue(webhookSubName, tfjsonpath.New("secret")),
				}},
				Check: serviceSecret(w.Secret, false),
			},
		},
	})
}

// webhookReceiver is a local endpoint recording deliveries.
type webhookReceiver struct {
	URL string
	got chan receivedWebhook
}

type receivedWebhook struct {
	header http.Header
	body   []byte
}

func newWebhookReceiver(t *testing.T) *webhookReceiver {
	t.Helper()
	rc := &webhookReceiver{got: make(chan receivedWebhook, 16)}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		rc.got <- receivedWebhook{header: r.Header.Clone(), body: b}
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(srv.Close)
	rc.URL = srv.URL + "/hooks/service"
	return rc
}

func (rc *webhookReceiver) next(t *testing.T) receivedWebhook {
	t.Helper()
	select {
	case r := <-rc.got:
		return r
	case <-time.After(10 * time.Second):
		t.Fatal("no webhook delivered within 10s")
		return receivedWebhook{}
	}
}

// A fired trigger reaches a local receiver in each version, signed with the
// subscription's secret, and verifies with the Go verifier.
func TestAccWebhookSubscription_deliveries(t *testing.T) {
	testAccRequireEmulator(t)
	testAccPreCheck(t)
	testAccNoWebhookSubscription(t)
	rc := newWebhookReceiver(t)
	user := acctest.RandomWithPrefix("tf-acc-whs")
	_, accountID := testAccTriggerAccount(t, "linear", user)
	c := testAccClient(t)
	triggerID, err := c.UpsertTrigger(context.Background(), "LINEAR_ISSUE_CREATED_TRIGGER", client.UpsertTriggerRequest{
		ConnectedAccountID: accountID, TriggerConfig: map[string]any{"team_id": "T1"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.DeleteTrigger(context.Background(), triggerID) })
	secret := &testAccValue{}
	var forSDK []sdkVerifyInput
	deliver := func(version string) resource.TestStep {
		return resource.TestStep{
			Config: testAccWebhookSubConfig(rc.URL, version, "", "composio.trigger.message"),
			Check: resource.ComposeTestCheckFunc(secret.capture(webhookSubName, "secret"), func(*terraform.State) error {
				testAccEmulatorPostJSON(t, "trigger_instances/"+triggerID+"/fire", map[string]any{"issue": "ISS-" + version})
				got := rc.next(t)
				h := got.header
				res, err := webhooktest.VerifyWebhook(webhooktest.VerifyWebhookParams{
					Payload: got.body, Signature: h.Get(webhooktest.WebhookSignatureHeader), ID: h.Get(webhooktest.WebhookIDHeader),
					Timestamp: h.Get(webhooktest.WebhookTimestampHeader), Secret: secret.v,
				})
				if err != nil {
					return fmt.Errorf("%s delivery does not verify: %w (body %s)", version, err, got.body)
				}
				if res.Version != version || h.Get(webhooktest.WebhookVersionHeader) != version {
					return fmt.Errorf("delivered as %s (header %s), want %s", res.Version, h.Get(webhooktest.WebhookVersionHeader), version)
				}
				forSDK = append(forSDK, sdkVerifyInput{Payload: string(got.body), Signature: h.Get(webhooktest.WebhookSignatureHeader),
					ID: h.Get(webhooktest.WebhookIDHeader), Timestamp: h.Get(webhooktest.WebhookTimestampHeader), Secret: secret.v})
				p := res.Payload
				if p.TriggerSlug != "LINEAR_ISSUE_CREATED_TRIGGER" || p.Metadata.ConnectedAccount.ID != accountID ||
					p.Payload["issue"] != "ISS-"+version {
					return fmt.Errorf("%s payload %+v", version, p)
				}
				if _, err := webhooktest.VerifyWebhook(webhooktest.VerifyWebhookParams{
					Payload: got.body, Signature: h.Get(webhooktest.WebhookSignatureHeader), ID: h.Get(webhooktest.WebhookIDHeader),
					Timestamp: h.Get(webhooktest.WebhookTimestampHeader), Secret: secret.v + "x",
				}); err == nil {
					return fmt.Errorf("a wrong secret verified")
				}
				return nil
			}),
		}
	}
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckWebhookSubDestroy(t),
		Steps:                    []resource.TestStep{deliver("V1"), deliver("V2"), deliver("V3")},
	})
	// The same deliveries verify with the official SDK's verifyWebhook.
	t.Run("official SDK verifyWebhook", func(t *testing.T) {
		res := sdkVerifyWebhooks(t, forSDK)
		t.Logf("the SDK's verifyWebhook accepted the deliveries: %+v", res)
		if len(res) != 3 {
			t.Fatalf("SDK verified %d deliveries, want 3: %+v", len(res), res)
		}
		for i, want := range []string{"V1", "V2", "V3"} {
			if r := res[i]; r.Version != want || r.TriggerSlug != "LINEAR_ISSUE_CREATED_TRIGGER" || r.AccountID != accountID {
				t.Errorf("SDK parsed delivery %d as %+v, want version %s of LINEAR_ISSUE_CREATED_TRIGGER for %s", i, r, want, accountID)
			}
		}
	})
}

func TestAccIdentity_webhookSubscription(t *testing.T) {
	// Not parallel: one webhook subscription per project.
	testAccPreCheck(t)
	testAccNoWebhookSubscription(t)
	testAccIdentity(t, identityCase{
		addr: webhookSubName, idRe: regexp.MustCompile(`^\S+$`),
		create: testAccWebhookSubConfig("https://hooks.example.com/ident-a", "", "", "composio.trigger.message"),
		update: testAccWebhookSubConfig("https://hooks.example.com/ident-b", "", "", "composio.trigger.message"),
		remove: func(ctx context.Context, c *client.Client, id string) error {
			return c.DeleteWebhookSubscription(ctx, id)
		},
		gone: func(t *testing.T) resource.TestCheckFunc { return testAccCheckWebhookSubDestroy(t) },
	})
}
