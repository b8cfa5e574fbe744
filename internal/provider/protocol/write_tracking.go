package protocol

import (
	"context"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// WriteTracking ticks the provider's write clock (Tick) when a write starts
// and when it ends: ApplyResourceChange (create, update, delete) and
// InvokeAction, whatever the resource or action. A listing read before a
// write of the same run then serves no Read (package refreshlisting).
type WriteTracking struct {
	Server
	Tick func()
}

func (s WriteTracking) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	s.Tick()
	defer s.Tick()
	return s.Server.ApplyResourceChange(ctx, req)
}

// InvokeAction: the action runs while Terraform reads the stream's events,
// so the clock ticks again when the events end.
func (s WriteTracking) InvokeAction(ctx context.Context, req *tfprotov6.InvokeActionRequest) (*tfprotov6.InvokeActionServerStream, error) {
	s.Tick()
	stream, err := s.Server.InvokeAction(ctx, req)
	if stream == nil || stream.Events == nil {
		s.Tick()
		return stream, err
	}
	events := stream.Events
	stream.Events = func(push func(tfprotov6.InvokeActionEvent) bool) {
		defer s.Tick()
		events(push)
	}
	return stream, err
}
