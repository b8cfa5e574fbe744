package emulator

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
)

type callbackRecorder struct {
	mu    sync.Mutex
	hits  []url.Values
	event chan url.Values
}

func newCallback(t *testing.T) (*callbackRecorder, *httptest.Server) {
	rec := &callbackRecorder{event: make(chan url.Values, 4)}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec.mu.Lock()
		rec.hits = append(rec.hits, r.URL.Query())
		rec.mu.Unlock()
		rec.event <- r.URL.Query()
		w.Header().Set("Content-Type", "text/html")
		_, _ = io.WriteString(w, "<html><body>callback reached</body></html>")
	}))
	t.Cleanup(ts.Close)
	return rec, ts
}

func httpDo(c *http.Client, method, u, contentType, body string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(context.Background(), method, u, strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	return c.Do(req)
}

func noRedirectClient() *http.Client {
	return &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

func TestConsentPageApproveDenyHTTP(t *testing.T) {
	e := newEnv(t, Options{})
	ac := e.createManagedAC("github")
	id, redirect := e.oauthAccount(ac, "u1", "https://app.example/cb?x=1")
	res, err := httpDo(http.DefaultClient, "GET", redirect, "", "")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(res.Header.Get("Content-Type"), "text/html") ||
		!strings.Contains(string(page), `id="approve"`) || !strings.Contains(string(page), `id="deny"`) || !strings.Contains(string(page), "GitHub") {
		t.Fatalf("consent page %d: %s", res.StatusCode, page)
	}
	res, err = httpDo(noRedirectClient(), "POST", redirect+"/approve", "application/x-www-form-urlencoded", "decision=approve")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	loc, _ := url.Parse(res.Header.Get("Location"))
	if res.StatusCode != http.StatusSeeOther || loc.Host != "app.example" || loc.Query().Get("status") != "success" ||
		loc.Query().Get("connected_account_id") != id || loc.Query().Get("x") != "1" {
		t.Fatalf("approve redirect %d %q", res.StatusCode, loc)
	}
	a := e.must(200, "GET", v+"/connected_accounts/"+id, nil)
	if a.str("status") != "ACTIVE" || !strings.HasPrefix(a.str("state", "val", "access_token"), "emu_at_") {
		t.Fatal(a.raw)
	}
	// the link is single-use
	res, _ = httpDo(http.DefaultClient, "GET", redirect, "", "")
	res.Body.Close()
	if res.StatusCode != 404 {
		t.Fatalf("reused link: %d", res.StatusCode)
	}

	id2, redirect2 := e.oauthAccount(ac, "u2", "")
	res, err = httpDo(http.DefaultClient, "POST", redirect2+"/deny", "application/x-www-form-urlencoded", "")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(body), "denied") {
		t.Fatalf("deny page: %d %s", res.StatusCode, body)
	}
	if a := e.must(200, "GET", v+"/connected_accounts/"+id2, nil); a.str("status") != "FAILED" || a.str("status_reason") == "" {
		t.Fatal(a.raw)
	}
	res, _ = httpDo(http.DefaultClient, "GET", e.ts.URL+"/oauth/consent/unknown", "", "")
	res.Body.Close()
	if res.StatusCode != 404 {
		t.Fatalf("unknown token: %d", res.StatusCode)
	}
}

func TestHostedLinkForAPIKeyAsksForFields(t *testing.T) {
	e := newEnv(t, Options{})
	ac := e.createCustomAC("stripe", "API_KEY", nil)
	l := e.must(201, "POST", v+"/connected_accounts/link", map[string]any{"auth_config_id": ac, "user_id": "u"})
	res, _ := httpDo(http.DefaultClient, "GET", l.str("redirect_url"), "", "")
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !strings.Contains(string(page), `name="api_key"`) {
		t.Fatalf("link page lacks api_key input: %s", page)
	}
	res, _ = httpDo(http.DefaultClient, "POST", l.str("redirect_url")+"/approve", "application/x-www-form-urlencoded", "")
	res.Body.Close()
	if res.StatusCode != 400 {
		t.Fatalf("approve without api_key: %d", res.StatusCode)
	}
	res, _ = httpDo(http.DefaultClient, "POST", l.str("redirect_url")+"/approve", "application/x-www-form-urlencoded", url.Values{"api_key": {"sk_live"}}.Encode())
	res.Body.Close()
	a := e.must(200, "GET", v+"/connected_accounts/"+l.str("connected_account_id"), nil)
	if res.StatusCode != 200 || a.str("status") != "ACTIVE" || a.str("state", "val", "api_key") != "********" {
		t.Fatalf("%d %s", res.StatusCode, a.raw)
	}
}
