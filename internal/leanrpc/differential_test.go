package leanrpc_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"math/rand"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/resourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/integration-service/terraform-provider-service/internal/leanrpc"
	"github.com/integration-service/terraform-provider-service/test/testutil"
)

// The synthetic provider: no I/O, every outcome derived from the request.

type diffData struct{ suffix string }

type diffProvider struct {
	data      *diffData
	resources []func() resource.Resource
}

func (p *diffProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "test"
}

func (p *diffProvider) Schema(context.Context, provider.SchemaRequest, *provider.SchemaResponse) {}

func (p *diffProvider) Configure(_ context.Context, _ provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	p.data = &diffData{suffix: "-cfg"}
	resp.ResourceData = p.data
}

func (p *diffProvider) DataSources(context.Context) []func() datasource.DataSource { return nil }

func (p *diffProvider) Resources(context.Context) []func() resource.Resource { return p.resources }

// diffThing exercises everything leanrpc serves.
type diffThing struct{ data *diffData }

func newDiffThing() resource.Resource { return &diffThing{} }

var (
	_ resource.ResourceWithConfigure        = (*diffThing)(nil)
	_ resource.ResourceWithModifyPlan       = (*diffThing)(nil)
	_ resource.ResourceWithValidateConfig   = (*diffThing)(nil)
	_ resource.ResourceWithConfigValidators = (*diffThing)(nil)
	_ resource.ResourceWithImportState      = (*diffThing)(nil)
)

func (r *diffThing) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_thing"
}

func (r *diffThing) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	if req.ProviderData == nil {
		return
	}
	d, ok := req.ProviderData.(*diffData)
	if !ok {
		resp.Diagnostics.AddError("Unexpected provider data", fmt.Sprintf("%T", req.ProviderData))
		return
	}
	r.data = d
}

// noteFromPlan is a plan modifier that reads the whole plan and state
// (req.Plan, req.State), not only its own values.
type noteFromPlan struct{}

func (noteFromPlan) Description(context.Context) string         { return "note from plan" }
func (noteFromPlan) MarkdownDescription(context.Context) string { return "note from plan" }
func (noteFromPlan) PlanModifyString(ctx context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if !req.PlanValue.IsUnknown() {
		return
	}
	var kind, name types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("kind"), &kind)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("name"), &name)...)
	if kind.ValueString() == "x" {
		resp.Diagnostics.AddAttributeWarning(req.Path, "Kind x", "note planned from kind x")
	}
	if name.ValueString() == "modfail" {
		resp.Diagnostics.AddAttributeError(req.Path, "Modifier failed", "prior name modfail")
		return
	}
	resp.PlanValue = types.StringValue("kind=" + kind.String() + ",prior=" + name.String())
}

func (r *diffThing) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:      true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"name": schema.StringAttribute{
				Required:      true,
				Validators:    []validator.String{stringvalidator.LengthBetween(1, 8)},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"kind": schema.StringAttribute{
				Optional: true, Computed: true,
				Default:    stringdefault.StaticString("basic"),
				Validators: []validator.String{stringvalidator.OneOf("basic", "premium", "x")},
			},
			"enabled": schema.BoolAttribute{
				Optional: true, Computed: true,
				Default: booldefault.StaticBool(true),
			},
			"size": schema.Int64Attribute{
				Optional:   true,
				Validators: []validator.Int64{int64validator.Between(0, 100)},
				PlanModifiers: []planmodifier.Int64{int64planmodifier.RequiresReplaceIf(
					func(_ context.Context, req planmodifier.Int64Request, resp *int64planmodifier.RequiresReplaceIfFuncResponse) {
						resp.RequiresReplace = req.PlanValue.ValueInt64() > 50
						if req.PlanValue.ValueInt64() == 77 {
							resp.Diagnostics.AddAttributeWarning(req.Path, "Lucky", "seventy-seven")
						}
					}, "size over 50", "size over 50")},
			},
			"ratio": schema.Float64Attribute{Optional: true, Computed: true},
			"tags": schema.ListAttribute{
				ElementType: types.StringType, Optional: true,
				Validators: []validator.List{
					listvalidator.SizeAtMost(3),
					listvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1)),
				},
			},
			"labels": schema.SetAttribute{
				ElementType: types.StringType, Optional: true, Computed: true,
				Validators:    []validator.Set{setvalidator.SizeAtMost(2)},
				PlanModifiers: []planmodifier.Set{setplanmodifier.UseStateForUnknown()},
			},
			"meta": schema.MapAttribute{
				ElementType: types.StringType, Optional: true,
				Validators: []validator.Map{mapvalidator.ConflictsWith(path.MatchRoot("extra"))},
			},
			"extra": schema.MapAttribute{ElementType: types.Int64Type, Optional: true},
			"secret": schema.StringAttribute{
				Optional: true, WriteOnly: true,
				Validators: []validator.String{stringvalidator.LengthAtLeast(2)},
			},
			"old": schema.StringAttribute{
				Optional:           true,
				DeprecationMessage: "use name instead",
			},
			"note": schema.StringAttribute{
				Optional: true, Computed: true,
				PlanModifiers: []planmodifier.String{noteFromPlan{}},
			},
			"computed_at": schema.StringAttribute{Computed: true},
			"settings": schema.SingleNestedAttribute{
				Optional: true, Computed: true,
				PlanModifiers: []planmodifier.Object{objectplanmodifier.UseStateForUnknown()},
				Attributes: map[string]schema.Attribute{
					"mode": schema.StringAttribute{
						Optional: true, Computed: true,
						Default: stringdefault.StaticString("auto"),
						Validators: []validator.String{
							stringvalidator.ConflictsWith(path.MatchRelative().AtParent().AtName("level")),
						},
					},
					"level": schema.Int64Attribute{
						Optional:   true,
						Validators: []validator.Int64{int64validator.AtMost(10)},
					},
					"flag": schema.BoolAttribute{Computed: true},
				},
			},
			"target": schema.SingleNestedAttribute{
				Optional: true,
				Attributes: map[string]schema.Attribute{
					"host": schema.StringAttribute{
						Required:   true,
						Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
					},
					"port": schema.Int64Attribute{
						Optional: true, Computed: true,
						Validators: []validator.Int64{
							int64validator.AlsoRequires(path.MatchRelative().AtParent().AtName("token")),
						},
						PlanModifiers: []planmodifier.Int64{int64planmodifier.UseStateForUnknown(), int64planmodifier.RequiresReplace()},
					},
					"token": schema.StringAttribute{
						Optional: true, WriteOnly: true,
						Validators: []validator.String{stringvalidator.LengthAtLeast(3)},
					},
				},
			},
		},
	}
}

