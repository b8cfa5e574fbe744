package provider

// The registrations a new Terraform type needs outside its own files, each
// checked here against the provider's own lists (Resources, DataSources,
// ListResources, Actions, EphemeralResources): a type added to a list
// without one fails a test naming the file to add it to. What no test can
// derive (the files to create, the docs example, the changelog entry's
// wording) is CONTRIBUTING's checklist for a new type.

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// regKind is one of the provider's lists of types.
type regKind struct {
	name  string   // "resource", "data source", ...
	file  string   // the prefix of its types' files: "resource_", "data_source_", ...
	types []string // the type names, in the list's order
}

// regNames are the names of the types fs build, from the base every type
// embeds (provider_types.go), whose Metadata serves the same name.
func regNames[T any](t *testing.T, kind string, fs []func() T, providerTypeName string) []string {
	t.Helper()
	var names []string
	for _, f := range fs {
		typ := f()
		named, ok := any(typ).(interface{ typeName(string) string })
		if !ok {
			t.Fatalf("%s %T does not embed the base of its kind (provider_types.go): build it with typeNamed", kind, typ)
		}
		names = append(names, named.typeName(providerTypeName))
	}
	return names
}

// regNoStale fails for each type a registry (named with its file) has that
// Resources() does not list.
func regNoStale(t *testing.T, registry string, registered []string, resources []string) {
	t.Helper()
	for _, typ := range registered {
		if !slices.Contains(resources, typ) {
			t.Errorf("%s has %s, which Resources() does not list: remove it", registry, typ)
		}
	}
}

// regTypes returns the provider's types, list by list, by name.
func regTypes(t *testing.T) (resources, dataSources, lists, actions, ephemerals regKind) {
	t.Helper()
	ctx := context.Background()
	p, ok := New("test")().(*ServiceProvider)
	if !ok {
		t.Fatal("New does not return a *ServiceProvider")
	}
	var pm provider.MetadataResponse
	p.Metadata(ctx, provider.MetadataRequest{}, &pm)
	pt := pm.TypeName
	resources = regKind{name: "resource", file: "resource_", types: regNames(t, "resource", p.Resources(ctx), pt)}
	dataSources = regKind{name: "data source", file: "data_source_", types: regNames(t, "data source", p.DataSources(ctx), pt)}
	lists = regKind{name: "list resource", file: "list_resource_", types: regNames(t, "list resource", p.ListResources(ctx), pt)}
	actions = regKind{name: "action", file: "action_", types: regNames(t, "action", p.Actions(ctx), pt)}
	ephemerals = regKind{name: "ephemeral resource", file: "ephemeral_", types: regNames(t, "ephemeral resource", p.EphemeralResources(ctx), pt)}
	return
}

// regAllKinds returns every list of types.
func regAllKinds(t *testing.T) []regKind {
	r, d, l, a, e := regTypes(t)
	return []regKind{r, d, l, a, e}
}

// regShortName is a type's name without the provider's prefix
// (service_mcp_server: mcp_server), as its files are named.
func regShortName(typ string) string {
	_, short, _ := strings.Cut(typ, "_")
	return short
}

// regCamel is a type's name as its tests spell it (service_mcp_server:
// MCPServer).
func regCamel(typ string) string {
	var b strings.Builder
	for _, w := range strings.Split(regShortName(typ), "_") {
		switch w {
		case "mcp", "id", "api", "url":
			b.WriteString(strings.ToUpper(w))
		default:
			b.WriteString(strings.ToUpper(w[:1]) + w[1:])
		}
	}
	return b.String()
}

