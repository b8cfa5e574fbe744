package parity

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/integration-service/terraform-provider-service/internal/emulator"
)

// localEmulator is an emulator served by this process on a loopback port,
// in memory, as the acceptance tests start one.
type localEmulator struct {
	URL    string
	APIKey string
	OrgKey string
	srv    *emulator.Server
	hs     *http.Server
	done   chan struct{}
}

func startEmulator(ctx context.Context) (*localEmulator, error) {
	srv, err := emulator.New(emulator.Options{})
	if err != nil {
		return nil, err
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", "127.0.0.1:0")
	if err != nil {
		_ = srv.Close()
		return nil, err
	}
	e := &localEmulator{URL: "http://" + ln.Addr().String(), APIKey: emulator.DefaultAPIKey, OrgKey: emulator.DefaultOrgAPIKey,
		srv: srv, hs: &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second}, done: make(chan struct{})}
	srv.SetBaseURL(e.URL)
	go func() {
		defer close(e.done)
		if err := e.hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			_ = err // the reads will fail and say so
		}
	}()
	return e, nil
}

func (e *localEmulator) Close() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = e.hs.Shutdown(ctx)
	<-e.done
	_ = e.srv.Close()
}
