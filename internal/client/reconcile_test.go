package client

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflogtest"
)

// fakeStore is a tiny service keeping auth configs and connected accounts. A
// create commits the object and then answers, or (crashNext > 0) drops the
// connection after committing; listDown > 0 makes the next list requests fail
// with a reset, like a service that is restarting. A list answers the objects
// matching its filters (user_ids, auth_config_ids, toolkit_slug), like the
// service, or every object when ignoreQuery is set (a service whose list
// ignores a filter: the client's own check of the natural key must hold).
type fakeStore struct {
	mu          sync.Mutex
	objs        []map[string]any
	n           int
	crashNext   int
	listDown    int
	creates     int
	deletes     []string
	ignoreQuery bool
}

// matches reports whether obj passes the list filters of q.
func matches(obj map[string]any, q url.Values) bool {
	nested := func(key string) string {
		m, _ := obj[key].(map[string]any)
		s, _ := m["id"].(string)
		if s == "" {
			s, _ = m["slug"].(string)
		}
		return s
	}
	for param, value := range map[string]string{
		"user_ids":        fmt.Sprint(obj["user_id"]),
		"auth_config_ids": nested("auth_config"),
		"toolkit_slug":    nested("toolkit"),
	} {
		if want := q.Get(param); want != "" && !slices.Contains(strings.Split(want, ","), value) {
			return false
		}
	}
	return true
}

func (f *fakeStore) handler(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	switch r.Method {
	case http.MethodGet:
		if f.listDown > 0 {
			f.listDown--
			f.mu.Unlock()
			hangUp(w, r)
			return
		}
		items := []map[string]any{}
		for _, o := range f.objs {
			if f.ignoreQuery || matches(o, r.URL.Query()) {
				items = append(items, o)
			}
		}
		f.mu.Unlock()
		writeJSON(w, 200, map[string]any{"items": items, "next_cursor": nil})
		return
	case http.MethodDelete:
		id := r.URL.Path[strings.LastIndex(r.URL.Path, "/")+1:]
		f.deletes = append(f.deletes, id)
		for i, o := range f.objs {
			if o["id"] == id {
				f.objs = append(f.objs[:i], f.objs[i+1:]...)
				break
			}
		}
		f.mu.Unlock()
		writeJSON(w, 200, map[string]any{})
		return
	}
	f.creates++
	f.n++
	now := time.Now().UTC().Format(time.RFC3339Nano)
	var obj, reply map[string]any
	switch {
	case strings.HasSuffix(r.URL.Path, "/auth_configs"):
		id := fmt.Sprintf("ac_%d", f.n)
		obj = map[string]any{"id": id, "name": "ci", "toolkit": map[string]any{"slug": "github"}, "is_composio_managed": true, "created_at": now, "auth_scheme": "OAUTH2"}
		reply = map[string]any{"toolkit": map[string]any{"slug": "github"}, "auth_config": map[string]any{"id": id, "auth_scheme": "OAUTH2", "is_composio_managed": true}}
	default: // connected account (auth_config.id, connection.user_id) or link (auth_config_id, user_id)
		var body struct {
			AuthConfigID string `json:"auth_config_id"`
			UserID       string `json:"user_id"`
			AuthConfig   struct {
				ID string `json:"id"`
			} `json:"auth_config"`
			Connection struct {
				UserID string `json:"user_id"`
			} `json:"connection"`
		}
		_ = json.NewDecoder(r.Body).Decode(&body)
		user, ac := cmp.Or(body.Connection.UserID, body.UserID, "u1"), cmp.Or(body.AuthConfig.ID, body.AuthConfigID, "ac_1")
		id := fmt.Sprintf("ca_%d", f.n)
		obj = map[string]any{"id": id, "user_id": user, "auth_config": map[string]any{"id": ac}, "status": "ACTIVE", "created_at": now}
		reply = map[string]any{"id": id, "status": "ACTIVE", "connected_account_id": id, "redirect_url": "https://x/link"}
	}
	f.objs = append(f.objs, obj)
	crash := f.crashNext > 0
	if crash {
		f.crashNext--
	}
	f.mu.Unlock()
	if crash {
		hangUp(w, r)
		return
	}
	writeJSON(w, 201, reply)
}

func (f *fakeStore) add(obj map[string]any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.objs = append(f.objs, obj)
}

func (f *fakeStore) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.objs)
}

func acReq() CreateAuthConfigRequest {
	return CreateAuthConfigRequest{ToolkitSlug: "github", Name: "ci"}
}

