package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/acctest"
	tfresource "github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/provider/destroyrun"
	"github.com/integration-service/terraform-provider-service/internal/testutil"
)

const (
	projectAddr         = "service_project.test"
	routeGetProject     = "GET /api/v3.1/org/owner/project/{nano_id}"
	routeListProjects   = "GET /api/v3.1/org/owner/project/list"
	routeCreateProject  = "POST /api/v3.1/org/owner/project/new"
	testAccProjectIDPat = `^\S+$`
)

// ---- unit tests ----

func TestProjectNameValidation(t *testing.T) {
	t.Parallel()
	for name, wantErr := range map[string]string{
		"prod":                        "",
		"Team A_b-1":                  "",
		strings.Repeat("a", 64):       "",
		"":                            "must not be blank",
		"   ":                         "must not be blank",
		" lead":                       "starting with a letter or digit",
		"-x":                          "starting with a letter or digit",
		"a/b":                         "letters, digits, spaces, hyphens",
		"é":                           "letters, digits, spaces, hyphens",
		strings.Repeat("a", 65):       "at most 64",
		"tab\there":                   "letters, digits, spaces, hyphens",
		"trailing-dot.":               "letters, digits, spaces, hyphens",
		"x" + strings.Repeat(" ", 63): "",
	} {
		err := checkProjectName(name)
		switch {
		case wantErr == "" && err != nil:
			t.Errorf("%q: unexpected error %v", name, err)
		case wantErr != "" && (err == nil || !strings.Contains(err.Error(), wantErr)):
			t.Errorf("%q: error %v, want one containing %q", name, err, wantErr)
		}
	}
}

// projectModifyPlan runs the resource's ModifyPlan with a client whose every
// request is counted (and answered 404), outside any destroy.
func projectModifyPlan(t *testing.T, state, plan map[string]tftypes.Value) (diag.Diagnostics, []string) {
	t.Helper()
	ctx := destroyrun.WithDetection(t.Context(), destroyrun.NotDestroying)
	r := NewProjectResource()
	var sr resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &sr)
	typ := sr.Schema.Type().TerraformType(ctx).(tftypes.Object)
	tr := &gateTransport{}
	c, err := client.New(client.Config{BaseURL: "http://project.invalid", OrgAPIKey: "o", MaxRetries: -1,
		HTTPClient: &http.Client{Transport: tr}})
	if err != nil {
		t.Fatal(err)
	}
	var cresp resource.ConfigureResponse
	r.(resource.ResourceWithConfigure).Configure(ctx, resource.ConfigureRequest{ProviderData: &ProviderData{Client: c}}, &cresp)
	if cresp.Diagnostics.HasError() {
		t.Fatal(cresp.Diagnostics)
	}
	val := func(m map[string]tftypes.Value) tftypes.Value {
		if m == nil {
			return tftypes.NewValue(typ, nil)
		}
		return testutil.ObjectValue(typ, m)
	}
	req := resource.ModifyPlanRequest{
		Config: tfsdk.Config{Schema: sr.Schema, Raw: val(plan)},
		Plan:   tfsdk.Plan{Schema: sr.Schema, Raw: val(plan)},
		State:  tfsdk.State{Schema: sr.Schema, Raw: val(state)},
	}
	resp := &resource.ModifyPlanResponse{Plan: req.Plan}
	r.(resource.ResourceWithModifyPlan).ModifyPlan(ctx, req, resp)
	return resp.Diagnostics, tr.reqs
}

func projectTestAttrs(name string, protected bool, cfg *tftypes.Value) map[string]tftypes.Value {
	m := map[string]tftypes.Value{
		"id":                  tftypes.NewValue(tftypes.String, "pr_unit"),
		"name":                tftypes.NewValue(tftypes.String, name),
		"deletion_protection": tftypes.NewValue(tftypes.Bool, protected),
		"revoke_on_delete":    tftypes.NewValue(tftypes.Bool, false),
	}
	if cfg != nil {
		m["config"] = *cfg
	}
	return m
}

func projectTestConfig(displayName string) *tftypes.Value {
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{}}
	vals := map[string]tftypes.Value{}
	for k, at := range projectConfigAttrTypes {
		tt := at.TerraformType(context.Background())
		typ.AttributeTypes[k] = tt
		vals[k] = tftypes.NewValue(tt, nil)
	}
	vals["is_2fa_enabled"] = tftypes.NewValue(tftypes.Bool, false)
	vals["mask_secret_keys_in_connected_account"] = tftypes.NewValue(tftypes.Bool, true)
	vals["log_visibility_setting"] = tftypes.NewValue(tftypes.String, "show_all")
	vals["display_name"] = tftypes.NewValue(tftypes.String, displayName)
	v := tftypes.NewValue(typ, vals)
	return &v
}

