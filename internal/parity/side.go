package parity

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

// A side is one of the two ends compared: the service or the emulator. Its
// keys go into request headers and nowhere else.
type side struct {
	name   string // "service", "emulator"
	base   string // origin + /api/v3.1
	apiKey string
	orgKey string
	http   *http.Client
	// sent counts the requests sent.
	sent int
}

// credential says which key a request carries.
type credential int

const (
	credProject    credential = iota // x-api-key: the project's key
	credOrg                          // x-org-api-key: the organization's key
	credBadProject                   // x-api-key: a key no service issues
	credBadOrg                       // x-org-api-key: likewise
)

// badKey is the key of the bad-key reads.
const badKey = "parity-check-invalid-key"

// userAgent names the check in the service's logs.
const userAgent = "terraform-provider-service-parity"

func newSide(name, baseURL, apiKey, orgKey string, next http.RoundTripper) (*side, error) {
	// the client's own rules for a base URL (scheme, host, no credentials
	// in it, the /api/v3.1 suffix)
	c, err := client.New(client.Config{BaseURL: baseURL})
	if err != nil {
		return nil, err
	}
	return &side{name: name, base: c.BaseURL(), apiKey: apiKey, orgKey: orgKey, http: readOnlyClient(next)}, nil
}

// answer is one response: its status, headers and body parsed as JSON (nil
// when it is not JSON).
type answer struct {
	status int
	header http.Header
	body   any
	isJSON bool
}

func (a *answer) ok() bool { return a.status >= 200 && a.status < 300 }

// maxThrottled is how many times a throttled read (429) is sent again.
const maxThrottled = 5

// get sends GET base+path?q with the credential cred. A 429 is waited out
// (Retry-After, at most 30 s each) and sent again: throttling slows the
// check, it does not fail it.
func (s *side) get(ctx context.Context, path string, q url.Values, cred credential) (*answer, error) {
	u := s.base + path
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	for attempt := 0; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Accept", "application/json")
		req.Header.Set("User-Agent", userAgent)
		switch cred {
		case credProject:
			req.Header.Set("x-api-key", s.apiKey)
		case credOrg:
			req.Header.Set("x-org-api-key", s.orgKey)
		case credBadProject:
			req.Header.Set("x-api-key", badKey)
		case credBadOrg:
			req.Header.Set("x-org-api-key", badKey)
		}
		s.sent++
		resp, err := s.http.Do(req)
		if err != nil {
			// the URL carries no key; the error names the route only
			return nil, fmt.Errorf("GET %s: %w", client.APIPrefix+path, unwrapURLError(err))
		}
		body, err := io.ReadAll(io.LimitReader(resp.Body, 32<<20))
		_ = resp.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("GET %s: reading the answer: %w", client.APIPrefix+path, err)
		}
		if resp.StatusCode == http.StatusTooManyRequests && attempt < maxThrottled {
			if err := sleep(ctx, retryAfter(resp.Header)); err != nil {
				return nil, err
			}
			continue
		}
		a := &answer{status: resp.StatusCode, header: resp.Header}
		if trimmed := bytes.TrimSpace(body); len(trimmed) > 0 {
			a.isJSON = json.Unmarshal(trimmed, &a.body) == nil
		}
		return a, nil
	}
}

func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

func retryAfter(h http.Header) time.Duration {
	if ms, err := strconv.Atoi(strings.TrimSpace(h.Get("Retry-After-Ms"))); err == nil && ms >= 0 {
		return min(time.Duration(ms)*time.Millisecond, 30*time.Second)
	}
	if sec, err := strconv.Atoi(strings.TrimSpace(h.Get("Retry-After"))); err == nil && sec >= 0 {
		return min(time.Duration(sec)*time.Second, 30*time.Second)
	}
	return time.Second
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
