package provider

import (
	"context"
	"math/big"
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/integration-service/terraform-provider-service/internal/provider/codec"
)

// codecModels are the model structs of the resources, by type name.
var codecModels = map[string]func() any{
	authConfigResourceType:  func() any { return &authConfigResourceModel{} },
	connectedAccountType:    func() any { return &connectedAccountModel{} },
	customToolkitType:       func() any { return &customToolkitModel{} },
	mcpServerType:           func() any { return &mcpServerModel{} },
	triggerInstanceType:     func() any { return &triggerInstanceModel{} },
	webhookSubscriptionType: func() any { return &webhookSubscriptionModel{} },
	webhookEndpointType:     func() any { return &webhookEndpointModel{} },
	projectType:             func() any { return &projectModel{} },
}

// codecSample returns a value of typ: every attribute known and set
// (mode "full"), null ("null"), unknown ("unknown"), or alternating
// ("mixed"); strings are str.
func codecSample(typ tftypes.Type, mode, str string, depth int) tftypes.Value {
	if depth > 0 {
		switch mode {
		case "null":
			return tftypes.NewValue(typ, nil)
		case "unknown":
			return tftypes.NewValue(typ, tftypes.UnknownValue)
		case "mixed":
			switch depth % 3 {
			case 1:
				return tftypes.NewValue(typ, nil)
			case 2:
				return tftypes.NewValue(typ, tftypes.UnknownValue)
			}
		}
	}
	switch t := typ.(type) {
	case tftypes.Object:
		vals := map[string]tftypes.Value{}
		i := 0
		for k, at := range t.AttributeTypes {
			i++
			d := depth + 1
			if mode == "mixed" {
				d = i + depth*3
			}
			vals[k] = codecSample(at, mode, str, d)
		}
		return tftypes.NewValue(t, vals)
	case tftypes.List:
		return tftypes.NewValue(t, []tftypes.Value{codecSample(t.ElementType, "full", str, 0)})
	case tftypes.Set:
		return tftypes.NewValue(t, []tftypes.Value{codecSample(t.ElementType, "full", str, 0)})
	case tftypes.Map:
		return tftypes.NewValue(t, map[string]tftypes.Value{"k": codecSample(t.ElementType, "full", str, 0)})
	}
	switch {
	case typ.Is(tftypes.String):
		return tftypes.NewValue(typ, str)
	case typ.Is(tftypes.Number):
		return tftypes.NewValue(typ, big.NewFloat(7))
	case typ.Is(tftypes.Bool):
		return tftypes.NewValue(typ, true)
	}
	return tftypes.NewValue(typ, nil)
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
				raw := codecSample(typ, mode, str, 0)
				name := md.TypeName + "/" + mode + "/" + str
				want, got := newModel(), newModel()
				wantDiags := tfsdk.Plan{Schema: sr.Schema, Raw: raw}.Get(ctx, want)
				gotDiags := codec.Get(ctx, tfsdk.Plan{Schema: sr.Schema, Raw: raw}, got)
				codecSameDiags(t, name+" get", wantDiags, gotDiags)
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
				codecSameDiags(t, name+" set", wantDiags, gotDiags)
				if !ws.Raw.Equal(gs.Raw) {
					t.Errorf("%s: setModel wrote\n%s\nthe framework\n%s", name, gs.Raw, ws.Raw)
				}
				gp := tfsdk.Plan{Schema: sr.Schema, Raw: tftypes.NewValue(typ, nil)}
				codecSameDiags(t, name+" set plan", wantDiags, codec.Set(ctx, &gp, want))
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
	raw := codecSample(sr.Schema.Type().TerraformType(ctx), "full", `{}`, 0)
	var short struct {
		ID types.String `tfsdk:"id"`
	}
	want := tfsdk.State{Schema: sr.Schema, Raw: raw}.Get(ctx, &short)
	got := codec.Get(ctx, tfsdk.State{Schema: sr.Schema, Raw: raw}, &short)
	if !want.HasError() {
		t.Fatal("the framework accepted a model without most attributes")
	}
	codecSameDiags(t, "get", want, got)
	st := tfsdk.State{Schema: sr.Schema, Raw: raw}
	codecSameDiags(t, "set", st.Set(ctx, &short), codec.Set(ctx, &st, &short))
}

func codecSameDiags(t *testing.T, name string, want, got diag.Diagnostics) {
	t.Helper()
	if want.HasError() != got.HasError() || len(want) != len(got) {
		t.Errorf("%s: diagnostics %v, the framework's %v", name, got, want)
		return
	}
	for i := range want {
		if want[i].Summary() != got[i].Summary() {
			t.Errorf("%s: diagnostic %q, the framework's %q", name, got[i].Summary(), want[i].Summary())
		}
	}
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
		raw := codecSample(sr.Schema.Type().TerraformType(ctx), "full", `{"a":1}`, 0)
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