// errorAt returns the error diagnostics attached to attr.
func errorAt(diags diag.Diagnostics, attr string) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, d := range diags.Errors() {
		if wp, ok := d.(diag.DiagnosticWithPath); ok && wp.Path().Equal(path.Root(attr)) {
			out = append(out, d)
		}
	}
	return out
}

// The plan-time rules of an existing project, without a single request:
// destroying or replacing it under deletion_protection fails naming
// deletion_protection; changing, adding or removing config fails naming
// config; with deletion_protection false a destroy or a rename plans.
func TestProjectModifyPlanRules(t *testing.T) {
	t.Parallel()
	a, b := projectTestConfig("A"), projectTestConfig("B")
	cases := []struct {
		name        string
		state, plan map[string]tftypes.Value
		wantAttr    string
		wantText    string
	}{
		{"destroy protected", projectTestAttrs("p", true, a), nil, "deletion_protection", "would destroy"},
		{"destroy unprotected", projectTestAttrs("p", false, a), nil, "", ""},
		{"rename protected", projectTestAttrs("p", true, nil), projectTestAttrs("q", true, nil), "deletion_protection", "would replace"},
		{"rename unprotected", projectTestAttrs("p", false, nil), projectTestAttrs("q", false, nil), "", ""},
		{"rename protected, unprotecting in the same plan", projectTestAttrs("p", true, nil), projectTestAttrs("q", false, nil), "deletion_protection", "would replace"},
		{"config changed", projectTestAttrs("p", true, a), projectTestAttrs("p", true, b), "config", "only when it creates the project"},
		{"config added (imported)", projectTestAttrs("p", true, nil), projectTestAttrs("p", true, a), "config", "imported"},
		{"config removed", projectTestAttrs("p", true, a), projectTestAttrs("p", true, nil), "config", "cannot be changed"},
		{"config unchanged", projectTestAttrs("p", true, a), projectTestAttrs("p", false, a), "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			diags, reqs := projectModifyPlan(t, tc.state, tc.plan)
			if len(reqs) > 0 {
				t.Errorf("the plan sent %v, want no request", reqs)
			}
			if tc.wantAttr == "" {
				if diags.HasError() {
					t.Errorf("unexpected errors: %v", diags)
				}
				return
			}
			got := errorAt(diags, tc.wantAttr)
			if len(got) != 1 || len(diags.Errors()) != 1 {
				t.Fatalf("want one error at %s, got %v", tc.wantAttr, diags)
			}
			if d := got[0].Summary() + " " + got[0].Detail(); !strings.Contains(d, tc.wantText) {
				t.Errorf("error %q does not say %q", d, tc.wantText)
			}
		})
	}
}

// A new project's plan lists the organization's projects; a refused
// organization key is an error naming org_api_key.
func TestProjectModifyPlanCreateListsProjects(t *testing.T) {
	t.Parallel()
	diags, reqs := projectModifyPlan(t, nil, map[string]tftypes.Value{"name": tftypes.NewValue(tftypes.String, "new")})
	if len(reqs) != 1 || reqs[0] != "GET /api/v3.1/org/owner/project/list" {
		t.Errorf("requests %v, want one list", reqs)
	}
	// gateTransport answers 404: reported at name, not as a bad key.
	if len(errorAt(diags, "name")) != 1 {
		t.Errorf("want the listing's error at name, got %v", diags)
	}

	var d diag.Diagnostics
	addProjectListingError(&d, &client.APIError{StatusCode: http.StatusUnauthorized, Message: "bad key", Method: "GET", Path: "/api/v3.1/org/owner/project/list"})
	if len(d.Errors()) != 1 || !strings.Contains(d.Errors()[0].Detail(), "org_api_key") || d.Errors()[0].Summary() != "Invalid organization API key" {
		t.Errorf("401: got %v", d)
	}
	d = nil
	addProjectListingError(&d, errors.New("boom"))
	if len(errorAt(d, "name")) != 1 {
		t.Errorf("other error: got %v", d)
	}
}

