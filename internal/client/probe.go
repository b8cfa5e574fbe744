package client

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"time"
)

// DefaultProbeWindow bounds Probe: how long an unreachable service is retried
// before the provider gives up at configuration (a service restarting within
// it is not reported).
const DefaultProbeWindow = 3 * time.Second

// Probe checks once, cheaply and with a short bound, that the service's
// address accepts connections: it opens a TCP connection to the base URL's
// host (or to the proxy the HTTP client would use) and closes it, redialling
// every 250 ms for up to window (DefaultProbeWindow when 0). No HTTP request
// is sent, so request counts are unchanged. The error names the address and
// the cause. Mid-run outages are not affected: requests keep the full retry
// budget of the write policy (transport.go).
func (c *Client) Probe(ctx context.Context, window time.Duration) error {
	if window <= 0 {
		window = DefaultProbeWindow
	}
	u, err := url.Parse(c.base)
	if err != nil {
		return err
	}
	target := hostPort(u)
	if tr, ok := c.http.Transport.(*http.Transport); ok && tr.Proxy != nil {
		if p, perr := tr.Proxy(&http.Request{URL: u}); perr == nil && p != nil {
			target = hostPort(p)
		}
	}
	ctx, cancel := context.WithTimeout(ctx, window)
	defer cancel()
	var d net.Dialer
	var cause error // the most telling failure: a refusal beats the final timeout
	for {
		conn, err := d.DialContext(ctx, "tcp", target)
		if err == nil {
			_ = conn.Close()
			return nil
		}
		if cause == nil || ctx.Err() == nil {
			cause = err
		}
		t := time.NewTimer(250 * time.Millisecond)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("cannot connect to %s within %s: %w", target, window, cleanDialError(cause))
		case <-t.C:
		}
	}
}

func hostPort(u *url.URL) string {
	if u.Port() != "" {
		return u.Host
	}
	if u.Scheme == "https" {
		return net.JoinHostPort(u.Hostname(), "443")
	}
	return net.JoinHostPort(u.Hostname(), "80")
}

// cleanDialError keeps the useful part of a dial error ("connection refused",
// "no such host", "i/o timeout").
func cleanDialError(err error) error {
	var oe *net.OpError
	if errors.As(err, &oe) && oe.Err != nil {
		return oe.Err
	}
	return err
}