// regTestNames returns the names of the test functions of this package.
func regTestNames(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?m)^func (Test\w+)\(t \*testing\.T\)`)
	var names []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllSubmatch(b, -1) {
			names = append(names, string(m[1]))
		}
	}
	return names
}

// regLowerCamel is regCamel with its first word in lower case
// (service_mcp_server: mcpServer), as the TestAccE2E_ and TestAccIdentity_
// tests spell it.
func regLowerCamel(typ string) string {
	camel, first := regCamel(typ), strings.Split(regShortName(typ), "_")[0]
	return first + camel[len(first):]
}

// regTestOf reports whether the test name is one of typ's acceptance tests:
// TestAcc<Type>_..., TestAccE2E_<type>_... or TestAccE2E_<type><Kind>
// (TestAccE2E_connectedAccountRevokeAction for an action).
func regTestOf(name, typ, kind string) bool {
	lower, kindWord := regLowerCamel(typ), ""
	for _, w := range strings.Fields(kind) {
		kindWord += strings.ToUpper(w[:1]) + w[1:]
	}
	return strings.HasPrefix(name, "TestAcc"+regCamel(typ)+"_") ||
		strings.HasPrefix(name, "TestAccE2E_"+lower+"_") ||
		name == "TestAccE2E_"+lower+kindWord
}

// regRead reads a file of the repository, by its path from the root.
func regRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(path)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Every resource's model is in codecModels (model_codec_test.go), which
// TestModelCodecMatchesFramework needs to compare codec.Get/codec.Set with
// the framework on that resource; no entry names a type the provider does
// not have.
func TestRegistrationsCodecModels(t *testing.T) {
	resources, _, _, _, _ := regTypes(t)
	for _, typ := range resources.types {
		if _, ok := codecModels[typ]; !ok {
			t.Errorf("resource %s: no entry in codecModels (internal/provider/model_codec_test.go): "+
				"add its type name with a func returning a pointer to a new model struct", typ)
		}
	}
	regNoStale(t, "codecModels (internal/provider/model_codec_test.go)", slices.Collect(maps.Keys(codecModels)), resources.types)
}

// compatRunRe is COMPAT_RUN, the compatibility pass's tests, from
// scripts/test.sh.
func compatRunRe(t *testing.T) *regexp.Regexp {
	t.Helper()
	m := regexp.MustCompile(`(?m)^COMPAT_RUN='([^']*)'$`).FindStringSubmatch(regRead(t, "scripts/test.sh"))
	if m == nil {
		t.Fatal("scripts/test.sh: no line COMPAT_RUN='...'")
	}
	re, err := regexp.Compile(m[1])
	if err != nil {
		t.Fatalf("scripts/test.sh: COMPAT_RUN: %v", err)
	}
	return re
}

// Each resource, ephemeral resource and action has a test that COMPAT_RUN
// (scripts/test.sh) selects, so that the compatibility pass runs it on
// Terraform 1.11 and on OpenTofu: for a resource its lifecycle test (create,
// update in place, import, drift, destroy).
func TestRegistrationsCompatRun(t *testing.T) {
	re := compatRunRe(t)
	names := regTestNames(t)
	resources, _, _, actions, ephemerals := regTypes(t)
	for _, k := range []regKind{resources, ephemerals, actions} {
		for _, typ := range k.types {
			var own, selected []string
			for _, n := range names {
				if regTestOf(n, typ, k.name) {
					own = append(own, n)
					if re.MatchString(n) {
						selected = append(selected, n)
					}
				}
			}
			switch {
			case len(own) == 0:
				t.Errorf("%s %s: no test TestAcc%s_... for COMPAT_RUN (scripts/test.sh) to select: write its lifecycle "+
					"test (create, update in place, import, drift, destroy) beside it and add it to COMPAT_RUN",
					k.name, typ, regCamel(typ))
			case len(selected) == 0:
				t.Errorf("%s %s: COMPAT_RUN in scripts/test.sh selects none of its tests (%s): "+
					"add its lifecycle test (create, update in place, import, drift, destroy) to COMPAT_RUN",
					k.name, typ, strings.Join(own, ", "))
			}
		}
	}
}

// budgetElsewhere: the resources whose request budget a test other than
// TestAccE2E_RequestBudget holds (the test's name), or, starting with
// "none:", why none does yet.
var budgetElsewhere = map[string]string{
	mcpServerType:       "TestAccE2E_mcpServerCost",
	webhookEndpointType: "TestAccE2E_webhookEndpoint",
	projectType:         "TestAccProject_lifecycle",
	customToolkitType:   "none: no test counts a custom toolkit's requests yet",
}

