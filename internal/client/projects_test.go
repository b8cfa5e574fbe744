package client

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

const testOrgKey = "org-test-SECRET-key-456"

func withOrgKey(cfg *Config) { cfg.OrgAPIKey = testOrgKey }

// Each request carries exactly one credential: the organization key on the
// /org/owner/project routes, the project key everywhere else.
func TestEachRequestCarriesOneCredential(t *testing.T) {
	c, rec := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/list") {
			writeJSON(w, 200, map[string]any{"data": []any{}, "total_pages": 1, "current_page": 1, "total_items": 0})
			return
		}
		writeJSON(w, 200, map[string]any{"id": "x", "name": "n", "api_key": "k"})
	}, withOrgKey)
	ctx := context.Background()
	if _, err := c.ListProjects(ctx, "", 0); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetAuthConfig(ctx, "ac_1"); err != nil {
		t.Fatal(err)
	}
	reqs := rec.all()
	org, proj := reqs[0].Header, reqs[1].Header
	if org.Get(HeaderOrgAPIKey) != testOrgKey || org.Get(HeaderAPIKey) != "" {
		t.Errorf("project list headers: x-org-api-key %q, x-api-key %q; want only the organization key", org.Get(HeaderOrgAPIKey), org.Get(HeaderAPIKey))
	}
	if proj.Get(HeaderAPIKey) != testAPIKey || proj.Get(HeaderOrgAPIKey) != "" {
		t.Errorf("auth config headers: x-api-key %q, x-org-api-key %q; want only the project key", proj.Get(HeaderAPIKey), proj.Get(HeaderOrgAPIKey))
	}
}

func TestOrganizationOperationWithoutOrgKeySendsNothing(t *testing.T) {
	c, rec := newTestClient(t, nil)
	_, err := c.CreateProject(context.Background(), CreateProjectRequest{Name: "staging"})
	var mc *MissingCredentialError
	if !errors.As(err, &mc) || !mc.Org {
		t.Fatalf("err = %v, want a *MissingCredentialError for the organization key", err)
	}
	if !strings.Contains(err.Error(), "x-org-api-key") {
		t.Errorf("error %q does not name the header", err)
	}
	if n := rec.count(); n != 0 {
		t.Errorf("%d requests sent, want none", n)
	}
}

func TestCredentialDefaultHeadersAreRefused(t *testing.T) {
	for _, h := range []string{"x-api-key", "X-Org-Api-Key", "x-user-api-key"} {
		if _, err := New(Config{BaseURL: "http://127.0.0.1:1", DefaultHeaders: map[string]string{h: "v"}}); err == nil || !strings.Contains(err.Error(), h) {
			t.Errorf("default header %s: err = %v, want a refusal naming it", h, err)
		}
	}
}

func TestOrgKeyIsRedactedFromErrors(t *testing.T) {
	c, _ := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 401, map[string]any{"error": map[string]any{"message": "bad key " + testOrgKey}})
	}, withOrgKey)
	_, err := c.GetProject(context.Background(), "pr_1")
	if err == nil || strings.Contains(err.Error(), testOrgKey) {
		t.Fatalf("err = %v; want an error without the organization key", err)
	}
}

func TestProjectsPagesByCursor(t *testing.T) {
	pages := map[string]map[string]any{
		"":   {"data": []any{map[string]any{"id": "pr_1", "name": "a"}}, "next_cursor": "c2", "total_pages": 2, "current_page": 1},
		"c2": {"data": []any{map[string]any{"id": "pr_2", "name": "b"}}, "next_cursor": nil, "total_pages": 2, "current_page": 2},
	}
	c, rec := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, pages[r.URL.Query().Get("cursor")])
	}, withOrgKey)
	var ids []string
	for p, err := range c.Projects(context.Background()) {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, p.ID)
	}
	if strings.Join(ids, ",") != "pr_1,pr_2" || rec.count() != 2 {
		t.Fatalf("ids %v after %d requests; want pr_1,pr_2 after 2", ids, rec.count())
	}
	if got := rec.all()[0].Query.Get("limit"); got != "50" {
		t.Errorf("limit = %q, want 50", got)
	}
}

func TestGetProjectDeletedIsNotFound(t *testing.T) {
	c, _ := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, map[string]any{"id": "pr_1", "name": "a", "deleted": true})
	}, withOrgKey)
	if _, err := c.GetProject(context.Background(), "pr_1"); !IsNotFound(err) {
		t.Fatalf("err = %v, want not found", err)
	}
}

