package client

import (
	"context"
	"errors"
	"net/http"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

const connectedAccountJSON = `{"id":"ca_1","user_id":"u1","status":"ACTIVE","status_reason":null,"is_disabled":false,"created_at":"c","updated_at":"u","toolkit":{"slug":"stripe"},"auth_config":{"id":"ac_1","auth_scheme":"API_KEY","is_composio_managed":false,"is_disabled":false},"state":{"authScheme":"API_KEY","val":{"status":"ACTIVE","api_key":"***"}},"data":{}}`

func TestConnectedAccountOperations(t *testing.T) {
	runOpCases(t, []opCase{
		{
			name: "list with comma-joined filters",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.ListConnectedAccounts(ctx, ConnectedAccountListParams{UserIDs: []string{"a", "b"}, ToolkitSlugs: []string{"github"}, AuthConfigIDs: []string{"ac_1", "ac_2"}, Statuses: []string{"ACTIVE", "INITIATED"}, OrderBy: "created_at", OrderDirection: "asc", Limit: 20})
			},
			reply:  `{"items":[` + connectedAccountJSON + `],"next_cursor":null}`,
			method: "GET", path: "/api/v3.1/connected_accounts",
			query: map[string]string{"user_ids": "a,b", "toolkit_slugs": "github", "auth_config_ids": "ac_1,ac_2", "statuses": "ACTIVE,INITIATED", "order_by": "created_at", "order_direction": "asc", "limit": "20"},
		},
		{
			name:   "get",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.GetConnectedAccount(ctx, "ca_1") },
			reply:  connectedAccountJSON,
			method: "GET", path: "/api/v3.1/connected_accounts/ca_1",
			checkResp: func(t *testing.T, got any) {
				want := ConnectedAccount{ID: "ca_1", UserID: "u1", Status: "ACTIVE", CreatedAt: "c", UpdatedAt: "u", Toolkit: ToolkitRef{Slug: "stripe"},
					AuthConfig: ConnectedAccountAuthConfig{ID: "ac_1", AuthScheme: "API_KEY"},
					State:      &ConnectionState{AuthScheme: "API_KEY", Val: map[string]any{"status": "ACTIVE", "api_key": "***"}}}
				if !reflect.DeepEqual(*got.(*ConnectedAccount), want) {
					t.Errorf("got  %+v\nwant %+v", got, want)
				}
			},
		},
		{
			name: "initiate with credentials",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.InitiateConnectedAccount(ctx, InitiateConnectedAccountRequest{AuthConfigID: "ac_1", UserID: "u1",
					State: &ConnectionState{AuthScheme: "API_KEY", Val: map[string]any{"status": "ACTIVE", "api_key": "k"}}})
			},
			status: 201, reply: `{"id":"ca_2","connectionData":{"authScheme":"API_KEY","val":{"status":"ACTIVE"}},"status":"ACTIVE","redirect_url":null}`,
			method: "POST", path: "/api/v3.1/connected_accounts",
			body: `{"auth_config":{"id":"ac_1"},"connection":{"user_id":"u1","state":{"authScheme":"API_KEY","val":{"status":"ACTIVE","api_key":"k"}}}}`,
			checkResp: func(t *testing.T, got any) {
				if *got.(*ConnectionRequest) != (ConnectionRequest{ID: "ca_2", Status: "ACTIVE"}) {
					t.Errorf("%+v", got)
				}
			},
		},
		{
			name: "initiate OAuth reads redirect",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.InitiateConnectedAccount(ctx, InitiateConnectedAccountRequest{AuthConfigID: "ac_1", UserID: "u1", CallbackURL: "https://cb"})
			},
			status: 201, reply: `{"id":"ca_3","connectionData":{"authScheme":"OAUTH2","val":{"status":"INITIATED","redirectUrl":"https://consent"}},"status":"INITIATED"}`,
			method: "POST", path: "/api/v3.1/connected_accounts",
			body: `{"auth_config":{"id":"ac_1"},"connection":{"user_id":"u1","callback_url":"https://cb"}}`,
			checkResp: func(t *testing.T, got any) {
				if *got.(*ConnectionRequest) != (ConnectionRequest{ID: "ca_3", Status: "INITIATED", RedirectURL: "https://consent"}) {
					t.Errorf("%+v", got)
				}
			},
		},
		{
			name: "link",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.CreateConnectedAccountLink(ctx, LinkRequest{AuthConfigID: "ac_1", UserID: "u1", CallbackURL: "https://cb"})
			},
			status: 201, reply: `{"link_token":"lt_1","redirect_url":"https://link","expires_at":"2026-01-01T00:00:00Z","connected_account_id":"ca_4"}`,
			method: "POST", path: "/api/v3.1/connected_accounts/link",
			body: `{"auth_config_id":"ac_1","user_id":"u1","callback_url":"https://cb"}`,
			checkResp: func(t *testing.T, got any) {
				if *got.(*LinkResponse) != (LinkResponse{LinkToken: "lt_1", RedirectURL: "https://link", ExpiresAt: "2026-01-01T00:00:00Z", ConnectedAccountID: "ca_4"}) {
					t.Errorf("%+v", got)
				}
			},
		},
		{
			name:   "enable",
			call:   func(ctx context.Context, c *Client) (any, error) { return nil, c.EnableConnectedAccount(ctx, "ca_1") },
			method: "PATCH", path: "/api/v3.1/connected_accounts/ca_1/status", body: `{"enabled":true}`,
		},
		{
			name:   "disable",
			call:   func(ctx context.Context, c *Client) (any, error) { return nil, c.DisableConnectedAccount(ctx, "ca_1") },
			method: "PATCH", path: "/api/v3.1/connected_accounts/ca_1/status", body: `{"enabled":false}`,
		},
		{
			name: "update status with reason",
			call: func(ctx context.Context, c *Client) (any, error) {
				return nil, c.UpdateConnectedAccountStatus(ctx, "ca_1", false, "offboarding")
			},
			method: "PATCH", path: "/api/v3.1/connected_accounts/ca_1/status", body: `{"enabled":false,"reason":"offboarding"}`,
		},
		{
			name:   "delete",
			call:   func(ctx context.Context, c *Client) (any, error) { return nil, c.DeleteConnectedAccount(ctx, "ca_1") },
			reply:  `{"success":true}`,
			method: "DELETE", path: "/api/v3.1/connected_accounts/ca_1",
		},
		{
			name: "delete revoking",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.DeleteConnectedAccountWith(ctx, "ca_1", DeleteOptions{RevokeOnDelete: true})
			},
			reply:  `{"success":true,"revoke_job_id":"rvk_1"}`,
			method: "DELETE", path: "/api/v3.1/connected_accounts/ca_1",
			query:     map[string]string{"revoke_on_delete": "true"},
			checkResp: checkRevokeJobID("rvk_1"),
		},
		{
			name: "delete without revoking sends no query",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.DeleteConnectedAccountWith(ctx, "ca_1", DeleteOptions{})
			},
			reply:  `{"success":true}`,
			method: "DELETE", path: "/api/v3.1/connected_accounts/ca_1",
		},
		{
			name:   "revoke",
			call:   func(ctx context.Context, c *Client) (any, error) { return c.RevokeConnectedAccount(ctx, "ca_1") },
			reply:  `{"revoked_tokens":["access_token","refresh_token"],"connected_account":{"id":"ca_1","status":"REVOKED"}}`,
			method: "POST", path: "/api/v3.1/connected_accounts/ca_1/revoke",
			checkResp: func(t *testing.T, got any) {
				r := got.(*RevokeResult)
				if !reflect.DeepEqual(r.RevokedTokens, []string{"access_token", "refresh_token"}) || r.ConnectedAccount.ID != "ca_1" || r.ConnectedAccount.Status != "REVOKED" {
					t.Errorf("%+v", r)
				}
			},
		},
		{
			name: "initiate with alias",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.InitiateConnectedAccount(ctx, InitiateConnectedAccountRequest{AuthConfigID: "ac_1", UserID: "u1", Alias: "work"})
			},
			status: 201, reply: `{"id":"ca_5","status":"INITIATED"}`,
			method: "POST", path: "/api/v3.1/connected_accounts",
			body: `{"auth_config":{"id":"ac_1"},"connection":{"user_id":"u1","alias":"work"}}`,
		},
		{
			name: "link with alias",
			call: func(ctx context.Context, c *Client) (any, error) {
				return c.CreateConnectedAccountLink(ctx, LinkRequest{AuthConfigID: "ac_1", UserID: "u1", Alias: "work"})
			},
			status: 201, reply: `{"link_token":"lt_1","redirect_url":"https://link","connected_account_id":"ca_6"}`,
			method: "POST", path: "/api/v3.1/connected_accounts/link",
			body: `{"auth_config_id":"ac_1","user_id":"u1","alias":"work"}`,
		},
		{
			name:  "get reads the alias",
			call:  func(ctx context.Context, c *Client) (any, error) { return c.GetConnectedAccount(ctx, "ca_1") },
			reply: `{"id":"ca_1","alias":"work"}`, method: "GET", path: "/api/v3.1/connected_accounts/ca_1",
			checkResp: func(t *testing.T, got any) {
				if a := got.(*ConnectedAccount).Alias; a == nil || *a != "work" {
					t.Errorf("alias %v", a)
				}
			},
		},
	})
}

