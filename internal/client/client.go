// Package client is a typed Go client for the integration service's REST
// wire protocol (paths under /api/v3.1, header x-api-key, JSON bodies).
//
// It knows nothing about Terraform; terraform-plugin-log is used for
// request/response logging only.
package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// DefaultBaseURL is the public service origin.
const DefaultBaseURL = "https://backend.composio.dev"

// APIPrefix is appended to Config.BaseURL for every request.
const APIPrefix = "/api/v3.1"

// DefaultUserAgent is sent when Config.UserAgent is empty.
const DefaultUserAgent = "terraform-provider-service"

// Defaults applied by New for zero-valued Config fields.
const (
	DefaultTimeout      = 30 * time.Second
	DefaultMaxRetries   = 4
	DefaultMaxInFlight  = 10 // Terraform's default -parallelism: no operation waits for a slot
	DefaultRetryWaitMin = 500 * time.Millisecond
	DefaultRetryWaitMax = 8 * time.Second
	DefaultPollInterval = time.Second
	DefaultWaitTimeout  = 60 * time.Second
	// DefaultMaxThrottleWait bounds how long one request keeps being
	// answered 429 (rate limited) before it fails: ten of the service's
	// one-minute windows.
	DefaultMaxThrottleWait = 10 * time.Minute
)

// Config configures a Client. Zero values select the documented defaults.
type Config struct {
	// BaseURL is the service origin, e.g. https://backend.composio.dev; the
	// client appends /api/v3.1. A trailing /api/v3 or /api/v3.1 is tolerated.
	BaseURL string
	// APIKey is the project's API key, sent as the x-api-key header on every
	// project operation. It is never logged or put in errors.
	APIKey string
	// OrgAPIKey is the organization's API key, sent as the x-org-api-key
	// header on the organization's operations (the /org/owner/project
	// routes) and nowhere else: the service refuses a request carrying two
	// credential headers. It is never logged or put in errors.
	OrgAPIKey string
	// UserAgent, e.g. "terraform-provider-service/1.2.3"; default DefaultUserAgent.
	UserAgent string
	// DefaultHeaders are added to every request. A credential header
	// (x-api-key, x-org-api-key, x-user-api-key) is refused by New: each
	// request carries exactly the one credential its operation takes.
	DefaultHeaders map[string]string
	// Timeout bounds each attempt (not the whole call); default 30s.
	Timeout time.Duration
	// MaxRetries is the number of retries after the first attempt; 0 selects
	// the default (4), a negative value disables retries. Retries of a
	// request answered 429 are not counted (see MaxThrottleWait).
	MaxRetries int
	// MaxThrottleWait bounds how long, from its first 429, a request is
	// retried while the service answers 429 (every request of the client
	// waits together, see pacing.go); default DefaultMaxThrottleWait.
	MaxThrottleWait time.Duration
	// MaxRequestsPerMinute caps the requests the client sends in any minute
	// from the start (0: no cap of its own); the client also paces itself to
	// the limit the service's rate-limit headers announce, whichever is lower.
	MaxRequestsPerMinute int
	// MaxInFlight bounds the number of concurrent HTTP requests; default 8.
	MaxInFlight int
	// RetryWaitMin and RetryWaitMax bound the exponential backoff; defaults 500ms and 8s.
	RetryWaitMin, RetryWaitMax time.Duration
	// HTTPClient is used for requests; default a dedicated client with a cloned
	// default transport.
	HTTPClient *http.Client
	// PollInterval is the WaitForConnection polling interval; default 1s.
	PollInterval time.Duration
	// CoalesceWindow is how long a coalesced read (coalesced.go) waits for
	// concurrent ones to join it while they come alone; 0 selects
	// DefaultCoalesceWindow, a negative value sends every read alone at
	// once. CoalesceBusyWindow is that wait once they come together (0:
	// DefaultCoalesceBusyWindow). CoalesceMaxWait bounds how long a batch
	// stays open (0: DefaultCoalesceMaxWait).
	CoalesceWindow, CoalesceBusyWindow, CoalesceMaxWait time.Duration
	// OnRateLimitWait, when set, is told of every request the client held
	// back for the service's rate limit before sending it (after a 429, or
	// pacing itself to a known limit), with the ctx of that request, once
	// the wait is over. It must not block. The client only logs waits
	// itself (at INFO); the caller decides what is worth telling its user.
	OnRateLimitWait func(ctx context.Context, w RateLimitWait)
}

