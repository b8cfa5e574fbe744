package client

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"
)

// writeOp is one write operation of the client and the kind the write policy
// (transport.go) gives it.
type writeOp struct {
	name string
	kind opKind
	call func(ctx context.Context, c *Client) error
}

// allWriteOps lists every write the client sends. A new write operation must
// be added here with its kind.
var allWriteOps = []writeOp{
	{"UpdateAuthConfig", opIdempotent, func(ctx context.Context, c *Client) error {
		return c.UpdateAuthConfig(ctx, "ac_1", UpdateAuthConfigRequest{Name: ptr("n")})
	}},
	{"UpdateAuthConfigStatus", opIdempotent, func(ctx context.Context, c *Client) error { return c.DisableAuthConfig(ctx, "ac_1") }},
	{"DeleteAuthConfig", opDelete, func(ctx context.Context, c *Client) error { return c.DeleteAuthConfig(ctx, "ac_1") }},
	{"UpdateConnectedAccountStatus", opIdempotent, func(ctx context.Context, c *Client) error {
		return c.UpdateConnectedAccountStatus(ctx, "ca_1", false, "r")
	}},
	{"UpdateConnectedAccountCredentials", opIdempotent, func(ctx context.Context, c *Client) error {
		return c.UpdateConnectedAccountCredentials(ctx, "ca_1", ConnectionState{AuthScheme: "API_KEY", Val: map[string]any{"api_key": "k"}})
	}},
	{"DeleteConnectedAccount", opDelete, func(ctx context.Context, c *Client) error { return c.DeleteConnectedAccount(ctx, "ca_1") }},
	{"UpsertTrigger", opIdempotent, func(ctx context.Context, c *Client) error {
		_, err := c.UpsertTrigger(ctx, "GITHUB_COMMIT_EVENT", UpsertTriggerRequest{ConnectedAccountID: "ca_1"})
		return err
	}},
	{"EnableTrigger", opIdempotent, func(ctx context.Context, c *Client) error { return c.EnableTrigger(ctx, "ti_1") }},
	{"DisableTrigger", opIdempotent, func(ctx context.Context, c *Client) error { return c.DisableTrigger(ctx, "ti_1") }},
	{"DeleteTrigger", opDelete, func(ctx context.Context, c *Client) error { return c.DeleteTrigger(ctx, "ti_1") }},
	{"RefreshConnectedAccount", opCreate, func(ctx context.Context, c *Client) error {
		_, err := c.RefreshConnectedAccount(ctx, "ca_1", RefreshParams{})
		return err
	}},
	{"CreateToolRouterSession", opCreate, func(ctx context.Context, c *Client) error {
		_, err := c.CreateToolRouterSession(ctx, ToolRouterSessionRequest{UserID: "u"})
		return err
	}},
	{"UpsertCustomToolkit", opIdempotent, func(ctx context.Context, c *Client) error {
		_, err := c.UpsertCustomToolkit(ctx, "mytk", CustomToolkitConfig{})
		return err
	}},
	{"UpdateCustomToolkit", opIdempotent, func(ctx context.Context, c *Client) error {
		return c.UpdateCustomToolkit(ctx, "CUSTOM_MYTK", UpdateCustomToolkitRequest{Name: ptr("n")})
	}},
	{"SyncCustomToolkit", opIdempotent, func(ctx context.Context, c *Client) error {
		_, err := c.SyncCustomToolkit(ctx, "CUSTOM_MYTK", "")
		return err
	}},
	{"DeleteCustomToolkit", opDelete, func(ctx context.Context, c *Client) error { return c.DeleteCustomToolkit(ctx, "CUSTOM_MYTK") }},
	{"UpdateWebhookSubscription", opIdempotent, func(ctx context.Context, c *Client) error {
		_, err := c.UpdateWebhookSubscription(ctx, "ws_1", UpdateWebhookSubscriptionRequest{})
		return err
	}},
	{"DeleteWebhookSubscription", opDelete, func(ctx context.Context, c *Client) error { return c.DeleteWebhookSubscription(ctx, "ws_1") }},
	{"RotateWebhookSecret", opCreate, func(ctx context.Context, c *Client) error {
		_, err := c.RotateWebhookSecret(ctx, "ws_1")
		return err
	}},
	// The reconciled creates (auth config, connected account, link) are
	// covered one by one in reconcile_test.go, the custom toolkit create in
	// custom_toolkits_test.go.
}

