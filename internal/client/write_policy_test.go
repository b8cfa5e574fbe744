package client

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

// writeOp is one write operation of the client and the kind the write policy
// (transport.go) gives it.
type writeOp struct {
	name string
	kind opKind
	call func(ctx context.Context, c *Client) error
}

// allWriteOps lists every write the client sends, by the name of the
// exported *Client method that sends it, with the kind the write policy gives
// it; each entry's call uses that method. TestWriteOpsAreAllClassified derives
// the client's write methods from its source and fails when one is neither
// here nor in reconciledCreates.
var allWriteOps = []writeOp{
	{"CreateSession", opCreate, func(ctx context.Context, c *Client) error {
		_, err := c.CreateSession(ctx, CreateSessionRequest{UserID: "u1"})
		return err
	}},
	{"UpdateSession", opIdempotent, func(ctx context.Context, c *Client) error {
		_, err := c.UpdateSession(ctx, "trs_1", UpdateSessionRequest{})
		return err
	}},
	{"DeleteSession", opDelete, func(ctx context.Context, c *Client) error { return c.DeleteSession(ctx, "trs_1") }},
	{"ExecuteTool", opCreate, func(ctx context.Context, c *Client) error {
		_, err := c.ExecuteTool(ctx, "GITHUB_STAR_A_REPOSITORY", ExecuteToolRequest{UserID: "u1"})
		return err
	}},
	{"UpdateAuthConfig", opIdempotent, func(ctx context.Context, c *Client) error {
		return c.UpdateAuthConfig(ctx, "ac_1", UpdateAuthConfigRequest{Name: ptr("n")})
	}},
	{"UpdateAuthConfigStatus", opIdempotent, func(ctx context.Context, c *Client) error {
		return c.UpdateAuthConfigStatus(ctx, "DISABLED", "ac_1")
	}},
	{"DisableAuthConfig", opIdempotent, func(ctx context.Context, c *Client) error { return c.DisableAuthConfig(ctx, "ac_1") }},
	{"DeleteAuthConfigWith", opDelete, func(ctx context.Context, c *Client) error {
		_, err := c.DeleteAuthConfigWith(ctx, "ac_1", DeleteOptions{RevokeOnDelete: true})
		return err
	}},
	{"UpdateConnectedAccountStatus", opIdempotent, func(ctx context.Context, c *Client) error {
		return c.UpdateConnectedAccountStatus(ctx, "ca_1", false, "r")
	}},
	{"DeleteConnectedAccount", opDelete, func(ctx context.Context, c *Client) error { return c.DeleteConnectedAccount(ctx, "ca_1") }},
	{"DeleteConnectedAccountWith", opDelete, func(ctx context.Context, c *Client) error {
		_, err := c.DeleteConnectedAccountWith(ctx, "ca_1", DeleteOptions{RevokeOnDelete: true})
		return err
	}},
	{"UpdateConnectedAccount", opIdempotent, func(ctx context.Context, c *Client) error {
		return c.UpdateConnectedAccount(ctx, "ca_1", ConnectedAccountUpdate{Alias: ptr("work")})
	}},
	{"RevokeConnectedAccount", opIdempotent, func(ctx context.Context, c *Client) error {
		_, err := c.RevokeConnectedAccount(ctx, "ca_1")
		return err
	}},
	{"UpsertTrigger", opIdempotent, func(ctx context.Context, c *Client) error {
		_, err := c.UpsertTrigger(ctx, "GITHUB_COMMIT_EVENT", UpsertTriggerRequest{ConnectedAccountID: "ca_1"})
		return err
	}},
	{"EnableTrigger", opIdempotent, func(ctx context.Context, c *Client) error { return c.EnableTrigger(ctx, "ti_1") }},
	{"DisableTrigger", opIdempotent, func(ctx context.Context, c *Client) error { return c.DisableTrigger(ctx, "ti_1") }},
	{"DeleteTrigger", opDelete, func(ctx context.Context, c *Client) error { return c.DeleteTrigger(ctx, "ti_1") }},
	{"UpdateCustomToolkit", opIdempotent, func(ctx context.Context, c *Client) error {
		return c.UpdateCustomToolkit(ctx, "CUSTOM_MYTK", UpdateCustomToolkitRequest{Name: ptr("n")})
	}},
	{"DeleteCustomToolkit", opDelete, func(ctx context.Context, c *Client) error { return c.DeleteCustomToolkit(ctx, "CUSTOM_MYTK") }},
	{"UpdateWebhookSubscription", opIdempotent, func(ctx context.Context, c *Client) error {
		_, err := c.UpdateWebhookSubscription(ctx, "ws_1", UpdateWebhookSubscriptionRequest{})
		return err
	}},
	{"DeleteWebhookSubscription", opDelete, func(ctx context.Context, c *Client) error { return c.DeleteWebhookSubscription(ctx, "ws_1") }},
	{"RotateWebhookSecret", opCreate, func(ctx context.Context, c *Client) error {
		_, err := c.RotateWebhookSecret(ctx, "ws_1")
		return err
	}},
	{"UpdateMCPServer", opIdempotent, func(ctx context.Context, c *Client) error {
		_, err := c.UpdateMCPServer(ctx, "s1", UpdateMCPServerRequest{Name: ptr("n")})
		return err
	}},
	{"DeleteMCPServer", opDelete, func(ctx context.Context, c *Client) error { return c.DeleteMCPServer(ctx, "s1") }},
	{"DeleteProject", opDelete, func(ctx context.Context, c *Client) error {
		_, err := c.DeleteProject(ctx, "pr_1", false)
		return err
	}},
	// A repeat after a lost answer regenerates again: the project ends with
	// one working key, the one returned.
	{"RegenerateProjectAPIKey", opIdempotent, func(ctx context.Context, c *Client) error {
		_, err := c.RegenerateProjectAPIKey(ctx, "pr_1")
		return err
	}},
	// One endpoint per toolkit and client_id: a repeat returns the same one.
	{"CreateWebhookEndpoint", opIdempotent, func(ctx context.Context, c *Client) error {
		_, err := c.CreateWebhookEndpoint(ctx, "slack", "cid")
		return err
	}},
	{"ReplaceWebhookEndpoint", opIdempotent, func(ctx context.Context, c *Client) error {
		_, err := c.ReplaceWebhookEndpoint(ctx, "we_1", map[string]string{"signing_secret": "s"})
		return err
	}},
}

