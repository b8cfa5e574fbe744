package provider

// The floor provider of the end-to-end benchmark (bench_e2e_test.go): a
// terraform-plugin-framework provider serving this provider's own schemas
// (taken from Schema(), so they cannot drift) with no I/O, no ModifyPlan and
// no validation beyond what the schemas declare. Its times are the
// framework's and Terraform's cost for these schemas: the floor ours is
// measured against.

import (
	"context"
	"math/big"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	fwprovider "github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

type floorProvider struct {
	real fwprovider.Provider
	// edit, when set, changes the schema of every resource before the floor
	// serves it (the ablations of bench_rpc_test.go).
	edit func(typeName string, s *schema.Schema)
}

func newFloorProvider() fwprovider.Provider { return &floorProvider{real: New("floor")()} }

func (p *floorProvider) Metadata(ctx context.Context, req fwprovider.MetadataRequest, resp *fwprovider.MetadataResponse) {
	p.real.Metadata(ctx, req, resp)
}

func (p *floorProvider) Schema(ctx context.Context, req fwprovider.SchemaRequest, resp *fwprovider.SchemaResponse) {
	p.real.Schema(ctx, req, resp)
}

func (p *floorProvider) Configure(context.Context, fwprovider.ConfigureRequest, *fwprovider.ConfigureResponse) {
}

func (p *floorProvider) DataSources(context.Context) []func() datasource.DataSource { return nil }

func (p *floorProvider) Resources(ctx context.Context) []func() resource.Resource {
	var out []func() resource.Resource
	for _, newReal := range p.real.Resources(ctx) {
		out = append(out, func() resource.Resource { return &floorResource{real: newReal(), edit: p.edit} })
	}
	return out
}

// floorResource has the type name and schema of real and stores the plan as
// the state, with typical values for what the plan leaves unknown.
type floorResource struct {
	real resource.Resource
	edit func(typeName string, s *schema.Schema)
}

func (r *floorResource) Metadata(ctx context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	r.real.Metadata(ctx, req, resp)
}

func (r *floorResource) Schema(ctx context.Context, req resource.SchemaRequest, resp *resource.SchemaResponse) {
	r.real.Schema(ctx, req, resp)
	if r.edit != nil {
		var md resource.MetadataResponse
		r.real.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "service"}, &md)
		r.edit(md.TypeName, &resp.Schema)
	}
}

func (r *floorResource) Create(_ context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	resp.State.Raw = floorKnown(req.Plan.Raw)
}

func (r *floorResource) Read(context.Context, resource.ReadRequest, *resource.ReadResponse) {}

func (r *floorResource) Update(_ context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.State.Raw = floorKnown(req.Plan.Raw)
}

func (r *floorResource) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}

// floorKnown replaces the unknown values of v: strings by a value as long as
// a typical id or timestamp (so the floor's state is as large as ours), bools
// by false, numbers by 0, anything else by null.
func floorKnown(v tftypes.Value) tftypes.Value {
	out, err := tftypes.Transform(v, func(_ *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		if v.IsKnown() {
			return v, nil
		}
		switch {
		case v.Type().Is(tftypes.String):
			return tftypes.NewValue(tftypes.String, "floor-2026-01-01T00:00:00Z"), nil
		case v.Type().Is(tftypes.Bool):
			return tftypes.NewValue(tftypes.Bool, false), nil
		case v.Type().Is(tftypes.Number):
			return tftypes.NewValue(tftypes.Number, big.NewFloat(0)), nil
		}
		return tftypes.NewValue(v.Type(), nil), nil
	})
	if err != nil {
		panic(err) // the transform itself cannot fail
	}
	return out
}
