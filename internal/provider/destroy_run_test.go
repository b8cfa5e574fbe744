package provider

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/provider/destroyrun"
	"github.com/integration-service/terraform-provider-service/internal/provider/lookup"
	"github.com/integration-service/terraform-provider-service/internal/testutil"
)

// The auth configs that partialApplyCases' configurations start with.
const (
	partialStripeAuthConfig = `
resource "service_auth_config" "ac" {
  toolkit     = "stripe"
  type        = "use_custom_auth"
  auth_scheme = "API_KEY"
  name        = "%[1]s"
}
`
	partialGithubAuthConfig = `
resource "service_auth_config" "gh" {
  toolkit = "github"
  type    = "use_service_managed_auth"
  name    = "%[1]s"
}
`
)

// partialApplyCases: per resource type, a configuration whose apply creates
// the first objects and then stops on that resource's plan-time check, which
// can only run once those objects exist (an attribute is unknown until then:
// `substr(x.id, 0, 0)` is "" once x.id is known). %[1]s is a unique name,
// %[2]s the same with underscores, %[3]s a short random string.
type partialApplyCase struct {
	resourceType string
	config       string
	wantError    []string // in the apply's output
	isolated     bool     // in a project of its own (one webhook subscription per project)
}

// partialApplyCases are the cases, one per resource type with plan-time checks.
var partialApplyCases = []partialApplyCase{
	{
		resourceType: authConfigResourceType,
		config: partialGithubAuthConfig + `
# stripe offers API_KEY only; the toolkit is known once gh exists.
resource "service_auth_config" "bad" {
  toolkit     = "stripe${substr(service_auth_config.gh.id, 0, 0)}"
  type        = "use_custom_auth"
  auth_scheme = "BASIC"
  name        = "%[1]s-bad"
  credentials_wo = {
    username = "u"
    password = "p"
  }
  credentials_wo_version = 1
}
`,
		wantError: []string{"Auth scheme not offered by the toolkit", "BASIC"},
	},
	{
		resourceType: connectedAccountType,
		config: partialStripeAuthConfig + `
# Wrong fields for the API_KEY scheme: known only once the auth config exists.
resource "service_connected_account" "bad_credentials" {
  user_id        = "%[1]s-other"
  auth_config_id = service_auth_config.ac.id
  credentials_wo = {
    access_token = "not-an-api-key"
  }
  credentials_wo_version = 1
}
`,
		wantError: []string{"access_token"},
	},
	{
		resourceType: triggerInstanceType,
		config: partialStripeAuthConfig + `
resource "service_connected_account" "ok" {
  user_id        = "%[1]s-owner"
  auth_config_id = service_auth_config.ac.id
  credentials_wo = {
    api_key = "sk_test_partial"
  }
  credentials_wo_version = 1
}

# The account belongs to another user: known only once the account exists.
resource "service_trigger_instance" "wrong_owner" {
  user_id              = "%[1]s-someone-else"
  slug                 = "STRIPE_CHARGE_SUCCEEDED_TRIGGER"
  connected_account_id = service_connected_account.ok.id
}
`,
		wantError: []string{"belongs to user"},
	},
	{
		resourceType: webhookSubscriptionType,
		config: partialStripeAuthConfig + `
# version is known only once the auth config exists; the expired-account
# event is delivered in V3 only.
resource "service_webhook_subscription" "hook" {
  webhook_url    = "https://hooks.example.com/%[1]s"
  enabled_events = ["composio.connected_account.expired"]
  version        = service_auth_config.ac.id != "" ? "V1" : "V3"
}
`,
		wantError: []string{"Unsupported webhook event", "not delivered in version V1"},
		isolated:  true,
	},
	{
		resourceType: mcpServerType,
		config: partialGithubAuthConfig + `
# A tool of github_app, not github: the plan cannot tell (gh's id, hence the
# server's toolkits, is unknown), the final plan once gh exists can.
resource "service_mcp_server" "srv" {
  name            = "partial-%[3]s"
  auth_config_ids = [service_auth_config.gh.id]
  allowed_tools   = ["GITHUB_APP_LIST_REPOSITORIES"]
}
`,
		wantError: []string{"Tool of another toolkit", "GITHUB_APP_LIST_REPOSITORIES"},
	},
	{
		resourceType: customToolkitType,
		config: `
resource "service_custom_toolkit" "first" {
  slug    = "tf_partial_%[3]s"
  name    = "%[1]s"
  mcp_url = "https://mcp.example.com/%[1]s"
  auth_scheme = {
    mode = "NO_AUTH"
  }
}

# The same slug, known only once the first toolkit exists.
resource "service_custom_toolkit" "second" {
  slug    = "tf_partial_%[3]s${substr(service_custom_toolkit.first.id, 0, 0)}"
  name    = "%[1]s second"
  mcp_url = "https://mcp.example.com/%[1]s/second"
  auth_scheme = {
    mode = "NO_AUTH"
  }
}
`,
		wantError: []string{"Toolkit already exists", "terraform import"},
	},
}