// reconciledCreates are the creates that reconcile an ambiguous failure by
// the object's natural key, each with the test that covers it (they cannot
// run through TestWritePolicyPerOperation, which expects an ambiguous create
// to fail).
var reconciledCreates = map[string]string{
	"CreateAuthConfig":           "TestCreateAuthConfigReconcilesAfterCommitThenReset",
	"InitiateConnectedAccount":   "TestInitiateConnectedAccountReconciles",
	"CreateConnectedAccountLink": "TestCreateLinkDiscardsTheUnreachableAccountAndCreatesAgain",
	"CreateCustomToolkit":        "TestCreateCustomToolkitReconciles",
	"CreateMCPServer":            "TestCreateMCPServerReconcilesByName",
	"CreateWebhookSubscription":  "TestCreateWebhookSubscriptionReconcilesAmbiguousFailure",
	"CreateProject":              "TestCreateProjectReconcilesByNameAndRotatesTheKey",
}

// parsePackage parses the package's .go files in this directory: the test
// files when tests is true, the others otherwise.
func parsePackage(t *testing.T, tests bool) []*ast.File {
	t.Helper()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") != tests {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		t.Fatal("no Go files found in the package directory")
	}
	return files
}

// clientWriteMethods derives, from the client's source, the exported *Client
// methods that send a write: a request through do or doKind whose method is
// not GET or HEAD (or whose kind is not opRead), directly or through other
// functions and methods of the package, closures included. References are
// followed by name (a selector naming a *Client method, an identifier naming
// a package function), which can only over-approximate; a method argument
// that is not an http.MethodX constant counts as a write.
func clientWriteMethods(t *testing.T) []string {
	t.Helper()
	files := parsePackage(t, false)
	type node struct {
		body     *ast.BlockStmt
		exported bool
	}
	methods, funcs := map[string]node{}, map[string]node{}
	for _, f := range files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			if fd.Recv == nil {
				funcs[fd.Name.Name] = node{fd.Body, false}
				continue
			}
			typ := fd.Recv.List[0].Type
			if st, ok := typ.(*ast.StarExpr); ok {
				typ = st.X
			}
			if id, ok := typ.(*ast.Ident); ok && id.Name == "Client" {
				methods[fd.Name.Name] = node{fd.Body, fd.Name.IsExported()}
			}
		}
	}
	if _, ok := methods["doKind"]; !ok {
		t.Fatal("no (*Client).doKind in the package: update clientWriteMethods to the transport's entry points")
	}
	// sendsWrite reports a call of do/doKind that sends a write.
	sendsWrite := func(call *ast.CallExpr) bool {
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		methodArg := 1
		switch sel.Sel.Name {
		case "do":
		case "doKind":
			if k, ok := call.Args[1].(*ast.Ident); ok && k.Name == "opRead" {
				return false
			}
			methodArg = 2
		default:
			return false
		}
		if m, ok := call.Args[methodArg].(*ast.SelectorExpr); ok {
			if x, ok := m.X.(*ast.Ident); ok && x.Name == "http" && (m.Sel.Name == "MethodGet" || m.Sel.Name == "MethodHead") {
				return false
			}
		}
		return true
	}
	// key names a node: "m:" for a *Client method, "f:" for a function.
	writes := map[string]bool{}
	edges := map[string][]string{}
	for kind, set := range map[string]map[string]node{"m:": methods, "f:": funcs} {
		for name, n := range set {
			key := kind + name
			if key == "m:do" || key == "m:doKind" {
				continue
			}
			ast.Inspect(n.body, func(x ast.Node) bool {
				switch x := x.(type) {
				case *ast.CallExpr:
					if sendsWrite(x) {
						writes[key] = true
					}
				case *ast.SelectorExpr:
					if _, ok := methods[x.Sel.Name]; ok {
						edges[key] = append(edges[key], "m:"+x.Sel.Name)
					}
				case *ast.Ident:
					if _, ok := funcs[x.Name]; ok {
						edges[key] = append(edges[key], "f:"+x.Name)
					}
				}
				return true
			})
		}
	}
	for changed := true; changed; {
		changed = false
		for from, tos := range edges {
			if writes[from] {
				continue
			}
			for _, to := range tos {
				if writes[to] {
					writes[from], changed = true, true
					break
				}
			}
		}
	}
	var out []string
	for name, n := range methods {
		if n.exported && writes["m:"+name] {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// TestWriteOpsAreAllClassified: every exported *Client method that sends a
// write (derived from the source) is in allWriteOps with its kind, or in
// reconciledCreates with an existing test; every entry names such a method
// and its call uses that method.
func TestWriteOpsAreAllClassified(t *testing.T) {
	derived := clientWriteMethods(t)
	// Sanity check of the derivation: a direct PATCH, a DELETE, a POST
	// through a closure given to createReconciled, a PATCH through an
	// unexported helper, and no read.
	for _, want := range []string{"UpdateMCPServer", "DeleteTrigger", "CreateAuthConfig", "EnableTrigger"} {
		if !slices.Contains(derived, want) {
			t.Fatalf("derived write methods %v lack %s: the derivation is broken", derived, want)
		}
	}
	for _, read := range []string{"GetMCPServer", "ListConnectedAccounts", "WaitForConnection"} {
		if slices.Contains(derived, read) {
			t.Fatalf("derived write methods %v include the read %s: the derivation is broken", derived, read)
		}
	}

	tests := map[string]bool{}
	calls := map[string]*ast.FuncLit{}
	for _, f := range parsePackage(t, true) {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					tests[d.Name.Name] = true
				}
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					vs, ok := spec.(*ast.ValueSpec)
					if !ok || len(vs.Names) != 1 || vs.Names[0].Name != "allWriteOps" || len(vs.Values) != 1 {
						continue
					}
					for _, e := range vs.Values[0].(*ast.CompositeLit).Elts {
						elts := e.(*ast.CompositeLit).Elts
						name, err := strconv.Unquote(elts[0].(*ast.BasicLit).Value)
						if err != nil {
							t.Fatal(err)
						}
						calls[name] = elts[2].(*ast.FuncLit)
					}
				}
			}
		}
	}

	classified := map[string]string{}
	for _, op := range allWriteOps {
		if prev, dup := classified[op.name]; dup {
			t.Errorf("%s is classified twice (%s)", op.name, prev)
		}
		classified[op.name] = "allWriteOps"
		uses := false
		if fl := calls[op.name]; fl != nil {
			ast.Inspect(fl.Body, func(x ast.Node) bool {
				if sel, ok := x.(*ast.SelectorExpr); ok && sel.Sel.Name == op.name {
					uses = true
				}
				return !uses
			})
		}
		if !uses {
			t.Errorf("allWriteOps entry %s: its call does not use (*Client).%s", op.name, op.name)
		}
	}
	for name, test := range reconciledCreates {
		if prev, dup := classified[name]; dup {
			t.Errorf("%s is classified twice (%s and reconciledCreates)", name, prev)
		}
		classified[name] = "reconciledCreates"
		if !tests[test] {
			t.Errorf("reconciledCreates: %s names the test %s, which does not exist", name, test)
		}
	}
	for _, name := range derived {
		if classified[name] == "" {
			t.Errorf("(*Client).%s sends a write request but its write policy is not tested: add it to allWriteOps "+
				"(write_policy_test.go) with its kind, or to reconciledCreates with the test covering its reconciliation", name)
		}
	}
	for name, where := range classified {
		if !slices.Contains(derived, name) {
			t.Errorf("%s entry %s is not an exported *Client method sending a write (renamed or removed?)", where, name)
		}
	}
}