// RateLimitWait is one request's wait for the service's rate limit: how long
// it was held back and why, in words without any secret.
type RateLimitWait struct {
	Waited time.Duration
	// Cause, e.g. "the service answered 429 Too Many Requests with
	// Retry-After", or "pacing to a rate limit of 120 requests per 1m0s".
	Cause string
}

// Client talks to the service. It is safe for concurrent use.
type Client struct {
	cfg       Config
	base      string // origin + APIPrefix, no trailing slash
	http      *http.Client
	sem       chan struct{}
	userAgent string
	headers   http.Header
	created   sync.Map        // ids of objects this client created or adopted (see claim)
	pacer     *pacer          // shared by every request (pacing.go)
	reads     *coalescedReads // nil when Config.CoalesceWindow < 0
}

// New validates cfg, applies defaults and returns a Client.
func New(cfg Config) (*Client, error) {
	if cfg.BaseURL == "" {
		cfg.BaseURL = DefaultBaseURL
	}
	base, err := normalizeBaseURL(cfg.BaseURL)
	if err != nil {
		return nil, err
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	switch {
	case cfg.MaxRetries == 0:
		cfg.MaxRetries = DefaultMaxRetries
	case cfg.MaxRetries < 0:
		cfg.MaxRetries = 0
	}
	if cfg.MaxInFlight <= 0 {
		cfg.MaxInFlight = DefaultMaxInFlight
	}
	if cfg.RetryWaitMin <= 0 {
		cfg.RetryWaitMin = DefaultRetryWaitMin
	}
	if cfg.RetryWaitMax <= 0 {
		cfg.RetryWaitMax = DefaultRetryWaitMax
	}
	if cfg.RetryWaitMax < cfg.RetryWaitMin {
		cfg.RetryWaitMax = cfg.RetryWaitMin
	}
	if cfg.PollInterval <= 0 {
		cfg.PollInterval = DefaultPollInterval
	}
	if cfg.MaxThrottleWait <= 0 {
		cfg.MaxThrottleWait = DefaultMaxThrottleWait
	}
	if cfg.MaxRequestsPerMinute < 0 {
		return nil, fmt.Errorf("MaxRequestsPerMinute must be 0 (no cap) or more, got %d", cfg.MaxRequestsPerMinute)
	}
	hc := cfg.HTTPClient
	if hc == nil {
		tr, ok := http.DefaultTransport.(*http.Transport)
		if ok {
			tr = tr.Clone()
			tr.MaxIdleConnsPerHost = cfg.MaxInFlight
			hc = &http.Client{Transport: tr}
		} else {
			hc = &http.Client{}
		}
	}
	ua := cfg.UserAgent
	if ua == "" {
		ua = DefaultUserAgent
	}
	h := make(http.Header, len(cfg.DefaultHeaders)+4)
	for k, v := range cfg.DefaultHeaders {
		if isCredentialHeader(k) {
			return nil, fmt.Errorf("default header %q is a credential header: the client sends exactly one credential per request "+
				"(the project key as x-api-key, the organization key as x-org-api-key), so it cannot be set as a default header", k)
		}
		h.Set(k, v)
	}
	h.Set("Accept", "application/json")
	h.Set("User-Agent", ua)
	c := &Client{
		cfg:       cfg,
		base:      base,
		http:      hc,
		sem:       make(chan struct{}, cfg.MaxInFlight),
		userAgent: ua,
		headers:   h,
		pacer:     newPacer(cfg.MaxRequestsPerMinute, cfg.RetryWaitMin),
	}
	c.reads = newCoalescedReads(c, coalesceTimes{cfg.CoalesceWindow, cfg.CoalesceBusyWindow, cfg.CoalesceMaxWait})
	return c, nil
}

// BaseURL returns the API root the client sends requests to (origin + /api/v3.1).
func (c *Client) BaseURL() string { return c.base }

func normalizeBaseURL(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return "", fmt.Errorf("invalid base URL: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", errors.New("invalid base URL: scheme must be http or https")
	}
	if u.Host == "" {
		return "", errors.New("invalid base URL: missing host")
	}
	if u.User != nil {
		return "", errors.New("invalid base URL: credentials in the URL are not allowed")
	}
	p := strings.TrimRight(u.Path, "/")
	for _, suffix := range []string{"/api/v3.1", "/api/v3"} {
		if strings.HasSuffix(p, suffix) {
			p = strings.TrimSuffix(p, suffix)
			break
		}
	}
	return u.Scheme + "://" + u.Host + p + APIPrefix, nil
}
