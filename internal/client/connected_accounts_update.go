package client

import (
	"context"
	"net/http"
)

// UpdateConnectedAccountCredentials replaces the stored credentials of an
// account (v3.1 PATCH /connected_accounts/{id} with
// {"connection":{"state":{"authScheme":...,"val":{...}}}}). Use it to rotate
// the API key, password or token of an API_KEY, BASIC or BEARER_TOKEN account
// in place. state.Val holds the credential fields; a "status" key, when
// present, is sent as given. The error never contains the credential values.
func (c *Client) UpdateConnectedAccountCredentials(ctx context.Context, id string, state ConnectionState) error {
	if state.Val == nil {
		state.Val = map[string]any{}
	}
	var body struct {
		Connection struct {
			State ConnectionState `json:"state"`
		} `json:"connection"`
	}
	body.Connection.State = state
	return c.do(ctx, http.MethodPatch, "/connected_accounts/"+escape(id), nil, body, nil)
}
