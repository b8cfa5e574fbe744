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
// framework's server gains an interface this one lacks.
type servedServer interface {
	tfprotov6.ProviderServer
	tfprotov6.ProviderServerWithListResource
	tfprotov6.ProviderServerWithActions
	tfprotov6.ProviderServerWithStateStores
}

// Compile-time: the wrapper forwards every interface of servedServer.
var (
	_ tfprotov6.ProviderServer                 = wholeNumbers{}
	_ tfprotov6.ProviderServerWithListResource = wholeNumbers{}
	_ tfprotov6.ProviderServerWithActions      = wholeNumbers{}
	_ tfprotov6.ProviderServerWithStateStores  = wholeNumbers{}
)

// NewServer returns the provider's protocol 6 server constructor: main.go
// serves it and the acceptance tests run it in-process. Every RPC is served
// by terraform-plugin-framework; wholeNumbers only rewrites one of its
// diagnostics.
func NewServer(version string) func() (tfprotov6.ProviderServer, error) {
	return func() (tfprotov6.ProviderServer, error) {
		next := providerserver.NewProtocol6(&ServiceProvider{version: version})()
		full, ok := next.(servedServer)
		if !ok {
			return nil, fmt.Errorf("the framework's server %T lacks an interface the provider serves", next)
		}
		return wholeNumbers{full}, nil
	}
}