// The api_key plan: kept (null after an import) unless api_key_rotation
// changes from a value to a new non-null one; its first value (set on an
// existing project, or after an import) does not rotate.
func TestProjectAPIKeyPlan(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	var sr resource.SchemaResponse
	NewProjectResource().Schema(ctx, resource.SchemaRequest{}, &sr)
	typ := sr.Schema.Type().TerraformType(ctx).(tftypes.Object)
	str := func(s *string) tftypes.Value {
		if s == nil {
			return tftypes.NewValue(tftypes.String, nil)
		}
		return tftypes.NewValue(tftypes.String, *s)
	}
	p := func(s string) *string { return &s }
	for _, tc := range []struct {
		name              string
		key, prior, after *string
		wantUnknown       bool
	}{
		{"unchanged", p("k"), p("r1"), p("r1"), false},
		{"changed", p("k"), p("r1"), p("r2"), true},
		{"set first", p("k"), nil, p("r1"), false},
		{"removed", p("k"), p("r1"), nil, false},
		{"imported, nothing set", nil, nil, nil, false},
		{"imported, rotation set", nil, nil, p("r1"), false},
		{"imported, rotation changed", nil, p("r1"), p("r2"), true},
	} {
		state := testutil.ObjectValue(typ, map[string]tftypes.Value{"api_key": str(tc.key), "api_key_rotation": str(tc.prior)})
		plan := testutil.ObjectValue(typ, map[string]tftypes.Value{"api_key": tftypes.NewValue(tftypes.String, tftypes.UnknownValue), "api_key_rotation": str(tc.after)})
		req := planmodifier.StringRequest{
			Path:       path.Root("api_key"),
			State:      tfsdk.State{Schema: sr.Schema, Raw: state},
			Plan:       tfsdk.Plan{Schema: sr.Schema, Raw: plan},
			StateValue: types.StringPointerValue(tc.key),
			PlanValue:  types.StringUnknown(),
		}
		resp := &planmodifier.StringResponse{PlanValue: types.StringUnknown()}
		projectKeyPlanModifier.PlanModifyString(ctx, req, resp)
		if resp.Diagnostics.HasError() {
			t.Fatal(resp.Diagnostics)
		}
		switch {
		case tc.wantUnknown && !resp.PlanValue.IsUnknown():
			t.Errorf("%s: planned %v, want unknown (a rotation)", tc.name, resp.PlanValue)
		case !tc.wantUnknown && !resp.PlanValue.Equal(types.StringPointerValue(tc.key)):
			t.Errorf("%s: planned %v, want the state's %v", tc.name, resp.PlanValue, tc.key)
		}
	}
}

// ---- acceptance tests ----

type projectCfg struct {
	name        string
	displayName string // "" leaves config out
	rotation    string
	protection  *bool
	revoke      bool
}

func (c projectCfg) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "resource \"service_project\" \"test\" {\n  name = %q\n", c.name)
	if c.displayName != "" {
		fmt.Fprintf(&b, "  config = {\n    is_2fa_enabled = false\n    mask_secret_keys_in_connected_account = true\n"+
			"    log_visibility_setting = \"dont_store_data\"\n    display_name = %q\n  }\n", c.displayName)
	}
	if c.rotation != "" {
		fmt.Fprintf(&b, "  api_key_rotation = %q\n", c.rotation)
	}
	if c.protection != nil {
		fmt.Fprintf(&b, "  deletion_protection = %t\n", *c.protection)
	}
	if c.revoke {
		b.WriteString("  revoke_on_delete = true\n")
	}
	b.WriteString("}\n")
	return b.String()
}

func testAccCheckProjectDestroyed(t *testing.T) tfresource.TestCheckFunc {
	return func(s *terraform.State) error {
		c := testAccOrgClient(t)
		for _, rs := range s.RootModule().Resources {
			if rs.Type != projectType {
				continue
			}
			_, err := c.GetProject(context.Background(), rs.Primary.ID)
			if err == nil {
				return fmt.Errorf("project %s still exists", rs.Primary.ID)
			}
			if !client.IsNotFound(err) {
				return fmt.Errorf("project %s: want 404, got %w", rs.Primary.ID, err)
			}
		}
		return nil
	}
}