// workspace returns an end-to-end workspace holding the case's main.tf (in
// a project of its own when isolated) and the unique name it uses.
func (tc partialApplyCase) workspace(t *testing.T, prefix string) (*e2eWorkspace, string) {
	t.Helper()
	w := newE2EWorkspace(t)
	if tc.isolated {
		key, _ := testAccIsolatedProject(t)
		w.env = append(w.env, EnvAPIKey+"="+key) // the last value of a variable wins
	}
	name := acctest.RandomWithPrefix(prefix)
	w.WriteFile("main.tf", fmt.Sprintf(tc.config, name, strings.ReplaceAll(name, "-", "_"), acctest.RandString(8)))
	return w, name
}

// TestAccDestroy_afterPartialApplyWithPlanError: per resource type, an apply
// stops half-way on that resource's plan-time check; then `terraform
// destroy` and (after the same partial apply again) `terraform apply
// -destroy`, both without -refresh=false, succeed and leave an empty state.
// Terraform's destroy first plans the whole configuration, where the check
// would fail again: the gate (destroyrun.RemotePlanChecks) skips it. Through
// the CLI that TF_CLI names (terraform or tofu, any version).
func TestAccDestroy_afterPartialApplyWithPlanError(t *testing.T) {
	t.Parallel()
	for _, tc := range partialApplyCases {
		for _, destroy := range [][]string{{"destroy"}, {"apply", "-destroy"}} {
			t.Run(tc.resourceType+"/"+strings.Join(destroy, "_"), func(t *testing.T) {
				t.Parallel()
				w, _ := tc.workspace(t, "tf-acc-partial")
				res := w.Run(nil, "apply", "-auto-approve", "-no-color", "-input=false")
				out := strings.Join(strings.Fields(res.Stdout+res.Stderr), " ")
				if res.ExitCode == 0 {
					t.Fatalf("apply succeeded; the test needs the plan-time error of %s:\n%s", tc.resourceType, res.Stdout)
				}
				for _, want := range tc.wantError {
					if !strings.Contains(out, want) {
						t.Fatalf("apply did not stop on the %s check (no %q):\n%s%s", tc.resourceType, want, res.Stdout, res.Stderr)
					}
				}
				if n := len(w.stateResources()); n == 0 {
					t.Fatalf("the apply was expected to create the first objects; state:\n%s", w.ReadFile("terraform.tfstate"))
				}
				w.RunOK(append(destroy, "-auto-approve", "-no-color", "-input=false")...)
				if left := w.stateResources(); len(left) != 0 {
					t.Errorf("state after %s still has %v", strings.Join(destroy, " "), left)
				}
			})
		}
	}
}