func (r *diffThing) ConfigValidators(context.Context) []resource.ConfigValidator {
	return []resource.ConfigValidator{
		resourcevalidator.Conflicting(path.MatchRoot("old"), path.MatchRoot("note")),
	}
}

func (r *diffThing) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var name types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("name"), &name)...)
	if name.ValueString() == "bad" {
		resp.Diagnostics.AddAttributeError(path.Root("name"), "Bad name", "name must not be bad")
	}
	var tags types.List
	var enabled types.Bool
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("tags"), &tags)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("enabled"), &enabled)...)
	if len(tags.Elements()) > 1 && !enabled.IsNull() && !enabled.ValueBool() {
		resp.Diagnostics.AddWarning("Disabled with tags", "tags on a disabled thing")
	}
	if req.ClientCapabilities.WriteOnlyAttributesAllowed {
		var secret types.String
		resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("secret"), &secret)...)
		if secret.ValueString() == "ab" {
			resp.Diagnostics.AddAttributeWarning(path.Root("secret"), "Weak secret", "ab")
		}
	}
}

func (r *diffThing) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		resp.Diagnostics.AddWarning("Destroying", "the thing will be destroyed")
		return
	}
	var name, kind, stateKind, old types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("name"), &name)...)
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("kind"), &kind)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("old"), &old)...)
	if name.ValueString() == "planerr" {
		resp.Diagnostics.AddAttributeError(path.Root("name"), "Plan error", "name planerr")
		return
	}
	if !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("kind"), &stateKind)...)
		if kind.ValueString() == "premium" && !kind.Equal(stateKind) {
			resp.RequiresReplace = append(resp.RequiresReplace, path.Root("kind"))
		}
	}
	switch {
	case !old.IsNull() && !old.IsUnknown():
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("computed_at"), "from-old:"+old.ValueString())...)
	case req.State.Raw.IsNull():
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("computed_at"), "created")...)
	}
	var count types.Int64
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("size"), &count)...)
	if count.ValueInt64() > 90 {
		resp.Diagnostics.AddAttributeWarning(path.Root("size"), "Large size", fmt.Sprintf("size %d", count.ValueInt64()))
	}
	var target types.Object
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("target"), &target)...)
	if !target.IsNull() && !target.IsUnknown() {
		var port types.Int64
		resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("target").AtName("port"), &port)...)
		if port.IsUnknown() {
			resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("target").AtName("port"), int64(8080))...)
		}
	}
}

// fillUnknown is a known value of type t: what "the API" returns for an
// unknown planned value.
func fillUnknown(t tftypes.Type) tftypes.Value {
	switch {
	case t.Is(tftypes.String):
		return tftypes.NewValue(t, "gen")
	case t.Is(tftypes.Number):
		return tftypes.NewValue(t, big.NewFloat(7))
	case t.Is(tftypes.Bool):
		return tftypes.NewValue(t, false)
	case t.Is(tftypes.List{}), t.Is(tftypes.Set{}):
		return tftypes.NewValue(t, []tftypes.Value{})
	case t.Is(tftypes.Map{}):
		return tftypes.NewValue(t, map[string]tftypes.Value{})
	case t.Is(tftypes.Object{}):
		ot := t.(tftypes.Object)
		vals := map[string]tftypes.Value{}
		for name, at := range ot.AttributeTypes {
			vals[name] = fillUnknown(at)
		}
		return tftypes.NewValue(t, vals)
	}
	return tftypes.NewValue(t, nil)
}

func fillUnknowns(v tftypes.Value) (tftypes.Value, error) {
	return tftypes.Transform(v, func(_ *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		if v.IsKnown() {
			return v, nil
		}
		return fillUnknown(v.Type()), nil
	})
}

func (r *diffThing) suffix() string {
	if r.data == nil {
		return "-nodata"
	}
	return r.data.suffix
}

func (r *diffThing) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var name types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("name"), &name)...)
	switch name.ValueString() {
	case "fail":
		resp.Diagnostics.AddError("Create failed", "name fail")
		return
	case "none":
		return // no state: the server reports it
	}
	v, err := fillUnknowns(req.Plan.Raw)
	if err != nil {
		resp.Diagnostics.AddError("fill", err.Error())
		return
	}
	resp.State.Raw = v
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), "id-"+name.ValueString()+r.suffix())...)
	// A write-only value copied into the state: the server must null it.
	var secret types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("secret"), &secret)...)
	if !secret.IsNull() && !secret.IsUnknown() {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("secret"), secret)...)
	}
	if name.ValueString() == "warn" {
		resp.Diagnostics.AddAttributeWarning(path.Root("name"), "Created with warning", "warn")
	}
}

func (r *diffThing) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var name types.String
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("name"), &name)...)
	switch name.ValueString() {
	case "gone":
		resp.State.RemoveResource(ctx)
		return
	case "fail":
		resp.Diagnostics.AddError("Read failed", "name fail")
		return
	case "defer":
		resp.Deferred = &resource.Deferred{Reason: resource.DeferredReasonResourceConfigUnknown}
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("secret"), "leaked")...)
	var target types.Object
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("target"), &target)...)
	if !target.IsNull() && !target.IsUnknown() {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("target").AtName("token"), "leaked")...)
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("computed_at"), "read"+r.suffix())...)
}