// failFirst answers the first request with fail and every later one with ok.
func failFirst(fail, ok http.HandlerFunc) http.HandlerFunc {
	var n atomic.Int32
	return func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			fail(w, r)
			return
		}
		ok(w, r)
	}
}

func okTrigger(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, 200, map[string]any{"trigger_id": "ti_1", "id": "x", "status": "ACTIVE", "session_id": "s", "secret": "whsec", "slug": "CUSTOM_MYTK"})
}

// TestWritePolicyPerOperation: after a connection reset once the request was
// sent, every idempotent write and delete is retried and succeeds; every
// non-reconciled create is sent exactly once and reports an ambiguous failure.
func TestWritePolicyPerOperation(t *testing.T) {
	failures := map[string]http.HandlerFunc{
		"reset": hangUp,
		"502":   replyJSON(502, `{"error":{"message":"bad gateway"}}`),
		"503":   replyJSON(503, `{"error":{"message":"unavailable"}}`),
		"504":   replyJSON(504, `{"error":{"message":"gateway timeout"}}`),
		"429":   replyJSON(429, `{"error":{"message":"slow down"}}`),
		"500":   replyJSON(500, `{"error":{"message":"boom"}}`),
	}
	for _, op := range allWriteOps {
		for fname, fail := range failures {
			t.Run(op.name+"/"+fname, func(t *testing.T) {
				c, rec := newTestClient(t, failFirst(fail, okTrigger))
				err := op.call(context.Background(), c)
				switch {
				case fname == "500":
					if err == nil || rec.count() != 1 {
						t.Errorf("500: err=%v attempts=%d; want an error after exactly 1 attempt", err, rec.count())
					}
				case fname == "429" || op.kind != opCreate:
					if err != nil || rec.count() != 2 {
						t.Errorf("%s (%s): err=%v attempts=%d; want success after 2 attempts", op.kind, fname, err, rec.count())
					}
				default:
					if !IsAmbiguous(err) || rec.count() != 1 {
						t.Errorf("create (%s): err=%v attempts=%d; want an ambiguous error after exactly 1 attempt", fname, err, rec.count())
					}
				}
			})
		}
	}
}

// TestDeleteGoneOnRetryIsDone: a delete whose first attempt was sent and lost
// and whose retry finds the object gone (404, 410, 409 "already deleted")
// succeeds; a 409 for another reason stays an error.
func TestDeleteGoneOnRetryIsDone(t *testing.T) {
	for _, tc := range []struct {
		name    string
		retry   http.HandlerFunc
		wantErr bool
	}{
		{"404", replyJSON(404, `{"error":{"message":"Trigger not found"}}`), false},
		{"410", replyJSON(410, `{"error":{"message":"gone"}}`), false},
		{"409 already deleted", replyJSON(409, `{"error":{"message":"Connected account is already deleted"}}`), false},
		{"409 other", replyJSON(409, `{"error":{"message":"account has active triggers"}}`), true},
	} {
		for _, op := range allWriteOps {
			if op.kind != opDelete {
				continue
			}
			t.Run(op.name+"/"+tc.name, func(t *testing.T) {
				c, rec := newTestClient(t, failFirst(hangUp, tc.retry))
				err := op.call(context.Background(), c)
				if (err != nil) != tc.wantErr || rec.count() != 2 {
					t.Errorf("err=%v attempts=%d; want error=%v after 2 attempts", err, rec.count(), tc.wantErr)
				}
			})
		}
	}
}
