package emulator

import (
	"maps"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/integration-service/terraform-provider-service/internal/testutil"
)

// packageOperation is one entry of the package's GENERATED_OPERATIONS.
type packageOperation struct {
	method, path, clientMethod string
	schemes                    []string
}

var (
	packageOpEntry = regexp.MustCompile(`(?s)\{\s*method: "(\w+)",\s*path: "([^"]+)",\s*chain: \[([^\]]*)\](?:,\s*schemes: \[([^\]]*)\])?`)
	jsString       = regexp.MustCompile(`"([^"]*)"`)
)

func jsStrings(s string) []string {
	var out []string
	for _, m := range jsString.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return out
}

// contractDir holds the lockfile pinning the contract, @composio/client
// 2.0.0-rc.6 (a dependency of @composio/core 0.21.0).
const contractDir = "sdkconformance/core-0.21"

// packageOperations parses GENERATED_OPERATIONS out of the installed
// package's generated-operations chunk (the JavaScript text; node runs only
// to install it, with `npm ci` from the lockfile when node_modules lacks it,
// sharing the install with the other packages' tests).
func packageOperations(t *testing.T) []packageOperation {
	t.Helper()
	const pattern = contractDir + "/node_modules/@composio/client/dist/generated-operations-*.mjs"
	chunks, _ := filepath.Glob(pattern)
	if len(chunks) != 1 {
		npm, err := exec.LookPath("npm")
		if err != nil {
			t.Skip("node/npm not found: " + err.Error())
		}
		dir, err := filepath.Abs(contractDir)
		if err != nil {
			t.Fatal(err)
		}
		testutil.NPMInstall(t, npm, dir, os.Environ(), func() bool {
			return testutil.NPMInstalledVersion(dir, "@composio/client") == "2.0.0-rc.6"
		})
		chunks, _ = filepath.Glob(pattern)
	}
	if len(chunks) != 1 {
		t.Fatalf("@composio/client under %s has %d generated-operations chunks, want 1", contractDir, len(chunks))
	}
	data, err := os.ReadFile(chunks[0])
	if err != nil {
		t.Fatal(err)
	}
	src := string(data)
	start := strings.Index(src, "const GENERATED_OPERATIONS = [")
	end := strings.Index(src, "const GENERATED_OPERATIONS_BY_KEY")
	if start < 0 || end < start {
		t.Fatalf("%s: no GENERATED_OPERATIONS table", chunks[0])
	}
	var ops []packageOperation
	for _, m := range packageOpEntry.FindAllStringSubmatch(src[start:end], -1) {
		op := packageOperation{method: strings.ToUpper(m[1]), path: strings.TrimPrefix(m[2], "/api/v3.1"),
			clientMethod: strings.Join(jsStrings(m[3]), "."), schemes: jsStrings(m[4])}
		if len(op.schemes) == 0 {
			op.schemes = []string{SchemeAPIKey}
		}
		ops = append(ops, op)
	}
	if got := strings.Count(src[start:end], "method: "); got != len(ops) {
		t.Fatalf("parsed %d of the table's %d entries: the chunk's layout changed", len(ops), got)
	}
	return ops
}

// TestOperationSchemesMatchPackage: every operation of the package is in the
// table with the package's credential schemes (none declared = ApiKeyAuth),
// and the table's operations outside the types take a project key.
func TestOperationSchemesMatchPackage(t *testing.T) {
	pkg := packageOperations(t)
	if len(pkg) != 104 {
		t.Fatalf("the package lists %d operations, want 104", len(pkg))
	}
	table := map[string]Operation{}
	for _, op := range Operations() {
		table[op.Method+" "+op.Path] = op
		if !op.InTypes && !slices.Equal(op.Schemes, []string{SchemeAPIKey}) {
			t.Errorf("%s (outside the types) takes %v, want [ApiKeyAuth]", op.ClientMethod, op.Schemes)
		}
	}
	for _, p := range pkg {
		op, ok := table[p.method+" "+p.path]
		switch {
		case !ok:
			t.Errorf("%s %s (%s) is not in the operation table", p.method, p.path, p.clientMethod)
		case op.ClientMethod != p.clientMethod:
			t.Errorf("%s %s is %s in the table, %s in the package", p.method, p.path, op.ClientMethod, p.clientMethod)
		case !slices.Equal(op.Schemes, p.schemes):
			t.Errorf("%s: the table's schemes %v differ from the package's %v", p.clientMethod, op.Schemes, p.schemes)
		}
	}
}

// placeholderPath fills an operation's path parameters.
func placeholderPath(op Operation) string {
	return pathParam.ReplaceAllStringFunc(op.Path, func(p string) string {
		if p == "{status}" {
			return "ENABLED"
		}
		return "zz" + strings.Trim(p, "{}")
	})
}

const multipleModes = "Multiple authentication modes were provided. Provide exactly one authentication mode per request. Provided: "