// Each resource's request budget is held by a test: it is in
// TestAccE2E_RequestBudget's configuration (request_budget_e2e_test.go), or
// budgetElsewhere names the test that holds it (or says why none does).
func TestRegistrationsRequestBudget(t *testing.T) {
	resources, _, _, _, _ := regTypes(t)
	src := regRead(t, "internal/provider/request_budget_e2e_test.go")
	inBudget := map[string]bool{}
	for _, m := range regexp.MustCompile(`resource "(\w+)"`).FindAllStringSubmatch(src, -1) {
		inBudget[m[1]] = true
	}
	names := regTestNames(t)
	for _, typ := range resources.types {
		other, elsewhere := budgetElsewhere[typ]
		switch {
		case inBudget[typ] && elsewhere:
			t.Errorf("resource %s: in TestAccE2E_RequestBudget's configuration and in budgetElsewhere "+
				"(internal/provider/registrations_test.go): remove it from budgetElsewhere", typ)
		case inBudget[typ]:
		case !elsewhere:
			t.Errorf("resource %s: no request budget: add its objects to TestAccE2E_RequestBudget's configuration "+
				"and its routes to the expectations (internal/provider/request_budget_e2e_test.go), or name the test "+
				"that holds its budget in budgetElsewhere (internal/provider/registrations_test.go)", typ)
		case strings.HasPrefix(other, "none:"):
		case !slices.Contains(names, other):
			t.Errorf("resource %s: budgetElsewhere (internal/provider/registrations_test.go) names %s, "+
				"which is not a test of this package", typ, other)
		}
	}
	regNoStale(t, "budgetElsewhere (internal/provider/registrations_test.go)", slices.Collect(maps.Keys(budgetElsewhere)), resources.types)
}

// contractWalks: the walk of test/contract (a method of walker) that
// sends the requests each resource makes to the emulator, checked against
// the official client's types, or, starting with "none:", why none does.
var contractWalks = map[string]string{
	authConfigResourceType:  "walkAuthConfigs",
	connectedAccountType:    "walkAccounts",
	triggerInstanceType:     "walkTriggers",
	webhookSubscriptionType: "walkWebhookSubscriptions",
	webhookEndpointType:     "walkWebhookEndpoints",
	mcpServerType:           "walkMCP",
	toolRouterSessionType:   "walkSessions",
	projectType:             "walkProjects",
	customToolkitType:       "none: the official client's package has no custom toolkit operation",
}

// Each resource's API is walked by test/contract: contractWalks names the
// walk, which a contract test runs.
func TestRegistrationsContractWalks(t *testing.T) {
	resources, _, _, _, _ := regTypes(t)
	files, err := filepath.Glob(filepath.Join("..", "..", "test", "contract", "*_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	var src strings.Builder
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src.Write(b)
	}
	for _, typ := range resources.types {
		walk, ok := contractWalks[typ]
		switch {
		case !ok:
			t.Errorf("resource %s: no contract walk: add a walk of its API to test/contract (walk_*_test.go, run by "+
				"TestContract or a test beside it) and name it in contractWalks (internal/provider/registrations_test.go)", typ)
		case strings.HasPrefix(walk, "none:"):
		case !strings.Contains(src.String(), "func (w *walker) "+walk+"("):
			t.Errorf("resource %s: contractWalks (internal/provider/registrations_test.go) names %s, "+
				"which test/contract does not define", typ, walk)
		case !strings.Contains(src.String(), "w."+walk+"("):
			t.Errorf("resource %s: the contract walk %s (test/contract) is never run: call it from TestContract", typ, walk)
		}
	}
	regNoStale(t, "contractWalks (internal/provider/registrations_test.go)", slices.Collect(maps.Keys(contractWalks)), resources.types)
}

// identityElsewhere: the resources with an identity whose identity test is
// not a TestAccIdentity_<type> (testAccIdentity in identity_test.go), and
// the test that holds it instead.
var identityElsewhere = map[string]string{
	webhookEndpointType: "TestAccWebhookEndpoint_importByIdentity",
}

// Each resource with an identity has an identity test: TestAccIdentity_<type>
// (identity_test.go's testAccIdentity: create, update, imports by identity
// and by id, a state without identity, a deletion outside Terraform), or
// identityElsewhere names the test that holds it.
func TestRegistrationsIdentityTests(t *testing.T) {
	ctx := context.Background()
	names := regTestNames(t)
	for _, f := range New("test")().Resources(ctx) {
		r := f()
		var md resource.MetadataResponse
		r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "service"}, &md)
		if _, ok := r.(resource.ResourceWithIdentity); !ok {
			continue
		}
		want := "TestAccIdentity_" + regLowerCamel(md.TypeName)
		if other, ok := identityElsewhere[md.TypeName]; ok {
			want = other
		}
		if !slices.Contains(names, want) {
			t.Errorf("resource %s has an identity but no test %s: write it beside the resource "+
				"(%s%s_test.go) with testAccIdentity (identity_test.go), or name its identity test in "+
				"identityElsewhere (internal/provider/registrations_test.go)", md.TypeName, want, "resource_", regShortName(md.TypeName))
		}
	}
}