func (r *diffThing) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var name, priorID types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("name"), &name)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("id"), &priorID)...)
	switch name.ValueString() {
	case "fail":
		resp.Diagnostics.AddError("Update failed", "name fail")
		return
	case "none":
		resp.State.RemoveResource(ctx)
		return
	}
	v, err := fillUnknowns(req.Plan.Raw)
	if err != nil {
		resp.Diagnostics.AddError("fill", err.Error())
		return
	}
	resp.State.Raw = v
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("note"), "updated-from-"+priorID.ValueString())...)
	var target types.Object
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("target"), &target)...)
	if !target.IsNull() && !target.IsUnknown() {
		var token types.String
		resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("target").AtName("token"), &token)...)
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("target").AtName("token"), token)...)
	}
}

func (r *diffThing) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var name types.String
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("name"), &name)...)
	switch name.ValueString() {
	case "fail":
		resp.Diagnostics.AddError("Delete failed", "name fail")
	case "warn":
		resp.Diagnostics.AddWarning("Deleted with warning", "warn")
	}
}

func (r *diffThing) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}

// diffBlocky has a block and a custom type: leanrpc leaves it to the
// framework.
type diffBlocky struct{ custom bool }

func (r *diffBlocky) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	if r.custom {
		resp.TypeName = req.ProviderTypeName + "_custom"
		return
	}
	resp.TypeName = req.ProviderTypeName + "_blocky"
}

func (r *diffBlocky) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	if r.custom {
		resp.Schema = schema.Schema{Attributes: map[string]schema.Attribute{
			"id":  schema.StringAttribute{Computed: true},
			"doc": schema.StringAttribute{Optional: true, CustomType: jsontypes.NormalizedType{}},
		}}
		return
	}
	resp.Schema = schema.Schema{
		Attributes: map[string]schema.Attribute{
			"id":   schema.StringAttribute{Computed: true},
			"name": schema.StringAttribute{Required: true},
		},
		Blocks: map[string]schema.Block{
			"rule": schema.ListNestedBlock{NestedObject: schema.NestedBlockObject{
				Attributes: map[string]schema.Attribute{"value": schema.StringAttribute{Optional: true}},
			}},
		},
	}
}

func (r *diffBlocky) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	v, err := fillUnknowns(req.Plan.Raw)
	if err != nil {
		resp.Diagnostics.AddError("fill", err.Error())
	}
	resp.State.Raw = v
}

func (r *diffBlocky) Read(context.Context, resource.ReadRequest, *resource.ReadResponse) {}

func (r *diffBlocky) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.State.Raw = req.Plan.Raw
}

func (r *diffBlocky) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}

// counting records which calls reach the framework server.
type counting struct {
	tfprotov6.ProviderServer
	plans, validates, applies, reads, upgrades atomic.Int64
}

func (c *counting) ValidateResourceConfig(ctx context.Context, req *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	c.validates.Add(1)
	return c.ProviderServer.ValidateResourceConfig(ctx, req)
}

func (c *counting) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	c.plans.Add(1)
	return c.ProviderServer.PlanResourceChange(ctx, req)
}

func (c *counting) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	c.applies.Add(1)
	return c.ProviderServer.ApplyResourceChange(ctx, req)
}

func (c *counting) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	c.reads.Add(1)
	return c.ProviderServer.ReadResource(ctx, req)
}

func (c *counting) UpgradeResourceState(ctx context.Context, req *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	c.upgrades.Add(1)
	return c.ProviderServer.UpgradeResourceState(ctx, req)
}

func diffFactories() []func() resource.Resource {
	return []func() resource.Resource{
		newDiffThing,
		func() resource.Resource { return &diffBlocky{} },
		func() resource.Resource { return &diffBlocky{custom: true} },
	}
}

// diffServers returns the framework's server and leanrpc's (over a counting
// framework server), both configured unless told otherwise (Terraform
// validates configuration before it configures the provider).
func diffServers(t *testing.T, configure bool) (fw tfprotov6.ProviderServer, lean *leanrpc.Server, next *counting) {
	t.Helper()
	p1 := &diffProvider{resources: diffFactories()}
	fw = providerserver.NewProtocol6(p1)()
	p2 := &diffProvider{resources: diffFactories()}
	next = &counting{ProviderServer: providerserver.NewProtocol6(p2)()}
	lean = leanrpc.Wrap(next, "test", func() any {
		if p2.data == nil {
			return nil
		}
		return p2.data
	}, diffFactories()...)
	ctx := context.Background()
	empty := tftypes.Object{AttributeTypes: map[string]tftypes.Type{}}
	cfg, err := tfprotov6.NewDynamicValue(empty, tftypes.NewValue(empty, map[string]tftypes.Value{}))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []tfprotov6.ProviderServer{fw, lean} {
		sr, err := s.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
		if err != nil || len(sr.Diagnostics) > 0 {
			t.Fatalf("GetProviderSchema: %v %q", err, diagKeys(sr.Diagnostics))
		}
		if !configure {
			continue
		}
		cr, err := s.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{Config: &cfg})
		if err != nil || len(cr.Diagnostics) > 0 {
			t.Fatalf("ConfigureProvider: %v %q", err, diagKeys(cr.Diagnostics))
		}
	}
	return fw, lean, next
}

// Random values, driven by the schema.

type gen struct {
	rnd *rand.Rand
	// badInt: the chance of a fraction for an Int64 attribute (which
	// leanrpc leaves to the framework).
	badInt float64
}

func (g *gen) chance(p float64) bool { return g.rnd.Float64() < p }

var (
	diffStrings = []string{"", "a", "ab", "abc", "basic", "premium", "x", "bad", "fail", "gone", "none", "warn", "defer",
		"planerr", "modfail", "toolongname", "auto", "h"}
	diffNumbers = []float64{0, 1, 7, 10, 11, 50, 51, 77, 91, 100, 101, -1, 8080}
)

