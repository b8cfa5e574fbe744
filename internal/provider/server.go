package provider

import (
	"fmt"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/integration-service/terraform-provider-service/internal/provider/protocol"
	"github.com/integration-service/terraform-provider-service/internal/provider/refreshlisting"
)

// NewServer returns the provider's protocol 6 server constructor: main.go
// serves it and the acceptance tests run it in-process. Every RPC is served
// by terraform-plugin-framework; the wrappers of package protocol rewrite
// diagnostics (WholeNumbers one of their texts, ListConfigPaths the
// attribute paths of the list resources'), tick the write clock
// (WriteTracking) and warn of rate-limit waits (RateLimitNotices).
func NewServer(version string) func() (tfprotov6.ProviderServer, error) {
	return newServer(version, os.Getenv)
}

// newServer is NewServer with the provider reading its environment
// variables through getenv (the acceptance tests give each test its own
// endpoint this way).
func newServer(version string, getenv func(string) string) func() (tfprotov6.ProviderServer, error) {
	return func() (tfprotov6.ProviderServer, error) {
		p := &ServiceProvider{version: version, writes: &refreshlisting.Clock{}, getenv: getenv}
		next := providerserver.NewProtocol6(p)()
		full, ok := next.(protocol.Server)
		if !ok {
			return nil, fmt.Errorf("the framework's server %T lacks an interface the provider serves", next)
		}
		notices := protocol.RateLimitNotices{Server: protocol.ListConfigPaths{Server: full}, Min: rateLimitNoticeMin}
		return protocol.WholeNumbers{Server: protocol.WriteTracking{Server: notices, Tick: p.writes.Tick}}, nil
	}
}