func TestCreateAuthConfigReconcilesAfterCommitThenReset(t *testing.T) {
	f := &fakeStore{crashNext: 1, listDown: 6}
	c, rec := newTestClient(t, f.handler)
	got, err := c.CreateAuthConfig(context.Background(), acReq())
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != "ac_1" || f.creates != 1 || f.count() != 1 {
		t.Errorf("id=%s creates=%d objects=%d; want the committed ac_1 adopted, one create, one object", got.ID, f.creates, f.count())
	}
	var lists int
	for _, r := range rec.all() {
		if r.Method == http.MethodGet {
			lists++
			if r.Query.Get("toolkit_slug") != "github" {
				t.Errorf("reconcile list query = %v, want toolkit_slug=github", r.Query)
			}
		}
	}
	// 6 resets outlast one read's retries (1+4 attempts): the reconciliation
	// kept trying until the "restarted" service answered.
	if lists != 7 {
		t.Errorf("list requests = %d, want 7", lists)
	}
}

func TestCreateAuthConfigCreatesAgainWhenNothingWasCommitted(t *testing.T) {
	f := &fakeStore{}
	var n int
	c, _ := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			n++
			if n == 1 { // lost before the service stored anything
				hangUp(w, r)
				return
			}
		}
		f.handler(w, r)
	})
	got, err := c.CreateAuthConfig(context.Background(), acReq())
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != "ac_1" || f.count() != 1 || n != 2 {
		t.Errorf("id=%s objects=%d posts=%d; want ac_1, 1, 2", got.ID, f.count(), n)
	}
}

func TestCreateAuthConfigIgnoresOlderAndOtherObjects(t *testing.T) {
	f := &fakeStore{crashNext: 1}
	old := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339Nano)
	now := time.Now().UTC().Format(time.RFC3339Nano)
	f.add(map[string]any{"id": "ac_old", "name": "ci", "toolkit": map[string]any{"slug": "github"}, "is_composio_managed": true, "created_at": old})
	f.add(map[string]any{"id": "ac_other", "name": "other", "toolkit": map[string]any{"slug": "github"}, "is_composio_managed": true, "created_at": now})
	f.add(map[string]any{"id": "ac_custom", "name": "ci", "toolkit": map[string]any{"slug": "github"}, "is_composio_managed": false, "created_at": now})
	c, _ := newTestClient(t, f.handler)
	got, err := c.CreateAuthConfig(context.Background(), acReq())
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != "ac_1" || f.creates != 1 {
		t.Errorf("id=%s creates=%d; want ac_1 adopted after one create", got.ID, f.creates)
	}
}

func TestCreateAuthConfigSeveralCandidatesFails(t *testing.T) {
	f := &fakeStore{crashNext: 1}
	f.add(map[string]any{"id": "ac_twin", "name": "ci", "toolkit": map[string]any{"slug": "github"}, "is_composio_managed": true,
		"created_at": time.Now().Add(time.Second).UTC().Format(time.RFC3339Nano)})
	c, _ := newTestClient(t, f.handler)
	_, err := c.CreateAuthConfig(context.Background(), acReq())
	if err == nil || !strings.Contains(err.Error(), "ac_twin") || !strings.Contains(err.Error(), "ac_1") || !strings.Contains(err.Error(), `name "ci"`) {
		t.Fatalf("err = %v; want one naming both candidates and the natural key", err)
	}
	if f.creates != 1 {
		t.Errorf("creates = %d, want 1", f.creates)
	}
}

func TestCreateReconciledNeverAdoptsItsOwnObjectTwice(t *testing.T) {
	f := &fakeStore{}
	c, _ := newTestClient(t, f.handler)
	first, err := c.CreateAuthConfig(context.Background(), acReq())
	if err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	f.crashNext = 1
	f.mu.Unlock()
	second, err := c.CreateAuthConfig(context.Background(), acReq())
	if err != nil {
		t.Fatal(err)
	}
	if first.ID == second.ID || second.ID != "ac_2" {
		t.Errorf("first=%s second=%s; want the second create to adopt ac_2, not the first's object", first.ID, second.ID)
	}
}

func TestCreateReconciledListNeverRecovers(t *testing.T) {
	f := &fakeStore{crashNext: 1, listDown: 1000}
	c, _ := newTestClient(t, f.handler)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, err := c.CreateAuthConfig(ctx, acReq())
	if err == nil || !IsAmbiguous(err) || !strings.Contains(err.Error(), "reconciling it failed") || !strings.Contains(err.Error(), "import") {
		t.Fatalf("err = %v; want the ambiguous create, the failed reconciliation and what to do", err)
	}
}