// listResourceless: the resources without a list resource, and why (the
// reason is also in the resource's documentation).
var listResourceless = map[string]string{
	toolRouterSessionType: "the service has no operation that lists tool-router sessions (the contract's " +
		"toolRouter.session has create, retrieve, patch and delete by id, and its API reference lists none), " +
		"so neither a list resource nor a data source of them can exist",
}

// Each resource has a list resource of the same name (`terraform query`),
// unless listResourceless says why it cannot, and each list resource lists
// a resource.
func TestRegistrationsListResources(t *testing.T) {
	resources, _, lists, _, _ := regTypes(t)
	for typ := range listResourceless {
		if slices.Contains(lists.types, typ) {
			t.Errorf("resource %s has a list resource: remove it from listResourceless (internal/provider/registrations_test.go)", typ)
		}
	}
	regNoStale(t, "listResourceless (internal/provider/registrations_test.go)", slices.Collect(maps.Keys(listResourceless)), resources.types)
	for _, typ := range resources.types {
		if _, none := listResourceless[typ]; none {
			continue
		}
		if !slices.Contains(lists.types, typ) {
			t.Errorf("resource %s has no list resource: add one (list_resource_%s.go, with its test beside it) "+
				"and its constructor to ListResources() (provider.go)", typ, regShortName(typ))
		}
	}
	for _, typ := range lists.types {
		if !slices.Contains(resources.types, typ) {
			t.Errorf("list resource %s lists no resource of the provider", typ)
		}
	}
}

// regTestBeside: the types whose file has no test file beside it, and the
// test file that holds their tests instead.
var regTestBeside = map[string]string{
	"data_source_mcp_servers.go":         "data_source_mcp_server_test.go (TestAccMCPServerDataSources: both data sources)",
	"data_source_projects.go":            "data_source_project_test.go (TestAccProjectDataSources: both data sources)",
	"data_source_webhook_event_types.go": "none: only its example is checked (test/examples)",
}

// Each type has its own file (resource_<name>.go, data_source_<name>.go,
// list_resource_<name>.go, action_<name>.go, ephemeral_<name>.go) with its
// tests beside it (<file>_test.go), or regTestBeside says where they are.
func TestRegistrationsTypeFiles(t *testing.T) {
	for _, k := range regAllKinds(t) {
		for _, typ := range k.types {
			file := k.file + regShortName(typ) + ".go"
			if _, err := os.Stat(file); err != nil {
				t.Errorf("%s %s: no file internal/provider/%s: each type has a file of its own", k.name, typ, file)
				continue
			}
			test := strings.TrimSuffix(file, ".go") + "_test.go"
			_, err := os.Stat(test)
			_, elsewhere := regTestBeside[file]
			switch {
			case err != nil && !elsewhere:
				t.Errorf("%s %s: no internal/provider/%s: put its tests beside its file", k.name, typ, test)
			case err == nil && elsewhere:
				t.Errorf("%s %s: %s exists: remove %s from regTestBeside (internal/provider/registrations_test.go)",
					k.name, typ, test, file)
			}
		}
	}
}

// regBases are the shared starts (provider_types.go) every resource's Read,
// Update and Delete begins with.
var regBases = map[string][]string{
	"Read":   {"readState"},
	"Update": {"planAndState", "planStateAndConfig"},
	"Delete": {"deleteState"},
}

