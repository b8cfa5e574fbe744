// Package importid is what a service object id looks like, by kind, and the
// import by id that checks it before any API call.
package importid

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/integration-service/terraform-provider-service/internal/provider/identity"
)

// ObjectIDRe matches service object ids such as ca_AbC123 (nanoid
// style) or UUIDs.
var ObjectIDRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]*$`)

// UUIDRe matches a UUID, which the service also accepts as a trigger
// instance id.
var UUIDRe = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// Kind is one kind of service object id: a nanoid with a prefix (ac_...,
// ca_..., ti_...); some kinds are also addressable by their legacy UUID.
type Kind struct {
	prefix       string // "ac"
	noun         string // "an auth config"
	resourceType string // resource that imports it
	lister       string // data source that lists them
	acceptsUUID  bool   // the API also takes the object's UUID in its path
}

// The kinds of id an import checks. Their resource types are the
// provider's (authConfigResourceType, connectedAccountType,
// triggerInstanceType in internal/provider).
var (
	AuthConfig       = Kind{prefix: "ac", noun: "an auth config", resourceType: "service_auth_config", lister: "service_auth_configs"}
	ConnectedAccount = Kind{prefix: "ca", noun: "a connected account", resourceType: "service_connected_account", lister: "service_connected_accounts"}
	TriggerInstance  = Kind{prefix: "ti", noun: "a trigger instance", resourceType: "service_trigger_instance", lister: "service_trigger_instances", acceptsUUID: true}

	kinds = []Kind{AuthConfig, ConnectedAccount, TriggerInstance}
)

// Problem explains why id cannot be an id of kind want, or returns ""
// when it can: want's prefix, "_", then letters, digits, "_" or "-" (or a
// UUID where the API accepts one). The id of another kind of object is named
// as such, so a mixed-up import says what went wrong instead of the generic
// "no object exists".
func Problem(want Kind, id string) string {
	expected := fmt.Sprintf("Expected %s id such as %s_AbC123 (the %s data source lists them)", want.noun, want.prefix, want.lister)
	prefix, rest, hasPrefix := strings.Cut(id, "_")
	wellFormed := hasPrefix && rest != "" && ObjectIDRe.MatchString(id)
	switch {
	case wellFormed && prefix == want.prefix:
		return ""
	case want.acceptsUUID && UUIDRe.MatchString(id):
		return ""
	case wellFormed:
		for _, k := range kinds {
			if k.prefix == prefix {
				return fmt.Sprintf("%s, got %q, which is %s id: import it with %s.", expected, id, k.noun, k.resourceType)
			}
		}
	}
	return fmt.Sprintf("%s, got %q.", expected, id)
}

// ImportState imports by the object's id (given as the import's id or its
// identity) after checking that it is an id of kind want (surrounding spaces
// are ignored). A malformed id or one of
// another kind fails here, without calling the API.
func ImportState(ctx context.Context, want Kind, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	id := identity.ImportID(ctx, req, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if msg := Problem(want, id); msg != "" {
		resp.Diagnostics.AddError("Invalid import id", msg)
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id)...)
	identity.Set(ctx, resp.Identity, id, &resp.Diagnostics)
}
