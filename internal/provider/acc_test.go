package provider

// Acceptance-test harness shared by every test in this package.
//
// Tests run against an in-process emulator started once per test binary,
// unless SERVICE_BASE_URL and SERVICE_API_KEY are both set in the environment
// when the first test asks for it: then they run against that endpoint.
// Control-route helpers skip the calling test against a real endpoint.
//
// Typical use:
//
//	func TestAccFoo_basic(t *testing.T) {
//		resource.Test(t, resource.TestCase{
//			PreCheck:                 func() { testAccPreCheck(t) },
//			ProtoV6ProviderFactories: testAccProviders(t),
//			Steps: []resource.TestStep{{Config: `resource "service_foo" "x" { ... }`}},
//		})
//	}
//
// Test configurations never contain required_providers or (usually) a
// provider block: the provider reads SERVICE_BASE_URL / SERVICE_API_KEY,
// which testAccPreCheck sets.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/integration-service/terraform-provider-service/internal/client"
	"github.com/integration-service/terraform-provider-service/internal/emulator"
	"github.com/integration-service/terraform-provider-service/internal/testutil/contractcheck"
)

// testAccAPIKey is the emulator's API key in acceptance tests.
const testAccAPIKey = "emulator-key"

// testAccProviders serves the provider in-process to terraform-plugin-testing
// under the name "service", for the test t: where SERVICE_BASE_URL names the
// shared emulator (testAccPreCheck sets it process-wide), the provider sends
// its requests to t's own recorded endpoint instead, so that every request
// it makes is checked against the contract and a problem names t (see
// testAccEnvironment).
func testAccProviders(t testing.TB) map[string]func() (tfprotov6.ProviderServer, error) {
	getenv := func(k string) string {
		v := os.Getenv(k)
		if k == EnvBaseURL && v != "" {
			if shared := testAccSharedEndpoint(t); shared.Emulated && v == shared.BaseURL {
				return testAccEnvironment(t).BaseURL
			}
		}
		return v
	}
	return map[string]func() (tfprotov6.ProviderServer, error){"service": newServer("test", getenv)}
}

// testAccEndpoint describes where acceptance tests send requests.
type testAccEndpoint struct {
	BaseURL string
	APIKey  string
	// OrgAPIKey is the organization key: the emulator's default one, or
	// SERVICE_ORG_API_KEY against a real endpoint ("" when unset there:
	// testAccRequireOrgKey skips).
	OrgAPIKey string
	Emulated  bool // false when running against a real endpoint
	err       error
}

var (
	testAccOnce sync.Once
	testAccEP   testAccEndpoint
	// Read when the test binary starts, before any test changes them.
	testAccRealBaseURL = os.Getenv(EnvBaseURL)
	testAccRealAPIKey  = os.Getenv(EnvAPIKey)
	testAccRealOrgKey  = os.Getenv(EnvOrgAPIKey)
)

// testAccEnvironment returns the endpoint of the test t, starting the
// in-process emulator on first use unless SERVICE_BASE_URL and
// SERVICE_API_KEY are set. Against the emulator its BaseURL is t's own
// listener in front of the shared emulator: every API request sent to it is
// recorded and, when t ends, checked against the contract's request types
// (contractcheck.CheckRequests: a member the contract does not declare, a
// missing required one, a value outside an enum fails t, naming the
// operation and the member; test/contract/exceptions.json lists what is
// accepted).
func testAccEnvironment(t testing.TB) testAccEndpoint {
	t.Helper()
	ep := testAccSharedEndpoint(t)
	if ep.Emulated {
		ep.BaseURL = testAccRecorded(t).url
	}
	return ep
}

