package provider

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// TestServedInterfaces: the server main.go serves implements every
// interface of terraform-plugin-go's tfprotov6 package that the framework's
// own server implements. The interfaces are read from the package's source,
// so that one a newer terraform-plugin-go adds (say a future
// ProviderServerWithX) fails here until the wrapper forwards it, instead of
// its RPCs answering "not implemented" to users.
func TestServedInterfaces(t *testing.T) {
	served, err := NewServer("test")()
	if err != nil {
		t.Fatal(err)
	}
	framework := providerserver.NewProtocol6(New("test")())()
	ifaces := tfprotov6Interfaces(t)
	if len(ifaces) < 4 {
		t.Fatalf("found only %d ProviderServer interfaces in tfprotov6 (%v): the source scan is broken", len(ifaces), ifaces)
	}
	checked := 0
	for name, methods := range ifaces {
		if !hasMethods(framework, methods) {
			t.Logf("the framework's server does not implement tfprotov6.%s; not required", name)
			continue
		}
		checked++
		if missing := missingMethods(served, methods); len(missing) > 0 {
			t.Errorf("the served server (%T) lacks tfprotov6.%s, which the framework's implements: missing %v", served, name, missing)
		}
	}
	if checked < 4 {
		t.Errorf("the framework's server implements only %d of the interfaces: expected at least ProviderServer, list resources, actions and state stores", checked)
	}
}

// tfprotov6Interfaces returns each interface type of the tfprotov6 package
// whose name starts with ProviderServer, with its whole method set
// (embedded interfaces of the package expanded).
func tfprotov6Interfaces(t *testing.T) map[string][]string {
	t.Helper()
	out, err := exec.CommandContext(t.Context(), "go", "list", "-f", "{{.Dir}}", "github.com/hashicorp/terraform-plugin-go/tfprotov6").Output()
	if err != nil {
		t.Fatalf("go list tfprotov6: %v", err)
	}
	dir := strings.TrimSpace(string(out))
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	decls := map[string]*ast.InterfaceType{}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if ts, ok := n.(*ast.TypeSpec); ok {
				if it, ok := ts.Type.(*ast.InterfaceType); ok {
					decls[ts.Name.Name] = it
				}
			}
			return true
		})
	}
	var expand func(name string, seen map[string]bool) []string
	expand = func(name string, seen map[string]bool) []string {
		it := decls[name]
		if it == nil || seen[name] {
			return nil
		}
		seen[name] = true
		var ms []string
		for _, f := range it.Methods.List {
			if len(f.Names) > 0 {
				for _, n := range f.Names {
					ms = append(ms, n.Name)
				}
				continue
			}
			if id, ok := f.Type.(*ast.Ident); ok {
				ms = append(ms, expand(id.Name, seen)...)
			}
		}
		return ms
	}
	ifaces := map[string][]string{}
	for name := range decls {
		if strings.HasPrefix(name, "ProviderServer") {
			ms := expand(name, map[string]bool{})
			sort.Strings(ms)
			ifaces[name] = ms
		}
	}
	return ifaces
}

func missingMethods(v any, methods []string) []string {
	typ := reflect.TypeOf(v)
	var missing []string
	for _, m := range methods {
		if _, ok := typ.MethodByName(m); !ok {
			missing = append(missing, m)
		}
	}
	return missing
}

func hasMethods(v any, methods []string) bool { return len(missingMethods(v, methods)) == 0 }

// The served server answers the optional interfaces' RPCs through the
// framework: a list resource RPC on an unknown type gets the framework's
// diagnostic, not "not implemented".
func TestServedInterfacesAsserted(t *testing.T) {
	served, err := NewServer("test")()
	if err != nil {
		t.Fatal(err)
	}
	for name, ok := range map[string]bool{
		"ProviderServerWithListResource": isA[tfprotov6.ProviderServerWithListResource](served), //nolint:staticcheck // see protocol.Server
		"ProviderServerWithActions":      isA[tfprotov6.ProviderServerWithActions](served),      //nolint:staticcheck // see protocol.Server
		"ProviderServerWithStateStores":  isA[tfprotov6.ProviderServerWithStateStores](served),  //nolint:staticcheck // see protocol.Server
	} {
		if !ok {
			t.Errorf("the served server does not implement tfprotov6.%s", name)
		}
	}
}

func isA[T any](v any) bool { _, ok := v.(T); return ok }
