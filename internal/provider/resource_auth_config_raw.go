package provider

import (
	"context"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/integration-service/terraform-provider-service/internal/provider/codec"
)

// acAttrTypes are the framework types of the top-level attributes, for
// codec.With (ModifyPlan and Create write several attributes at once).
var acAttrTypes = sync.OnceValue(func() codec.Types {
	var resp resource.SchemaResponse
	(&authConfigResource{}).Schema(context.Background(), resource.SchemaRequest{}, &resp)
	return codec.TypesOf(authConfigResourceType, resp.Schema)
})
