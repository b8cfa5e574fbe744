package emulator

import (
	"encoding/json"
	"html/template"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// The consent page is what redirect_url (OAuth initiation) and hosted links
// open: a small HTML page with Approve and Deny buttons. Approve makes the
// account ACTIVE (OAuth accounts get a fake access_token) and redirects to the
// callback URL with ?status=success&connected_account_id=...; Deny makes it
// FAILED and redirects with ?status=failed. Without a callback URL a result
// page is shown. Hosted links for credential schemes ask for the scheme's
// initiation fields.

var consentTmpl = template.Must(template.New("consent").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Connect {{.Toolkit}}</title>
<style>body{font-family:sans-serif;max-width:32rem;margin:3rem auto}button{font-size:1rem;padding:.5rem 1.5rem;margin-right:1rem}label{display:block;margin:.5rem 0}</style>
</head><body>
<h1>Connect {{.Toolkit}}</h1>
<p>The application wants to connect your <strong>{{.Toolkit}}</strong> account for user <code>{{.UserID}}</code>
using <code>{{.Scheme}}</code> (auth config <code>{{.AuthConfigID}}</code>, account <code>{{.AccountID}}</code>).</p>
{{if .Scopes}}<p>Requested scopes: <code>{{.Scopes}}</code></p>{{end}}
<form method="post" action="{{.Action}}/approve" id="approve-form">
{{range .Fields}}<label>{{.DisplayName}}{{if .Required}} *{{end}} <input name="{{.Name}}" {{if .Secret}}type="password"{{else}}type="text"{{end}} {{if .Required}}required{{end}}></label>
{{end}}<button type="submit" id="approve" name="decision" value="approve">Approve</button>
<button type="submit" id="deny" formaction="{{.Action}}/deny" formnovalidate name="decision" value="deny">Deny</button>
</form>
<p><small>service-emulator consent page</small></p>
</body></html>`))

var resultTmpl = template.Must(template.New("result").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Title}}</title></head><body>
<h1 id="result">{{.Title}}</h1><p>{{.Message}}</p><p>Account <code id="account">{{.AccountID}}</code> status <code id="status">{{.Status}}</code>.</p>
</body></html>`))

type consentField struct {
	Name, DisplayName string
	Required, Secret  bool
}

func (s *Server) registerConsentPages() {
	for _, prefix := range []string{"/oauth/consent/{token}", "/link/{token}"} {
		s.mux.HandleFunc("GET "+prefix, s.consentPage)
		s.mux.HandleFunc("POST "+prefix+"/approve", s.consentDecision(true))
		s.mux.HandleFunc("POST "+prefix+"/deny", s.consentDecision(false))
	}
	s.mux.HandleFunc("GET /oauth/client-metadata/{toolkit}", s.clientMetadataDocument)
}

// cimdClientID is the client_id of a CIMD_OAUTH account of toolkit: the URL of
// the client ID metadata document the emulator serves for it (with CIMD the
// client_id is that document's HTTPS URL; the emulator serves it on its own
// origin).
func cimdClientID(origin, toolkit string) string {
	return origin + "/oauth/client-metadata/" + toolkit
}

// clientMetadataDocument serves the client ID metadata document of a
// toolkit's CIMD_OAUTH flow (draft-ietf-oauth-client-id-metadata-document):
// its client_id is its own URL; its redirect URI is the consent page's
// origin.
func (s *Server) clientMetadataDocument(w http.ResponseWriter, r *http.Request) {
	origin := s.origin(r)
	tk := r.PathValue("toolkit")
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"client_id": cimdClientID(origin, tk), "client_name": "service-emulator (" + tk + ")",
		"redirect_uris": []string{origin + "/oauth/callback"}, "grant_types": []string{"authorization_code", "refresh_token"},
		"response_types": []string{"code"}, "token_endpoint_auth_method": "none",
	})
}

// accountByConsent finds the account waiting on token; callers hold st.mu.
func (s *Server) accountByConsent(token string) *ConnectedAccount {
	if token == "" {
		return nil
	}
	for _, a := range s.st.accounts {
		if a.ConsentToken == token {
			return a
		}
	}
	return nil
}

func (s *Server) htmlResult(w http.ResponseWriter, status int, title, msg string, a *ConnectedAccount) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	data := map[string]string{"Title": title, "Message": msg}
	if a != nil {
		data["AccountID"], data["Status"] = a.ID, a.Status
	}
	_ = resultTmpl.Execute(w, data)
}

func linkExpired(a *ConnectedAccount) bool {
	if a.LinkExpiresAt == "" || a.LinkToken != a.ConsentToken {
		return false
	}
	t, err := time.Parse("2006-01-02T15:04:05.000Z", a.LinkExpiresAt)
	return err == nil && time.Now().After(t)
}