// TestAccDestroy_testTeardownAfterFailedApply: per resource type, a
// `terraform test` (or `tofu test`) run whose apply stops half-way on that
// resource's plan-time check fails, and its teardown destroys what the apply
// created: nothing is left in state, nothing on the service. Terraform
// before 1.14 and OpenTofu tear a test down with a destroy that first plans
// the configuration again (where the check would fail again and stop the
// teardown); the provider reports the check as a warning there
// (destroyrun.InTest) and refuses the object at apply. Through the CLI that
// TF_CLI names.
func TestAccDestroy_testTeardownAfterFailedApply(t *testing.T) {
	t.Parallel()
	for _, tc := range partialApplyCases {
		t.Run(tc.resourceType, func(t *testing.T) {
			t.Parallel()
			w, name := tc.workspace(t, "tf-acc-teardown")
			if err := os.MkdirAll(w.Path("tests"), 0o700); err != nil {
				t.Fatal(err)
			}
			w.WriteFile("tests/partial.tftest.hcl", "run \"apply\" {}\n")
			res := w.Run(nil, "test", "-no-color")
			out := strings.Join(strings.Fields(res.Stdout+res.Stderr), " ")
			if res.ExitCode == 0 {
				t.Fatalf("terraform test passed; the test needs the apply to stop on the %s check:\n%s", tc.resourceType, res.Stdout)
			}
			for _, want := range tc.wantError {
				if !strings.Contains(out, want) {
					t.Fatalf("the run did not stop on the %s check (no %q):\n%s%s", tc.resourceType, want, res.Stdout, res.Stderr)
				}
			}
			for _, leak := range []string{"cleaned up manually", "error destroying resources"} {
				if strings.Contains(out, leak) {
					t.Errorf("the teardown left objects behind (%q):\n%s%s", leak, res.Stdout, res.Stderr)
				}
			}
			if !strings.Contains(out, "1 failed") {
				t.Errorf("want the one run failed:\n%s", res.Stdout)
			}
			c := testAccClient(t)
			if tc.isolated {
				return // the project's own key is not testAccClient's
			}
			acs, err := c.ListAuthConfigs(t.Context(), client.AuthConfigListParams{ShowDisabled: true})
			if err != nil {
				t.Fatal(err)
			}
			for _, ac := range acs {
				if strings.HasPrefix(ac.Name, name) {
					t.Errorf("auth config %s (%s) left on the service after the teardown", ac.ID, ac.Name)
				}
			}
		})
	}
}

// TestCreateAndUpdateHonourRefusals: every resource whose ModifyPlan goes
// through the gate refuses, in Create and in Update and before any request,
// a configuration the gate refused under a test command (destroyrun.InTest
// turns plan-time errors into warnings; the apply must still refuse). Not
// parallel: the refusals are the process's, and TestModifyPlanGoesThroughTheGate
// reads them for the same fixtures.
func TestCreateAndUpdateHonourRefusals(t *testing.T) {
	ctx := t.Context()
	for _, newResource := range New("test")().Resources(ctx) {
		r := newResource()
		var md resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "service"}, &md)
		fixture, ok := gateFixtures[md.TypeName]
		if !ok {
			continue // no ModifyPlan (TestModifyPlanGoesThroughTheGate)
		}
		var sr resource.SchemaResponse
		r.Schema(ctx, resource.SchemaRequest{}, &sr)
		typ := sr.Schema.Type().TerraformType(ctx).(tftypes.Object)
		obj := testutil.ObjectValue(typ, fixture)
		var refusal diag.Diagnostics
		refusal.AddAttributeError(path.Root("name"), "Refused at plan "+md.TypeName, "Attribute name: refused.")
		t.Cleanup(destroyrun.Refuse(md.TypeName, obj, refusal))
		tr := configureAtGate(t, r)
		config := tfsdk.Config{Schema: sr.Schema, Raw: obj}
		cresp := resource.CreateResponse{State: tfsdk.State{Schema: sr.Schema, Raw: tftypes.NewValue(typ, nil)}}
		r.Create(ctx, resource.CreateRequest{Config: config, Plan: tfsdk.Plan{Schema: sr.Schema, Raw: obj}}, &cresp)
		uresp := resource.UpdateResponse{State: tfsdk.State{Schema: sr.Schema, Raw: obj}}
		r.Update(ctx, resource.UpdateRequest{Config: config, Plan: tfsdk.Plan{Schema: sr.Schema, Raw: obj},
			State: tfsdk.State{Schema: sr.Schema, Raw: obj}}, &uresp)
		for op, diags := range map[string]diag.Diagnostics{"Create": cresp.Diagnostics, "Update": uresp.Diagnostics} {
			if !testutil.DiagsContain(diags, "Refused at plan "+md.TypeName) {
				t.Errorf("%s.%s did not refuse the configuration the gate refused (call destroyrun.Refused first): %v", md.TypeName, op, diags)
			}
		}
		if len(tr.reqs) > 0 {
			t.Errorf("%s: a refused Create or Update sent %v", md.TypeName, tr.reqs)
		}
	}
}

