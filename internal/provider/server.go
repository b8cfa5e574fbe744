package provider

import (
	"context"
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
		p := &ServiceProvider{version: version, writes: &writeClock{}}
		next := providerserver.NewProtocol6(p)()
		full, ok := next.(servedServer)
		if !ok {
			return nil, fmt.Errorf("the framework's server %T lacks an interface the provider serves", next)
		}
		return wholeNumbers{writeTracking{listConfigPaths{full}, p.writes}}, nil
	}
}

// writeTracking ticks the provider's write clock when a write starts and
// when it ends: ApplyResourceChange (create, update, delete) and
// InvokeAction, whatever the resource or action. A listing read before a
// write of the same run then serves no Read (refresh_listing.go).
type writeTracking struct {
	servedServer
	writes *writeClock
}

func (s writeTracking) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	s.writes.tick()
	defer s.writes.tick()
	return s.servedServer.ApplyResourceChange(ctx, req)
}

// InvokeAction: the action runs while Terraform reads the stream's events,
// so the clock ticks again when the events end.
func (s writeTracking) InvokeAction(ctx context.Context, req *tfprotov6.InvokeActionRequest) (*tfprotov6.InvokeActionServerStream, error) {
	s.writes.tick()
	stream, err := s.servedServer.InvokeAction(ctx, req)
	if stream == nil || stream.Events == nil {
		s.writes.tick()
		return stream, err
	}
	events := stream.Events
	stream.Events = func(push func(tfprotov6.InvokeActionEvent) bool) {
		defer s.writes.tick()
		events(push)
	}
	return stream, err
}
