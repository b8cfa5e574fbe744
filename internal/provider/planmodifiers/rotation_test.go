package planmodifiers

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestRotates(t *testing.T) {
	s := types.StringValue
	cases := []struct {
		prior, planned types.String
		want           bool
	}{
		{types.StringNull(), types.StringNull(), false},
		{types.StringNull(), s("a"), false}, // the first value: the baseline
		{types.StringNull(), types.StringUnknown(), false},
		{s("a"), s("a"), false},
		{s("a"), s("b"), true},
		{s("a"), types.StringNull(), false},
		{s("a"), types.StringUnknown(), true},
	}
	for _, c := range cases {
		if got := Rotates(c.prior, c.planned); got != c.want {
			t.Errorf("Rotates(%v, %v) = %v, want %v", c.prior, c.planned, got, c.want)
		}
	}
}