func (g *gen) primitive(t tftypes.Type, unknown float64, isInt bool) tftypes.Value {
	if g.chance(unknown) {
		return tftypes.NewValue(t, tftypes.UnknownValue)
	}
	switch {
	case t.Is(tftypes.String):
		return tftypes.NewValue(t, diffStrings[g.rnd.Intn(len(diffStrings))])
	case t.Is(tftypes.Bool):
		return tftypes.NewValue(t, g.chance(0.5))
	case t.Is(tftypes.Number):
		if !isInt || g.chance(g.badInt) {
			return tftypes.NewValue(t, big.NewFloat([]float64{2.5, -0.5, 1e3}[g.rnd.Intn(3)]))
		}
		return tftypes.NewValue(t, big.NewFloat(diffNumbers[g.rnd.Intn(len(diffNumbers))]))
	}
	panic(fmt.Sprintf("primitive %s", t))
}

// value is a random non-null value of attribute a (unknown with the given
// chance at any level).
func (g *gen) value(a schema.Attribute, unknown float64, state bool) tftypes.Value {
	ctx := context.Background()
	t := a.GetType().TerraformType(ctx)
	if g.chance(unknown) {
		return tftypes.NewValue(t, tftypes.UnknownValue)
	}
	switch a := a.(type) {
	case schema.SingleNestedAttribute:
		return g.object(a.Attributes, t.(tftypes.Object), unknown, state)
	case schema.ListAttribute, schema.SetAttribute, schema.MapAttribute:
		var et tftypes.Type
		isInt := false
		switch tt := t.(type) {
		case tftypes.List:
			et = tt.ElementType
		case tftypes.Set:
			et = tt.ElementType
		case tftypes.Map:
			et = tt.ElementType
			_, isInt = a.(schema.MapAttribute).ElementType.(basetypes.Int64Type)
		}
		n := g.rnd.Intn(4)
		elem := func() tftypes.Value {
			if g.chance(0.05) {
				return tftypes.NewValue(et, nil)
			}
			return g.primitive(et, unknown/2, isInt)
		}
		if _, ok := t.(tftypes.Map); ok {
			m := map[string]tftypes.Value{}
			for range n {
				m[[]string{"a", "b", "c", ""}[g.rnd.Intn(4)]] = elem()
			}
			return tftypes.NewValue(t, m)
		}
		var elems []tftypes.Value
		for range n {
			e := elem()
			if _, ok := t.(tftypes.Set); ok && slices.ContainsFunc(elems, e.Equal) {
				continue
			}
			elems = append(elems, e)
		}
		if elems == nil {
			elems = []tftypes.Value{}
		}
		return tftypes.NewValue(t, elems)
	case schema.Int64Attribute:
		return g.primitive(t, 0, true)
	default:
		return g.primitive(t, 0, false)
	}
}

// object is a random object of attrs: configuration-like (unknown > 0) or
// state-like.
func (g *gen) object(attrs map[string]schema.Attribute, t tftypes.Object, unknown float64, state bool) tftypes.Value {
	g.badInt = 0.015
	if state {
		g.badInt = 0.002
	}
	vals := map[string]tftypes.Value{}
	for _, name := range sortedKeys(attrs) {
		a := attrs[name]
		at := t.AttributeTypes[name]
		switch {
		case state && a.IsWriteOnly() && !g.chance(0.05):
			vals[name] = tftypes.NewValue(at, nil)
		case !state && a.IsComputed() && !a.IsOptional() && !g.chance(0.03):
			vals[name] = tftypes.NewValue(at, nil)
		case g.chance(0.3):
			vals[name] = tftypes.NewValue(at, nil)
		default:
			vals[name] = g.value(a, unknown, state)
		}
	}
	return tftypes.NewValue(t, vals)
}

// configOf is a configuration that would give state: its configurable
// values (optional and computed ones sometimes left out), write-only values
// at random.
func (g *gen) configOf(attrs map[string]schema.Attribute, t tftypes.Object, state tftypes.Value) tftypes.Value {
	sv := objFields(state, t)
	vals := map[string]tftypes.Value{}
	for _, name := range sortedKeys(attrs) {
		a, at, v := attrs[name], t.AttributeTypes[name], sv[name]
		switch {
		case a.IsComputed() && !a.IsOptional():
			v = tftypes.NewValue(at, nil)
		case a.IsWriteOnly():
			if v = tftypes.NewValue(at, nil); g.chance(0.5) {
				v = g.value(a, 0, false)
			}
		case a.IsComputed() && g.chance(0.3):
			v = tftypes.NewValue(at, nil)
		default:
			if na, ok := a.(schema.SingleNestedAttribute); ok && v.IsKnown() && !v.IsNull() {
				v = g.configOf(na.Attributes, at.(tftypes.Object), v)
			}
		}
		vals[name] = v
	}
	return tftypes.NewValue(t, vals)
}

// proposedNew is Terraform's proposed new state: the configuration, with
// the prior state's values for computed attributes the configuration leaves
// null.
func proposedNew(attrs map[string]schema.Attribute, t tftypes.Object, config, prior tftypes.Value) tftypes.Value {
	cv, pv := objFields(config, t), objFields(prior, t)
	vals := map[string]tftypes.Value{}
	for name, a := range attrs {
		c, p := cv[name], pv[name]
		switch {
		case c.IsNull() && a.IsComputed():
			vals[name] = p
		case c.IsKnown() && !c.IsNull():
			if na, ok := a.(schema.SingleNestedAttribute); ok {
				vals[name] = proposedNew(na.Attributes, t.AttributeTypes[name].(tftypes.Object), c, p)
				continue
			}
			vals[name] = c
		default:
			vals[name] = c
		}
	}
	return tftypes.NewValue(t, vals)
}