// testAccProjectKeyWorks calls a project route with key and returns the error.
func testAccProjectKeyWorks(t *testing.T, key string) error {
	t.Helper()
	c, err := client.New(client.Config{BaseURL: testAccEnvironment(t).BaseURL, APIKey: key, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.ListWebhookSubscriptions(context.Background())
	return err
}

// TestAccProject_lifecycle: create (config, key, one write and one read);
// refresh (one GET); import by id; plan-time refusals without a write (a
// config change, a rename and a destroy under deletion_protection);
// rotation (the old key refused, the new one works); deletion_protection
// false (no write); a deletion outside Terraform (the plan creates it
// again); destroy. Not parallel: it compares process-wide counters.
func TestAccProject_lifecycle(t *testing.T) {
	testAccRequireEmulator(t)
	testAccRequireOrgKey(t)
	name := acctest.RandomWithPrefix("tf-project")
	f := false
	base := projectCfg{name: name, displayName: "Lifecycle", rotation: "r1"}
	unprotected := base
	unprotected.rotation, unprotected.protection, unprotected.revoke = "r2", &f, true
	rotated := base
	rotated.rotation = "r2"
	changedConfig := base
	changedConfig.displayName = "Other"
	renamed := base
	renamed.name = name + "-b"

	id, key1, key2, id2 := &testAccValue{}, &testAccValue{}, &testAccValue{}, &testAccValue{}
	var before testAccEmulatorStats
	snap := func() { before = testAccEmulatorStatsNow(t) }
	delta := func(route string) int { return testAccEmulatorStatsNow(t).Requests[route] - before.Requests[route] }
	var writes int
	noWritesSince := func() { testAccAssertNoWritesSince(t, writes) }
	// A failing step leaves a protected project the post-test destroy cannot delete.
	t.Cleanup(func() {
		for _, v := range []*testAccValue{id, id2} {
			if v.v != "" {
				_, _ = testAccOrgClient(t).DeleteProject(context.Background(), v.v, false)
			}
		}
	})

	tfresource.Test(t, tfresource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckProjectDestroyed(t),
		Steps: []tfresource.TestStep{
			{
				PreConfig: snap,
				Config:    base.String(),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(projectAddr, tfjsonpath.New("id"), knownvalue.StringRegexp(regexp.MustCompile(testAccProjectIDPat))),
					statecheck.ExpectKnownValue(projectAddr, tfjsonpath.New("name"), knownvalue.StringExact(name)),
					statecheck.ExpectKnownValue(projectAddr, tfjsonpath.New("org_id"), knownvalue.StringRegexp(regexp.MustCompile(`^\S+$`))),
					statecheck.ExpectKnownValue(projectAddr, tfjsonpath.New("created_at"), testAccTimestamp),
					statecheck.ExpectKnownValue(projectAddr, tfjsonpath.New("api_key"), knownvalue.StringRegexp(regexp.MustCompile(`^\S{8,}$`))),
					statecheck.ExpectKnownValue(projectAddr, tfjsonpath.New("deletion_protection"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(projectAddr, tfjsonpath.New("revoke_on_delete"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(projectAddr, tfjsonpath.New("config").AtMapKey("display_name"), knownvalue.StringExact("Lifecycle")),
				},
				Check: tfresource.ComposeTestCheckFunc(id.capture(projectAddr, "id"), key1.capture(projectAddr, "api_key"),
					func(*terraform.State) error {
						// Create: one write and one read-back.
						if w := testAccEmulatorStatsNow(t).Writes - before.Writes; w != 1 || delta(routeCreateProject) != 1 {
							return fmt.Errorf("create made %d writes (%d creates), want 1", w, delta(routeCreateProject))
						}
						if r := delta(routeGetProject); r > 1 {
							return fmt.Errorf("create read the project %d times, want at most 1", r)
						}
						if err := testAccProjectKeyWorks(t, key1.v); err != nil {
							return fmt.Errorf("the created project's api_key does not work: %w", err)
						}
						return nil
					}),
			},
			// Refresh: exactly one GET, no listing.
			{
				PreConfig:    snap,
				RefreshState: true,
				Check: func(*terraform.State) error {
					if g, l := delta(routeGetProject), delta(routeListProjects); g != 1 || l != 0 {
						return fmt.Errorf("refresh made %d GETs and %d lists, want 1 and 0", g, l)
					}
					return nil
				},
			},
			// Import by id: config, api_key and api_key_rotation cannot be read back.
			testAccImportStep(projectAddr, "config", "api_key", "api_key_rotation"),
			{
				ResourceName: projectAddr,
				ImportState:  true,
				ImportStateCheck: func(states []*terraform.InstanceState) error {
					if len(states) != 1 {
						return fmt.Errorf("import gave %d states", len(states))
					}
					a := states[0].Attributes
					for _, k := range []string{"api_key", "api_key_rotation", "config.%"} {
						if v, ok := a[k]; ok && v != "" {
							return fmt.Errorf("imported %s = %q, want null", k, v)
						}
					}
					if a["deletion_protection"] != "true" || a["revoke_on_delete"] != "false" || a["name"] != name {
						return fmt.Errorf("imported state %v", a)
					}
					return nil
				},
			},
			// A config change is refused at plan, without a write.
			{
				PreConfig:   func() { writes = testAccEmulatorWrites(t) },
				Config:      changedConfig.String(),
				PlanOnly:    true,
				ExpectError: testAccErrRe(`Project config cannot be changed`, `config`, `only when it creates the project`),
			},
			// A rename replaces: refused at plan under deletion_protection.
			{
				PreConfig:   noWritesSince,
				Config:      renamed.String(),
				PlanOnly:    true,
				ExpectError: testAccErrRe(`Project is protected against deletion`, `deletion_protection`, `replace`),
			},
			// Destroy: refused at plan under deletion_protection, without a write.
			{
				PreConfig:   noWritesSince,
				Config:      base.String(),
				Destroy:     true,
				ExpectError: testAccErrRe(`Project is protected against deletion`, `deletion_protection = false`),
			},
			// Rotation: in place; the old key is refused at once, the new one works.
			{
				PreConfig: noWritesSince,
				Config:    rotated.String(),
				ConfigPlanChecks: tfresource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(projectAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectUnknownValue(projectAddr, tfjsonpath.New("api_key")),
				}},
				Check: tfresource.ComposeTestCheckFunc(key2.capture(projectAddr, "api_key"), id2.capture(projectAddr, "id"),
					func(*terraform.State) error {
						if id2.v != id.v {
							return fmt.Errorf("the rotation replaced the project %s by %s", id.v, id2.v)
						}
						if key2.v == "" || key2.v == key1.v {
							return fmt.Errorf("api_key did not change (%q)", key2.v)
						}
						if err := testAccProjectKeyWorks(t, key1.v); !client.IsStatus(err, http.StatusUnauthorized) {
							return fmt.Errorf("the old key after the rotation: want 401, got %w", err)
						}
						if err := testAccProjectKeyWorks(t, key2.v); err != nil {
							return fmt.Errorf("the new key does not work: %w", err)
						}
						return nil
					}),
			},
			// deletion_protection false, revoke_on_delete true: no write.
			{
				PreConfig: func() { writes = testAccEmulatorWrites(t) },
				Config:    unprotected.String(),
				ConfigPlanChecks: tfresource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(projectAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(projectAddr, tfjsonpath.New("api_key"), knownvalue.StringRegexp(regexp.MustCompile(`^\S+$`))),
				}},
				Check: func(*terraform.State) error {
					if w := testAccEmulatorWrites(t) - writes; w != 0 {
						return fmt.Errorf("changing deletion_protection made %d writes, want 0", w)
					}
					return nil
				},
			},
			// Deleted outside Terraform: the refresh drops it, the plan creates it again.
			{
				PreConfig: func() {
					if _, err := testAccOrgClient(t).DeleteProject(context.Background(), id.v, false); err != nil {
						t.Fatalf("deleting project %s outside Terraform: %v", id.v, err)
					}
				},
				Config: unprotected.String(),
				ConfigPlanChecks: tfresource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(projectAddr, plancheck.ResourceActionCreate),
				}},
				Check: tfresource.ComposeTestCheckFunc(id2.capture(projectAddr, "id"), func(*terraform.State) error {
					if id2.v == id.v || id2.v == "" {
						return fmt.Errorf("the project was not created again (id %q)", id2.v)
					}
					return nil
				}),
			},
		},
	})
}

