package validators

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestJSONObjectValidator(t *testing.T) {
	t.Parallel()
	for in, ok := range map[string]bool{`{}`: true, `{"a":1}`: true, ``: true, `[1]`: false, `"x"`: false, `{"a":1} {}`: false} {
		resp := &validator.StringResponse{}
		JSONObject().ValidateString(context.Background(),
			validator.StringRequest{Path: path.Root("trigger_config"), ConfigValue: types.StringValue(in)}, resp)
		if resp.Diagnostics.HasError() == ok {
			t.Errorf("%q: errors %v", in, resp.Diagnostics)
		}
	}
}