func objFields(v tftypes.Value, t tftypes.Object) map[string]tftypes.Value {
	out := map[string]tftypes.Value{}
	if v.IsKnown() && !v.IsNull() {
		if err := v.As(&out); err == nil {
			return out
		}
	}
	for name, at := range t.AttributeTypes {
		out[name] = tftypes.NewValue(at, nil)
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// show is v without its type, for failure messages.
func show(v tftypes.Value) string {
	switch {
	case !v.IsKnown():
		return "?"
	case v.IsNull():
		return "null"
	case v.Type().Is(tftypes.String):
		var s string
		_ = v.As(&s)
		return fmt.Sprintf("%q", s)
	case v.Type().Is(tftypes.Bool):
		var b bool
		_ = v.As(&b)
		return fmt.Sprint(b)
	case v.Type().Is(tftypes.Number):
		var f big.Float
		_ = v.As(&f)
		return f.Text('g', -1)
	case v.Type().Is(tftypes.List{}), v.Type().Is(tftypes.Set{}):
		var elems []tftypes.Value
		_ = v.As(&elems)
		var out []string
		for _, e := range elems {
			out = append(out, show(e))
		}
		return "[" + strings.Join(out, ", ") + "]"
	default:
		var m map[string]tftypes.Value
		_ = v.As(&m)
		var out []string
		for _, k := range sortedKeys(m) {
			out = append(out, k+": "+show(m[k]))
		}
		return "{" + strings.Join(out, ", ") + "}"
	}
}

// badNumbers: v holds a number an Int64 attribute cannot take (every number
// attribute of test_thing but ratio is an Int64).
func badNumbers(v tftypes.Value) bool {
	bad := false
	_ = tftypes.Walk(v, func(p *tftypes.AttributePath, v tftypes.Value) (bool, error) {
		if v.Type().Is(tftypes.Number) && v.IsKnown() && !v.IsNull() && !p.Equal(tftypes.NewAttributePath().WithAttributeName("ratio")) {
			var f big.Float
			_ = v.As(&f)
			if !f.IsInt() {
				bad = true
			}
		}
		return true, nil
	})
	return bad
}

// Comparison.

type differ struct {
	t        *testing.T
	seed     int64
	failures int
	typ      tftypes.Type
}

func (d *differ) fail(c int, what, format string, args ...any) {
	d.t.Helper()
	d.failures++
	d.t.Errorf("seed %d case %d %s: %s", d.seed, c, what, fmt.Sprintf(format, args...))
	if d.failures >= 15 {
		d.t.FailNow()
	}
}

func (d *differ) dynamic(c int, what string, a, b *tfprotov6.DynamicValue) {
	d.t.Helper()
	if (a == nil) != (b == nil) {
		d.fail(c, what, "framework %v, leanrpc %v", a, b)
		return
	}
	if a == nil {
		return
	}
	av, err1 := a.Unmarshal(d.typ)
	bv, err2 := b.Unmarshal(d.typ)
	if err1 != nil || err2 != nil {
		d.fail(c, what, "decode: %v / %v", err1, err2)
		return
	}
	if !av.Equal(bv) {
		d.fail(c, what, "\nframework: %s\nleanrpc:   %s", show(av), show(bv))
	}
}

// forwarded checks that leanrpc left a call to the framework exactly when
// it should (values the framework's types refuse, private state).
func (d *differ) forwarded(c int, what string, calls int64, want bool) {
	d.t.Helper()
	if (calls == 1) != want || calls > 1 {
		d.fail(c, what, "%d calls reached the framework, want forwarding %v", calls, want)
	}
}

func diagKeys(ds []*tfprotov6.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		p := ""
		if d.Attribute != nil {
			p = d.Attribute.String()
		}
		out = append(out, fmt.Sprintf("%s|%s|%s|%s", d.Severity, d.Summary, d.Detail, p))
	}
	sort.Strings(out)
	return out
}

func (d *differ) diags(c int, what string, a, b []*tfprotov6.Diagnostic) {
	d.t.Helper()
	ak, bk := diagKeys(a), diagKeys(b)
	if !slices.Equal(ak, bk) {
		d.fail(c, what+" diagnostics", "\nframework: %q\nleanrpc:   %q", ak, bk)
	}
}

func errorsOnly(ds []*tfprotov6.Diagnostic) []*tfprotov6.Diagnostic {
	var out []*tfprotov6.Diagnostic
	for _, d := range ds {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			out = append(out, d)
		}
	}
	return out
}

func pathKeys(ps []*tftypes.AttributePath) []string {
	out := []string{}
	for _, p := range ps {
		out = append(out, p.String())
	}
	sort.Strings(out)
	return out
}

func deferredString(d *tfprotov6.Deferred) string {
	if d == nil {
		return "<nil>"
	}
	return d.Reason.String()
}

func hasError(ds []*tfprotov6.Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			return true
		}
	}
	return false
}

// TestDifferential runs random calls through the framework and through
// leanrpc and requires the same answers: workers × casesEach cases, each
// worker from its own fixed seed (the seed is in every failure message).
func TestDifferential(t *testing.T) {
	const workers, casesEach = 4, 475
	const seed int64 = 20261123
	// The framework's calls allocate heavily; less frequent collection keeps
	// the test fast.
	old := debug.SetGCPercent(1000)
	t.Cleanup(func() { debug.SetGCPercent(old) })
	for w := range workers {
		t.Run(fmt.Sprintf("seed_%d", seed+int64(w)), func(t *testing.T) {
			t.Parallel()
			diffRun(t, seed+int64(w), casesEach, true)
		})
	}
	t.Run("unconfigured", func(t *testing.T) {
		t.Parallel()
		diffRun(t, seed-1, 100, false)
	})
}

