package contract

import (
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/integration-service/terraform-provider-service/internal/emulator"
	"github.com/integration-service/terraform-provider-service/internal/testutil/contractcheck"

	"github.com/integration-service/terraform-provider-service/internal/testutil"
)

// walkProjects walks the organization's projects with the organization key:
// create (with and without a key, with a config), list over several pages,
// retrieve, regenerate the key, delete (with and without revocation), and
// the refused requests; then the credential rule on project and
// organization operations.
func (w *walker) walkProjects() {
	w.t.Helper()
	const p = "/org/owner/project"
	config := map[string]any{"is_2FA_enabled": false, "mask_secret_keys_in_connected_account": true,
		"log_visibility_setting": "show_all", "display_name": "Walk", "require_mcp_api_key": false,
		"signed_url_file_expiry_in_seconds": 600}
	a := w.must("POST", p+"/new", nil, map[string]any{"name": "walk-a", "config": config})
	aID := a.str("id")
	b := w.must("POST", p+"/new", nil, map[string]any{"name": "walk-b", "should_create_api_key": false})
	var ids []string
	for _, n := range []string{"walk-c", "walk-d", "walk-e"} {
		ids = append(ids, w.must("POST", p+"/new", nil, map[string]any{"name": n, "should_create_api_key": true}).str("id"))
	}
	w.reject("a second project named walk-a", "POST", p+"/new", nil, map[string]any{"name": "walk-a"})
	w.reject("a project with a blank name", "POST", p+"/new", nil, map[string]any{"name": " "})
	w.reject("a project with a malformed name", "POST", p+"/new", nil, map[string]any{"name": "walk/a?"})
	w.reject("a project without name", "POST", p+"/new", nil, map[string]any{})
	w.reject("a project config without log_visibility_setting", "POST", p+"/new", nil, map[string]any{"name": "walk-x",
		"config": map[string]any{"is_2FA_enabled": true, "mask_secret_keys_in_connected_account": true}})
	w.reject("a project config with zdr_enabled and log_visibility_setting", "POST", p+"/new", nil, map[string]any{"name": "walk-x",
		"config": map[string]any{"is_2FA_enabled": true, "mask_secret_keys_in_connected_account": true, "log_visibility_setting": "show_all", "zdr_enabled": true}})
	w.reject("a project config with an http callback verifier", "POST", p+"/new", nil, map[string]any{"name": "walk-x",
		"config": map[string]any{"is_2FA_enabled": true, "mask_secret_keys_in_connected_account": true, "zdr_enabled": false,
			"oauth_callback_verifier_url": "http://verify.example.com/cb"}})
	w.reject("a project config with an unknown visibility", "POST", p+"/new", nil, map[string]any{"name": "walk-x",
		"config": map[string]any{"is_2FA_enabled": true, "mask_secret_keys_in_connected_account": true, "log_visibility_setting": "hidden"}})

	// the list over pages (the configured project "default" and the five)
	q := url.Values{"limit": {"2"}}
	seen := 0
	for range 10 {
		r := w.must("GET", p+"/list", q, nil)
		data, _ := testutil.Dig(r.body, "data").([]any)
		seen += len(data)
		next, _ := testutil.Dig(r.body, "next_cursor").(string)
		if next == "" {
			break
		}
		q = url.Values{"cursor": {next}}
	}
	if seen != 6 {
		w.t.Fatalf("walk: the project list has %d projects, want 6", seen)
	}
	w.must("GET", p+"/list", nil, nil)
	w.reject("a project list page of 51", "GET", p+"/list", url.Values{"limit": {"51"}}, nil)

	w.must("GET", p+"/"+aID, nil, nil)
	w.must("GET", p+"/"+b.str("id"), nil, nil)
	w.reject("an unknown project", "GET", p+"/pr_nonexistent", nil, nil)

	k := w.must("POST", p+"/"+aID+"/regenerate_api_key", nil, nil)
	if r := w.doWith(map[string]string{"x-api-key": a.str("api_key")}, "GET", "/auth_configs", nil, nil); r.status != http.StatusUnauthorized {
		w.t.Fatalf("walk: the regenerated project's old key: status %d", r.status)
	}
	if r := w.doWith(map[string]string{"x-api-key": k.str("api_key", "key")}, "GET", "/auth_configs", nil, nil); r.status != http.StatusOK {
		w.t.Fatalf("walk: the regenerated key: status %d %v", r.status, r.body)
	}
	w.reject("regenerating an unknown project's key", "POST", p+"/pr_nonexistent/regenerate_api_key", nil, nil)

	w.must("DELETE", p+"/"+b.str("id"), url.Values{"revoke_on_delete": {"true"}}, nil)
	w.must("DELETE", p+"/"+ids[0], url.Values{"revoke_on_delete": {"false"}}, nil)
	w.must("DELETE", p+"/"+ids[1], nil, nil)
	w.reject("deleting a deleted project", "DELETE", p+"/"+ids[1], nil, nil)
	w.reject("reading a deleted project", "GET", p+"/"+ids[0], nil, nil)

	// the credential rule
	const multiple = "Multiple authentication modes were provided. Provide exactly one authentication mode per request. Provided: "
	for _, c := range []struct {
		creds        map[string]string
		method, path string
		want         string
	}{
		{map[string]string{"x-api-key": apiKey, "x-org-api-key": emulator.DefaultOrgAPIKey}, "GET", "/auth_configs",
			multiple + "ApiKeyAuth via x-api-key, OrgApiKeyAuth via x-org-api-key."},
		{map[string]string{"x-api-key": apiKey, "x-org-api-key": emulator.DefaultOrgAPIKey}, "GET", p + "/list",
			multiple + "ApiKeyAuth via x-api-key, OrgApiKeyAuth via x-org-api-key."},
		{map[string]string{"x-api-key": apiKey, "x-user-api-key": "walk-user"}, "GET", "/toolkits",
			multiple + "ApiKeyAuth via x-api-key, UserApiKeyAuth via x-user-api-key."},
		{map[string]string{"x-org-api-key": emulator.DefaultOrgAPIKey}, "GET", "/auth_configs", "This operation requires a project API key"},
		{map[string]string{"x-api-key": apiKey}, "GET", p + "/list", "This operation requires an organization API key in the x-org-api-key header"},
		{map[string]string{"x-api-key": apiKey}, "GET", p + "/" + aID, "This operation requires an organization API key in the x-org-api-key header"},
		{map[string]string{"x-user-api-key": "walk-user"}, "GET", "/toolkits", "invalid user API key"},
		{map[string]string{"x-org-api-key": "walk-wrong"}, "POST", p + "/new", "invalid organization API key"},
	} {
		var body any
		if c.method == http.MethodPost {
			body = map[string]any{"name": "walk-cred"}
		}
		r := w.doWith(c.creds, c.method, c.path, nil, body)
		msg, _ := testutil.Dig(r.body, "error", "message").(string)
		if r.status != http.StatusUnauthorized || !strings.HasPrefix(msg, c.want) {
			w.t.Errorf("walk: %s %s with %v: status %d %q, want 401 %q", c.method, c.path, slices.Sorted(maps.Keys(c.creds)), r.status, msg, c.want)
		}
	}
}

