package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"
)

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
