package emulator

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultAPIKey is the key of the single "default" project used when no keys
// are configured.
const DefaultAPIKey = "emulator-key" //nolint:gosec // G101: the emulator's published default key (docs/guides/emulator.md), no real one

// DefaultOrgAPIKey is the organization API key (x-org-api-key) of the single
// organization DefaultOrgID used when no organization keys are configured.
const DefaultOrgAPIKey = "emulator-org-key" //nolint:gosec // G101: the emulator's published default key (docs/guides/emulator.md), no real one

// DefaultOrgID is the id of the organization used when no organization keys
// are configured.
const DefaultOrgID = "default"

// Options configures a Server.
type Options struct {
	// DataPath is the bbolt data file; "" keeps everything in memory.
	DataPath string
	// APIKeys maps API key -> project name; empty means {"emulator-key": "default"}.
	// These configured projects belong to the first organization of
	// OrgAPIKeys (sorted by id); their data scope is their name.
	APIKeys map[string]string
	// OrgAPIKeys maps organization API key (x-org-api-key) -> organization
	// id; empty means {"emulator-org-key": "default"}. An organization key
	// manages the organization's projects (/org/owner/project/...).
	OrgAPIKeys map[string]string
	// Faults is an initial fault spec, e.g. "status=429:0.1,status=503:0.1,latency=20ms,reset=0.02"
	// (add seed=N to replay the random choices of an earlier run; the seed used
	// is logged).
	Faults string
	// WebhookURL, when set, is a shortcut for a webhook subscription: every
	// project without one gets a V3 subscription to composio.trigger.message
	// at this URL (existing subscriptions are pointed at it).
	WebhookURL string
	// WebhookSecret is the signing secret of those subscriptions ("" keeps
	// an existing secret or generates one).
	WebhookSecret string
	// Logger receives structured logs; nil discards them.
	Logger *slog.Logger
	// BaseURL is the public origin used in redirect URLs and MCP URLs; when
	// empty the origin of each request (Host header) is used. See SetBaseURL.
	BaseURL string
	// CatalogDir is a directory of catalog files (toolkit JSON files and an
	// optional categories.json, the format of the built-in catalogdata/) that
	// add toolkits with their tools and trigger types, or replace the
	// built-in toolkit of the same slug; "" serves the built-in catalog only.
	CatalogDir string
	// Crash is called by the crash-after-commit fault once the chosen write is
	// committed and before it is answered (the command kills its own process
	// with SIGKILL); nil drops the connection instead.
	Crash func()
	// WebhookMaxAttempts bounds delivery attempts per event (default 6).
	WebhookMaxAttempts int
	// WebhookBackoff is the delay before the first retry, doubled on each
	// further retry (default 250ms).
	WebhookBackoff time.Duration
}

// Server is the emulator. Create it with New, serve Handler(), and Close it.
type Server struct {
	opts Options
	log  *slog.Logger
	st   *store
	cat  *catalog
	// keys: project API key -> the project's data scope and id, under keysMu
	// (written by the project operations, read by every request).
	keys   map[string]projectKey
	keysMu sync.RWMutex
	// orgKeys: organization API key -> organization id; orgIDs sorted.
	orgKeys map[string]string
	orgIDs  []string
	// projects: project id -> project, under st.mu.
	projects map[string]*Project
	mux      *http.ServeMux
	baseURL  atomic.Value // string
	faults   *faultInjector
	hooks    *webhookSender
	statsMu  sync.Mutex
	requests map[string]int64
	// byProject counts the authenticated requests per project and route,
	// for tests that share one emulator between projects.
	byProject map[string]map[string]int64
	writes    int64
	// throttled counts the requests the ratelimit fault answered 429, by
	// route; rate holds the windows by rateSubject. Both under statsMu.
	throttled map[string]int64
	rate      map[string]*rateWindow
	// revocations logs the credentials revoked at the provider (revocation.go), under statsMu.
	revocations []revocation
	closed      atomic.Bool
	handled     map[string]bool // operation ids with a handler (see handle)
}

// New creates a server, opening (or creating) the data file when configured.
func New(opts Options) (*Server, error) {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	keys := map[string]string{}
	for k, p := range opts.APIKeys {
		if k == "" {
			return nil, errors.New("emulator: empty API key")
		}
		if p == "" {
			p = "default"
		}
		keys[k] = p
	}
	if len(keys) == 0 {
		keys[DefaultAPIKey] = "default"
	}
	orgKeys := map[string]string{}
	for k, org := range opts.OrgAPIKeys {
		if k == "" || org == "" {
			return nil, errors.New("emulator: empty organization API key or organization id")
		}
		orgKeys[k] = org
	}
	if len(orgKeys) == 0 {
		orgKeys[DefaultOrgAPIKey] = DefaultOrgID
	}
	faults, err := parseFaults(opts.Faults)
	if err != nil {
		return nil, err
	}
	cat, err := loadCatalog(opts.CatalogDir)
	if err != nil {
		return nil, err
	}
	st, err := openStore(opts.DataPath)
	if err != nil {
		return nil, err
	}
	s := &Server{
		opts:      opts,
		log:       log,
		st:        st,
		cat:       cat,
		orgKeys:   orgKeys,
		orgIDs:    slices.Compact(slices.Sorted(maps.Values(orgKeys))),
		mux:       http.NewServeMux(),
		faults:    newFaultInjector(faults),
		requests:  map[string]int64{},
		byProject: map[string]map[string]int64{},
		throttled: map[string]int64{},
	}
	if fs := s.faults.get(); fs.raw != "" {
		log.Info("faults set", fs.logAttrs()...)
	}
	if err := s.setupProjects(keys); err != nil {
		_ = st.close()
		return nil, err
	}
	s.logCatalog()
	s.baseURL.Store(strings.TrimRight(opts.BaseURL, "/"))
	s.hooks = newWebhookSender(opts, log)
	s.routes()
	if opts.WebhookURL != "" {
		for _, project := range slices.Compact(slices.Sorted(maps.Values(keys))) {
			if _, err := s.configureProjectWebhook(project, opts.WebhookURL, opts.WebhookSecret); err != nil {
				_ = s.Close()
				return nil, fmt.Errorf("emulator: webhook subscription of project %s: %w", project, err)
			}
		}
	}
	return s, nil
}

// SetBaseURL sets the public origin (e.g. an httptest server URL) used in
// redirect_url, hosted links and MCP URLs.
func (s *Server) SetBaseURL(u string) { s.baseURL.Store(strings.TrimRight(u, "/")) }

// Handler returns the HTTP handler serving the API, control routes and consent pages.
func (s *Server) Handler() http.Handler { return s.mux }

// Close stops webhook delivery and closes the data file.
func (s *Server) Close() error {
	if s.closed.Swap(true) {
		return nil
	}
	s.hooks.close()
	s.st.mu.Lock()
	defer s.st.mu.Unlock()
	return s.st.close()
}

func (s *Server) origin(r *http.Request) string {
	if u, _ := s.baseURL.Load().(string); u != "" {
		return u
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}