// testAccSharedEndpoint is the endpoint every test shares: the in-process
// emulator's own listener (its requests are checked when the test binary
// ends, see testAccCheckLateRequests), or the real endpoint.
func testAccSharedEndpoint(t testing.TB) testAccEndpoint {
	t.Helper()
	testAccOnce.Do(func() {
		baseURL, key := testAccRealBaseURL, testAccRealAPIKey
		if baseURL != "" && key != "" {
			testAccEP = testAccEndpoint{BaseURL: baseURL, APIKey: key, OrgAPIKey: testAccRealOrgKey}
			return
		}
		keys := map[string]string{testAccAPIKey: "default"}
		for i := range testAccIsolatedProjects {
			keys[testAccIsolatedKey(i)] = fmt.Sprintf("isolated-%02d", i)
		}
		srv, err := emulator.New(emulator.Options{APIKeys: keys})
		if err != nil {
			testAccEP.err = fmt.Errorf("starting the emulator: %w", err)
			return
		}
		// Never closed: it lives as long as the test binary.
		testAccSharedHandler = srv.Handler()
		h := testAccSharedHandler
		if c, skip := contractcheck.Shared(t); skip == "" {
			testAccSharedRecorder = contractcheck.NewRecorder(h, c.Ops, false)
			testAccSharedRecorder.SetSource("a test that sent it to the shared emulator's own URL (not through testAccEnvironment)")
			h = testAccSharedRecorder
		}
		ts := httptest.NewServer(h)
		srv.SetBaseURL(ts.URL)
		testAccEP = testAccEndpoint{BaseURL: ts.URL, APIKey: testAccAPIKey, OrgAPIKey: emulator.DefaultOrgAPIKey, Emulated: true}
	})
	if testAccEP.err != nil {
		t.Fatal(testAccEP.err)
	}
	return testAccEP
}

// testAccIsolatedProjects is how many projects of their own the emulator
// holds for tests that count what a listing returns (the default project is
// shared by tests running in parallel).
const testAccIsolatedProjects = 32

var testAccIsolatedNext atomic.Int32

func testAccIsolatedKey(i int) string { return fmt.Sprintf("emulator-key-isolated-%02d", i) }

// testAccProjectRequests returns how many requests the emulator has served
// to route (e.g. "GET /api/v3.1/auth_configs") for the project of the
// isolated API key.
func testAccProjectRequests(t *testing.T, key, route string) int {
	t.Helper()
	var i int
	if _, err := fmt.Sscanf(key, "emulator-key-isolated-%02d", &i); err != nil {
		t.Fatalf("%q is not an isolated project's key", key)
	}
	return testAccEmulatorStatsNow(t).Projects[fmt.Sprintf("isolated-%02d", i)][route]
}

// testAccIsolatedProject returns the API key of an emulator project no other
// test uses, and a client of it. It skips the test against a real endpoint.
// testAccProjectRequests counts its requests.
func testAccIsolatedProject(t *testing.T) (string, *client.Client) {
	t.Helper()
	ep := testAccRequireEmulator(t)
	i := int(testAccIsolatedNext.Add(1)) - 1
	if i >= testAccIsolatedProjects {
		t.Fatalf("more than %d tests asked for an isolated project: raise testAccIsolatedProjects", testAccIsolatedProjects)
	}
	key := testAccIsolatedKey(i)
	c, err := client.New(client.Config{BaseURL: ep.BaseURL, APIKey: key})
	if err != nil {
		t.Fatal(err)
	}
	return key, c
}

// testAccPreCheck makes sure the endpoint is up and points the provider at it
// through SERVICE_BASE_URL, SERVICE_API_KEY and (when there is one)
// SERVICE_ORG_API_KEY. It re-applies the variables on every call, so tests
// that change them with t.Setenv do not leak.
func testAccPreCheck(t testing.TB) {
	t.Helper()
	ep := testAccSharedEndpoint(t)
	// os.Setenv, not t.Setenv: the values are process-wide on purpose and
	// t.Setenv cannot be used in parallel tests. The in-process provider of
	// testAccProviders(t) maps the shared emulator's URL to t's own.
	if err := os.Setenv(EnvBaseURL, ep.BaseURL); err != nil { //nolint:usetesting // process-wide on purpose
		t.Fatal(err)
	}
	if err := os.Setenv(EnvAPIKey, ep.APIKey); err != nil { //nolint:usetesting // process-wide on purpose
		t.Fatal(err)
	}
	if err := os.Setenv(EnvOrgAPIKey, ep.OrgAPIKey); err != nil { //nolint:usetesting // process-wide on purpose
		t.Fatal(err)
	}
}

