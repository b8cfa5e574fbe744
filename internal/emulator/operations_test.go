package emulator

import (
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestOperationTable(t *testing.T) {
	ops := Operations()
	inTypes, documented := 0, 0
	seen := map[string]bool{}
	for _, op := range ops {
		if op.InTypes {
			inTypes++
		} else {
			documented++
		}
		key := op.Method + " " + op.Path
		if seen[key] {
			t.Errorf("%s listed twice", key)
		}
		seen[key] = true
		if op.Group == "" || !strings.HasPrefix(op.ClientMethod, op.Group+".") {
			t.Errorf("%s: group %q does not prefix client method %q", op.ID, op.Group, op.ClientMethod)
		}
		if op.ID != operationID(op.Method, op.Path) {
			t.Errorf("%s: id is not derived from %s", op.ID, key)
		}
	}
	if inTypes != 104 || documented != 7 {
		t.Fatalf("table has %d operations of the client's types (want 104) and %d documented-only (want 7)", inTypes, documented)
	}
	for id, want := range map[string]string{
		"getApiV31LogsToolExecutionById":                        "GET /logs/tool_execution/{id}",
		"patchApiV31AuthConfigsByNanoidByStatus":                "PATCH /auth_configs/{nanoid}/{status}",
		"postApiV31CustomToolkitsUpsert":                        "POST /custom/toolkits/upsert",
		"getApiV31TriggersTypesListEnum":                        "GET /triggers_types/list/enum",
		"patchApiV31ConnectedAccountsByNanoIdStatus":            "PATCH /connected_accounts/{nanoId}/status",
		"postApiV31ToolRouterSessionBySessionIdLink":            "POST /tool_router/session/{session_id}/link",
		"deleteApiV31McpServersByServerIdInstancesByInstanceId": "DELETE /mcp/servers/{serverId}/instances/{instanceId}",
	} {
		_, index := operationTable()
		i, ok := index[id]
		if !ok {
			t.Errorf("no operation %s", id)
			continue
		}
		if got := ops[i].Method + " " + ops[i].Path; got != want {
			t.Errorf("%s is %s, want %s", id, got, want)
		}
	}
}

var pathParam = regexp.MustCompile(`\{[^}]+\}`)

// TestEveryOperationAnswers walks the table: under both version prefixes
// every operation answers a route, the non-emulated ones 501 with the error
// envelope naming the operation; none answers the route-miss 404.
func TestEveryOperationAnswers(t *testing.T) {
	e := newEnv(t, Options{})
	emulated := 0
	for _, op := range e.srv.Operations() {
		path := pathParam.ReplaceAllStringFunc(op.Path, func(p string) string {
			if p == "{status}" {
				return "ENABLED"
			}
			return "zz" + strings.Trim(p, "{}")
		})
		var body any
		if op.Method == http.MethodPost || op.Method == http.MethodPatch {
			body = map[string]any{}
		}
		// the credential the operation takes (the emulator has no user keys:
		// an operation taking only a user key answers 401 to any)
		header, key := "x-api-key", testKey
		switch {
		case slices.Contains(op.Schemes, SchemeAPIKey):
		case slices.Contains(op.Schemes, SchemeOrgAPIKey):
			header, key = "x-org-api-key", DefaultOrgAPIKey
		case slices.Contains(op.Schemes, SchemeNoAuth):
			header, key = "", ""
		default:
			header, key = "x-user-api-key", "some-user-key"
		}
		for _, prefix := range apiPrefixes {
			r := e.doHeaders(map[string]string{header: key}, op.Method, prefix+path, body)
			code, _ := r.get("error", "code").(float64)
			if header == "x-user-api-key" {
				checkErr(t, r, http.StatusUnauthorized, "invalid user API key")
				continue
			}
			if int(code) == CodeRouteNotFound {
				t.Errorf("%s %s%s (%s): route miss %s", op.Method, prefix, path, op.ID, r.raw)
				continue
			}
			if op.Emulated {
				if r.status == http.StatusNotImplemented {
					t.Errorf("%s %s%s: emulated operation %s answered 501: %s", op.Method, prefix, path, op.ID, r.raw)
				}
				continue
			}
			checkErr(t, r, http.StatusNotImplemented, "operation "+op.ID+" is not emulated")
			if int(code) != CodeNotImplemented || r.str("error", "slug") != "NotImplemented" {
				t.Errorf("%s: envelope %s, want code %d slug NotImplemented", op.ID, r.raw, CodeNotImplemented)
			}
		}
		if op.Emulated {
			emulated++
		}
	}
	if emulated == 0 {
		t.Fatal("no operation is emulated")
	}
	// non-emulated operations still need an API key, like every API route
	e.key = ""
	checkErr(t, e.do("GET", v+"/logs/tool_execution/log_1", nil), http.StatusUnauthorized, "missing API key")
	e.key = testKey
	// paths outside the table keep the envelope 404
	checkErr(t, e.do("GET", v+"/no_such_thing", nil), http.StatusNotFound, "no route for GET")
}

func TestHandleRejectsUnknownAndDuplicateOperations(t *testing.T) {
	mustPanic := func(name string, f func()) {
		t.Helper()
		defer func() {
			if recover() == nil {
				t.Errorf("%s: no panic", name)
			}
		}()
		f()
	}
	s := &Server{mux: http.NewServeMux(), handled: map[string]bool{}}
	h := func(*call) (int, any, *apiError) { return 200, nil, nil }
	mustPanic("unknown id", func() { s.handle("getApiV31NoSuchThing", h) })
	s.handle("getApiV31LogsToolExecutionById", h)
	mustPanic("second handler", func() { s.handle("getApiV31LogsToolExecutionById", h) })
}
