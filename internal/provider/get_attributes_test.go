package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

func TestGetAttributes(t *testing.T) {
	ctx := context.Background()
	var sr resource.SchemaResponse
	NewAuthConfigResource().Schema(ctx, resource.SchemaRequest{}, &sr)
	typ := sr.Schema.Type().TerraformType(ctx).(tftypes.Object)
	vals := map[string]tftypes.Value{}
	for name, at := range typ.AttributeTypes {
		vals[name] = tftypes.NewValue(at, nil)
	}
	vals["toolkit"] = tftypes.NewValue(tftypes.String, "github")
	vals["enabled"] = tftypes.NewValue(tftypes.Bool, false)
	vals["name"] = tftypes.NewValue(tftypes.String, "not read")
	plan := tfsdk.Plan{Schema: sr.Schema, Raw: tftypes.NewValue(typ, vals)}

	var m authConfigResourceModel
	if d := getAttributes(ctx, plan, &m, "toolkit", "enabled"); d.HasError() {
		t.Fatal(d)
	}
	if m.Toolkit.ValueString() != "github" || m.Enabled.IsNull() || m.Enabled.ValueBool() {
		t.Errorf("got toolkit %s, enabled %s", m.Toolkit, m.Enabled)
	}
	if !m.Name.IsNull() {
		t.Errorf("name was not asked for but is %s", m.Name)
	}
	if d := getAttributes(ctx, plan, &m, "no_such_attribute"); !d.HasError() {
		t.Error("want an error for an attribute the model does not have")
	}
}
