package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/integration-service/terraform-provider-service/internal/provider/identity"
)

// idKind is one kind of service object id: a nanoid with a prefix (ac_...,
// ca_..., ti_...); some kinds are also addressable by their legacy UUID.
type idKind struct {
	prefix       string // "ac"
	noun         string // "an auth config"
	resourceType string // resource that imports it
	lister       string // data source that lists them
	acceptsUUID  bool   // the API also takes the object's UUID in its path
}

var (
	authConfigIDKind       = idKind{prefix: "ac", noun: "an auth config", resourceType: authConfigResourceType, lister: "service_auth_configs"}
	connectedAccountIDKind = idKind{prefix: "ca", noun: "a connected account", resourceType: connectedAccountType, lister: "service_connected_accounts"}
	triggerInstanceIDKind  = idKind{prefix: "ti", noun: "a trigger instance", resourceType: triggerInstanceType, lister: "service_trigger_instances", acceptsUUID: true}

	importIDKinds = []idKind{authConfigIDKind, connectedAccountIDKind, triggerInstanceIDKind}
)

// importIDProblem explains why id cannot be an id of kind want, or returns ""
// when it can: want's prefix, "_", then letters, digits, "_" or "-" (or a
// UUID where the API accepts one). The id of another kind of object is named
// as such, so a mixed-up import says what went wrong instead of the generic
// "no object exists".
func importIDProblem(want idKind, id string) string {
	expected := fmt.Sprintf("Expected %s id such as %s_AbC123 (the %s data source lists them)", want.noun, want.prefix, want.lister)
	prefix, rest, hasPrefix := strings.Cut(id, "_")
	wellFormed := hasPrefix && rest != "" && serviceObjectIDRe.MatchString(id)
	switch {
	case wellFormed && prefix == want.prefix:
		return ""
	case want.acceptsUUID && uuidRe.MatchString(id):
		return ""
	case wellFormed:
		for _, k := range importIDKinds {
			if k.prefix == prefix {
				return fmt.Sprintf("%s, got %q, which is %s id: import it with %s.", expected, id, k.noun, k.resourceType)
			}
		}
	}
	return fmt.Sprintf("%s, got %q.", expected, id)
}

// importStateByID imports by the object's id (given as the import's id or
// its identity) after checking that it is an id
// of kind want (surrounding spaces are ignored). A malformed id or one of
// another kind fails here, without calling the API.
func importStateByID(ctx context.Context, want idKind, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	id := identity.ImportID(ctx, req, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if msg := importIDProblem(want, id); msg != "" {
		resp.Diagnostics.AddError("Invalid import id", msg)
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id)...)
	identity.Set(ctx, resp.Identity, id, &resp.Diagnostics)
}
