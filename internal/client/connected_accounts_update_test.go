package client

import (
	"context"
	"strings"
	"testing"
)

func TestUpdateConnectedAccountCredentials(t *testing.T) {
	runOpCases(t, []opCase{{
		name: "patch state",
		call: func(ctx context.Context, c *Client) (any, error) {
			return nil, c.UpdateConnectedAccountCredentials(ctx, "ca_1", ConnectionState{AuthScheme: "API_KEY",
				Val: map[string]any{"api_key": "k2"}})
		},
		reply:  `{"id":"ca_1","status":"ACTIVE","success":true}`,
		method: "PATCH", path: "/api/v3.1/connected_accounts/ca_1",
		body: `{"connection":{"state":{"authScheme":"API_KEY","val":{"api_key":"k2"}}}}`,
	}, {
		name: "nil val sends an empty object",
		call: func(ctx context.Context, c *Client) (any, error) {
			return nil, c.UpdateConnectedAccountCredentials(ctx, "ca_2", ConnectionState{AuthScheme: "NO_AUTH"})
		},
		method: "PATCH", path: "/api/v3.1/connected_accounts/ca_2",
		body: `{"connection":{"state":{"authScheme":"NO_AUTH","val":{}}}}`,
	}, {
		name: "alias only",
		call: func(ctx context.Context, c *Client) (any, error) {
			return nil, c.UpdateConnectedAccount(ctx, "ca_3", ConnectedAccountUpdate{Alias: ptr("work")})
		},
		method: "PATCH", path: "/api/v3.1/connected_accounts/ca_3", body: `{"alias":"work"}`,
	}, {
		name: "an empty alias is sent: it clears the alias",
		call: func(ctx context.Context, c *Client) (any, error) {
			return nil, c.UpdateConnectedAccount(ctx, "ca_3", ConnectedAccountUpdate{Alias: ptr("")})
		},
		method: "PATCH", path: "/api/v3.1/connected_accounts/ca_3", body: `{"alias":""}`,
	}, {
		name: "alias and credentials in one request",
		call: func(ctx context.Context, c *Client) (any, error) {
			return nil, c.UpdateConnectedAccount(ctx, "ca_3", ConnectedAccountUpdate{Alias: ptr("w"),
				State: &ConnectionState{AuthScheme: "API_KEY", Val: map[string]any{"api_key": "k3"}}})
		},
		method: "PATCH", path: "/api/v3.1/connected_accounts/ca_3",
		body: `{"alias":"w","connection":{"state":{"authScheme":"API_KEY","val":{"api_key":"k3"}}}}`,
	}})
}

func TestUpdateConnectedAccountCredentialsErrorHasNoSecret(t *testing.T) {
	c, _ := newTestClient(t, replyJSON(400, `{"error":{"message":"connection.state.val.api_key is required","code":605,"status":400}}`))
	err := c.UpdateConnectedAccountCredentials(context.Background(), "ca_1", ConnectionState{AuthScheme: "API_KEY",
		Val: map[string]any{"apikey": "super-secret-value"}})
	if err == nil || !IsStatus(err, 400) {
		t.Fatalf("want a 400 APIError, got %v", err)
	}
	if strings.Contains(err.Error(), "super-secret-value") {
		t.Fatalf("error leaks the credential: %v", err)
	}
}

// UpdateConnectedAccountCredentials replaces the stored credentials of an
// account (v3.1 PATCH /connected_accounts/{id} with
// {"connection":{"state":{"authScheme":...,"val":{...}}}}). Use it to rotate
// the API key, password or token of an API_KEY, BASIC or BEARER_TOKEN account
// in place. state.Val holds the credential keys alone, sent as given. The
// error never contains the credential values.
func (c *Client) UpdateConnectedAccountCredentials(ctx context.Context, id string, state ConnectionState) error {
	return c.UpdateConnectedAccount(ctx, id, ConnectedAccountUpdate{State: &state})
}