// stateInstance is one resource instance of terraform.tfstate.
type stateInstance struct {
	address string
	attrs   map[string]any
}

// stateInstances returns the resource instances of terraform.tfstate.
func (w *e2eWorkspace) stateInstances() []stateInstance {
	w.t.Helper()
	var st struct {
		Resources []struct {
			Type      string `json:"type"`
			Name      string `json:"name"`
			Instances []struct {
				Attributes map[string]any `json:"attributes"`
			} `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(w.ReadFile("terraform.tfstate"), &st); err != nil {
		w.t.Fatal(err)
	}
	var out []stateInstance
	for _, r := range st.Resources {
		for _, in := range r.Instances {
			out = append(out, stateInstance{address: r.Type + "." + r.Name, attrs: in.Attributes})
		}
	}
	return out
}

// stateResources returns the addresses of the resources in terraform.tfstate.
func (w *e2eWorkspace) stateResources() []string {
	w.t.Helper()
	var st struct {
		Resources []struct {
			Type      string `json:"type"`
			Name      string `json:"name"`
			Instances []any  `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(w.ReadFile("terraform.tfstate"), &st); err != nil {
		w.t.Fatal(err)
	}
	var out []string
	for _, r := range st.Resources {
		if len(r.Instances) > 0 {
			out = append(out, r.Type+"."+r.Name)
		}
	}
	return out
}

// gateFixtures are, per resource type with a ModifyPlan, attribute values of
// an object to create that make its plan-time checks read the service (the
// other attributes are null). A new resource type with a ModifyPlan needs an
// entry here (TestModifyPlanGoesThroughTheGate).
var gateFixtures = map[string]map[string]tftypes.Value{
	authConfigResourceType: {
		"toolkit": tftypes.NewValue(tftypes.String, "github"),
		"type":    tftypes.NewValue(tftypes.String, authConfigTypeManaged),
		"enabled": tftypes.NewValue(tftypes.Bool, true),
	},
	connectedAccountType: {
		"user_id":        tftypes.NewValue(tftypes.String, "gate-user"),
		"auth_config_id": tftypes.NewValue(tftypes.String, "ac_gate000000001"),
		"credentials_wo": tftypes.NewValue(tftypes.Map{ElementType: tftypes.String},
			map[string]tftypes.Value{"api_key": tftypes.NewValue(tftypes.String, "k")}),
		"credentials_wo_version": tftypes.NewValue(tftypes.Number, 1),
		"hosted_link":            tftypes.NewValue(tftypes.Bool, false),
		"enabled":                tftypes.NewValue(tftypes.Bool, true),
	},
	triggerInstanceType: {
		"user_id":        tftypes.NewValue(tftypes.String, "gate-user"),
		"slug":           tftypes.NewValue(tftypes.String, "STRIPE_CHARGE_SUCCEEDED_TRIGGER"),
		"trigger_config": tftypes.NewValue(tftypes.String, "{}"),
		"enabled":        tftypes.NewValue(tftypes.Bool, true),
	},
	webhookSubscriptionType: {
		"webhook_url": tftypes.NewValue(tftypes.String, "https://example.com/hook"),
		"enabled_events": tftypes.NewValue(tftypes.Set{ElementType: tftypes.String},
			[]tftypes.Value{tftypes.NewValue(tftypes.String, "composio.trigger.message")}),
		"version": tftypes.NewValue(tftypes.String, "V3"),
	},
	toolRouterSessionType: {
		"user_id": tftypes.NewValue(tftypes.String, "gate-user"),
		"toolkits": tftypes.NewValue(tftypes.Set{ElementType: tftypes.String},
			[]tftypes.Value{tftypes.NewValue(tftypes.String, "github")}),
	},
	mcpServerType: {
		"name": tftypes.NewValue(tftypes.String, "gate"),
		"auth_config_ids": tftypes.NewValue(tftypes.Set{ElementType: tftypes.String},
			[]tftypes.Value{tftypes.NewValue(tftypes.String, "ac_gate000000001")}),
		"allowed_tools": tftypes.NewValue(tftypes.Set{ElementType: tftypes.String},
			[]tftypes.Value{tftypes.NewValue(tftypes.String, "GITHUB_CREATE_AN_ISSUE")}),
	},
	customToolkitType: {
		"slug":    tftypes.NewValue(tftypes.String, "gate"),
		"name":    tftypes.NewValue(tftypes.String, "Gate"),
		"mcp_url": tftypes.NewValue(tftypes.String, "https://mcp.example.com"),
	},
	projectType: {
		"name": tftypes.NewValue(tftypes.String, "gate"),
	},
	webhookEndpointType: {
		"toolkit":   tftypes.NewValue(tftypes.String, "slack"),
		"client_id": tftypes.NewValue(tftypes.String, "gate-app"),
	},
}

// gateTransport answers every request 404 and counts them.
type gateTransport struct {
	mu   sync.Mutex
	reqs []string
}

func (g *gateTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	g.mu.Lock()
	g.reqs = append(g.reqs, r.Method+" "+r.URL.Path)
	g.mu.Unlock()
	return &http.Response{
		StatusCode: http.StatusNotFound, Header: http.Header{"Content-Type": {"application/json"}},
		Body:    io.NopCloser(strings.NewReader(`{"error":{"message":"not found","code":404}}`)),
		Request: r,
	}, nil
}

// configureAtGate configures r with a client whose every request is
// answered 404 by the returned gateTransport, which counts them.
func configureAtGate(t *testing.T, r resource.Resource) *gateTransport {
	t.Helper()
	tr := &gateTransport{}
	c, err := client.New(client.Config{BaseURL: "http://gate.invalid", APIKey: "k", OrgAPIKey: "o", MaxRetries: -1,
		HTTPClient: &http.Client{Transport: tr}})
	if err != nil {
		t.Fatal(err)
	}
	if cr, ok := r.(resource.ResourceWithConfigure); ok {
		var cresp resource.ConfigureResponse
		cr.Configure(t.Context(), resource.ConfigureRequest{ProviderData: &ProviderData{Client: c, Cache: lookup.NewObjectCache(c, client.ToolkitVersions{})}}, &cresp)
		if cresp.Diagnostics.HasError() {
			t.Fatal(cresp.Diagnostics)
		}
	}
	return tr
}

// TestModifyPlanGoesThroughTheGate: every resource's ModifyPlan makes its API
// calls inside the one gate (destroyrun.RemotePlanChecks). Each resource type
// with a ModifyPlan plans the create of a fixture object: without a destroy
// the checks read the service (so the fixture exercises them); during a
// destroy not a single request is sent; when the provider cannot tell, every
// error names `terraform destroy -refresh=false`.
func TestModifyPlanGoesThroughTheGate(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	seen := map[string]bool{}
	for _, newResource := range New("test")().Resources(ctx) {
		r := newResource()
		var md resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "service"}, &md)
		mp, ok := r.(resource.ResourceWithModifyPlan)
		if !ok {
			if _, has := gateFixtures[md.TypeName]; has {
				t.Errorf("%s has no ModifyPlan: remove its entry from gateFixtures", md.TypeName)
			}
			continue
		}
		seen[md.TypeName] = true
		fixture, ok := gateFixtures[md.TypeName]
		if !ok {
			t.Errorf("%s has a ModifyPlan but no entry in gateFixtures: add attribute values that make its plan-time "+
				"checks read the service, and make the checks go through destroyrun.RemotePlanChecks", md.TypeName)
			continue
		}
		var sr resource.SchemaResponse
		r.Schema(ctx, resource.SchemaRequest{}, &sr)
		typ := sr.Schema.Type().TerraformType(ctx).(tftypes.Object)
		obj := testutil.ObjectValue(typ, fixture)
		var planErrors int // under NotDestroying
		for _, mode := range []destroyrun.Detection{destroyrun.NotDestroying, destroyrun.Destroying, destroyrun.Unknown, destroyrun.InTest} {
			tr := configureAtGate(t, r)
			req := resource.ModifyPlanRequest{
				Config: tfsdk.Config{Schema: sr.Schema, Raw: obj},
				Plan:   tfsdk.Plan{Schema: sr.Schema, Raw: obj},
				State:  tfsdk.State{Schema: sr.Schema, Raw: tftypes.NewValue(typ, nil)},
			}
			resp := &resource.ModifyPlanResponse{Plan: req.Plan}
			mp.ModifyPlan(destroyrun.WithDetection(ctx, mode), req, resp)
			switch mode {
			case destroyrun.NotDestroying:
				planErrors = resp.Diagnostics.ErrorsCount()
				if len(tr.reqs) == 0 {
					t.Errorf("%s: the fixture's plan sent no request (diagnostics %v): make gateFixtures[%q] reach the "+
						"checks that read the service", md.TypeName, resp.Diagnostics, md.TypeName)
				}
			case destroyrun.Destroying:
				if len(tr.reqs) > 0 {
					t.Errorf("%s: ModifyPlan sent %v during a destroy: make its API calls inside destroyrun.RemotePlanChecks", md.TypeName, tr.reqs)
				}
				if resp.Diagnostics.HasError() {
					t.Errorf("%s: ModifyPlan failed during a destroy: %v", md.TypeName, resp.Diagnostics)
				}
			case destroyrun.Unknown:
				for _, d := range resp.Diagnostics.Errors() {
					if !strings.Contains(d.Detail(), "terraform destroy -refresh=false") {
						t.Errorf("%s: error %q does not name terraform destroy -refresh=false:\n%s", md.TypeName, d.Summary(), d.Detail())
					}
				}
			case destroyrun.InTest:
				// The errors are warnings, and the apply refuses the object.
				var refused diag.Diagnostics
				destroyrun.Refused(ctx, md.TypeName, req.Config, &refused)
				if resp.Diagnostics.HasError() || refused.ErrorsCount() != planErrors {
					t.Errorf("%s under a test command: %d errors in the plan, %d refused at apply; want 0 and %d (the "+
						"plan's errors): %v", md.TypeName, resp.Diagnostics.ErrorsCount(), refused.ErrorsCount(), planErrors, resp.Diagnostics)
				}
				if planErrors > 0 && resp.Diagnostics.WarningsCount() < planErrors {
					t.Errorf("%s under a test command: the plan's errors are not warnings: %v", md.TypeName, resp.Diagnostics)
				}
			}
		}
	}
	for name := range gateFixtures {
		if !seen[name] {
			t.Errorf("gateFixtures has %s, which is not a resource type with a ModifyPlan", name)
		}
	}
}