// TestAccIdentity_project: identity, import by identity and by id, a state
// without identity, and a deletion outside Terraform (through the
// organization key) that the plan creates again. The import plans an update:
// deletion_protection is false in the configuration (to let the test
// destroy) and an import takes the default, true.
func TestAccIdentity_project(t *testing.T) {
	testAccRequireOrgKey(t)
	name := acctest.RandomWithPrefix("tf-project-ident")
	f := false
	testAccIdentity(t, identityCase{
		addr: projectAddr, idRe: regexp.MustCompile(testAccProjectIDPat),
		create: projectCfg{name: name, protection: &f}.String(),
		update: projectCfg{name: name, protection: &f, revoke: true}.String(),
		remove: func(ctx context.Context, _ *client.Client, id string) error {
			_, err := testAccOrgClient(t).DeleteProject(ctx, id, false)
			return err
		},
		gone:     testAccCheckProjectDestroyed,
		importNE: true,
	})
}

// TestAccProject_importKeepsKeys: adopting a project with an import block
// whose configuration sets api_key_rotation does not rotate (the value is
// the baseline): the project's key keeps working and api_key stays null;
// the next change of api_key_rotation rotates, the old key is refused and
// the new one is in state.
func TestAccProject_importKeepsKeys(t *testing.T) {
	t.Parallel()
	c := testAccOrgClient(t)
	testAccRequireEmulator(t)
	name := acctest.RandomWithPrefix("tf-project-adopt")
	withKey := true
	p, err := c.CreateProject(context.Background(), client.CreateProjectRequest{Name: name, ShouldCreateAPIKey: &withKey})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = c.DeleteProject(context.Background(), p.ID, false) })
	if p.APIKey == nil {
		t.Fatal("the created project has no key")
	}
	oldKey := *p.APIKey
	f := false
	cfg := func(rotation string) string {
		return projectCfg{name: name, rotation: rotation, protection: &f}.String()
	}
	newKey := &testAccValue{}
	tfresource.Test(t, tfresource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckProjectDestroyed(t),
		Steps: []tfresource.TestStep{
			{
				Config: fmt.Sprintf("import {\n  to = %s\n  id = %q\n}\n", projectAddr, p.ID) + cfg("2026-01"),
				ConfigPlanChecks: tfresource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(projectAddr, tfjsonpath.New("api_key"), knownvalue.Null()),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(projectAddr, tfjsonpath.New("api_key"), knownvalue.Null()),
					statecheck.ExpectKnownValue(projectAddr, tfjsonpath.New("api_key_rotation"), knownvalue.StringExact("2026-01")),
				},
				Check: func(*terraform.State) error {
					if err := testAccProjectKeyWorks(t, oldKey); err != nil {
						return fmt.Errorf("the import rotated the key: %w", err)
					}
					return nil
				},
			},
			{
				Config: cfg("2026-02"),
				ConfigPlanChecks: tfresource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectUnknownValue(projectAddr, tfjsonpath.New("api_key")),
				}},
				Check: tfresource.ComposeTestCheckFunc(newKey.capture(projectAddr, "api_key"), func(*terraform.State) error {
					if err := testAccProjectKeyWorks(t, oldKey); !client.IsStatus(err, http.StatusUnauthorized) {
						return fmt.Errorf("the old key after the rotation: want 401, got %w", err)
					}
					return testAccProjectKeyWorks(t, newKey.v)
				}),
			},
		},
	})
}

