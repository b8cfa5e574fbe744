package provider

import (
	"context"
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/integration-service/terraform-provider-service/internal/provider/codec"
	"github.com/integration-service/terraform-provider-service/internal/testutil"
)

// codecModels are the model structs of the resources, by type name.
var codecModels = map[string]func() any{
	authConfigResourceType:  func() any { return &authConfigResourceModel{} },
	connectedAccountType:    func() any { return &connectedAccountModel{} },
	customToolkitType:       func() any { return &customToolkitModel{} },
	mcpServerType:           func() any { return &mcpServerModel{} },
	toolRouterSessionType:   func() any { return &toolRouterSessionModel{} },
	triggerInstanceType:     func() any { return &triggerInstanceModel{} },
	webhookSubscriptionType: func() any { return &webhookSubscriptionModel{} },
	webhookEndpointType:     func() any { return &webhookEndpointModel{} },
	projectType:             func() any { return &projectModel{} },
}

// codec.Get and codec.Set give what the framework's Get and Set give, value
// and diagnostics, for every resource model, with values set, null,
// unknown, mixed, and with a string that is not JSON (which
// jsontypes.Normalized rejects).
func TestModelCodecMatchesFramework(t *testing.T) {
	ctx := context.Background()
	seen := 0
	for _, newRes := range New("test")().Resources(ctx) {
		r := newRes()
		var md resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "service"}, &md)
		newModel, ok := codecModels[md.TypeName]
		if !ok {
			t.Errorf("%s: no model in codecModels", md.TypeName)
			continue
		}
		seen++
		var sr resource.SchemaResponse
		r.Schema(ctx, resource.SchemaRequest{}, &sr)
		typ := sr.Schema.Type().TerraformType(ctx)
		for _, mode := range []string{"full", "null", "unknown", "mixed"} {
			for _, str := range []string{`{"a":1}`, "not json"} {
				raw := testutil.SampleValue(typ, mode, str)
				name := md.TypeName + "/" + mode + "/" + str
				want, got := newModel(), newModel()
				wantDiags := tfsdk.Plan{Schema: sr.Schema, Raw: raw}.Get(ctx, want)
				gotDiags := codec.Get(ctx, tfsdk.Plan{Schema: sr.Schema, Raw: raw}, got)
				testutil.SameDiags(t, name+" get", wantDiags, gotDiags)
				if !wantDiags.HasError() && !reflect.DeepEqual(want, got) {
					t.Errorf("%s: getModel decoded\n%+v\nthe framework\n%+v", name, got, want)
				}
				if wantDiags.HasError() {
					continue
				}
				ws := tfsdk.State{Schema: sr.Schema, Raw: tftypes.NewValue(typ, nil)}
				gs := ws
				wantDiags = ws.Set(ctx, want)
				gotDiags = codec.Set(ctx, &gs, want)
				testutil.SameDiags(t, name+" set", wantDiags, gotDiags)
				if !ws.Raw.Equal(gs.Raw) {
					t.Errorf("%s: setModel wrote\n%s\nthe framework\n%s", name, gs.Raw, ws.Raw)
				}
				gp := tfsdk.Plan{Schema: sr.Schema, Raw: tftypes.NewValue(typ, nil)}
				testutil.SameDiags(t, name+" set plan", wantDiags, codec.Set(ctx, &gp, want))
				if !ws.Raw.Equal(gp.Raw) {
					t.Errorf("%s: setModel wrote the plan\n%s\nthe framework\n%s", name, gp.Raw, ws.Raw)
				}
			}
		}
	}
	if seen != len(codecModels) {
		t.Errorf("checked %d resources, codecModels has %d", seen, len(codecModels))
	}
}

// A model that does not match the schema gets the framework's own error.
func TestModelCodecMismatchFallsBack(t *testing.T) {
	ctx := context.Background()
	var sr resource.SchemaResponse
	NewTriggerInstanceResource().Schema(ctx, resource.SchemaRequest{}, &sr)
	raw := testutil.SampleValue(sr.Schema.Type().TerraformType(ctx), "full", `{}`)
	var short struct {
		ID types.String `tfsdk:"id"`
	}
	want := tfsdk.State{Schema: sr.Schema, Raw: raw}.Get(ctx, &short)
	got := codec.Get(ctx, tfsdk.State{Schema: sr.Schema, Raw: raw}, &short)
	if !want.HasError() {
		t.Fatal("the framework accepted a model without most attributes")
	}
	testutil.SameDiags(t, "get", want, got)
	st := tfsdk.State{Schema: sr.Schema, Raw: raw}
	testutil.SameDiags(t, "set", st.Set(ctx, &short), codec.Set(ctx, &st, &short))
}

// The models of these resources take the fast path (no framework fallback).
func TestModelCodecPlainModels(t *testing.T) {
	for _, m := range []any{connectedAccountModel{}, mcpServerModel{}, triggerInstanceModel{}, webhookSubscriptionModel{}} {
		if !codec.Plain(reflect.TypeOf(m)) {
			t.Errorf("%T: not handled by getModel/setModel", m)
		}
	}
}

// BenchmarkModelCodec compares a Get and a Set of each resource's state
// (what a Read does besides its request) through the framework and through
// codec.Get/codec.Set.
func BenchmarkModelCodec(b *testing.B) {
	ctx := context.Background()
	for _, newRes := range New("bench")().Resources(ctx) {
		r := newRes()
		var md resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "service"}, &md)
		newModel := codecModels[md.TypeName]
		var sr resource.SchemaResponse
		r.Schema(ctx, resource.SchemaRequest{}, &sr)
		raw := testutil.SampleValue(sr.Schema.Type().TerraformType(ctx), "full", `{"a":1}`)
		b.Run(md.TypeName+"/framework", func(b *testing.B) {
			for b.Loop() {
				m := newModel()
				st := tfsdk.State{Schema: sr.Schema, Raw: raw}
				if st.Get(ctx, m).HasError() || st.Set(ctx, m).HasError() {
					b.Fatal("conversion failed")
				}
			}
		})
		b.Run(md.TypeName+"/codec", func(b *testing.B) {
			for b.Loop() {
				m := newModel()
				st := tfsdk.State{Schema: sr.Schema, Raw: raw}
				if codec.Get(ctx, st, m).HasError() || codec.Set(ctx, &st, m).HasError() {
					b.Fatal("conversion failed")
				}
			}
		})
	}
}
