package parity

import (
	"net/http"
	"strings"
	"testing"
)

func serviceEnv(base, key, orgKey string) map[string]string {
	return map[string]string{"SERVICE_BASE_URL": base, "SERVICE_API_KEY": key, "SERVICE_ORG_API_KEY": orgKey}
}

// Against the emulator itself (seeded as the check seeds its own) the check
// finds no difference at all, sends only GETs, reports every operation of
// the plan and prints no value.
func TestParityAgainstTheEmulatorItselfFindsNoDifference(t *testing.T) {
	svc := startService(t)
	p := startProxy(t, svc.URL, nil)
	code, out, errOut := runCheck(t, serviceEnv(p.URL, svc.APIKey, svc.OrgKey))
	if code != ExitSame || errOut != "" {
		t.Fatalf("exit %d, stderr %q; want 0 and nothing\n%s", code, errOut, out)
	}
	if !strings.Contains(out, "parity: no difference between the service and the emulator") {
		t.Errorf("the report does not say there is no difference:\n%s", out)
	}
	if strings.Contains(out, "FAIL") || strings.Contains(out, "info ") || strings.Contains(out, "not compared") {
		t.Errorf("the report lists differences:\n%s", out)
	}
	if !strings.HasPrefix(out, "service-parity: read-only.") {
		t.Errorf("the report does not start by saying the check is read-only:\n%.300s", out)
	}
	for _, op := range readPlan {
		if section(out, op.id) == "" {
			t.Errorf("the report has no section for %s", op.id)
		}
	}
	reqs, _ := p.seen()
	if len(reqs) < 2*len(readPlan) {
		t.Errorf("the service saw %d requests, fewer than two per operation", len(reqs))
	}
	for _, r := range reqs {
		if !strings.HasPrefix(r, http.MethodGet+" ") {
			t.Errorf("the check sent %s to the service", r)
		}
	}
	noValues(t, "the report", out)
}

// Behind a proxy that renames or removes a member in the answers of one
// operation, the check names the member and the operation (FAIL) and exits
// 1; the other operations stay clean.
func TestParityNamesAFieldTheServiceRenamedOrRemoved(t *testing.T) {
	svc := startService(t)
	oneObject := func(prefix string) func(*http.Request) bool {
		return func(r *http.Request) bool {
			rest, ok := strings.CutPrefix(r.URL.Path, "/api/v3.1"+prefix)
			return ok && rest != "" && !strings.Contains(rest, "/")
		}
	}
	cases := []struct {
		name   string
		op     string
		match  func(*http.Request) bool
		change func(m map[string]any)
		want   []string // lines of the operation's section
	}{{
		name:   "renamed",
		op:     "getApiV31AuthConfigsByNanoid",
		match:  oneObject("/auth_configs/"),
		change: func(m map[string]any) { m["authScheme"] = m["auth_scheme"]; delete(m, "auth_scheme") },
		want: []string{
			"  in the service only:\n    info  authScheme: string\n",
			"  in the emulator only:\n    FAIL  auth_scheme: string (read by the provider)\n",
		},
	}, {
		name:   "removed",
		op:     "getApiV31ConnectedAccountsByNanoid",
		match:  oneObject("/connected_accounts/"),
		change: func(m map[string]any) { delete(m, "status") },
		want:   []string{"  in the emulator only:\n    FAIL  status: string (read by the provider)\n"},
	}, {
		name:  "removed inside a list",
		op:    "getApiV31ConnectedAccounts",
		match: func(r *http.Request) bool { return r.URL.Path == "/api/v3.1/connected_accounts" },
		change: func(m map[string]any) {
			for _, it := range m["items"].([]any) {
				delete(it.(map[string]any)["auth_config"].(map[string]any), "id")
			}
		},
		want: []string{"    FAIL  items[].auth_config.id: string (read by the provider)\n"},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := startProxy(t, svc.URL, func(r *http.Request, body any) any {
				m, ok := body.(map[string]any)
				if !ok || !tc.match(r) || r.Header.Get("x-api-key") != svc.APIKey {
					return nil
				}
				tc.change(m)
				return m
			})
			code, out, _ := runCheck(t, serviceEnv(p.URL, svc.APIKey, svc.OrgKey))
			if code != ExitDifferent {
				t.Errorf("exit %d, want %d", code, ExitDifferent)
			}
			sec := section(out, tc.op)
			for _, w := range tc.want {
				if !strings.Contains(sec, w) {
					t.Errorf("the section of %s does not hold %q:\n%s", tc.op, w, sec)
				}
			}
			for _, op := range readPlan {
				if op.id != tc.op && strings.Contains(section(out, op.id), "FAIL") {
					t.Errorf("%s, whose answers were not changed, has a FAIL:\n%s", op.id, section(out, op.id))
				}
			}
			if !strings.Contains(out, "parity: 1 difference(s) in what the provider reads (FAIL)") {
				t.Errorf("the summary does not count one failing difference:\n%s", out)
			}
			noValues(t, "the report", out)
		})
	}
}

// A key the service refuses stops the check at its first request with one
// clear error naming the variable, never the key; nothing else is sent.
func TestParityStopsAtARefusedKey(t *testing.T) {
	svc := startService(t)
	const refused = "refused-key-7f3a9c"
	cases := []struct {
		name, key, orgKey, envVar, path string
		requests                        int
	}{
		{name: "project key", key: refused, orgKey: svc.OrgKey, envVar: "SERVICE_API_KEY", path: "/api/v3.1/auth_configs", requests: 1},
		// the project key is checked first, then the organization's
		{name: "organization key", key: svc.APIKey, orgKey: refused, envVar: "SERVICE_ORG_API_KEY", path: "/api/v3.1/org/owner/project/list", requests: 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := startProxy(t, svc.URL, nil)
			code, out, errOut := runCheck(t, serviceEnv(p.URL, tc.key, tc.orgKey))
			if code != ExitError {
				t.Errorf("exit %d, want %d", code, ExitError)
			}
			lines := strings.Split(strings.TrimSpace(errOut), "\n")
			want := "service-parity: the service refused " + tc.envVar + ": GET " + tc.path + " answered 401 Unauthorized."
			if len(lines) != 1 || !strings.HasPrefix(lines[0], want) || !strings.Contains(lines[0], "nothing else was sent") {
				t.Errorf("stderr = %q, want one line starting %q", errOut, want)
			}
			if strings.Contains(out+errOut, refused) {
				t.Errorf("the output holds the refused key")
			}
			reqs, statuses := p.seen()
			if len(reqs) != tc.requests || statuses[len(statuses)-1] != http.StatusUnauthorized || reqs[len(reqs)-1] != "GET "+tc.path {
				t.Errorf("the service saw %q answered %v; want %d request(s), the last GET %s answered 401", reqs, statuses, tc.requests, tc.path)
			}
			if strings.Contains(out, "\ngetApiV31") {
				t.Errorf("a report was printed after the refusal:\n%s", out)
			}
		})
	}
}