func (s *Server) consentFields(a *ConnectedAccount) []consentField {
	if a.AuthScheme == "OAUTH2" || a.AuthScheme == "OAUTH1" {
		return nil
	}
	tk := s.toolkitDef(a.Project, a.ToolkitSlug)
	if tk == nil {
		return nil
	}
	sc, ok := tk.scheme(a.AuthScheme)
	if !ok {
		return nil
	}
	var out []consentField
	for _, f := range sc.InitRequired {
		out = append(out, consentField{f.Name, f.DisplayName, true, f.Secret})
	}
	for _, f := range sc.InitOptional {
		out = append(out, consentField{f.Name, f.DisplayName, false, f.Secret})
	}
	return out
}

func (s *Server) consentPage(w http.ResponseWriter, r *http.Request) {
	s.countRequest(r)
	token := r.PathValue("token")
	s.st.mu.RLock()
	a := s.accountByConsent(token)
	var scopes string
	if a != nil {
		if ac, ok := s.st.authConfigs[a.AuthConfigID]; ok {
			switch v := ac.Credentials["scopes"].(type) {
			case string:
				scopes = v
			case []any:
				parts := make([]string, 0, len(v))
				for _, p := range v {
					if ps, ok := p.(string); ok {
						parts = append(parts, ps)
					}
				}
				scopes = strings.Join(parts, ",")
			}
		}
	}
	s.st.mu.RUnlock()
	if a == nil || a.Status != StatusInitiated {
		s.htmlResult(w, http.StatusNotFound, "Link not valid", "This connection link is unknown or was already used.", a)
		return
	}
	if linkExpired(a) {
		s.htmlResult(w, http.StatusGone, "Link expired", "This connection link has expired.", a)
		return
	}
	tk := a.ToolkitSlug
	if def := s.cat.bySlug[tk]; def != nil {
		tk = def.Name
	}
	action := strings.TrimSuffix(r.URL.Path, "/")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	_ = consentTmpl.Execute(w, map[string]any{
		"Toolkit": tk, "UserID": a.UserID, "Scheme": a.AuthScheme, "AuthConfigID": a.AuthConfigID,
		"AccountID": a.ID, "Scopes": scopes, "Action": action, "Fields": s.consentFields(a),
	})
}

func (s *Server) consentDecision(approve bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.countRequest(r)
		_ = r.ParseForm()
		token := r.PathValue("token")
		s.st.mu.Lock()
		old := s.accountByConsent(token)
		if old == nil || old.Status != StatusInitiated {
			s.st.mu.Unlock()
			s.htmlResult(w, http.StatusNotFound, "Link not valid", "This connection link is unknown or was already used.", old)
			return
		}
		if linkExpired(old) {
			s.st.mu.Unlock()
			s.htmlResult(w, http.StatusGone, "Link expired", "This connection link has expired.", old)
			return
		}
		var a *ConnectedAccount
		if approve {
			creds := map[string]any{}
			for _, f := range s.consentFields(old) {
				v := r.PostForm.Get(f.Name)
				if v == "" && f.Required {
					s.st.mu.Unlock()
					s.htmlResult(w, http.StatusBadRequest, "Missing field", f.DisplayName+" is required.", old)
					return
				}
				if v != "" {
					creds[f.Name] = v
				}
			}
			a = s.transition(old, StatusActive, "")
			for k, v := range creds {
				a.Val[k] = v
			}
		} else {
			a = s.transition(old, StatusFailed, "user denied access on the consent page")
		}
		err := s.st.commit(put(bucketAccounts, a.ID, a))
		s.st.mu.Unlock()
		if err != nil {
			s.htmlResult(w, http.StatusInternalServerError, "Error", err.Error(), old)
			return
		}
		s.log.Info("consent decision", "account", a.ID, "approved", approve)
		// Only to a callback the API would take now (https, or http to a
		// loopback host): never to another scheme, such as javascript:,
		// whatever an older data file holds.
		if a.CallbackURL != "" && secureURL(a.CallbackURL) == 0 {
			if u, err := url.Parse(a.CallbackURL); err == nil {
				q := u.Query()
				if approve {
					q.Set("status", "success")
				} else {
					q.Set("status", "failed")
				}
				q.Set("connected_account_id", a.ID)
				u.RawQuery = q.Encode()
				http.Redirect(w, r, u.String(), http.StatusSeeOther)
				return
			}
		}
		if approve {
			s.htmlResult(w, http.StatusOK, "Connection approved", "You can close this window.", a)
		} else {
			s.htmlResult(w, http.StatusOK, "Connection denied", "The application was not connected.", a)
		}
	}
}
