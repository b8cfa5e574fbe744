package provider

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/integration-service/terraform-provider-service/internal/client"
)

// apiKeyAccountsConfig is n API-key connected accounts of one auth config,
// as the end-to-end benchmark and TestAccE2E_ThrottledApply declare them.
func apiKeyAccountsConfig(n int, user, authConfigID string) string {
	return fmt.Sprintf(`resource "service_connected_account" "ca" {
  count                  = %d
  user_id                = "%s-${count.index}"
  auth_config_id         = %q
  credentials_wo         = { api_key = "sk_test_${count.index}" }
  credentials_wo_version = 1
}
`, n, user, authConfigID)
}

// TestAccE2E_ThrottledApply: under the fault ratelimit=120/min (each
// organization 120 requests per one-minute window), an apply of 60 API-key
// connected accounts through the CLI ends with no error and exactly 60
// accounts on the service, with at most 5% of its requests answered 429 when
// the 429s (and every answer) carry the rate-limit headers, and at most 15%
// when they carry none; the provider log (TF_LOG_PROVIDER=info) says why the
// apply is slow. Each case runs against an emulator of its own started with
// the fault (the shared one would slow every other test), so they run in
// parallel with each other and the rest of the suite; each takes a little
// over a minute, the limit's floor being about 185 requests / 120 per minute.
func TestAccE2E_ThrottledApply(t *testing.T) {
	t.Parallel()
	const (
		accounts = 60
		limit    = "ratelimit=120/min"
	)
	for _, tc := range []struct {
		name     string
		faults   string
		maxShare float64 // of the apply's requests answered 429
		logs     string  // in the provider log
	}{
		{"headers", limit, 0.05, "pacing requests to the service's rate limit (120 per 1m0s), waiting"},
		{"no_headers", limit + ",ratelimit-headers=off", 0.15, "throttled by the service, waiting"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if os.Getenv("TF_ACC") == "" {
				t.Skip("end-to-end test: set TF_ACC=1 to run")
			}
			ep := testAccOwnEmulator(t, tc.faults)
			w := newE2EWorkspaceAt(t, ep)
			c, err := client.New(client.Config{BaseURL: ep.BaseURL, APIKey: ep.APIKey})
			if err != nil {
				t.Fatal(err)
			}
			ac, err := c.CreateAuthConfig(context.Background(), client.CreateAuthConfigRequest{
				ToolkitSlug: "stripe", Type: client.AuthConfigTypeCustom, Name: "throttled", AuthScheme: "API_KEY",
			})
			if err != nil {
				t.Fatal(err)
			}
			// The apply starts with a full window.
			testAccEmulatorDoAt(t, ep, http.MethodPut, "/_emulator/faults", rawBody(tc.faults), nil)
			var before, after testAccEmulatorStats
			testAccEmulatorDoAt(t, ep, http.MethodGet, "/_emulator/stats", nil, &before)

			w.WriteFile("main.tf", apiKeyAccountsConfig(accounts, "throttled", ac.ID))
			logFile := w.Path("provider.log")
			start := time.Now()
			// Coalesced reads off: this test holds the pacing and the 429s
			// under a limit the apply must exceed; how many reads coalesce
			// depends on timing (TestAccE2E_RequestBudgetAtScale holds them).
			res := w.Run([]string{"TF_LOG_PROVIDER=info", "TF_LOG_PATH=" + logFile, EnvCoalesce + "=off"}, "apply", "-auto-approve", "-input=false", "-no-color")
			wall := time.Since(start)
			testAccEmulatorDoAt(t, ep, http.MethodGet, "/_emulator/stats", nil, &after)
			requests, throttled := benchRequests(before, after), after.Throttled-before.Throttled
			if res.ExitCode != 0 {
				t.Fatalf("apply under %s: exit %d after %v (%d requests, %d answered 429)\nstdout:\n%s\nstderr:\n%s",
					tc.faults, res.ExitCode, wall.Round(time.Second), requests, throttled, benchTail(res.Stdout), benchTail(res.Stderr))
			}
			share := float64(throttled) / float64(requests)
			t.Logf("%s: apply of %d accounts in %v: %d requests, %d answered 429 (%.1f%%)",
				tc.faults, accounts, wall.Round(time.Second), requests, throttled, 100*share)
			if share > tc.maxShare {
				t.Errorf("%d of %d requests answered 429 (%.1f%%), want at most %.0f%%", throttled, requests, 100*share, 100*tc.maxShare)
			}
			if log, err := os.ReadFile(logFile); err != nil || !strings.Contains(string(log), tc.logs) {
				t.Errorf("the provider log does not say %q (%v)", tc.logs, err)
			}

			// Exactly the declared accounts, each once (counted without the limit).
			testAccEmulatorDoAt(t, ep, http.MethodPut, "/_emulator/faults", rawBody(""), nil)
			got, err := c.ListConnectedAccounts(context.Background(), client.ConnectedAccountListParams{AuthConfigIDs: []string{ac.ID}})
			if err != nil {
				t.Fatal(err)
			}
			users := map[string]int{}
			for _, a := range got {
				users[a.UserID]++
			}
			if len(got) != accounts || len(users) != accounts {
				t.Errorf("the service holds %d accounts of %d users, want %d of %d", len(got), len(users), accounts, accounts)
			}
		})
	}
}

