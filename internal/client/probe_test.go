package client

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"
)

func TestProbe(t *testing.T) {
	c, rec := newTestClient(t, nil)
	if err := c.Probe(context.Background(), time.Second); err != nil {
		t.Fatalf("probe of a listening server: %v", err)
	}
	if rec.count() != 0 {
		t.Errorf("probe sent %d HTTP requests, want 0", rec.count())
	}

	ln, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	c, err = New(Config{BaseURL: "http://" + addr})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err = c.Probe(context.Background(), 500*time.Millisecond)
	// "refused" normally; on a busy machine another process may grab the
	// freed port and leave the connection hanging ("timeout").
	if err == nil || !strings.Contains(err.Error(), addr) ||
		(!strings.Contains(err.Error(), "refused") && !strings.Contains(err.Error(), "timeout")) {
		t.Fatalf("err = %v; want one naming %s and the cause", err, addr)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("probe took %s, want about its 500ms window", d)
	}

	// A service that comes back within the window passes.
	c, _ = New(Config{BaseURL: "http://" + addr})
	go func() {
		time.Sleep(300 * time.Millisecond)
		if ln, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", addr); err == nil {
			t.Cleanup(func() { ln.Close() })
		}
	}()
	if err := c.Probe(context.Background(), 2*time.Second); err != nil {
		t.Errorf("probe of a service back within the window: %v", err)
	}
}
