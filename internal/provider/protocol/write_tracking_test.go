package protocol

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// TestWriteTracking: the provider server ticks the write clock around every
// ApplyResourceChange and InvokeAction (after the action's events).
func TestWriteTracking(t *testing.T) {
	var clock atomic.Uint64
	var during uint64
	s := WriteTracking{Server: stubWrites{apply: func() { during = clock.Load() }}, Tick: func() { clock.Add(1) }}
	if _, err := s.ApplyResourceChange(context.Background(), &tfprotov6.ApplyResourceChangeRequest{}); err != nil {
		t.Fatal(err)
	}
	if during != 1 || clock.Load() != 2 {
		t.Fatalf("ApplyResourceChange: clock %d during, %d after; want 1 and 2", during, clock.Load())
	}
	stream, err := s.InvokeAction(context.Background(), &tfprotov6.InvokeActionRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if clock.Load() != 3 {
		t.Fatalf("clock %d while the action's events are pending, want 3", clock.Load())
	}
	for range stream.Events {
	}
	if clock.Load() != 4 {
		t.Fatalf("clock %d after the action's events, want 4", clock.Load())
	}
}

type stubWrites struct {
	Server
	apply func()
}

func (s stubWrites) ApplyResourceChange(context.Context, *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	s.apply()
	return &tfprotov6.ApplyResourceChangeResponse{}, nil
}

func (s stubWrites) InvokeAction(context.Context, *tfprotov6.InvokeActionRequest) (*tfprotov6.InvokeActionServerStream, error) {
	return &tfprotov6.InvokeActionServerStream{Events: func(push func(tfprotov6.InvokeActionEvent) bool) {
		push(tfprotov6.InvokeActionEvent{})
	}}, nil
}
