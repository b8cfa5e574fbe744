package provider

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/provider/protocol"
)

// identityCase is one resource type's identity test: a configuration that
// creates the object, one that updates it in place, and how to delete it
// outside Terraform.
type identityCase struct {
	addr     string
	idRe     *regexp.Regexp
	create   string
	update   string
	remove   func(ctx context.Context, c *client.Client, id string) error
	gone     func(t *testing.T) resource.TestCheckFunc
	importNE bool // an import plans an update (write-only values re-sent)
}

// testAccIdentity runs, on Terraform 1.12+ (identity) and the newest
// Terraform: a create and an in-place update, each with the identity in
// state equal to the id; imports by identity (import block) and by id
// (import block and `terraform import`); a state written by a provider
// without identity (as before this provider had it), refreshed by this
// provider, which gives it its identity; and a Read after a deletion outside
// Terraform, which removes the object without an identity error.
func testAccIdentity(t *testing.T, tc identityCase) {
	t.Helper()
	id, same := &testAccValue{}, &testAccValue{}
	identity := map[string]knownvalue.Check{"id": knownvalue.StringRegexp(tc.idRe)}
	checks := []statecheck.StateCheck{
		statecheck.ExpectIdentity(tc.addr, identity),
		statecheck.ExpectIdentityValueMatchesState(tc.addr, tfjsonpath.New("id")),
	}
	resource.Test(t, resource.TestCase{
		TerraformVersionChecks: []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)},
		PreCheck:               func() { testAccPreCheck(t) },
		CheckDestroy:           tc.gone(t),
		Steps: []resource.TestStep{
			{
				// Written by a provider without identity, as before it had one.
				ProtoV6ProviderFactories: testAccNoIdentityFactories,
				Config:                   tc.create,
				Check:                    id.capture(tc.addr, "id"),
			},
			{
				// This provider refreshes that state: the identity appears.
				ProtoV6ProviderFactories: testAccProviders(t),
				Config:                   tc.create,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(tc.addr, plancheck.ResourceActionNoop),
				}},
				ConfigStateChecks: checks,
			},
			{
				ProtoV6ProviderFactories: testAccProviders(t),
				Config:                   tc.update,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(tc.addr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: checks,
				Check:             same.capture(tc.addr, "id"),
			},
			{
				ProtoV6ProviderFactories: testAccProviders(t),
				Config:                   tc.update,
				ResourceName:             tc.addr,
				ImportState:              true,
				ImportStateKind:          resource.ImportBlockWithResourceIdentity,
				ExpectNonEmptyPlan:       tc.importNE,
			},
			{
				ProtoV6ProviderFactories: testAccProviders(t),
				Config:                   tc.update,
				ResourceName:             tc.addr,
				ImportState:              true,
				ImportStateKind:          resource.ImportBlockWithID,
				ExpectNonEmptyPlan:       tc.importNE,
			},
			{
				ProtoV6ProviderFactories: testAccProviders(t),
				Config:                   tc.update,
				ResourceName:             tc.addr,
				ImportState:              true,
				ImportStateKind:          resource.ImportCommandWithID,
				ImportStateCheck: func(states []*terraform.InstanceState) error {
					if same.v != id.v {
						return fmt.Errorf("the in-place update replaced %s by %s", id.v, same.v)
					}
					if len(states) != 1 || states[0].ID != id.v {
						return fmt.Errorf("terraform import of %s gave %d states (first id %v)", id.v, len(states), states)
					}
					return nil
				},
			},
			{
				// Deleted outside Terraform: the refresh removes it from
				// state (no "Missing Resource Identity After Read"), and the
				// plan creates it again.
				ProtoV6ProviderFactories: testAccProviders(t),
				PreConfig: func() {
					if err := tc.remove(context.Background(), testAccClient(t), id.v); err != nil {
						t.Fatalf("deleting %s outside Terraform: %v", id.v, err)
					}
				},
				Config:             tc.update,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
		},
	})
}

// testAccNoIdentityFactories serve the provider as a version without
// resource identity would: no identity schemas, and no identity in any
// answer.
var testAccNoIdentityFactories = map[string]func() (tfprotov6.ProviderServer, error){
	"service": func() (tfprotov6.ProviderServer, error) {
		s, err := NewServer("test")()
		if err != nil {
			return nil, err
		}
		return noIdentityServer{s.(protocol.WholeNumbers)}, nil
	},
}

type noIdentityServer struct{ protocol.WholeNumbers }

func (s noIdentityServer) GetResourceIdentitySchemas(context.Context, *tfprotov6.GetResourceIdentitySchemasRequest) (*tfprotov6.GetResourceIdentitySchemasResponse, error) {
	return &tfprotov6.GetResourceIdentitySchemasResponse{IdentitySchemas: map[string]*tfprotov6.ResourceIdentitySchema{}}, nil
}

func (s noIdentityServer) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	resp, err := s.WholeNumbers.ApplyResourceChange(ctx, req)
	if resp != nil {
		resp.NewIdentity = nil
	}
	return resp, err
}

func (s noIdentityServer) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	resp, err := s.WholeNumbers.ReadResource(ctx, req)
	if resp != nil {
		resp.NewIdentity = nil
	}
	return resp, err
}

func (s noIdentityServer) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	resp, err := s.WholeNumbers.PlanResourceChange(ctx, req)
	if resp != nil {
		resp.PlannedIdentity = nil
	}
	return resp, err
}