// TestUpdateMCPServerRetriedAsIdempotentWrite: PATCH /mcp/{id} sets values,
// so after a 502, a bare 503 or a connection reset once the request was sent
// it is sent again and succeeds (a create would stop after one attempt).
func TestUpdateMCPServerRetriedAsIdempotentWrite(t *testing.T) {
	for fname, fail := range map[string]http.HandlerFunc{
		"reset": hangUp,
		"502":   replyJSON(502, `{"error":{"message":"bad gateway"}}`),
		"503":   replyJSON(503, `{"error":{"message":"unavailable"}}`),
		"504":   replyJSON(504, `{"error":{"message":"gateway timeout"}}`),
	} {
		t.Run(fname, func(t *testing.T) {
			c, rec := newTestClient(t, failFirst(fail, replyJSON(200, mcpServerJSON)))
			m, err := c.UpdateMCPServer(context.Background(), "s1", UpdateMCPServerRequest{Name: ptr("Team")})
			if err != nil || rec.count() != 2 {
				t.Fatalf("err=%v attempts=%d; want success after 2 attempts", err, rec.count())
			}
			for _, r := range rec.all() {
				if r.Method != http.MethodPatch || r.Path != "/api/v3.1/mcp/s1" {
					t.Errorf("request %s %s, want PATCH /api/v3.1/mcp/s1", r.Method, r.Path)
				}
			}
			if m.Name != "Team" {
				t.Errorf("updated server %+v", m)
			}
		})
	}
}

