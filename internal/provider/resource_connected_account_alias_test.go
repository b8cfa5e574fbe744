package provider

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
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
)

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
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
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
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
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
		ac, err := c.CreateAuthConfig(ctx, client.CreateAuthConfigRequest{ToolkitSlug: "stripe", Type: client.AuthConfigTypeCustom, Name: user, AuthScheme: "API_KEY"})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.DeleteAuthConfig(context.Background(), ac.ID) })
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
	const initiate = "POST /api/v3.1/connected_accounts"
	run := func(name string, steps ...tfresource.TestStep) {
		t.Helper()
		before := testAccEmulatorStatsNow(t)
		tfresource.Test(t, tfresource.TestCase{
			PreCheck:                 func() { testAccPreCheck(t) },
			ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
			Steps:                    steps,
		})
		after := testAccEmulatorStatsNow(t)
		if after.Writes != before.Writes {
			t.Errorf("%s: the emulator counted %d writes, want none", name, after.Writes-before.Writes)
		}
		if n := after.Requests[initiate] - before.Requests[initiate]; n != 0 {
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
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
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

	r := NewConnectedAccountResource().(*connectedAccountResource)
	r.data = &ProviderData{Client: c, Cache: lookup.NewSchemaCache(c, client.ToolkitVersions{})}
	var sresp resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &sresp)
	sch := sresp.Schema
	var state connectedAccountModel
	state.fromAccount(mine, true)
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