// TestAccProject_badInputs: each refused at plan with an error naming the
// attribute, and not a single write: no organization key (a provider with
// the project key only), an organization key the service refuses, a name
// already taken in the organization, a blank name. Not parallel: it compares
// the process-wide write counter and unsets SERVICE_ORG_API_KEY.
func TestAccProject_badInputs(t *testing.T) {
	testAccRequireEmulator(t)
	c := testAccOrgClient(t)
	taken := acctest.RandomWithPrefix("tf-project-taken")
	p, err := c.CreateProject(context.Background(), client.CreateProjectRequest{Name: taken})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = c.DeleteProject(context.Background(), p.ID, false) })
	fresh := acctest.RandomWithPrefix("tf-project-bad")
	for _, tc := range []struct {
		name     string
		noOrgEnv bool
		config   string
		want     *regexp.Regexp
	}{
		{"no organization key", true, fmt.Sprintf("provider \"service\" {\n  api_key = %q\n}\n", testAccAPIKey) + projectCfg{name: fresh}.String(),
			testAccErrRe(`Missing organization API key`, `org_api_key`)},
		{"unknown organization key", false, "provider \"service\" {\n  org_api_key = \"not-an-org-key\"\n}\n" + projectCfg{name: fresh}.String(),
			testAccErrRe(`Invalid organization API key`, `org_api_key`, `401`)},
		{"name taken", false, projectCfg{name: taken}.String(),
			testAccErrRe(`Project name already taken`, `name`, regexp.QuoteMeta(p.ID), `terraform import`)},
		{"blank name", false, projectCfg{name: "  "}.String(),
			testAccErrRe(`Invalid project name`, `name`, `must not be blank`)},
		{"malformed name", false, projectCfg{name: "a/b"}.String(),
			testAccErrRe(`Invalid project name`, `name`, `letters, digits, spaces`)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			writes := testAccEmulatorWrites(t)
			tfresource.Test(t, tfresource.TestCase{
				PreCheck: func() {
					testAccPreCheck(t)
					if tc.noOrgEnv {
						t.Setenv(EnvOrgAPIKey, "")
					}
				},
				ProtoV6ProviderFactories: testAccProviders(t),
				Steps: []tfresource.TestStep{{
					Config:      tc.config,
					PlanOnly:    true,
					ExpectError: tc.want,
				}},
			})
			testAccAssertNoWritesSince(t, writes)
		})
	}
}

// recordingTransport answers every request with body and records its
// method and URL.
type recordingTransport struct {
	body string
	reqs []string
}

func (r *recordingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	r.reqs = append(r.reqs, req.Method+" "+req.URL.RequestURI())
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(r.body)), Request: req}, nil
}

// Delete passes revoke_on_delete to the service, and refuses (without a
// request) while deletion_protection is true.
func TestProjectDelete(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	for _, tc := range []struct {
		protected, revoke bool
		want              string
	}{
		{false, true, "DELETE /api/v3.1/org/owner/project/pr_unit?revoke_on_delete=true"},
		{false, false, "DELETE /api/v3.1/org/owner/project/pr_unit"},
		{true, false, ""},
	} {
		tr := &recordingTransport{body: `{"status":"success"}`}
		c, err := client.New(client.Config{BaseURL: "http://project.invalid", OrgAPIKey: "o", MaxRetries: -1, HTTPClient: &http.Client{Transport: tr}})
		if err != nil {
			t.Fatal(err)
		}
		r := NewProjectResource().(*projectResource)
		r.data = &ProviderData{Client: c}
		var sr resource.SchemaResponse
		r.Schema(ctx, resource.SchemaRequest{}, &sr)
		typ := sr.Schema.Type().TerraformType(ctx).(tftypes.Object)
		st := projectTestAttrs("p", tc.protected, nil)
		st["revoke_on_delete"] = tftypes.NewValue(tftypes.Bool, tc.revoke)
		req := resource.DeleteRequest{State: tfsdk.State{Schema: sr.Schema, Raw: testutil.ObjectValue(typ, st)}}
		resp := &resource.DeleteResponse{State: req.State}
		r.Delete(ctx, req, resp)
		if tc.want == "" {
			if len(tr.reqs) != 0 || len(errorAt(resp.Diagnostics, "deletion_protection")) != 1 {
				t.Errorf("protected: requests %v, diagnostics %v; want none and an error at deletion_protection", tr.reqs, resp.Diagnostics)
			}
			continue
		}
		if resp.Diagnostics.HasError() || len(tr.reqs) != 1 || tr.reqs[0] != tc.want {
			t.Errorf("requests %v (diagnostics %v), want %q", tr.reqs, resp.Diagnostics, tc.want)
		}
	}
}