// failFirst answers the first request with fail and every later one with ok.
func failFirst(fail, ok http.HandlerFunc) http.HandlerFunc {
	var n atomic.Int32
	return func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			fail(w, r)
			return
		}
		ok(w, r)
	}
}

func okTrigger(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, 200, map[string]any{"trigger_id": "ti_1", "id": "x", "status": "ACTIVE", "session_id": "s", "secret": "whsec", "slug": "CUSTOM_MYTK", "api_key": map[string]any{"key": "k"}})
}

// TestWritePolicyPerOperation: after a connection reset once the request was
// sent, every idempotent write and delete is retried and succeeds; every
// non-reconciled create is sent exactly once and reports an ambiguous failure.
func TestWritePolicyPerOperation(t *testing.T) {
	failures := map[string]http.HandlerFunc{
		"reset": hangUp,
		"502":   replyJSON(502, `{"error":{"message":"bad gateway"}}`),
		"503":   replyJSON(503, `{"error":{"message":"unavailable"}}`),
		"504":   replyJSON(504, `{"error":{"message":"gateway timeout"}}`),
		"429":   replyJSON(429, `{"error":{"message":"slow down"}}`),
		"500":   replyJSON(500, `{"error":{"message":"boom"}}`),
	}
	for _, op := range allWriteOps {
		for fname, fail := range failures {
			t.Run(op.name+"/"+fname, func(t *testing.T) {
				c, rec := newTestClient(t, failFirst(fail, okTrigger), withOrgKey)
				err := op.call(context.Background(), c)
				switch {
				case fname == "500":
					if err == nil || rec.count() != 1 {
						t.Errorf("500: err=%v attempts=%d; want an error after exactly 1 attempt", err, rec.count())
					}
				case fname == "429" || op.kind != opCreate:
					if err != nil || rec.count() != 2 {
						t.Errorf("%s (%s): err=%v attempts=%d; want success after 2 attempts", op.kind, fname, err, rec.count())
					}
				default:
					if !IsAmbiguous(err) || rec.count() != 1 {
						t.Errorf("create (%s): err=%v attempts=%d; want an ambiguous error after exactly 1 attempt", fname, err, rec.count())
					}
				}
			})
		}
	}
}

// TestDeleteGoneOnRetryIsDone: a delete whose first attempt was sent and lost
// and whose retry finds the object gone (404, 410, 409 "already deleted")
// succeeds; a 409 for another reason stays an error.
func TestDeleteGoneOnRetryIsDone(t *testing.T) {
	for _, tc := range []struct {
		name    string
		retry   http.HandlerFunc
		wantErr bool
	}{
		{"404", replyJSON(404, `{"error":{"message":"Trigger not found"}}`), false},
		{"410", replyJSON(410, `{"error":{"message":"gone"}}`), false},
		{"409 already deleted", replyJSON(409, `{"error":{"message":"Connected account is already deleted"}}`), false},
		{"409 other", replyJSON(409, `{"error":{"message":"account has active triggers"}}`), true},
	} {
		for _, op := range allWriteOps {
			if op.kind != opDelete {
				continue
			}
			t.Run(op.name+"/"+tc.name, func(t *testing.T) {
				c, rec := newTestClient(t, failFirst(hangUp, tc.retry), withOrgKey)
				err := op.call(context.Background(), c)
				if (err != nil) != tc.wantErr || rec.count() != 2 {
					t.Errorf("err=%v attempts=%d; want error=%v after 2 attempts", err, rec.count(), tc.wantErr)
				}
			})
		}
	}
}