// statusSeries answers GET /connected_accounts/{id} with the given statuses in order (last repeats).
func statusSeries(statuses ...string) (http.HandlerFunc, *atomic.Int32) {
	var n atomic.Int32
	return func(w http.ResponseWriter, _ *http.Request) {
		i := int(n.Add(1)) - 1
		if i >= len(statuses) {
			i = len(statuses) - 1
		}
		writeJSON(w, 200, map[string]any{"id": "ca_1", "status": statuses[i], "status_reason": "provider said no"})
	}, &n
}

func TestWaitForConnectionSuccess(t *testing.T) {
	h, n := statusSeries("INITIATED", "INITIATED", "ACTIVE")
	c, rec := newTestClient(t, h)
	start := time.Now()
	acct, err := c.WaitForConnection(context.Background(), "ca_1", 0)
	if err != nil {
		t.Fatal(err)
	}
	if acct.Status != "ACTIVE" || n.Load() != 3 {
		t.Errorf("status %s after %d GETs", acct.Status, n.Load())
	}
	if el := time.Since(start); el < 20*time.Millisecond {
		t.Errorf("polled too fast: %v for 3 GETs at 10ms interval", el)
	}
	for _, r := range rec.all() {
		if r.Method != "GET" || r.Path != "/api/v3.1/connected_accounts/ca_1" {
			t.Errorf("unexpected request %s %s", r.Method, r.Path)
		}
	}
	// Already active: exactly one GET, no sleep.
	h, n = statusSeries("ACTIVE")
	c, _ = newTestClient(t, h, func(cfg *Config) { cfg.PollInterval = time.Hour })
	if _, err := c.WaitForConnection(context.Background(), "ca_1", time.Second); err != nil || n.Load() != 1 {
		t.Errorf("err %v after %d GETs", err, n.Load())
	}
}

