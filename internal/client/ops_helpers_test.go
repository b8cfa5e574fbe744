package client

import (
	"context"
	"net/http"
	"testing"
)

// opCase describes one client operation: what it must send and what the
// fake server answers.
type opCase struct {
	name      string
	call      func(ctx context.Context, c *Client) (any, error)
	status    int
	reply     string
	method    string
	path      string
	query     map[string]string
	body      string // expected JSON body ("" = none)
	checkResp func(t *testing.T, got any)
}

func runOpCases(t *testing.T, cases []opCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			status := tc.status
			if status == 0 {
				status = http.StatusOK
			}
			reply := tc.reply
			if reply == "" {
				reply = "{}"
			}
			c, rec := newTestClient(t, replyJSON(status, reply))
			got, err := tc.call(context.Background(), c)
			if err != nil {
				t.Fatalf("call failed: %v", err)
			}
			reqs := rec.all()
			if len(reqs) != 1 {
				t.Fatalf("requests = %d, want 1", len(reqs))
			}
			r := reqs[0]
			if r.Method != tc.method || r.Path != tc.path {
				t.Errorf("request = %s %s, want %s %s", r.Method, r.Path, tc.method, tc.path)
			}
			if tc.query == nil {
				tc.query = map[string]string{}
			}
			assertQuery(t, r.Query, tc.query)
			assertJSON(t, r.Body, tc.body)
			if r.Header.Get("X-Api-Key") != testAPIKey {
				t.Error("x-api-key missing")
			}
			if tc.checkResp != nil {
				tc.checkResp(t, got)
			}
		})
	}
}

// checkRevokeJobID is an opCase's checkResp: the answer is the revoke job id
// want.
func checkRevokeJobID(want string) func(t *testing.T, got any) {
	return func(t *testing.T, got any) {
		if got.(string) != want {
			t.Errorf("revoke job id %q", got)
		}
	}
}
