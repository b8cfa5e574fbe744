package client

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"maps"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Connected account statuses.
const (
	StatusInitializing = "INITIALIZING"
	StatusInitiated    = "INITIATED"
	StatusActive       = "ACTIVE"
	StatusFailed       = "FAILED"
	StatusExpired      = "EXPIRED"
	StatusInactive     = "INACTIVE"
	StatusRevoked      = "REVOKED"
)

// ConnectionState is the wire `{"authScheme": ..., "val": {...}}` object used
// for initiation state and an account's state.
type ConnectionState struct {
	AuthScheme string         `json:"authScheme"`
	Val        map[string]any `json:"val"`
}

// ConnectedAccountAuthConfig is the auth config summary inside an account.
type ConnectedAccountAuthConfig struct {
	ID                string `json:"id"`
	AuthScheme        string `json:"auth_scheme"`
	IsComposioManaged bool   `json:"is_composio_managed"`
	IsDisabled        bool   `json:"is_disabled"`
}

// ConnectedAccount is an account as returned by get and list.
type ConnectedAccount struct {
	ID           string `json:"id"`
	UserID       string `json:"user_id"`
	Status       string `json:"status"`
	StatusReason string `json:"status_reason"`
	CreatedAt    string `json:"created_at"`
	UpdatedAt    string `json:"updated_at"`
	IsDisabled   bool   `json:"is_disabled"`
	// Alias is the account's alias, unique per user and toolkit (nil when
	// it has none).
	Alias      *string                    `json:"alias"`
	Toolkit    ToolkitRef                 `json:"toolkit"`
	AuthConfig ConnectedAccountAuthConfig `json:"auth_config"`
	State      *ConnectionState           `json:"state"`
}

// ConnectedAccountListParams filters ListConnectedAccounts. Limit is the page
// size; all pages are read.
type ConnectedAccountListParams struct {
	UserIDs       []string
	ToolkitSlugs  []string
	AuthConfigIDs []string
	// ConnectedAccountIDs lists the accounts of these ids (the service's
	// connected_account_ids filter, newer than the contract's types).
	ConnectedAccountIDs []string
	Statuses            []string
	OrderBy             string
	OrderDirection      string
	// AccountType is the sharing model listed: PRIVATE (the service's
	// default when empty), SHARED or ALL.
	AccountType string
	Limit       int
}

func (p ConnectedAccountListParams) query() url.Values {
	q := url.Values{}
	setList(q, "user_ids", p.UserIDs)
	setList(q, "toolkit_slugs", p.ToolkitSlugs)
	setList(q, "auth_config_ids", p.AuthConfigIDs)
	setList(q, "connected_account_ids", p.ConnectedAccountIDs)
	setList(q, "statuses", p.Statuses)
	setString(q, "order_by", p.OrderBy)
	setString(q, "order_direction", p.OrderDirection)
	setString(q, "account_type", p.AccountType)
	setLimit(q, p.Limit)
	return q
}

// ConnectedAccountsIter iterates over all accounts matching p.
func (c *Client) ConnectedAccountsIter(ctx context.Context, p ConnectedAccountListParams) iter.Seq2[ConnectedAccount, error] {
	return paginate[ConnectedAccount](ctx, c, "/connected_accounts", p.query())
}

// ListConnectedAccounts returns all accounts matching p.
func (c *Client) ListConnectedAccounts(ctx context.Context, p ConnectedAccountListParams) ([]ConnectedAccount, error) {
	return collect(c.ConnectedAccountsIter(ctx, p))
}

// ConnectedAccountsPage reads the page of the accounts matching p at cursor
// ("" = the first page; p.Limit is the page size).
func (c *Client) ConnectedAccountsPage(ctx context.Context, p ConnectedAccountListParams, cursor string) (Page[ConnectedAccount], error) {
	return pageOf[ConnectedAccount](ctx, c, "/connected_accounts", p.query(), cursor)
}

