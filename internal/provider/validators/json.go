package validators

import (
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/integration-service/terraform-provider-service/internal/provider/jsonvalue"
)

// JSONObject requires a string attribute (typically
// jsontypes.Normalized) to hold a JSON object, at validate time.
func JSONObject() validator.String {
	return StringCheck{
		Desc:    "value must be a JSON object, e.g. jsonencode({ key = \"value\" })",
		Summary: "Invalid JSON object",
		Check: func(v string) error {
			_, err := jsonvalue.DecodeObject(v)
			return err
		},
	}
}