// walkCredentialRuleEveryGroup sends, to one operation of every resource
// group of the package (e.g. authConfigs, org.owner.project,
// toolRouter.session), a request carrying two credential headers: each must
// be refused with the service's 401 naming both, before the operation runs.
func (w *walker) walkCredentialRuleEveryGroup(ops []operation) {
	w.t.Helper()
	const want = "Multiple authentication modes were provided. Provide exactly one authentication mode per request. " +
		"Provided: ApiKeyAuth via x-api-key, OrgApiKeyAuth via x-org-api-key."
	creds := map[string]string{"x-api-key": apiKey, "x-org-api-key": emulator.DefaultOrgAPIKey}
	seen := map[string]bool{}
	for _, op := range ops {
		group := op.Operation[:max(strings.LastIndex(op.Operation, "."), 0)]
		if seen[group] {
			continue
		}
		seen[group] = true
		path := strings.TrimPrefix(op.Path, "/api/v3.1")
		for strings.Contains(path, "{") {
			i, j := strings.Index(path, "{"), strings.Index(path, "}")
			path = path[:i] + "walk_x" + path[j+1:]
		}
		method := strings.ToUpper(op.Method)
		var body any
		if method == http.MethodPost || method == http.MethodPatch || method == http.MethodPut {
			body = map[string]any{}
		}
		r := w.doWith(creds, method, path, nil, body)
		msg, _ := testutil.Dig(r.body, "error", "message").(string)
		if r.status != http.StatusUnauthorized || msg != want {
			w.t.Errorf("walk: %s %s (group %s) with two credentials: status %d %q, want 401 %q", method, path, group, r.status, msg, want)
		}
	}
	if len(seen) < 20 {
		w.t.Errorf("walk: the credential rule reached %d resource groups; the package has more", len(seen))
	}
}

// TestContractProjects runs the projects walk on its own emulator and checks
// every recorded exchange against the package's types: no deviation, every
// project operation answered both a 2xx and an error.
func TestContractProjects(t *testing.T) {
	n := requireNode(t)
	ops := operations(t, n)
	rec, base := startEmulator(t, ops)
	w := &walker{t: t, base: base, hc: &http.Client{Timeout: 30 * time.Second}}
	w.walkProjects()
	w.walkCredentialRuleEveryGroup(ops)
	recs := rec.Records()
	if missed := rec.Missed(); len(missed) > 0 {
		t.Errorf("requests matching no operation of the package: %s", strings.Join(missed, ", "))
	}
	out := check(t, n, recs)
	devs, _, invalid := contractcheck.Classify(recs, out.Findings)
	w.checkAccepted(invalid)
	for _, k := range slices.Sorted(maps.Keys(devs)) {
		t.Errorf("deviation %s (%d×), e.g. %s", k, devs[k].Count, devs[k].Example)
	}
	answered := map[string][2]int{} // operation -> 2xx count, 4xx count
	for _, r := range recs {
		c := answered[r.Operation]
		if r.Status < 300 {
			c[0]++
		} else {
			c[1]++
		}
		answered[r.Operation] = c
	}
	for _, op := range []string{"org.owner.project.create", "org.owner.project.list", "org.owner.project.retrieve",
		"org.owner.project.delete", "org.owner.project.regenerateAPIKey"} {
		if c := answered[op]; c[0] == 0 || c[1] == 0 {
			t.Errorf("%s: %d 2xx and %d error exchanges, want both", op, c[0], c[1])
		}
	}
	t.Logf("checked %d exchanges: %s", len(recs), fmt.Sprint(answered))
}