func diffRun(t *testing.T, seed int64, cases int, configured bool) {
	ctx := context.Background()
	fw, lean, next := diffServers(t, configured)
	served, skipped := lean.Served()
	if !slices.Contains(served, "test_thing") {
		t.Fatalf("test_thing not served: %v", skipped["test_thing"])
	}

	var sr resource.SchemaResponse
	newDiffThing().Schema(ctx, resource.SchemaRequest{}, &sr)
	attrs := sr.Schema.Attributes
	typ := sr.Schema.Type().TerraformType(ctx).(tftypes.Object)
	null := tftypes.NewValue(typ, nil)
	g := &gen{rnd: rand.New(rand.NewSource(seed))} //nolint:gosec // deterministic test input
	d := &differ{t: t, seed: seed, typ: typ}
	dv := func(v tftypes.Value) *tfprotov6.DynamicValue {
		x, err := tfprotov6.NewDynamicValue(typ, v)
		if err != nil {
			t.Fatalf("encode %s: %v", v, err)
		}
		return &x
	}
	const typeName = "test_thing"
	ireq := &tfprotov6.ImportResourceStateRequest{TypeName: typeName, ID: "imported"}
	ia, err1 := fw.ImportResourceState(ctx, ireq)
	ib, err2 := lean.ImportResourceState(ctx, ireq)
	if err1 != nil || err2 != nil || len(ia.ImportedResources) != 1 || len(ib.ImportedResources) != 1 {
		t.Fatalf("import: %v %v %v %v", err1, err2, ia, ib)
	}
	d.dynamic(-1, "imported state", ia.ImportedResources[0].State, ib.ImportedResources[0].State)
	d.diags(-1, "import", ia.Diagnostics, ib.Diagnostics)
	var stats struct{ creates, updates, deletes, planErrors, destroys, modifierErrors, unchanged, noops, replays int }

	var last struct{ config, state tftypes.Value }
	for c := range cases {
		caps := g.chance(0.5)
		config := g.object(attrs, typ, 0.08, false)
		var prior tftypes.Value
		if g.chance(0.35) {
			prior = null
		} else {
			prior = g.object(attrs, typ, 0, true)
		}
		var proposed tftypes.Value
		switch r := g.rnd.Float64(); {
		case r < 0.1 && !prior.IsNull():
			proposed, config = null, null // destroy
			stats.destroys++
		case r < 0.22 && last.config.Type() != nil:
			// The configuration of an earlier apply against the state it
			// gave: Terraform's next plan (mostly without changes).
			prior, config = last.state, last.config
			proposed = proposedNew(attrs, typ, config, prior)
			stats.replays++
		case r < 0.3:
			proposed = g.object(attrs, typ, 0.1, false)
		case r < 0.42 && !prior.IsNull():
			// The configuration the prior state was applied from: mostly
			// a plan without changes.
			config = g.configOf(attrs, typ, prior)
			proposed = proposedNew(attrs, typ, config, prior)
			stats.unchanged++
		default:
			proposed = proposedNew(attrs, typ, config, prior)
		}

		// ValidateResourceConfig.
		vreq := &tfprotov6.ValidateResourceConfigRequest{TypeName: typeName, Config: dv(config),
			ClientCapabilities: &tfprotov6.ValidateResourceConfigClientCapabilities{WriteOnlyAttributesAllowed: caps}}
		if g.chance(0.05) {
			vreq.ClientCapabilities = nil
		}
		before := d.failures
		n0 := next.validates.Load()
		va, err1 := fw.ValidateResourceConfig(ctx, vreq)
		vb, err2 := lean.ValidateResourceConfig(ctx, vreq)
		if err1 != nil || err2 != nil {
			t.Fatalf("case %d validate: %v %v", c, err1, err2)
		}
		d.diags(c, "validate", va.Diagnostics, vb.Diagnostics)
		d.forwarded(c, "validate", next.validates.Load()-n0, badNumbers(config))

		// PlanResourceChange.
		preq := &tfprotov6.PlanResourceChangeRequest{TypeName: typeName, Config: dv(config), PriorState: dv(prior),
			ProposedNewState: dv(proposed), ClientCapabilities: &tfprotov6.PlanResourceChangeClientCapabilities{DeferralAllowed: g.chance(0.5)}}
		n0 = next.plans.Load()
		pa, err1 := fw.PlanResourceChange(ctx, preq)
		pb, err2 := lean.PlanResourceChange(ctx, preq)
		if err1 != nil || err2 != nil {
			t.Fatalf("case %d plan: %v %v", c, err1, err2)
		}
		// Calls left to the framework give the framework's answer; with
		// values its types refuse it stops part of the way through, at a
		// point that depends on its random map order: no comparison then.
		planForwarded := badNumbers(config) || badNumbers(prior) || badNumbers(proposed)
		d.forwarded(c, "plan", next.plans.Load()-n0, planForwarded)
		// When an attribute plan modifier fails, the framework stops there
		// and returns the plan, RequiresReplace and warnings of the
		// attributes it happened to modify before (it walks them in Go's
		// random map order: two framework calls differ; leanrpc's sorted
		// order is one of them). Terraform discards such a plan; only the
		// errors are comparable then.
		modifierFailed := slices.ContainsFunc(pa.Diagnostics, func(d *tfprotov6.Diagnostic) bool {
			return d.Severity == tfprotov6.DiagnosticSeverityError && d.Summary == "Modifier failed"
		})
		switch {
		case planForwarded:
		case modifierFailed:
			d.diags(c, "plan errors", errorsOnly(pa.Diagnostics), errorsOnly(pb.Diagnostics))
		default:
			d.diags(c, "plan", pa.Diagnostics, pb.Diagnostics)
		}
		if !modifierFailed && !planForwarded {
			d.dynamic(c, "planned state", pa.PlannedState, pb.PlannedState)
			if ra, rb := pathKeys(pa.RequiresReplace), pathKeys(pb.RequiresReplace); !slices.Equal(ra, rb) {
				d.fail(c, "requires replace", "framework %q, leanrpc %q", ra, rb)
			}
		}
		if modifierFailed {
			stats.modifierErrors++
		}
		if string(pa.PlannedPrivate) != string(pb.PlannedPrivate) {
			d.fail(c, "planned private", "framework %q, leanrpc %q", pa.PlannedPrivate, pb.PlannedPrivate)
		}
		if deferredString(pa.Deferred) != deferredString(pb.Deferred) {
			d.fail(c, "plan deferred", "framework %s, leanrpc %s", deferredString(pa.Deferred), deferredString(pb.Deferred))
		}

		// ApplyResourceChange: the framework's plan when it has one,
		// otherwise a random one.
		planned := proposed
		if !hasError(pa.Diagnostics) && pa.PlannedState != nil {
			if v, err := pa.PlannedState.Unmarshal(typ); err == nil {
				planned = v
			}
		} else {
			stats.planErrors++
		}
		if !prior.IsNull() && planned.Equal(prior) {
			stats.noops++
		}
		switch {
		case prior.IsNull():
			stats.creates++
		case planned.IsNull():
			stats.deletes++
		default:
			stats.updates++
		}
		areq := &tfprotov6.ApplyResourceChangeRequest{TypeName: typeName, Config: dv(config), PriorState: dv(prior), PlannedState: dv(planned)}
		if len(pa.PlannedPrivate) > 0 {
			areq.PlannedPrivate = pa.PlannedPrivate
		}
		if g.chance(0.02) {
			areq.PlannedPrivate = []byte(`{"k":"e30="}`) // private state: the framework's
		}
		n0 = next.applies.Load()
		aa, err1 := fw.ApplyResourceChange(ctx, areq)
		ab, err2 := lean.ApplyResourceChange(ctx, areq)
		if err1 != nil || err2 != nil {
			t.Fatalf("case %d apply: %v %v", c, err1, err2)
		}
		applyForwarded := badNumbers(config) || badNumbers(prior) || badNumbers(planned) || len(areq.PlannedPrivate) > 0
		d.forwarded(c, "apply", next.applies.Load()-n0, applyForwarded)
		if !applyForwarded {
			d.dynamic(c, "new state", aa.NewState, ab.NewState)
			d.diags(c, "apply", aa.Diagnostics, ab.Diagnostics)
		}
		if aa.NewState != nil && !hasError(aa.Diagnostics) && !config.IsNull() {
			if v, err := aa.NewState.Unmarshal(typ); err == nil && !v.IsNull() {
				last.config, last.state = config, v
			}
		}
		if string(aa.Private) != string(ab.Private) {
			d.fail(c, "apply private", "framework %q, leanrpc %q", aa.Private, ab.Private)
		}

		// ReadResource: a state (the new one, or a random one).
		current := g.object(attrs, typ, 0, true)
		if g.chance(0.3) && aa.NewState != nil && !hasError(aa.Diagnostics) {
			if v, err := aa.NewState.Unmarshal(typ); err == nil && !v.IsNull() {
				current = v
			}
		}
		if g.chance(0.02) {
			current = null
		}
		rreq := &tfprotov6.ReadResourceRequest{TypeName: typeName, CurrentState: dv(current),
			ClientCapabilities: &tfprotov6.ReadResourceClientCapabilities{DeferralAllowed: g.chance(0.5)}}
		if g.chance(0.02) {
			rreq.Private = []byte(`{"k":"e30="}`)
		}
		n0 = next.reads.Load()
		ra, err1 := fw.ReadResource(ctx, rreq)
		rb, err2 := lean.ReadResource(ctx, rreq)
		if err1 != nil || err2 != nil {
			t.Fatalf("case %d read: %v %v", c, err1, err2)
		}
		readForwarded := badNumbers(current) || len(rreq.Private) > 0
		d.forwarded(c, "read", next.reads.Load()-n0, readForwarded)
		if !readForwarded {
			d.dynamic(c, "read state", ra.NewState, rb.NewState)
			d.diags(c, "read", ra.Diagnostics, rb.Diagnostics)
		}
		if string(ra.Private) != string(rb.Private) {
			d.fail(c, "read private", "framework %q, leanrpc %q", ra.Private, rb.Private)
		}
		if deferredString(ra.Deferred) != deferredString(rb.Deferred) {
			d.fail(c, "read deferred", "framework %s, leanrpc %s", deferredString(ra.Deferred), deferredString(rb.Deferred))
		}

		// UpgradeResourceState: the state as JSON, sometimes with a removed
		// attribute, a wrong type or broken JSON.
		js := testutil.StateJSON(g.object(attrs, typ, 0, true)).(map[string]any)
		switch r := g.rnd.Float64(); {
		case r < 0.1:
			js["removed_attribute"] = "x"
		case r < 0.15:
			js["size"] = "not a number"
		case r < 0.2:
			js["name"] = map[string]any{"nested": true}
		}
		raw, err := json.Marshal(js)
		if err != nil {
			t.Fatal(err)
		}
		if g.chance(0.03) {
			raw = raw[:len(raw)/2]
		}
		ureq := &tfprotov6.UpgradeResourceStateRequest{TypeName: typeName, RawState: &tfprotov6.RawState{JSON: raw}}
		switch r := g.rnd.Float64(); {
		case r < 0.02:
			ureq.Version = 1 // another schema version: the framework's
		case r < 0.03:
			ureq.RawState = nil
		}
		n0 = next.upgrades.Load()
		ua, err1 := fw.UpgradeResourceState(ctx, ureq)
		ub, err2 := lean.UpgradeResourceState(ctx, ureq)
		if err1 != nil || err2 != nil {
			t.Fatalf("case %d upgrade: %v %v", c, err1, err2)
		}
		d.forwarded(c, "upgrade", next.upgrades.Load()-n0, ureq.Version != 0 || ureq.RawState == nil)
		d.dynamic(c, "upgraded state", ua.UpgradedState, ub.UpgradedState)
		d.diags(c, "upgrade", ua.Diagnostics, ub.Diagnostics)

		if d.failures > before {
			t.Logf("seed %d case %d inputs:\nconfig:   %s\nprior:    %s\nproposed: %s\nwrite-only allowed: %v\nplanned for apply: %s\nread state: %s\nraw state: %s",
				seed, c, show(config), show(prior), show(proposed), caps, show(planned), show(current), raw)
		}
	}
	t.Logf("seed %d: %d cases (%d creates, %d updates, %d deletes, %d destroy plans, %d plans with errors, %d of them in a plan modifier, %d configurations from the prior state, %d replayed, %d plans without changes); "+
		"left to the framework: %d validates, %d plans, %d applies, %d reads, %d upgrades",
		seed, cases, stats.creates, stats.updates, stats.deletes, stats.destroys, stats.planErrors, stats.modifierErrors, stats.unchanged, stats.replays, stats.noops,
		next.validates.Load(), next.plans.Load(), next.applies.Load(), next.reads.Load(), next.upgrades.Load())
}

