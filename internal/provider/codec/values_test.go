package codec

import (
	"context"
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestValues(t *testing.T) {
	ctx := context.Background()
	if Known(types.StringNull()) || Known(types.BoolUnknown()) || !Known(types.StringValue("")) {
		t.Error("Known")
	}
	if !StringOrNull("").IsNull() || StringOrNull("x").ValueString() != "x" {
		t.Error("StringOrNull")
	}
	if got := NonNil[string](nil); got == nil || len(got) != 0 {
		t.Errorf("NonNil(nil) = %#v", got)
	}
	if got, d := ListStrings(ctx, types.ListValueMust(types.StringType, []attr.Value{})); d.HasError() || got == nil || len(got) != 0 {
		t.Errorf("ListStrings(empty) = %#v, %v", got, d)
	}
	if got, _ := ListStrings(ctx, types.ListNull(types.StringType)); got != nil {
		t.Errorf("ListStrings(null) = %#v", got)
	}
	m := types.MapValueMust(types.StringType, map[string]attr.Value{"k": types.StringValue("v")})
	if got, d := MapAny(ctx, m); d.HasError() || !reflect.DeepEqual(got, map[string]any{"k": "v"}) {
		t.Errorf("MapAny = %#v, %v", got, d)
	}
	if got, _ := MapAny(ctx, types.MapUnknown(types.StringType)); got != nil {
		t.Errorf("MapAny(unknown) = %#v", got)
	}
	set := types.SetValueMust(types.StringType, []attr.Value{types.StringValue("a"), types.StringNull()})
	if got, ok := KnownStrings(set); !ok || !reflect.DeepEqual(got, []string{"a"}) {
		t.Errorf("KnownStrings = %v, %v", got, ok)
	}
	if _, ok := KnownStrings(types.ListValueMust(types.StringType, []attr.Value{types.StringUnknown()})); ok {
		t.Error("KnownStrings of an unknown element: want not known")
	}
}
