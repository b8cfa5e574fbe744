package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/integration-service/terraform-provider-service/internal/leanrpc"
)

// leanResources are the resource types served by leanrpc instead of the
// framework's RPC layer: the same resource code, without the framework's
// per-call schema walks (see internal/leanrpc and docs/guides/performance.md).
// A resource qualifies when it keeps nothing in private state: leanrpc cannot
// make the framework's private state holder, so a resource that writes to it
// fails with "Uninitialized ProviderData" (service_mcp_server and
// service_connected_account do). leanrpc itself refuses schemas it cannot
// serve exactly (TestLeanResourcesServed): the connected account's timeouts
// and the trigger instance's JSON type keep those on the framework.
var leanResources = []func() resource.Resource{
	NewAuthConfigResource,
	NewCustomToolkitResource,
	NewWebhookSubscriptionResource,
}

// NewServer returns the provider's protocol 6 server constructor: main.go
// serves it and the acceptance tests run it in-process.
func NewServer(version string) func() (tfprotov6.ProviderServer, error) {
	return func() (tfprotov6.ProviderServer, error) {
		p := &ServiceProvider{version: version}
		next := providerserver.NewProtocol6(p)()
		lean := leanrpc.Wrap(next, providerTypeName, func() any {
			if d := p.data.Load(); d != nil {
				return d
			}
			return nil
		}, leanResources...)
		return wholeNumbers{lean}, nil
	}
}