func TestWaitForConnectionFailsFast(t *testing.T) {
	for _, st := range []string{"FAILED", "EXPIRED", "REVOKED"} {
		h, n := statusSeries("INITIATED", st)
		c, _ := newTestClient(t, h)
		acct, err := c.WaitForConnection(context.Background(), "ca_1", time.Minute)
		if !errors.Is(err, ErrConnectionFailed) || errors.Is(err, ErrWaitTimeout) {
			t.Fatalf("%s: err = %v", st, err)
		}
		if !strings.Contains(err.Error(), st) || !strings.Contains(err.Error(), "provider said no") {
			t.Errorf("error lacks status/reason: %v", err)
		}
		if acct == nil || acct.Status != st || n.Load() != 2 {
			t.Errorf("%s: acct %+v after %d GETs", st, acct, n.Load())
		}
	}
}

func TestWaitForConnectionTimeout(t *testing.T) {
	h, _ := statusSeries("INITIATED")
	c, _ := newTestClient(t, h)
	start := time.Now()
	_, err := c.WaitForConnection(context.Background(), "ca_1", 80*time.Millisecond)
	if !errors.Is(err, ErrWaitTimeout) || !strings.Contains(err.Error(), "INITIATED") {
		t.Fatalf("err = %v", err)
	}
	if el := time.Since(start); el < 70*time.Millisecond || el > 2*time.Second {
		t.Errorf("timed out after %v", el)
	}
	// Deadline from the context.
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Millisecond)
	defer cancel()
	if _, err := c.WaitForConnection(ctx, "ca_1", time.Hour); !errors.Is(err, ErrWaitTimeout) {
		t.Fatalf("ctx deadline: err = %v", err)
	}
	// Cancellation is not a timeout.
	ctx, cancel = context.WithCancel(context.Background())
	go func() { time.Sleep(30 * time.Millisecond); cancel() }()
	if _, err := c.WaitForConnection(ctx, "ca_1", time.Hour); errors.Is(err, ErrWaitTimeout) || err == nil {
		t.Fatalf("cancel: err = %v", err)
	}
}