// A create whose answer is lost is reconciled by name (a project of another
// name, and one of the same name made before the request, are not adopted)
// and, when a key was asked for, the adopted project's key is regenerated,
// so the caller gets a key; without should_create_api_key (its documented
// default is false) nothing is regenerated.
func TestCreateProjectReconcilesByNameAndRotatesTheKey(t *testing.T) {
	yes, no := true, false
	for name, c := range map[string]struct {
		ask    *bool
		regens int
	}{"key asked for": {&yes, 1}, "no key": {&no, 0}, "left out": {nil, 0}} {
		t.Run(name, func(t *testing.T) {
			var mu sync.Mutex
			var posts, lists, regens int
			old := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339Nano)
			data := []map[string]any{
				{"id": "pr_old", "name": "staging", "created_at": old, "deleted": true},
				{"id": "pr_other", "name": "staging-2", "created_at": time.Now().UTC().Format(time.RFC3339Nano)},
			}
			cl, _ := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				defer mu.Unlock()
				switch {
				case r.Method == http.MethodGet:
					lists++
					writeJSON(w, 200, map[string]any{"data": data, "total_pages": 1, "current_page": 1})
				case strings.HasSuffix(r.URL.Path, "/regenerate_api_key"):
					regens++
					if !strings.Contains(r.URL.Path, "/pr_new/") {
						t.Errorf("regenerated %s, want pr_new", r.URL.Path)
					}
					writeJSON(w, 200, map[string]any{"api_key": map[string]any{"id": "k2", "name": "default", "key": "new-key"}, "message": "ok"})
				default:
					posts++
					data = append(data, map[string]any{"id": "pr_new", "name": "staging", "created_at": time.Now().UTC().Format(time.RFC3339Nano)})
					hangUp(w, r)
				}
			}, withOrgKey)
			got, err := cl.CreateProject(context.Background(), CreateProjectRequest{Name: "staging", ShouldCreateAPIKey: c.ask})
			if err != nil {
				t.Fatal(err)
			}
			wantKey := c.regens == 1
			if got.ID != "pr_new" || !got.Adopted || (got.APIKey != nil) != wantKey || (wantKey && *got.APIKey != "new-key") {
				t.Fatalf("got %+v; want pr_new adopted, with the regenerated key: %v", got, wantKey)
			}
			if posts != 1 || lists != 1 || regens != c.regens {
				t.Fatalf("%d creates, %d lists, %d regenerations; want 1, 1, %d", posts, lists, regens, c.regens)
			}
		})
	}
}

func TestCreateWebhookEndpointTellsExistingFromNew(t *testing.T) {
	status := http.StatusCreated
	c, rec := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, status, map[string]any{"id": "we_1", "toolkit_slug": "slack", "client_id": "cid", "webhook_url": "https://x/y"})
	})
	ctx := context.Background()
	e, err := c.CreateWebhookEndpoint(ctx, "slack", "cid")
	if err != nil || e.Existing {
		t.Fatalf("201: %+v, %v; want a new endpoint", e, err)
	}
	status = http.StatusOK
	if e, err = c.CreateWebhookEndpoint(ctx, "slack", "cid"); err != nil || !e.Existing {
		t.Fatalf("200: %+v, %v; want the existing endpoint", e, err)
	}
	if body := string(rec.last(t).Body); !strings.Contains(body, `"toolkit_slug":"slack"`) || !strings.Contains(body, `"client_id":"cid"`) {
		t.Errorf("body = %s", body)
	}
}

// ProjectPage is one page of ListProjects.
type ProjectPage struct {
	Data        []Project `json:"data"`
	NextCursor  *string   `json:"next_cursor"`
	TotalPages  int       `json:"total_pages"`
	CurrentPage int       `json:"current_page"`
	TotalItems  int       `json:"total_items"`
}

// ListProjects returns one page of the organization's projects; cursor ""
// asks for the first, limit 0 for the service default.
func (c *Client) ListProjects(ctx context.Context, cursor string, limit int) (*ProjectPage, error) {
	q := url.Values{}
	if limit > 0 {
		q.Set("limit", strconv.Itoa(limit))
	}
	if cursor != "" {
		q.Set("cursor", cursor)
	}
	var out ProjectPage
	if err := c.do(ctx, http.MethodGet, projectsPath+"/list", q, nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
