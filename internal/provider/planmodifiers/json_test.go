package planmodifiers

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestNormalizedJSONUseState(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, state, plan, want string
	}{
		{"reordered keeps state", `{"a":1,"b":[1,2]}`, "{ \"b\": [1, 2],\n \"a\": 1 }", `{"a":1,"b":[1,2]}`},
		{"changed keeps plan", `{"a":1}`, `{"a":2}`, `{"a":2}`},
		{"array order matters", `{"a":[1,2]}`, `{"a":[2,1]}`, `{"a":[2,1]}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := planmodifier.StringRequest{StateValue: types.StringValue(tc.state), PlanValue: types.StringValue(tc.plan)}
			resp := &planmodifier.StringResponse{PlanValue: req.PlanValue}
			NormalizedJSONUseState{}.PlanModifyString(context.Background(), req, resp)
			if got := resp.PlanValue.ValueString(); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}