func TestWaitForConnectionNotFound(t *testing.T) {
	c, rec := newTestClient(t, replyJSON(404, `{"error":{"message":"Connected account not found","code":1803}}`))
	_, err := c.WaitForConnection(context.Background(), "ca_x", time.Minute)
	if !IsNotFound(err) || rec.count() != 1 {
		t.Errorf("err = %v after %d requests", err, rec.count())
	}
}

// TestInitiateSetsInitialStatus: the wire requires state.val.status; the
// client fills it in when the caller leaves it out, and keeps a given one.
func TestInitiateSetsInitialStatus(t *testing.T) {
	ctx := context.Background()
	c, rec := newTestClient(t, replyJSON(http.StatusCreated, `{"id":"ca_1","status":"ACTIVE"}`))
	for _, tc := range []struct {
		state ConnectionState
		want  string
	}{
		{ConnectionState{AuthScheme: "API_KEY", Val: map[string]any{"api_key": "k"}}, `"status":"ACTIVE","api_key":"k"`},
		{ConnectionState{AuthScheme: "OAUTH2", Val: map[string]any{}}, `"status":"INITIALIZING"`},
		{ConnectionState{AuthScheme: "OAUTH2", Val: map[string]any{"access_token": "t"}}, `"status":"ACTIVE","access_token":"t"`},
		{ConnectionState{AuthScheme: "BASIC", Val: map[string]any{"status": "INITIATED"}}, `"status":"INITIATED"`},
	} {
		st := tc.state
		if _, err := c.InitiateConnectedAccount(ctx, InitiateConnectedAccountRequest{AuthConfigID: "ac_1", UserID: "u", State: &st}); err != nil {
			t.Fatal(err)
		}
		assertJSON(t, rec.last(t).Body, `{"auth_config":{"id":"ac_1"},"connection":{"user_id":"u","state":{"authScheme":"`+
			tc.state.AuthScheme+`","val":{`+tc.want+`}}}}`)
		if _, ok := tc.state.Val["status"]; ok != strings.Contains(tc.want, "INITIATED") {
			t.Errorf("%s: the caller's state was modified: %v", tc.state.AuthScheme, tc.state.Val)
		}
	}
}

// EnableConnectedAccount enables an account.
func (c *Client) EnableConnectedAccount(ctx context.Context, id string) error {
	return c.UpdateConnectedAccountStatus(ctx, id, true, "")
}

// DisableConnectedAccount disables an account.
func (c *Client) DisableConnectedAccount(ctx context.Context, id string) error {
	return c.UpdateConnectedAccountStatus(ctx, id, false, "")
}
