package emulator

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// A callback URL is https, or http to a loopback host, on every route that
// takes one: anything else answers the 400 envelope naming the field, and
// nothing is stored.
func TestCallbackURLRule(t *testing.T) {
	e := newEnv(t, Options{})
	oauth := e.createManagedAC("github")
	session := newSession(t, e, map[string]any{"user_id": "u1", "toolkits": []any{"github"}})
	refreshed, _ := e.oauthAccount(oauth, "u-refresh", "")
	routes := []struct {
		field string
		send  func(cb string) resp
	}{
		{"connection.callback_url", func(cb string) resp {
			return e.do("POST", v+"/connected_accounts", map[string]any{"auth_config": map[string]any{"id": oauth},
				"connection": map[string]any{"user_id": "u1", "callback_url": cb}})
		}},
		{"connection.redirect_uri", func(cb string) resp {
			return e.do("POST", v+"/connected_accounts", map[string]any{"auth_config": map[string]any{"id": oauth},
				"connection": map[string]any{"user_id": "u1", "redirect_uri": cb}})
		}},
		{"callback_url", func(cb string) resp {
			return e.do("POST", v+"/connected_accounts/link", map[string]any{"auth_config_id": oauth, "user_id": "u1", "callback_url": cb})
		}},
		{"callback_url", func(cb string) resp {
			return e.do("POST", v+"/tool_router/session/"+session+"/link", map[string]any{"toolkit": "github", "callback_url": cb})
		}},
		{"manage_connections.callback_url", func(cb string) resp {
			return e.do("POST", v+"/tool_router/session", map[string]any{"user_id": "u1",
				"manage_connections": map[string]any{"enable": true, "callback_url": cb}})
		}},
		{"redirect_url", func(cb string) resp {
			return e.do("POST", v+"/connected_accounts/"+refreshed+"/refresh", map[string]any{"redirect_url": cb})
		}},
	}
	refused := []string{
		"javascript:alert(1)", "JavaScript:alert(document.cookie)", "data:text/html,<script>alert(1)</script>",
		"vbscript:msgbox(1)", "ftp://files.example/cb", "//evil.example/cb", "/relative/cb",
		"http://app.example/cb", "http://10.0.0.1/cb", "http://localhost.evil.example/cb",
	}
	accepted := []string{"https://app.example/cb?x=1", "http://localhost:3000/cb", "http://127.0.0.5/cb", "http://[::1]:8080/cb"}
	for _, rt := range routes {
		for _, cb := range refused {
			before := len(e.must(200, "GET", v+"/connected_accounts?limit=1000", nil).items())
			r := rt.send(cb)
			checkErr(t, r, http.StatusBadRequest, rt.field)
			if errs, _ := r.get("error", "errors").([]any); len(errs) != 1 || !strings.HasPrefix(errs[0].(string), rt.field+":") {
				t.Errorf("%s %q: errors %v, want one naming %s", rt.field, cb, r.get("error", "errors"), rt.field)
			}
			if r.str("error", "slug") != "ValidationError" {
				t.Errorf("%s %q: slug %q", rt.field, cb, r.str("error", "slug"))
			}
			if after := len(e.must(200, "GET", v+"/connected_accounts?limit=1000", nil).items()); after != before {
				t.Errorf("%s %q: %d accounts stored by a refused request", rt.field, cb, after-before)
			}
		}
		for _, cb := range accepted {
			if r := rt.send(cb); r.status >= 300 {
				t.Errorf("%s %q refused: %s", rt.field, cb, r.raw)
			}
		}
	}
	if r := e.do("POST", v+"/tool_router/session", map[string]any{"user_id": "u1",
		"manage_connections": map[string]any{"callback_url": 42}}); r.status != http.StatusBadRequest {
		t.Errorf("a callback_url that is not a string: %s", r.raw)
	}
}

// The consent page redirects only to a callback the API takes: an account
// stored with another scheme (an emulator data file written before the
// rule) gets the result page, never a Location to it.
func TestConsentNeverRedirectsToAnotherScheme(t *testing.T) {
	e := newEnv(t, Options{})
	ac := e.createManagedAC("github")
	for _, stored := range []string{"javascript:alert(1)", "data:text/html,x", "http://app.example/cb"} {
		id, redirect := e.oauthAccount(ac, "u1", "")
		e.srv.st.mu.Lock()
		e.srv.st.accounts[id].CallbackURL = stored
		e.srv.st.mu.Unlock()
		res, err := httpDo(noRedirectClient(), "POST", redirect+"/approve", "application/x-www-form-urlencoded", "decision=approve")
		if err != nil {
			t.Fatal(err)
		}
		page, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK || res.Header.Get("Location") != "" || !strings.Contains(string(page), "approved") {
			t.Errorf("stored callback %q: %d, Location %q", stored, res.StatusCode, res.Header.Get("Location"))
		}
		if strings.Contains(string(page), stored) {
			t.Errorf("stored callback %q appears in the result page", stored)
		}
	}
}
