package client

import (
	"context"
	"net/http"
)

// ConnectedAccountUpdate is what PATCH /connected_accounts/{id} changes;
// what is nil stays as it is.
type ConnectedAccountUpdate struct {
	// Alias sets the account's alias; "" clears it. The service refuses an
	// alias another account of the same user and toolkit has.
	Alias *string
	// State replaces the stored credentials (rotating the API key, password
	// or token of an API_KEY, BASIC or BEARER_TOKEN account in place).
	// State.Val is sent as given: the documents declare it a closed object
	// of the credential keys (token, api_key, username, password, ...), with
	// no status in it (unlike the initiate's val).
	State *ConnectionState
}

// UpdateConnectedAccount sends one v3.1 PATCH /connected_accounts/{id} with
// {"alias": ...} and/or {"connection": {"state": ...}}. The error never
// contains the credential values.
func (c *Client) UpdateConnectedAccount(ctx context.Context, id string, u ConnectedAccountUpdate) error {
	type connection struct {
		State ConnectionState `json:"state"`
	}
	var body struct {
		Alias      *string     `json:"alias,omitempty"`
		Connection *connection `json:"connection,omitempty"`
	}
	body.Alias = u.Alias
	if u.State != nil {
		state := *u.State
		if state.Val == nil {
			state.Val = map[string]any{}
		}
		body.Connection = &connection{State: state}
		defer c.reads.activate()() // new credentials may make the account ACTIVE again
	}
	return c.do(ctx, http.MethodPatch, "/connected_accounts/"+escape(id), nil, body, nil)
}