// TestTwoCredentialHeadersEveryGroup: on one operation of every resource
// group of the table, any two (or three) credential headers answer 401 with
// the service's message naming the schemes provided, before anything else.
func TestTwoCredentialHeadersEveryGroup(t *testing.T) {
	e := newEnv(t, Options{})
	api, user, org := "x-api-key", "x-user-api-key", "x-org-api-key"
	combos := []struct {
		headers map[string]string
		want    string
	}{
		{map[string]string{api: testKey, org: DefaultOrgAPIKey}, "ApiKeyAuth via x-api-key, OrgApiKeyAuth via x-org-api-key."},
		{map[string]string{api: testKey, user: "u"}, "ApiKeyAuth via x-api-key, UserApiKeyAuth via x-user-api-key."},
		{map[string]string{user: "u", org: DefaultOrgAPIKey}, "UserApiKeyAuth via x-user-api-key, OrgApiKeyAuth via x-org-api-key."},
		{map[string]string{api: "wrong", user: "u", org: "wrong"}, "ApiKeyAuth via x-api-key, UserApiKeyAuth via x-user-api-key, OrgApiKeyAuth via x-org-api-key."},
	}
	seen := map[string]bool{}
	for _, op := range e.srv.Operations() {
		if seen[op.Group] {
			continue
		}
		seen[op.Group] = true
		var body any
		if op.Method == http.MethodPost || op.Method == http.MethodPatch {
			body = map[string]any{}
		}
		for _, c := range combos {
			r := e.doHeaders(c.headers, op.Method, v+placeholderPath(op), body)
			if msg := r.str("error", "message"); r.status != http.StatusUnauthorized || msg != multipleModes+c.want {
				t.Errorf("%s (%s) with %v: status %d, message %q; want 401 %q", op.ClientMethod, op.Group, slices.Sorted(maps.Keys(c.headers)), r.status, msg, multipleModes+c.want)
			}
		}
	}
	if len(seen) < 20 {
		t.Fatalf("only %d resource groups in the table", len(seen))
	}
	// control routes too
	r := e.doHeaders(map[string]string{api: testKey, org: DefaultOrgAPIKey}, "GET", "/_emulator/stats", nil)
	checkErr(t, r, http.StatusUnauthorized, multipleModes+combos[0].want)
}

// TestCredentialKindPerOperation: a credential of a class the operation does
// not take answers 401 naming the one it takes; user keys do not exist in
// the emulator; no_auth operations need none.
func TestCredentialKindPerOperation(t *testing.T) {
	e := newEnv(t, Options{})
	org := map[string]string{"x-org-api-key": DefaultOrgAPIKey}
	proj := map[string]string{"x-api-key": testKey}
	// an organization key on a project operation
	checkErr(t, e.doHeaders(org, "GET", v+"/auth_configs", nil), http.StatusUnauthorized,
		"This operation requires a project API key in the x-api-key header or a user API key in the x-user-api-key header. Provided: OrgApiKeyAuth via x-org-api-key.")
	checkErr(t, e.doHeaders(org, "GET", v+"/toolkits", nil), http.StatusUnauthorized, "requires a project API key in the x-api-key header")
	// a project key on an organization operation
	checkErr(t, e.doHeaders(proj, "GET", v+"/org/owner/project/list", nil), http.StatusUnauthorized,
		"This operation requires an organization API key in the x-org-api-key header. Provided: ApiKeyAuth via x-api-key.")
	checkErr(t, e.doHeaders(proj, "POST", v+"/org/owner/project/new", map[string]any{"name": "x"}), http.StatusUnauthorized,
		"requires an organization API key in the x-org-api-key header")
	// a project key on a user-key-only operation
	checkErr(t, e.doHeaders(proj, "GET", v+"/org/list", nil), http.StatusUnauthorized, "This operation requires a user API key in the x-user-api-key header")
	// no credential
	checkErr(t, e.doHeaders(nil, "GET", v+"/org/list", nil), http.StatusUnauthorized, "missing user API key: send it in the x-user-api-key header")
	checkErr(t, e.doHeaders(nil, "GET", v+"/org/owner/project/list", nil), http.StatusUnauthorized, "missing organization API key: send it in the x-org-api-key header")
	checkErr(t, e.doHeaders(nil, "GET", v+"/auth_configs", nil), http.StatusUnauthorized, "missing API key: send it in the x-api-key header")
	// user keys: none exists
	checkErr(t, e.doHeaders(map[string]string{"x-user-api-key": "uk"}, "GET", v+"/toolkits", nil), http.StatusUnauthorized, "invalid user API key")
	checkErr(t, e.doHeaders(map[string]string{"x-user-api-key": "uk"}, "GET", v+"/org/list", nil), http.StatusUnauthorized, "invalid user API key")
	// wrong values
	checkErr(t, e.doHeaders(map[string]string{"x-org-api-key": "nope"}, "GET", v+"/org/owner/project/list", nil), http.StatusUnauthorized, "invalid organization API key")
	checkErr(t, e.doHeaders(map[string]string{"x-api-key": "nope"}, "GET", v+"/auth_configs", nil), http.StatusUnauthorized, "invalid API key")
	// the right ones
	if r := e.doHeaders(org, "GET", v+"/org/owner/project/list", nil); r.status != 200 {
		t.Fatalf("org key on the project list: %d %s", r.status, r.raw)
	}
	if r := e.doHeaders(proj, "GET", v+"/auth_configs", nil); r.status != 200 {
		t.Fatalf("project key on auth configs: %d %s", r.status, r.raw)
	}
	// a no_auth operation (not emulated) needs no credential
	checkErr(t, e.doHeaders(nil, "POST", v+"/cli/create-session", map[string]any{}), http.StatusNotImplemented, "not emulated")
	// control routes take a project key only
	checkErr(t, e.doHeaders(org, "GET", "/_emulator/stats", nil), http.StatusUnauthorized, "requires a project API key in the x-api-key header")
	// organization calls are not counted under a project
	stats := e.must(200, "GET", "/_emulator/stats", nil)
	if strings.Contains(stats.raw, `"":{`) {
		t.Errorf("organization calls counted under an empty project: %s", stats.raw)
	}
}
