package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// servedServer is every interface the framework's protocol 6 server
// implements: the base ProviderServer and each optional one (list
// resources, actions, state stores). What wraps the framework's server
// embeds it whole, so that no RPC a newer Terraform sends answers "not
// implemented" because a wrapper hid it. TestServedInterfaces fails when the
// framework's server gains an interface this one lacks. (terraform-plugin-go
// marks the optional interfaces deprecated only because their methods will
// move into ProviderServer; until then they are what serves those RPCs.)
type servedServer interface {
	tfprotov6.ProviderServer
	tfprotov6.ProviderServerWithListResource //nolint:staticcheck // see above
	tfprotov6.ProviderServerWithActions      //nolint:staticcheck // see above
	tfprotov6.ProviderServerWithStateStores  //nolint:staticcheck // see above
}

// Compile-time: the wrapper forwards every interface of servedServer.
var (
	_ tfprotov6.ProviderServer                 = wholeNumbers{}
	_ tfprotov6.ProviderServerWithListResource = wholeNumbers{} //nolint:staticcheck // see servedServer
	_ tfprotov6.ProviderServerWithActions      = wholeNumbers{} //nolint:staticcheck // see servedServer
	_ tfprotov6.ProviderServerWithStateStores  = wholeNumbers{} //nolint:staticcheck // see servedServer
)

// NewServer returns the provider's protocol 6 server constructor: main.go
// serves it and the acceptance tests run it in-process. Every RPC is served
// by terraform-plugin-framework; the two wrappers only rewrite diagnostics:
// wholeNumbers one of their texts, listConfigPaths the attribute paths of
// the list resources'.
func NewServer(version string) func() (tfprotov6.ProviderServer, error) {
	return func() (tfprotov6.ProviderServer, error) {
		next := providerserver.NewProtocol6(&ServiceProvider{version: version})()
		full, ok := next.(servedServer)
		if !ok {
			return nil, fmt.Errorf("the framework's server %T lacks an interface the provider serves", next)
		}
		return wholeNumbers{listConfigPaths{full}}, nil
	}
}