// TestRegistrationsStartThroughBases: every resource's Read, Update and
// Delete starts with its base (`if !r.readState(...) { return }`, ...), and
// nothing before that reads the state, the plan or the client by hand.
func TestRegistrationsStartThroughBases(t *testing.T) {
	resources, _, _, _, _ := regTypes(t)
	for _, typ := range resources.types {
		file := resources.file + regShortName(typ) + ".go"
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv == nil || fn.Body == nil || regBases[fn.Name.Name] == nil {
				continue
			}
			seen[fn.Name.Name] = true
			if where := regBaseStart(fn, regBases[fn.Name.Name]); where != "" {
				t.Errorf("%s: %s %s: start it with `if !r.%s(ctx, req, resp, ...) { return }` (provider_types.go): %s",
					file, typ, fn.Name.Name, strings.Join(regBases[fn.Name.Name], "` or `if !r."), where)
			}
		}
		for m := range regBases {
			if !seen[m] {
				t.Errorf("%s: %s has no %s method in its file", file, typ, m)
			}
		}
	}
}

// regBaseStart is "" when fn's body has a top-level `if !r.<base>(...)`, one
// of bases, before any statement that reads the request's state, plan or
// config or uses the client; else what it found instead.
func regBaseStart(fn *ast.FuncDecl, bases []string) string {
	for _, st := range fn.Body.List {
		if ifs, ok := st.(*ast.IfStmt); ok {
			if u, ok := ifs.Cond.(*ast.UnaryExpr); ok && u.Op == token.NOT {
				if call, ok := u.X.(*ast.CallExpr); ok {
					if sel, ok := call.Fun.(*ast.SelectorExpr); ok && slices.Contains(bases, sel.Sel.Name) {
						return ""
					}
				}
			}
		}
		found := ""
		ast.Inspect(st, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok || found != "" {
				return found == ""
			}
			if x, ok := sel.X.(*ast.SelectorExpr); ok && x.Sel.Name == "data" && sel.Sel.Name == "Client" {
				found = "it uses the client first"
			}
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == "req" && (sel.Sel.Name == "State" || sel.Sel.Name == "Plan" || sel.Sel.Name == "Config") {
				found = "it reads req." + sel.Sel.Name + " by hand"
			}
			if x, ok := sel.X.(*ast.Ident); ok && x.Name == "codec" && sel.Sel.Name == "Get" {
				found = "it calls codec.Get by hand"
			}
			return found == ""
		})
		if found != "" {
			return found
		}
	}
	return "it has no such start"
}

// regTableRows returns the cells of the rows of the Markdown tables in doc
// whose first cell starts with prefix (case-insensitive).
func regTableRows(doc, prefix string) string {
	var rows strings.Builder
	for _, line := range strings.Split(doc, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 3 || strings.TrimSpace(cells[0]) != "" {
			continue
		}
		if strings.HasPrefix(strings.ToLower(strings.TrimSpace(cells[1])), prefix) {
			rows.WriteString(line + "\n")
		}
	}
	return rows.String()
}

// changelogUnnamed: the types CHANGELOG.md does not name yet, and why.
var changelogUnnamed = map[string]string{}

// The tables of types in the README and in the provider's documentation
// (templates/index.md.tmpl, generated into docs/index.md) name every type
// in its kind's row, and the changelog names every type.
func TestRegistrationsDocs(t *testing.T) {
	readme, index, changelog := regRead(t, "README.md"), regRead(t, "templates/index.md.tmpl"), regRead(t, "CHANGELOG.md")
	for _, k := range regAllKinds(t) {
		for _, typ := range k.types {
			for _, doc := range []struct{ path, text string }{{"README.md", readme}, {"templates/index.md.tmpl", index}} {
				if !strings.Contains(regTableRows(doc.text, k.name), "`"+typ+"`") {
					t.Errorf("%s %s: not in the table of types of %s: add it to the %s row(s)", k.name, typ, doc.path, k.name)
				}
			}
			named := regexp.MustCompile(`\b` + typ + `\b`).MatchString(changelog)
			if _, unnamed := changelogUnnamed[typ]; named == unnamed {
				if named {
					t.Errorf("%s %s: CHANGELOG.md names it: remove it from changelogUnnamed (internal/provider/registrations_test.go)", k.name, typ)
				} else {
					t.Errorf("%s %s: CHANGELOG.md never names it: add an entry under Unreleased", k.name, typ)
				}
			}
		}
	}
}