// TestAccE2E_projectAndItsObjectsInOneRun: a provider configured from a
// service_project created in the same run plans with the warning (its
// configuration is unknown, plan-time checks skipped), applies (the project
// first, then the object in it with the new key), plans empty afterwards and
// destroys, as the guide "Projects and environments" says.
func TestAccE2E_projectAndItsObjectsInOneRun(t *testing.T) {
	ep := testAccRequireOrgKey(t)
	t.Parallel()
	w := newE2EWorkspace(t)
	name := "tf-acc-one-run-" + acctest.RandString(8)
	w.WriteFile("main.tf", fmt.Sprintf(`
provider "service" {
  org_api_key = %[1]q
}

resource "service_project" "qa" {
  name                = %[2]q
  deletion_protection = false
}

provider "service" {
  alias   = "qa"
  api_key = service_project.qa.api_key
}

resource "service_auth_config" "github" {
  provider = service.qa
  toolkit  = "github"
  name     = "GitHub (qa)"
}
`, ep.OrgAPIKey, name))
	plan := w.RunOK("plan", "-no-color", "-input=false")
	if out := plan.Stdout + plan.Stderr; !strings.Contains(out, "Provider configuration not known until apply") || !strings.Contains(out, "Plan: 2 to add") {
		t.Errorf("plan lacks the unknown-configuration warning or the two creates:\n%s", out)
	}
	w.RunOK("apply", "-auto-approve", "-no-color", "-input=false")
	if res := w.Run(nil, "plan", "-detailed-exitcode", "-no-color", "-input=false"); res.ExitCode != 0 {
		t.Errorf("plan after apply is not empty (exit %d):\n%s%s", res.ExitCode, res.Stdout, res.Stderr)
	}
	w.RunOK("destroy", "-auto-approve", "-no-color", "-input=false")
}

// TestAccE2E_projectProtectionWayOut: the deletion_protection error says
// what can be done where the plan comes from. `terraform destroy` keeps the
// resource block: set deletion_protection = false there. A plan that
// destroys the project because its resource block was removed (or a
// removed block with destroy = true asks to) has no block to set it in: the
// error names a removed block with destroy = false, or putting the block
// back; and that removed block forgets the project, which stays on the
// service.
func TestAccE2E_projectProtectionWayOut(t *testing.T) {
	ep := testAccRequireOrgKey(t)
	t.Parallel()
	w := newE2EWorkspace(t)
	name := "tf-acc-removed-" + acctest.RandString(8)
	provider := fmt.Sprintf("provider \"service\" {\n  org_api_key = %q\n}\n", ep.OrgAPIKey)
	w.WriteFile("main.tf", provider+fmt.Sprintf("resource \"service_project\" \"kept\" {\n  name = %q\n}\n", name)+
		"output \"id\" {\n  value = service_project.kept.id\n}\n")
	w.RunOK("apply", "-auto-approve", "-no-color", "-input=false")
	id := strings.TrimSpace(w.RunOK("output", "-raw", "id").Stdout)
	t.Cleanup(func() { _, _ = testAccOrgClient(t).DeleteProject(context.Background(), id, false) })

	const inBlock = "set deletion_protection = false in the resource block, run terraform apply (it changes nothing on the service), then run the destroy again"
	removedBlock := []string{"removed {", "from = service_project.<name>", "lifecycle {", "destroy = false"}
	refused := func(step string, args ...string) string {
		t.Helper()
		res := w.Run(nil, args...)
		out := strings.Join(strings.Fields(res.Stdout+res.Stderr), " ") // the detail is wrapped
		if res.ExitCode == 0 || !strings.Contains(out, "Project is protected against deletion") {
			t.Fatalf("%s: exit %d, want the deletion_protection error:\n%s%s", step, res.ExitCode, res.Stdout, res.Stderr)
		}
		return out
	}

	// terraform destroy: the resource block is there.
	out := refused("terraform destroy", "destroy", "-auto-approve", "-no-color", "-input=false")
	if !strings.Contains(out, inBlock) || strings.Contains(out, "removed {") {
		t.Errorf("terraform destroy: want the resource block's way out only (%q):\n%s", inBlock, out)
	}

	// The resource block removed, then a removed block that destroys: no
	// block to set deletion_protection in.
	for _, tc := range []struct{ step, config string }{
		{"resource block removed", provider},
		{"removed block with destroy = true", provider + "removed {\n  from = service_project.kept\n  lifecycle {\n    destroy = true\n  }\n}\n"},
	} {
		w.WriteFile("main.tf", tc.config)
		out := refused(tc.step, "plan", "-no-color", "-input=false")
		if strings.Contains(out, inBlock) {
			t.Errorf("%s: the error still says to set deletion_protection in the resource block:\n%s", tc.step, out)
		}
		for _, want := range append(removedBlock, "put its resource block back with deletion_protection = false") {
			if !strings.Contains(out, want) {
				t.Errorf("%s: the error does not say %q:\n%s", tc.step, want, out)
			}
		}
	}

	// The removed block the error shows forgets the project, which stays.
	w.WriteFile("main.tf", provider+"removed {\n  from = service_project.kept\n  lifecycle {\n    destroy = false\n  }\n}\n")
	w.RunOK("apply", "-auto-approve", "-no-color", "-input=false")
	if res := w.Run(nil, "state", "list"); strings.TrimSpace(res.Stdout) != "" {
		t.Errorf("the state still holds %q after the removed block", res.Stdout)
	}
	if _, err := testAccOrgClient(t).GetProject(context.Background(), id); err != nil {
		t.Errorf("project %s after the removed block (destroy = false): %v; want it kept on the service", id, err)
	}
}

