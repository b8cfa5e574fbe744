package testutil

import (
	"math/big"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// SampleValue returns a value of typ: every attribute known and set (mode
// "full"), null ("null"), unknown ("unknown"), or, for "mixed", the
// attributes known, null and unknown in turn; the elements of lists, sets
// and maps are known; strings are str, numbers 7, bools true.
func SampleValue(typ tftypes.Type, mode, str string) tftypes.Value {
	return sampleValue(typ, mode, str, 0)
}

func sampleValue(typ tftypes.Type, mode, str string, depth int) tftypes.Value {
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
			vals[k] = sampleValue(at, mode, str, i+depth*3)
		}
		return tftypes.NewValue(t, vals)
	case tftypes.List:
		return tftypes.NewValue(t, []tftypes.Value{sampleValue(t.ElementType, "full", str, 0)})
	case tftypes.Set:
		return tftypes.NewValue(t, []tftypes.Value{sampleValue(t.ElementType, "full", str, 0)})
	case tftypes.Map:
		return tftypes.NewValue(t, map[string]tftypes.Value{"k": sampleValue(t.ElementType, "full", str, 0)})
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

// SameDiags reports an error unless got has as many diagnostics as want
// (the framework's), erring alike, with the same summaries; name says what
// was compared.
func SameDiags(t testing.TB, name string, want, got diag.Diagnostics) {
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

// DiagsContain reports whether a summary or detail of diags contains substr.
func DiagsContain(diags diag.Diagnostics, substr string) bool {
	for _, d := range diags {
		if strings.Contains(d.Summary(), substr) || strings.Contains(d.Detail(), substr) {
			return true
		}
	}
	return false
}

// ObjectValue returns a value of typ with the attributes of vals set and
// every other attribute null.
func ObjectValue(typ tftypes.Object, vals map[string]tftypes.Value) tftypes.Value {
	all := map[string]tftypes.Value{}
	for name, at := range typ.AttributeTypes {
		if v, ok := vals[name]; ok {
			all[name] = v
		} else {
			all[name] = tftypes.NewValue(at, nil)
		}
	}
	return tftypes.NewValue(typ, all)
}