// readReady checks the toolkit_versions keys through the same gate as
// ModifyPlan: not at all while `terraform destroy` runs (a data source read
// in its refresh must not block it), as usual otherwise, and with
// the destroy hint on its error when the provider cannot tell.
func TestReadReadyGoesThroughTheGate(t *testing.T) {
	t.Parallel()
	for _, mode := range []destroyrun.Detection{destroyrun.NotDestroying, destroyrun.Destroying, destroyrun.Unknown} {
		tr := &gateTransport{} // every toolkit is a 404: githb names no toolkit
		c, err := client.New(client.Config{BaseURL: "http://gate.invalid", APIKey: "k", MaxRetries: -1,
			HTTPClient: &http.Client{Transport: tr}})
		if err != nil {
			t.Fatal(err)
		}
		d := &ProviderData{Client: c, Cache: lookup.NewObjectCache(c, client.ToolkitVersions{}), VersionKeys: []string{"githb"}}
		var diags diag.Diagnostics
		ok := readReady(destroyrun.WithDetection(t.Context(), mode), d, "service_toolkits", &diags)
		switch mode {
		case destroyrun.Destroying:
			if !ok || len(tr.reqs) > 0 || diags.HasError() {
				t.Errorf("during a destroy: ok %v, requests %v, diagnostics %v; want no check", ok, tr.reqs, diags)
			}
		case destroyrun.NotDestroying:
			if ok || len(diags.Errors()) != 1 || diags.Errors()[0].Summary() != "Unknown toolkit in toolkit_versions" {
				t.Errorf("not a destroy: ok %v, diagnostics %v; want the unknown key named", ok, diags)
			}
		case destroyrun.Unknown:
			if ok || len(diags.Errors()) != 1 || !strings.Contains(diags.Errors()[0].Detail(), "terraform destroy -refresh=false") {
				t.Errorf("unknown command: ok %v, diagnostics %v; want the error with the destroy hint", ok, diags)
			}
		}
	}
}