// TestAccProject_zdrConfig: config.zdr_enabled and
// config.oauth_callback_verifier_url (the service's v3 document) are sent at
// create without log_visibility_setting (never both: refused at validate,
// naming both, without a write), kept in state by a refresh (the service
// returns no config, so a change outside Terraform cannot be seen), refused
// when changed on the existing project (config is create-only: no operation
// of the organization key changes it) and null after an import. The create's
// body is read from a recording proxy.
func TestAccProject_zdrConfig(t *testing.T) {
	testAccRequireEmulator(t)
	testAccRequireOrgKey(t)
	proxy := newTestAccRecordingProxy(t)
	name := acctest.RandomWithPrefix("tf-project-zdr")
	config := func(cfg string) string {
		return fmt.Sprintf(`
provider "service" {
  base_url = %q
}

resource "service_project" "test" {
  name                = %q
  deletion_protection = false
  config = {
    is_2fa_enabled                        = false
    mask_secret_keys_in_connected_account = true
%s
  }
}
`, proxy.URL, name, cfg)
	}
	const verifier = "https://verify.example.com/oauth/callback"
	zdr := config("    zdr_enabled = true\n    oauth_callback_verifier_url = \"" + verifier + "\"")
	var writes int
	tfresource.Test(t, tfresource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		CheckDestroy:             testAccCheckProjectDestroyed(t),
		Steps: []tfresource.TestStep{
			{
				PreConfig:   func() { writes = testAccEmulatorWrites(t) },
				Config:      config("    zdr_enabled = true\n    log_visibility_setting = \"dont_store_data\""),
				PlanOnly:    true,
				ExpectError: testAccErrRe(`zdr_enabled with log_visibility_setting`, `config.zdr_enabled and config.log_visibility_setting are both set`),
			},
			{
				PreConfig:   func() { testAccAssertNoWritesSince(t, writes) },
				Config:      config("    zdr_enabled = false\n    oauth_callback_verifier_url = \"http://verify.example.com/cb\""),
				PlanOnly:    true,
				ExpectError: testAccErrRe(`oauth_callback_verifier_url`, `absolute https URL`),
			},
			{
				Config: zdr,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(projectAddr, tfjsonpath.New("config").AtMapKey("zdr_enabled"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(projectAddr, tfjsonpath.New("config").AtMapKey("oauth_callback_verifier_url"), knownvalue.StringExact(verifier)),
					statecheck.ExpectKnownValue(projectAddr, tfjsonpath.New("config").AtMapKey("log_visibility_setting"), knownvalue.Null()),
				},
				Check: func(*terraform.State) error {
					reqs := proxy.requests(http.MethodPost, "/api/v3.1/org/owner/project/new")
					if len(reqs) != 1 {
						return fmt.Errorf("%d project creates, want 1", len(reqs))
					}
					var body struct {
						Config map[string]any `json:"config"`
					}
					if err := json.Unmarshal(reqs[0].Body, &body); err != nil {
						return err
					}
					if _, both := body.Config["log_visibility_setting"]; both || body.Config["zdr_enabled"] != true ||
						body.Config["oauth_callback_verifier_url"] != verifier {
						return fmt.Errorf("the create sent config %v, want zdr_enabled and the verifier URL without log_visibility_setting", body.Config)
					}
					return nil
				},
			},
			// A refresh keeps config (the service returns none): no drift is seen.
			{
				RefreshState: true,
				Check:        tfresource.TestCheckResourceAttr(projectAddr, "config.zdr_enabled", "true"),
			},
			{Config: zdr, PlanOnly: true},
			// Changing it on the existing project: a plan error, never a replacement.
			{
				Config:      config("    zdr_enabled = false\n    oauth_callback_verifier_url = \"" + verifier + "\""),
				PlanOnly:    true,
				ExpectError: testAccErrRe(`Project config cannot be changed`, `config`),
			},
			// Import: config cannot be read back (deletion_protection takes its default).
			testAccImportStep(projectAddr, "config", "api_key", "api_key_rotation", "deletion_protection"),
		},
	})
}