// testAccRequireOrgKey returns the endpoint and skips the test when there is
// no organization key (a real endpoint without SERVICE_ORG_API_KEY).
func testAccRequireOrgKey(t testing.TB) testAccEndpoint {
	t.Helper()
	ep := testAccEnvironment(t)
	if ep.OrgAPIKey == "" {
		t.Skip("needs an organization API key: set " + EnvOrgAPIKey + " to run against a real endpoint (" + EnvBaseURL + ")")
	}
	return ep
}

// testAccOrgClient returns an API client with the organization key, for
// out-of-band changes to projects. It skips without an organization key.
func testAccOrgClient(t testing.TB) *client.Client {
	t.Helper()
	ep := testAccRequireOrgKey(t)
	return testAccNewClient(t, client.Config{BaseURL: ep.BaseURL, OrgAPIKey: ep.OrgAPIKey})
}

// testAccRequireEmulator skips the test when running against a real endpoint.
// Call it first in tests that use the emulator's control routes.
func testAccRequireEmulator(t testing.TB) testAccEndpoint {
	t.Helper()
	ep := testAccEnvironment(t)
	if !ep.Emulated {
		t.Skip("needs the in-process emulator's control routes; running against a real endpoint (" + EnvBaseURL + ")")
	}
	return ep
}

// testAccClient returns an API client for out-of-band changes (drift tests,
// CheckDestroy) against the shared endpoint.
func testAccClient(t testing.TB) *client.Client {
	t.Helper()
	ep := testAccEnvironment(t)
	return testAccNewClient(t, client.Config{BaseURL: ep.BaseURL, APIKey: ep.APIKey})
}

// testAccNewClient returns an API client of cfg, with the tests' user agent.
func testAccNewClient(t testing.TB, cfg client.Config) *client.Client {
	t.Helper()
	cfg.UserAgent = "terraform-provider-service-acctest"
	c, err := client.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// testAccDeleteAuthConfig deletes an auth config a test made (DELETE
// /auth_configs/{id} without options).
func testAccDeleteAuthConfig(ctx context.Context, c *client.Client, id string) error {
	_, err := c.DeleteAuthConfigWith(ctx, id, client.DeleteOptions{})
	return err
}

// testAccCheckDestroyed returns a CheckDestroy that verifies through the API
// that every resource of resourceType left in state is gone: get must fail
// with a 404 (client.IsNotFound). what names the object in the failure
// messages, e.g. "auth config".
func testAccCheckDestroyed(t *testing.T, resourceType, what string,
	get func(ctx context.Context, c *client.Client, id string) error) func(*terraform.State) error {
	return func(s *terraform.State) error { return testAccCheckGone(s, testAccClient(t), resourceType, what, get) }
}

// testAccCheckGone is testAccCheckDestroyed's check of the state s through
// the client c (of any project).
func testAccCheckGone(s *terraform.State, c *client.Client, resourceType, what string,
	get func(ctx context.Context, c *client.Client, id string) error) error {
	for _, rs := range s.RootModule().Resources {
		if rs.Type != resourceType {
			continue
		}
		err := get(context.Background(), c, rs.Primary.ID)
		if err == nil {
			return fmt.Errorf("%s %s still exists", what, rs.Primary.ID)
		}
		if !client.IsNotFound(err) {
			return fmt.Errorf("%s %s: want 404, got %w", what, rs.Primary.ID, err)
		}
	}
	return nil
}

// testAccValue captures an attribute of a resource in state during one step,
// for the PreConfig and checks of later steps (out-of-band changes, "was it
// replaced" comparisons).
type testAccValue struct{ v string }

func (c *testAccValue) capture(resourceName, attr string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[resourceName]
		if !ok {
			return fmt.Errorf("%s not in state", resourceName)
		}
		c.v = rs.Primary.Attributes[attr]
		return nil
	}
}

// testAccErrRe matches the given fragments in order, anywhere in an error
// (Terraform wraps diagnostics, so a space matches any run of whitespace).
// Fragments are regular expressions.
func testAccErrRe(fragments ...string) *regexp.Regexp {
	for i, f := range fragments {
		fragments[i] = strings.ReplaceAll(f, " ", `\s+`)
	}
	return regexp.MustCompile("(?s)" + strings.Join(fragments, ".*"))
}