// addForeignAccounts adds, created now, an account of another user on ac_1
// and one of the same user u1 on another auth config, ac_2: neither has the
// natural key (u1, ac_1) of the create under test.
func addForeignAccounts(f *fakeStore) {
	now := time.Now().UTC().Format(time.RFC3339Nano)
	f.add(map[string]any{"id": "ca_other_user", "user_id": "u2", "auth_config": map[string]any{"id": "ac_1"}, "status": "ACTIVE", "created_at": now})
	f.add(map[string]any{"id": "ca_other_auth_config", "user_id": "u1", "auth_config": map[string]any{"id": "ac_2"}, "status": "ACTIVE", "created_at": now})
}

// TestInitiateConnectedAccountReconciles: the reconciliation lists by user_id
// and auth_config_id and adopts only the account with both, whether the
// service applies the list filters or ignores them.
func TestInitiateConnectedAccountReconciles(t *testing.T) {
	for _, ignoreQuery := range []bool{false, true} {
		t.Run(fmt.Sprintf("service ignores the list filters=%v", ignoreQuery), func(t *testing.T) {
			f := &fakeStore{crashNext: 1, listDown: 2, ignoreQuery: ignoreQuery}
			addForeignAccounts(f)
			c, rec := newTestClient(t, f.handler)
			got, err := c.InitiateConnectedAccount(context.Background(), InitiateConnectedAccountRequest{AuthConfigID: "ac_1", UserID: "u1"})
			if err != nil {
				t.Fatal(err)
			}
			if got.ID != "ca_1" || f.creates != 1 {
				t.Errorf("id=%s creates=%d; want ca_1 adopted after one create", got.ID, f.creates)
			}
			last := rec.last(t)
			if last.Query.Get("user_ids") != "u1" || last.Query.Get("auth_config_ids") != "ac_1" {
				t.Errorf("reconcile list query = %v, want user_ids=u1 and auth_config_ids=ac_1", last.Query)
			}
		})
	}
}

func TestCreateLinkDiscardsTheUnreachableAccountAndCreatesAgain(t *testing.T) {
	for _, ignoreQuery := range []bool{false, true} {
		t.Run(fmt.Sprintf("service ignores the list filters=%v", ignoreQuery), func(t *testing.T) {
			f := &fakeStore{crashNext: 1, ignoreQuery: ignoreQuery}
			addForeignAccounts(f)
			c, _ := newTestClient(t, f.handler)
			got, err := c.CreateConnectedAccountLink(context.Background(), LinkRequest{AuthConfigID: "ac_1", UserID: "u1"})
			if err != nil {
				t.Fatal(err)
			}
			if got.ConnectedAccountID != "ca_2" || got.RedirectURL == "" || f.creates != 2 || f.count() != 3 ||
				len(f.deletes) != 1 || f.deletes[0] != "ca_1" {
				t.Errorf("link=%+v creates=%d objects=%d deletes=%v; want only ca_1 deleted, ca_2 made with a link, "+
					"the other user's and the other auth config's accounts kept", got, f.creates, f.count(), f.deletes)
			}
		})
	}
}

func TestCreateReconciledStopsAfterRepeatedLostCreates(t *testing.T) {
	posts := 0
	c, _ := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			posts++
			hangUp(w, r)
			return
		}
		writeJSON(w, 200, map[string]any{"items": []any{}})
	})
	_, err := c.CreateAuthConfig(context.Background(), acReq())
	if !IsAmbiguous(err) || posts != maxCreateRounds {
		t.Fatalf("err=%v posts=%d; want an ambiguous error after %d creates", err, posts, maxCreateRounds)
	}
	var ae *AmbiguousWriteError
	if !errors.As(err, &ae) || ae.SentAt.IsZero() || ae.Method != http.MethodPost {
		t.Errorf("AmbiguousWriteError = %+v", ae)
	}
}

// TestWritePolicyLogged: the ambiguous create, each reconciliation step and
// its outcome, each retry and a delete treated as done all appear at DEBUG.
func TestWritePolicyLogged(t *testing.T) {
	f := &fakeStore{crashNext: 1, listDown: 5}
	c, _ := newTestClient(t, f.handler)
	var buf bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &buf)
	if _, err := c.CreateAuthConfig(ctx, acReq()); err != nil {
		t.Fatal(err)
	}
	d, _ := newTestClient(t, failFirst(hangUp, replyJSON(404, `{"error":{"message":"not found"}}`)))
	if err := d.DeleteTrigger(ctx, "ti_1"); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"service API create failed ambiguously",
		"service API reconciling an ambiguous create",
		"service API reconciliation list failed; the service may be restarting",
		"service API request will be retried",
		"service API reconciliation adopted the object the ambiguous create made",
		`"natural_key":"toolkit \"github\", name \"ci\""`,
		"service API delete treated as done",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("DEBUG log lacks %q", want)
		}
	}
	if strings.Contains(out, testAPIKey) {
		t.Error("log contains the API key")
	}
}