// layoutToken is a code span of CONTRIBUTING.md that may be a path.
var layoutToken = regexp.MustCompile("`([A-Za-z0-9_.*/-]+)`")

// layoutIsPath reports whether a code span names a path: it has a slash or
// a file extension of the tree.
func layoutIsPath(tok string) bool {
	if strings.Contains(tok, "/") {
		return true
	}
	for _, ext := range []string{".go", ".sh", ".md", ".tmpl", ".json", ".yml", ".mjs", ".tf", ".hcl"} {
		if strings.HasSuffix(tok, ext) {
			return true
		}
	}
	return false
}

// CONTRIBUTING.md's "Repository layout" names only paths that exist: a
// name is looked up in the directory its top-level item starts with, then
// from the repository's root; a glob must match something; a path followed
// by "(git-ignored)" is not checked. And it names every directory of
// internal/, internal/provider/ (the sub-packages), cmd/ and test/, and
// every file of internal/provider that is neither a type's file nor a test.
func TestRegistrationsLayoutDoc(t *testing.T) {
	const heading = "\n## Repository layout\n"
	doc := regRead(t, "CONTRIBUTING.md")
	start := strings.Index(doc, heading)
	if start < 0 {
		t.Fatalf("CONTRIBUTING.md has no section %q", strings.TrimSpace(heading))
	}
	section := doc[start+len(heading):]
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}
	root := filepath.Join("..", "..")
	named := map[string]bool{} // root-relative slash paths the section names
	// Top-level items ("* " at the line's start), the paragraphs before them
	// one more, each with its code spans over its lines joined.
	items := strings.Split("\n"+section, "\n* ")
	for i, item := range items {
		text := strings.Join(strings.Fields(item), " ")
		base := ""
		if m := layoutToken.FindStringSubmatch(text); i > 0 && m != nil && strings.HasPrefix(text, m[0]) {
			base = m[1]
		}
		for _, m := range layoutToken.FindAllStringSubmatchIndex(text, -1) {
			tok := text[m[2]:m[3]]
			if !layoutIsPath(tok) || strings.HasPrefix(text[m[1]:], " (git-ignored)") {
				continue
			}
			found := false
			for _, cand := range []string{path.Join(base, tok), path.Clean(tok)} {
				matches, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(cand)))
				if err != nil || len(matches) == 0 {
					continue
				}
				found = true
				if !strings.ContainsAny(tok, "*?[") {
					named[cand] = true
				}
				break
			}
			if !found {
				where := "from the repository's root"
				if base != "" {
					where = "in " + base + " or " + where
				}
				t.Errorf("CONTRIBUTING.md, Repository layout: `%s` does not exist (looked up %s): name the path as it is", tok, where)
			}
		}
	}

	typeFiles := map[string]bool{}
	for _, k := range regAllKinds(t) {
		for _, typ := range k.types {
			typeFiles[k.file+regShortName(typ)+".go"] = true
		}
	}
	for _, dir := range []string{"internal", "internal/provider", "cmd", "test"} {
		entries, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(dir)))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			p := dir + "/" + e.Name()
			switch {
			case e.IsDir() && strings.HasPrefix(e.Name(), "."):
			case e.IsDir():
				if !named[p] {
					t.Errorf("CONTRIBUTING.md, Repository layout: the directory %s is not named: add it, with what it is for", p)
				}
			case dir == "internal/provider" && strings.HasSuffix(e.Name(), ".go") &&
				!strings.HasSuffix(e.Name(), "_test.go") && !typeFiles[e.Name()]:
				if !named[p] {
					t.Errorf("CONTRIBUTING.md, Repository layout: %s (neither a type's file nor a test) is not named: add it, with what it is for", p)
				}
			}
		}
	}
}