// TestDifferentialSkipped: resources leanrpc cannot serve exactly are
// reported, and their calls go to the framework.
func TestDifferentialSkipped(t *testing.T) {
	ctx := context.Background()
	fw, lean, next := diffServers(t, true)
	_, skipped := lean.Served()
	for name, want := range map[string]string{"test_blocky": "blocks", "test_custom": "not supported"} {
		err := skipped[name]
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("skipped[%s] = %v, want an error mentioning %q", name, err, want)
		}
	}

	var sr resource.SchemaResponse
	(&diffBlocky{}).Schema(ctx, resource.SchemaRequest{}, &sr)
	typ := sr.Schema.Type().TerraformType(ctx).(tftypes.Object)
	ruleType := typ.AttributeTypes["rule"]
	config := tftypes.NewValue(typ, map[string]tftypes.Value{
		"id":   tftypes.NewValue(tftypes.String, nil),
		"name": tftypes.NewValue(tftypes.String, "n"),
		"rule": tftypes.NewValue(ruleType, []tftypes.Value{}),
	})
	cfg, err := tfprotov6.NewDynamicValue(typ, config)
	if err != nil {
		t.Fatal(err)
	}
	prior, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, nil))
	if err != nil {
		t.Fatal(err)
	}
	d := &differ{t: t, typ: typ}
	va, _ := fw.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: "test_blocky", Config: &cfg})
	vb, _ := lean.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: "test_blocky", Config: &cfg})
	d.diags(0, "validate", va.Diagnostics, vb.Diagnostics)
	preq := &tfprotov6.PlanResourceChangeRequest{TypeName: "test_blocky", Config: &cfg, PriorState: &prior, ProposedNewState: &cfg}
	pa, _ := fw.PlanResourceChange(ctx, preq)
	pb, _ := lean.PlanResourceChange(ctx, preq)
	d.dynamic(0, "planned state", pa.PlannedState, pb.PlannedState)
	d.diags(0, "plan", pa.Diagnostics, pb.Diagnostics)
	areq := &tfprotov6.ApplyResourceChangeRequest{TypeName: "test_blocky", Config: &cfg, PriorState: &prior, PlannedState: pa.PlannedState}
	aa, _ := fw.ApplyResourceChange(ctx, areq)
	ab, _ := lean.ApplyResourceChange(ctx, areq)
	d.dynamic(0, "new state", aa.NewState, ab.NewState)
	d.diags(0, "apply", aa.Diagnostics, ab.Diagnostics)
	rreq := &tfprotov6.ReadResourceRequest{TypeName: "test_blocky", CurrentState: ab.NewState}
	ra, _ := fw.ReadResource(ctx, rreq)
	rb, _ := lean.ReadResource(ctx, rreq)
	d.dynamic(0, "read state", ra.NewState, rb.NewState)
	ureq := &tfprotov6.UpgradeResourceStateRequest{TypeName: "test_blocky", RawState: &tfprotov6.RawState{JSON: []byte(`{"id":"i","name":"n","rule":[]}`)}}
	ua, _ := fw.UpgradeResourceState(ctx, ureq)
	ub, _ := lean.UpgradeResourceState(ctx, ureq)
	d.dynamic(0, "upgraded state", ua.UpgradedState, ub.UpgradedState)
	if next.validates.Load() != 1 || next.plans.Load() != 1 || next.applies.Load() != 1 || next.reads.Load() != 1 || next.upgrades.Load() != 1 {
		t.Errorf("calls reaching the framework: validate %d plan %d apply %d read %d upgrade %d, want 1 each",
			next.validates.Load(), next.plans.Load(), next.applies.Load(), next.reads.Load(), next.upgrades.Load())
	}
	if hasError(pa.Diagnostics) || hasError(aa.Diagnostics) {
		t.Errorf("blocky resource: plan %v apply %v", pa.Diagnostics, aa.Diagnostics)
	}

	// The custom type resource: a validate call reaches the framework too.
	var cr resource.SchemaResponse
	(&diffBlocky{custom: true}).Schema(ctx, resource.SchemaRequest{}, &cr)
	ctyp := cr.Schema.Type().TerraformType(ctx).(tftypes.Object)
	ccfg, err := tfprotov6.NewDynamicValue(ctyp, tftypes.NewValue(ctyp, map[string]tftypes.Value{
		"id": tftypes.NewValue(tftypes.String, nil), "doc": tftypes.NewValue(tftypes.String, "{not json"),
	}))
	if err != nil {
		t.Fatal(err)
	}
	cva, _ := fw.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: "test_custom", Config: &ccfg})
	cvb, _ := lean.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: "test_custom", Config: &ccfg})
	d.diags(0, "custom validate", cva.Diagnostics, cvb.Diagnostics)
	if !hasError(cvb.Diagnostics) || next.validates.Load() != 2 {
		t.Errorf("custom type: diagnostics %v, framework validates %d (want an invalid JSON error, 2)", cvb.Diagnostics, next.validates.Load())
	}
}