// TestAccE2E_RateLimitWaitWarned: a plan whose data source read is answered
// 429 with Retry-After: 6 waits it out and says so where the user sees it, a
// warning naming the wait and its cause (it sat on "Reading..." in silence),
// and logs it at WARN; a plan that never waited warns of nothing.
func TestAccE2E_RateLimitWaitWarned(t *testing.T) {
	t.Parallel()
	testAccRequireEmulator(t)
	ep := testAccEnvironment(t)
	target, err := url.Parse(ep.BaseURL)
	if err != nil {
		t.Fatal(err)
	}
	var throttled atomic.Bool
	throttle := &atomic.Bool{}
	proxy := httputil.NewSingleHostReverseProxy(target)
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if throttle.Load() && strings.HasSuffix(r.URL.Path, "/toolkits/github") && throttled.CompareAndSwap(false, true) {
			w.Header().Set("Retry-After", "6")
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = w.Write([]byte(`{"error":{"message":"Rate limit exceeded","status":429}}`))
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(front.Close)
	w := newE2EWorkspaceAt(t, testAccEndpoint{BaseURL: front.URL, APIKey: ep.APIKey, OrgAPIKey: ep.OrgAPIKey})
	w.WriteFile("main.tf", `data "service_toolkit" "github" {
  slug = "github"
}
`)
	const warning = "Slowed down by the service's rate limit"
	if res := w.RunOK("plan", "-input=false", "-no-color"); strings.Contains(res.Stdout+res.Stderr, warning) {
		t.Fatalf("a plan that never waited warns of a rate limit:\n%s", res.Stdout)
	}
	throttle.Store(true)
	logFile := w.Path("provider.log")
	res := w.RunEnvOK([]string{"TF_LOG_PROVIDER=warn", "TF_LOG_PATH=" + logFile}, "plan", "-input=false", "-no-color")
	out := res.Stdout + res.Stderr
	flat := strings.Join(strings.Fields(out), " ") // Terraform wraps the detail
	if !throttled.Load() {
		t.Fatal("the plan read no toolkit through the proxy")
	}
	for _, want := range []string{"Warning: " + warning, "The read of data source service_toolkit waited 6", "429 Too Many Requests with Retry-After"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the throttled plan does not say %q:\n%s", want, out)
		}
	}
	log, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(log), "for the service's rate limit: the service answered 429 Too Many Requests with Retry-After") {
		t.Errorf("the provider log at WARN does not say why the request waited:\n%s", log)
	}
	if strings.Contains(out+string(log), ep.APIKey) {
		t.Error("the API key is in the plan's output or the provider log")
	}
}
