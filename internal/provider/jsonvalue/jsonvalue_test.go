package jsonvalue

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/integration-service/terraform-provider-service/internal/testutil"
)

func TestFromValue(t *testing.T) {
	t.Parallel()
	v, err := FromValue(map[string]any{"repo": "r", "owner": "<o&>"})
	if err != nil || v.ValueString() != `{"owner":"<o&>","repo":"r"}` {
		t.Fatalf("got %q, %v", v.ValueString(), err)
	}
	for _, in := range []any{nil, map[string]any{}} {
		if v, _ := FromValue(in); v.ValueString() != "{}" {
			t.Errorf("%v: got %q", in, v.ValueString())
		}
	}
}

func TestKeepConfigured(t *testing.T) {
	t.Parallel()
	prior := jsontypes.NewNormalizedValue("{\n  \"repo\": \"r\",  \"owner\": \"o\"\n}")
	same := jsontypes.NewNormalizedValue(`{"owner":"o","repo":"r"}`)
	other := jsontypes.NewNormalizedValue(`{"owner":"x","repo":"r"}`)
	if got := KeepConfigured(prior, same); got != prior {
		t.Errorf("equal documents must keep the configured text, got %q", got.ValueString())
	}
	if got := KeepConfigured(prior, other); got != other {
		t.Errorf("changed documents must take the service value, got %q", got.ValueString())
	}
	if got := KeepConfigured(jsontypes.NewNormalizedNull(), same); got != same {
		t.Errorf("null prior: got %q", got.ValueString())
	}
	if got := KeepConfigured(jsontypes.NewNormalizedValue(""), jsontypes.NewNormalizedValue("{}")); got.ValueString() != "" {
		t.Errorf(`"" and {} are the same empty config, got %q`, got.ValueString())
	}
}

func TestObjectFromNormalized(t *testing.T) {
	t.Parallel()
	attr := path.Root("trigger_config")
	m, d := ObjectFromNormalized(jsontypes.NewNormalizedValue(`{"a":1}`), attr)
	if d.HasError() || m["a"] != float64(1) {
		t.Fatalf("got %v %v", m, d)
	}
	if _, d := ObjectFromNormalized(jsontypes.NewNormalizedValue(`"s"`), attr); !testutil.DiagsContain(d, "trigger_config") {
		t.Fatalf("want an error naming the attribute: %v", d)
	}
	if m, d := ObjectFromNormalized(jsontypes.NewNormalizedNull(), attr); d.HasError() || len(m) != 0 {
		t.Fatalf("null: %v %v", m, d)
	}
}