// GetConnectedAccount fetches one account.
func (c *Client) GetConnectedAccount(ctx context.Context, id string) (*ConnectedAccount, error) {
	var out ConnectedAccount
	if err := c.do(ctx, http.MethodGet, "/connected_accounts/"+escape(id), nil, nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// InitiateConnectedAccountRequest creates an account. State carries
// pre-filled credentials (e.g. {AuthScheme:"API_KEY", Val:{"status":"ACTIVE","api_key":...}});
// nil starts a redirect (OAuth) flow.
type InitiateConnectedAccountRequest struct {
	AuthConfigID string
	UserID       string
	CallbackURL  string
	// Alias is sent as connection.alias when not empty (unique per user and
	// toolkit: the service refuses one another account of the user on the
	// toolkit has).
	Alias string
	State *ConnectionState
}

// ConnectionRequest is the initiate response.
type ConnectionRequest struct {
	ID          string
	Status      string
	RedirectURL string
}

type initiateWire struct {
	AuthConfig struct {
		ID string `json:"id"`
	} `json:"auth_config"`
	Connection struct {
		UserID      string           `json:"user_id,omitempty"`
		CallbackURL string           `json:"callback_url,omitempty"`
		Alias       string           `json:"alias,omitempty"`
		State       *ConnectionState `json:"state,omitempty"`
	} `json:"connection"`
}

// InitiateConnectedAccount creates a connected account (POST
// /connected_accounts). An ambiguous failure is reconciled by listing the
// accounts of the same user_id and auth_config_id created since the request
// was sent (see the write policy in transport.go).
func (c *Client) InitiateConnectedAccount(ctx context.Context, r InitiateConnectedAccountRequest) (*ConnectionRequest, error) {
	return createReconciled(ctx, c, reconcile[*ConnectionRequest]{
		What: "connected account",
		Key:  accountKey(r.UserID, r.AuthConfigID),
		Create: func(ctx context.Context) (*ConnectionRequest, error) {
			c.reads.creating(r.UserID, r.AuthConfigID)
			defer c.reads.expect(accountReads)()
			return c.initiateOnce(ctx, r)
		},
		ID: func(cr *ConnectionRequest) string { return cr.ID },
		Find: func(ctx context.Context, since time.Time) ([]*ConnectionRequest, error) {
			return accountsCreatedSince(ctx, c, r.UserID, r.AuthConfigID, since, func(a ConnectedAccount) *ConnectionRequest {
				cr := &ConnectionRequest{ID: a.ID, Status: a.Status}
				if a.State != nil {
					cr.RedirectURL, _ = a.State.Val["redirectUrl"].(string)
				}
				return cr
			})
		},
	})
}

// withInitialStatus returns state with val.status set when the caller left
// it out (the wire requires it): INITIALIZING for the redirect-based schemes
// (OAuth 1/2, DCR) without an access token, ACTIVE for credentials given
// up front. The caller's state is not modified.
func withInitialStatus(state *ConnectionState) *ConnectionState {
	if state == nil {
		return nil
	}
	if _, ok := state.Val["status"]; ok {
		return state
	}
	val := make(map[string]any, len(state.Val)+1)
	maps.Copy(val, state.Val)
	val["status"] = "ACTIVE"
	switch state.AuthScheme {
	case "OAUTH2", "OAUTH1", "DCR_OAUTH", "CIMD_OAUTH":
		if tok, _ := val["access_token"].(string); tok == "" {
			val["status"] = "INITIALIZING"
		}
	}
	return &ConnectionState{AuthScheme: state.AuthScheme, Val: val}
}

func accountKey(userID, authConfigID string) string {
	return fmt.Sprintf("user_id %q, auth_config_id %q", userID, authConfigID)
}

// accountsCreatedSince lists the accounts of userID on authConfigID created
// at or after since (the natural key of a connected account), each
// converted by as.
func accountsCreatedSince[T any](ctx context.Context, c *Client, userID, authConfigID string, since time.Time, as func(ConnectedAccount) T) ([]T, error) {
	all, err := c.ListConnectedAccounts(ctx, ConnectedAccountListParams{UserIDs: []string{userID}, AuthConfigIDs: []string{authConfigID}})
	if err != nil {
		return nil, err
	}
	out := []T{}
	for _, a := range all {
		if a.UserID == userID && a.AuthConfig.ID == authConfigID && createdSince(a.CreatedAt, since) {
			out = append(out, as(a))
		}
	}
	return out, nil
}

func (c *Client) initiateOnce(ctx context.Context, r InitiateConnectedAccountRequest) (*ConnectionRequest, error) {
	var body initiateWire
	body.AuthConfig.ID = r.AuthConfigID
	body.Connection.UserID = r.UserID
	body.Connection.CallbackURL = r.CallbackURL
	body.Connection.Alias = r.Alias
	body.Connection.State = withInitialStatus(r.State)
	var out struct {
		ID             string `json:"id"`
		Status         string `json:"status"`
		RedirectURL    string `json:"redirect_url"`
		RedirectURI    string `json:"redirect_uri"`
		ConnectionData *struct {
			Val map[string]any `json:"val"`
		} `json:"connectionData"`
	}
	if err := c.do(ctx, http.MethodPost, "/connected_accounts", nil, body, &out); err != nil {
		return nil, err
	}
	cr := &ConnectionRequest{ID: out.ID, Status: out.Status, RedirectURL: out.RedirectURL}
	if out.ConnectionData != nil && out.ConnectionData.Val != nil {
		if s, ok := out.ConnectionData.Val["status"].(string); ok && s != "" {
			cr.Status = s
		}
		if s, ok := out.ConnectionData.Val["redirectUrl"].(string); ok && s != "" && cr.RedirectURL == "" {
			cr.RedirectURL = s
		}
	}
	if cr.RedirectURL == "" {
		cr.RedirectURL = out.RedirectURI
	}
	return cr, nil
}

// LinkRequest creates a hosted authentication link.
type LinkRequest struct {
	AuthConfigID string `json:"auth_config_id"`
	UserID       string `json:"user_id"`
	CallbackURL  string `json:"callback_url,omitempty"`
	Alias        string `json:"alias,omitempty"`
}

// LinkResponse is the link response.
type LinkResponse struct {
	LinkToken          string `json:"link_token"`
	RedirectURL        string `json:"redirect_url"`
	ExpiresAt          string `json:"expires_at"`
	ConnectedAccountID string `json:"connected_account_id"`
}

// CreateConnectedAccountLink creates a hosted link (POST
// /connected_accounts/link), which also creates an INITIATED account. After an
// ambiguous failure the link token cannot be recovered, so an account of the
// same user_id and auth_config_id created since the request was sent is
// deleted and the link created again (see the write policy in transport.go).
func (c *Client) CreateConnectedAccountLink(ctx context.Context, r LinkRequest) (*LinkResponse, error) {
	return createReconciled(ctx, c, reconcile[*LinkResponse]{
		What: "connected account",
		Key:  accountKey(r.UserID, r.AuthConfigID),
		Create: func(ctx context.Context) (*LinkResponse, error) {
			c.reads.creating(r.UserID, r.AuthConfigID)
			return c.createLinkOnce(ctx, r)
		},
		ID: func(l *LinkResponse) string { return l.ConnectedAccountID },
		Find: func(ctx context.Context, since time.Time) ([]*LinkResponse, error) {
			return accountsCreatedSince(ctx, c, r.UserID, r.AuthConfigID, since, func(a ConnectedAccount) *LinkResponse {
				return &LinkResponse{ConnectedAccountID: a.ID}
			})
		},
		Discard: func(ctx context.Context, l *LinkResponse) error {
			err := c.DeleteConnectedAccount(ctx, l.ConnectedAccountID)
			if IsNotFound(err) {
				return nil
			}
			return err
		},
	})
}

func (c *Client) createLinkOnce(ctx context.Context, r LinkRequest) (*LinkResponse, error) {
	var out LinkResponse
	if err := c.do(ctx, http.MethodPost, "/connected_accounts/link", nil, r, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// UpdateConnectedAccountStatus sends PATCH /connected_accounts/{id}/status
// with {"enabled":b,"reason":r} (reason omitted when empty).
func (c *Client) UpdateConnectedAccountStatus(ctx context.Context, id string, enabled bool, reason string) error {
	body := struct {
		Enabled bool   `json:"enabled"`
		Reason  string `json:"reason,omitempty"`
	}{enabled, reason}
	if enabled {
		defer c.reads.activate()() // an enabled account may count as a duplicate
	}
	return c.do(ctx, http.MethodPatch, "/connected_accounts/"+escape(id)+"/status", nil, body, nil)
}

// DeleteConnectedAccount deletes an account, leaving its upstream tokens
// valid at the provider (DeleteConnectedAccountWith revokes them).
func (c *Client) DeleteConnectedAccount(ctx context.Context, id string) error {
	_, err := c.DeleteConnectedAccountWith(ctx, id, DeleteOptions{})
	return err
}

// DeleteOptions are the options of a delete that can revoke upstream
// credentials (connected accounts and auth configs).
type DeleteOptions struct {
	// RevokeOnDelete sends revoke_on_delete=true: the service also revokes
	// the upstream credentials (of the account, or of every account of the
	// auth config) in a background job.
	RevokeOnDelete bool
}

func (o DeleteOptions) query() url.Values {
	if !o.RevokeOnDelete {
		return nil
	}
	return url.Values{"revoke_on_delete": {"true"}}
}

// deleteAnswer is the body of a delete that can revoke: revoke_job_id is
// there when revoke_on_delete=true was sent.
type deleteAnswer struct {
	RevokeJobID string `json:"revoke_job_id"`
}

// DeleteConnectedAccountWith deletes an account (DELETE
// /connected_accounts/{id}) with o, returning the revoke job's id when the
// service started one.
func (c *Client) DeleteConnectedAccountWith(ctx context.Context, id string, o DeleteOptions) (revokeJobID string, err error) {
	var out deleteAnswer
	if err := c.do(ctx, http.MethodDelete, "/connected_accounts/"+escape(id), o.query(), nil, &out); err != nil {
		return "", err
	}
	return out.RevokeJobID, nil
}

// RevokeResult is the answer of RevokeConnectedAccount.
type RevokeResult struct {
	// RevokedTokens are the token subjects revoked at the provider by this
	// call (access_token, refresh_token, credential); empty when the account
	// was already REVOKED.
	RevokedTokens    []string `json:"revoked_tokens"`
	ConnectedAccount struct {
		ID     string `json:"id"`
		Status string `json:"status"`
	} `json:"connected_account"`
}

// RevokeConnectedAccount revokes the account's upstream tokens at the
// provider (POST /connected_accounts/{id}/revoke, no body); the account
// stays, REVOKED. The service answers 400 when the toolkit cannot revoke, 404
// for an unknown account and 409 unless the account is ACTIVE or already
// REVOKED. It is an idempotent write: revoking a REVOKED account answers 200
// with no tokens, so a repeat after a lost answer does no harm.
func (c *Client) RevokeConnectedAccount(ctx context.Context, id string) (*RevokeResult, error) {
	var out RevokeResult
	if err := c.doKind(ctx, opIdempotent, http.MethodPost, "/connected_accounts/"+escape(id)+"/revoke", nil, nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// IsTerminalFailure reports FAILED, EXPIRED and REVOKED.
func IsTerminalFailure(status string) bool {
	switch strings.ToUpper(status) {
	case StatusFailed, StatusExpired, StatusRevoked:
		return true
	}
	return false
}

// WaitForConnection polls GET /connected_accounts/{id} (once at once, then
// every Config.PollInterval) until the account is ACTIVE. FAILED, EXPIRED and
// REVOKED fail fast with an error wrapping ErrConnectionFailed (including
// status_reason). The deadline is the earlier of ctx's and timeout (<=0 ⇒
// 60s); reaching it yields an error wrapping ErrWaitTimeout. Other API errors
// (e.g. 404) are returned as they are.
func (c *Client) WaitForConnection(ctx context.Context, id string, timeout time.Duration) (*ConnectedAccount, error) {
	if timeout <= 0 {
		timeout = DefaultWaitTimeout
	}
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	lastStatus := ""
	timedOut := func(err error) error {
		if errors.Is(parent.Err(), context.Canceled) {
			return err
		}
		if lastStatus == "" {
			return fmt.Errorf("%w: connected account %s did not become ACTIVE within %s", ErrWaitTimeout, id, timeout)
		}
		return fmt.Errorf("%w: connected account %s is still %s after %s", ErrWaitTimeout, id, lastStatus, timeout)
	}
	t := time.NewTimer(c.cfg.PollInterval)
	t.Stop()
	defer t.Stop()
	for {
		acct, err := c.GetConnectedAccount(ctx, id)
		if err != nil {
			if ctx.Err() != nil {
				return nil, timedOut(err)
			}
			return nil, err
		}
		lastStatus = acct.Status
		switch {
		case strings.EqualFold(acct.Status, StatusActive):
			return acct, nil
		case IsTerminalFailure(acct.Status):
			msg := fmt.Sprintf("connected account %s is %s", id, acct.Status)
			if acct.StatusReason != "" {
				msg += ": " + acct.StatusReason
			}
			return acct, fmt.Errorf("%w: %s", ErrConnectionFailed, msg)
		}
		t.Reset(c.cfg.PollInterval)
		select {
		case <-ctx.Done():
			return nil, timedOut(ctx.Err())
		case <-t.C:
		}
	}
}