// testAccPlanError is a step whose plan of cfg fails with an error that
// testAccErrRe(fragments...) matches (a check at validate or plan time).
func testAccPlanError(cfg string, fragments ...string) resource.TestStep {
	return resource.TestStep{Config: cfg, PlanOnly: true, ExpectError: testAccErrRe(fragments...)}
}

// testAccTimestamp checks an ISO 8601 timestamp as the service writes them,
// e.g. 2025-10-15T08:30:00.123Z (fractional seconds and an offset allowed).
var testAccTimestamp = knownvalue.StringRegexp(regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$`))

// testAccImportStep imports resourceName by its id and verifies the imported
// state equals the applied one, except the attributes ignore (write-only,
// sensitive or creation-only values an import cannot read back).
func testAccImportStep(resourceName string, ignore ...string) resource.TestStep {
	return resource.TestStep{
		ResourceName:            resourceName,
		ImportState:             true,
		ImportStateVerify:       true,
		ImportStateVerifyIgnore: ignore,
	}
}

// testAccEmulatorPost calls a control route with an empty body, e.g.
// testAccEmulatorPost(t, "/_emulator/connected_accounts/"+id+"/complete").
// The "/_emulator" prefix is optional. It skips the test on a real endpoint.
func testAccEmulatorPost(t *testing.T, path string) {
	t.Helper()
	testAccEmulatorDo(t, http.MethodPost, path, nil, nil)
}

// testAccEmulatorPostJSON calls a control route with a JSON body, e.g. firing
// a trigger: testAccEmulatorPostJSON(t, "/_emulator/trigger_instances/"+id+"/fire", map[string]any{"k": "v"}).
func testAccEmulatorPostJSON(t *testing.T, path string, body any) {
	t.Helper()
	testAccEmulatorDo(t, http.MethodPost, path, body, nil)
}

// testAccEmulatorSetFaults sets the emulator's fault spec (e.g.
// "status=429:0.5") and clears it when the test ends. Faults are global:
// only use it in tests that do not call t.Parallel.
func testAccEmulatorSetFaults(t *testing.T, spec string) {
	t.Helper()
	testAccEmulatorDo(t, http.MethodPut, "/_emulator/faults", rawBody(spec), nil)
	t.Cleanup(func() { testAccEmulatorDo(t, http.MethodPut, "/_emulator/faults", rawBody(""), nil) })
}

// testAccEmulatorStats is GET /_emulator/stats.
type testAccEmulatorStats struct {
	Requests map[string]int `json:"requests"`
	Writes   int            `json:"writes"`
	// Projects counts the API requests per project and route.
	Projects map[string]map[string]int `json:"projects"`
	// Revocations logs the connected accounts whose credentials were revoked
	// at the provider (the revoke operation, deletes with revoke_on_delete).
	Revocations []testAccRevocation `json:"revocations"`
	// Throttled counts the requests the ratelimit fault answered 429.
	Throttled int `json:"throttled"`
}

// testAccRevocation is one entry of the emulator's revocation log.
type testAccRevocation struct {
	ConnectedAccountID string   `json:"connected_account_id"`
	AuthConfigID       string   `json:"auth_config_id"`
	Via                string   `json:"via"` // revoke, delete, auth_config_delete
	RevokedTokens      []string `json:"revoked_tokens"`
	RevokeJobID        string   `json:"revoke_job_id"`
}

// testAccRevocationsOf returns the emulator's revocation log entries of the
// connected account id (it skips the test on a real endpoint).
func testAccRevocationsOf(t testing.TB, id string) []testAccRevocation {
	t.Helper()
	var out []testAccRevocation
	for _, r := range testAccEmulatorStatsNow(t).Revocations {
		if r.ConnectedAccountID == id {
			out = append(out, r)
		}
	}
	return out
}

// Emulator route keys: what the request counters of testAccEmulatorStats
// (GET /_emulator/stats) count, by method and route pattern.
const (
	routeListAuthConfigs        = "GET /api/v3.1/auth_configs"
	routeGetAuthConfig          = "GET /api/v3.1/auth_configs/{nanoid}"
	routeCreateAuthCfg          = "POST /api/v3.1/auth_configs"
	routeListAccounts           = "GET /api/v3.1/connected_accounts"
	routeGetAccount             = "GET /api/v3.1/connected_accounts/{nanoid}"
	routeInitiateAccount        = "POST /api/v3.1/connected_accounts"
	routeListMCPServers         = "GET /api/v3.1/mcp/servers"
	routeGetMCPServer           = "GET /api/v3.1/mcp/{id}"
	routeCreateMCPServer        = "POST /api/v3.1/mcp/servers"
	routeListToolkits           = "GET /api/v3.1/toolkits"
	routeGetToolkit             = "GET /api/v3.1/toolkits/{slug}"
	routeListTools              = "GET /api/v3.1/tools"
	routeListTriggers           = "GET /api/v3.1/trigger_instances/active"
	routeListTriggerTypes       = "GET /api/v3.1/triggers_types"
	routeGetTriggerType         = "GET /api/v3.1/triggers_types/{slug}"
	routeListWebhookEndpoints   = "GET /api/v3.1/webhook_endpoints"
	routeGetWebhookEndpoint     = "GET /api/v3.1/webhook_endpoints/{nano_id}"
	routeCreateWebhookEndpoint  = "POST /api/v3.1/webhook_endpoints"
	routeReplaceWebhookEndpoint = "POST /api/v3.1/webhook_endpoints/{nano_id}"
	routeUpdateWebhookEndpoint  = "PATCH /api/v3.1/webhook_endpoints/{nano_id}"
	routeListWebhookSubs        = "GET /api/v3.1/webhook_subscriptions"
	routeGetWebhookSub          = "GET /api/v3.1/webhook_subscriptions/{id}"
)

// testAccEmulatorStatsNow reads the emulator's request counters.
func testAccEmulatorStatsNow(t testing.TB) testAccEmulatorStats {
	t.Helper()
	var s testAccEmulatorStats
	testAccEmulatorDo(t, http.MethodGet, "/_emulator/stats", nil, &s)
	return s
}

// testAccEmulatorWrites returns the number of successful writes (POST, PATCH,
// PUT, DELETE on API routes) the emulator has served so far. Counters are
// process-wide: tests comparing them must not call t.Parallel (sequential
// tests never overlap parallel ones). testAccNoWritesTest checks "no writes
// at plan time".
func testAccEmulatorWrites(t *testing.T) int {
	t.Helper()
	return testAccEmulatorStatsNow(t).Writes
}

// testAccAssertNoWritesSince fails the test when writes happened since before.
func testAccAssertNoWritesSince(t *testing.T, before int) {
	t.Helper()
	if after := testAccEmulatorWrites(t); after != before {
		t.Errorf("expected no write requests, the emulator counted %d", after-before)
	}
}

// testAccNoWritesTest runs steps (plans that must fail, such as
// testAccPlanError's) and fails the test when the emulator served a write
// meanwhile: "no writes at plan time". Call testAccRequireEmulator first;
// not for parallel tests (the write counter is process-wide).
func testAccNoWritesTest(t *testing.T, steps []resource.TestStep) {
	t.Helper()
	before := testAccEmulatorWrites(t)
	resource.Test(t, resource.TestCase{
		PreCheck:                 func() { testAccPreCheck(t) },
		ProtoV6ProviderFactories: testAccProviders(t),
		Steps:                    steps,
	})
	testAccAssertNoWritesSince(t, before)
}

type rawBody string

func testAccEmulatorDo(t testing.TB, method, path string, body, out any) {
	t.Helper()
	testAccEmulatorDoAt(t, testAccRequireEmulator(t), method, path, body, out)
}

// testAccEmulatorDoAt is testAccEmulatorDo against the emulator at ep (see
// testAccOwnEmulator).
func testAccEmulatorDoAt(t testing.TB, ep testAccEndpoint, method, path string, body, out any) {
	t.Helper()
	if !strings.HasPrefix(path, "/_emulator/") {
		path = "/_emulator/" + strings.TrimPrefix(path, "/")
	}
	var r io.Reader
	contentType := ""
	switch b := body.(type) {
	case nil:
	case rawBody:
		r = strings.NewReader(string(b))
		contentType = "text/plain"
	default:
		buf, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		r = bytes.NewReader(buf)
		contentType = "application/json"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimRight(ep.BaseURL, "/")+path, r)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("x-api-key", ep.APIKey)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode/100 != 2 {
		t.Fatalf("%s %s: %s: %s", method, path, resp.Status, data)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			t.Fatalf("%s %s: decoding %q: %v", method, path, data, err)
		}
	}
}

// testAccRecordingProxy is a reverse proxy in front of the acceptance
// endpoint that records every request it forwards (method, path, body),
// for tests of what the provider sends on the wire: point a provider
// block's base_url at URL. It works against a real endpoint too.
type testAccRecordingProxy struct {
	URL  string
	mu   sync.Mutex
	reqs []testAccRecordedRequest
}

// testAccRecordedRequest is one request the proxy forwarded.
type testAccRecordedRequest struct {
	Method, Path string // e.g. POST, /api/v3.1/custom/toolkits
	Body         []byte
}

func newTestAccRecordingProxy(t *testing.T) *testAccRecordingProxy {
	t.Helper()
	target, err := url.Parse(testAccEnvironment(t).BaseURL)
	if err != nil {
		t.Fatal(err)
	}
	p := &testAccRecordingProxy{}
	srv := httptest.NewServer(&httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) {
		var body []byte
		if pr.In.Body != nil {
			body, _ = io.ReadAll(pr.In.Body)
			pr.Out.Body = io.NopCloser(bytes.NewReader(body))
			pr.Out.ContentLength = int64(len(body))
		}
		p.mu.Lock()
		p.reqs = append(p.reqs, testAccRecordedRequest{Method: pr.In.Method, Path: pr.In.URL.Path, Body: body})
		p.mu.Unlock()
		pr.SetURL(target)
	}})
	t.Cleanup(srv.Close)
	p.URL = srv.URL
	return p
}

// requests returns the recorded requests of method to path, in order.
func (p *testAccRecordingProxy) requests(method, path string) []testAccRecordedRequest {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []testAccRecordedRequest
	for _, r := range p.reqs {
		if r.Method == method && r.Path == path {
			out = append(out, r)
		}
	}
	return out
}

// testAccOwnEmulator starts an in-process emulator for the calling test
// alone, with the fault spec faults from its first request (for faults that
// would slow or break every other test of the shared one, such as a rate
// limit), and closes it when the test ends. It skips against a real
// endpoint. Its control routes: testAccEmulatorDoAt.
func testAccOwnEmulator(t *testing.T, faults string) testAccEndpoint {
	t.Helper()
	testAccRequireEmulator(t)
	srv, err := emulator.New(emulator.Options{Faults: faults})
	if err != nil {
		t.Fatal(err)
	}
	h := srv.Handler()
	var rec *contractcheck.Recorder
	if c, skip := contractcheck.Shared(t); skip == "" {
		rec = contractcheck.NewRecorder(h, c.Ops, false)
		rec.SetSource(t.Name() + " (its own emulator)")
		h = rec
	}
	ts := httptest.NewServer(h)
	srv.SetBaseURL(ts.URL)
	t.Cleanup(func() {
		ts.Close()
		_ = srv.Close()
	})
	if rec != nil {
		t.Cleanup(func() { contractcheck.CheckRequests(t, rec.Take()) })
	}
	return testAccEndpoint{BaseURL: ts.URL, APIKey: emulator.DefaultAPIKey, OrgAPIKey: emulator.DefaultOrgAPIKey, Emulated: true}
}

// testAccStripeAPIKeyAuthConfig creates, through the client c, a custom
// stripe auth config with the API_KEY scheme named name (the usual parent of
// API-key connected accounts), deleted when the test ends.
func testAccStripeAPIKeyAuthConfig(t testing.TB, c *client.Client, name string) *client.CreatedAuthConfig {
	t.Helper()
	return testAccCreateAuthConfig(t, c, client.CreateAuthConfigRequest{ToolkitSlug: "stripe", Type: client.AuthConfigTypeCustom, Name: name, AuthScheme: "API_KEY"})
}

// testAccCreateAuthConfig creates, through the client c, the auth config req
// describes, deleted when the test ends.
func testAccCreateAuthConfig(t testing.TB, c *client.Client, req client.CreateAuthConfigRequest) *client.CreatedAuthConfig {
	t.Helper()
	ac, err := c.CreateAuthConfig(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = testAccDeleteAuthConfig(context.Background(), c, ac.ID) })
	return ac
}
