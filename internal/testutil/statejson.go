package testutil

import (
	"encoding/json"
	"math/big"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// StateJSON is v as Terraform writes attribute values to the state: null
// (and unknown) as nil, numbers as json.Number, lists and sets as slices,
// objects and maps as maps.
func StateJSON(v tftypes.Value) any {
	if v.IsNull() || !v.IsKnown() {
		return nil
	}
	switch {
	case v.Type().Is(tftypes.String):
		var s string
		_ = v.As(&s)
		return s
	case v.Type().Is(tftypes.Bool):
		var b bool
		_ = v.As(&b)
		return b
	case v.Type().Is(tftypes.Number):
		var f big.Float
		_ = v.As(&f)
		return json.Number(f.Text('g', -1))
	case v.Type().Is(tftypes.Object{}), v.Type().Is(tftypes.Map{}):
		var m map[string]tftypes.Value
		_ = v.As(&m)
		out := make(map[string]any, len(m))
		for k, x := range m {
			out[k] = StateJSON(x)
		}
		return out
	default:
		var l []tftypes.Value
		_ = v.As(&l)
		out := make([]any, 0, len(l))
		for _, x := range l {
			out = append(out, StateJSON(x))
		}
		return out
	}
}

// Dig is the value at keys in v, a decoded JSON value (objects as
// map[string]any): nil when a key is missing or a value on the way is not
// an object.
func Dig(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}
