package parity

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// The read operations the provider uses, derived from the code rather than
// listed by hand: every exported method (or function) of internal/client
// that internal/provider names is a root; from each root the scan follows
// the calls inside the client package, binding the path and type arguments
// at each call, down to every c.do / c.doKind with http.MethodGet. For each
// it evaluates the path template ("/auth_configs/{}": an escape(...) is a
// parameter) and renders the type the answer is decoded into
// ("page[AuthConfig]"). A GET the scan cannot evaluate is an error: the
// scan must be taught the new form rather than miss an operation.

// clientRead is one GET the client sends on the provider's behalf.
type clientRead struct {
	Path   string // template below /api/v3.1, a parameter as {}
	Decode string // the decode target's type, "" for none
	Pos    string // file:line of the c.do call
}

type srcPkg struct {
	fset   *token.FileSet
	funcs  map[string]*ast.FuncDecl   // "name" for functions, "Recv.name" for methods
	byName map[string][]*ast.FuncDecl // methods by name, every receiver
	consts map[string]ast.Expr        // package-level constants
	files  map[string]bool            // imported package names
}

func parseDir(dir string) (*srcPkg, []*ast.File, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	p := &srcPkg{fset: token.NewFileSet(), funcs: map[string]*ast.FuncDecl{}, byName: map[string][]*ast.FuncDecl{},
		consts: map[string]ast.Expr{}, files: map[string]bool{}}
	var files []*ast.File
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(p.fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, nil, err
		}
		files = append(files, f)
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			n := path[strings.LastIndex(path, "/")+1:]
			if imp.Name != nil {
				n = imp.Name.Name
			}
			p.files[n] = true
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				key := d.Name.Name
				if d.Recv != nil && len(d.Recv.List) == 1 {
					key = recvName(d.Recv.List[0].Type) + "." + key
					p.byName[d.Name.Name] = append(p.byName[d.Name.Name], d)
				}
				p.funcs[key] = d
			case *ast.GenDecl:
				if d.Tok != token.CONST {
					continue
				}
				for _, s := range d.Specs {
					vs := s.(*ast.ValueSpec)
					for i, n := range vs.Names {
						if i < len(vs.Values) {
							p.consts[n.Name] = vs.Values[i]
						}
					}
				}
			}
		}
	}
	return p, files, nil
}

func recvName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return recvName(t.X)
	case *ast.IndexExpr:
		return recvName(t.X)
	case *ast.IndexListExpr:
		return recvName(t.X)
	case *ast.Ident:
		return t.Name
	}
	return "?"
}

// thunk is an argument expression with the environment it is evaluated in.
type thunk struct {
	expr ast.Expr
	env  *scanEnv
}

// scanEnv binds one function's parameters and type parameters at a call.
type scanEnv struct {
	fn     *ast.FuncDecl
	params map[string]thunk
	types  map[string]string
	depth  int
}

type scanner struct {
	pkg   *srcPkg
	reads []clientRead
	errs  []string
	seen  map[string]bool
}

// scanClientReads returns the GETs reachable from the client methods and
// functions the provider's code names.
func scanClientReads(clientDir, providerDir string) ([]clientRead, error) {
	pkg, _, err := parseDir(clientDir)
	if err != nil {
		return nil, err
	}
	roots, err := providerRoots(providerDir, pkg)
	if err != nil {
		return nil, err
	}
	s := &scanner{pkg: pkg, seen: map[string]bool{}}
	for _, fn := range roots {
		s.visit(&scanEnv{fn: fn, params: map[string]thunk{}, types: map[string]string{}})
	}
	if len(s.errs) > 0 {
		sort.Strings(s.errs)
		return nil, fmt.Errorf("the scan cannot evaluate %d GET call(s) of the client:\n  %s", len(s.errs), strings.Join(s.errs, "\n  "))
	}
	sort.Slice(s.reads, func(i, j int) bool {
		a, b := s.reads[i], s.reads[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Decode != b.Decode {
			return a.Decode < b.Decode
		}
		return a.Pos < b.Pos
	})
	return s.reads, nil
}

// providerRoots are the client's exported methods of Client and exported
// functions that the provider's (non-test) code names: the code of dir and
// of every package below it (the provider's plumbing lives in sub-packages).
func providerRoots(dir string, pkg *srcPkg) ([]*ast.FuncDecl, error) {
	var files []*ast.File
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() || d.Name() == "testdata" {
			return err
		}
		_, found, err := parseDir(path)
		files = append(files, found...)
		return err
	})
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && ast.IsExported(sel.Sel.Name) {
				names[sel.Sel.Name] = true
			}
			return true
		})
	}
	var roots []*ast.FuncDecl
	for _, key := range sortedKeys(pkg.funcs) {
		fn := pkg.funcs[key]
		if !fn.Name.IsExported() || !names[fn.Name.Name] {
			continue
		}
		if fn.Recv == nil || strings.HasPrefix(key, "Client.") {
			roots = append(roots, fn)
		}
	}
	return roots, nil
}

func (s *scanner) pos(n ast.Node) string {
	p := s.pkg.fset.Position(n.Pos())
	return filepath.Base(p.Filename) + ":" + strconv.Itoa(p.Line)
}

func (s *scanner) visit(e *scanEnv) {
	if e.depth > 12 {
		return
	}
	key := s.envKey(e)
	if s.seen[key] {
		return
	}
	s.seen[key] = true
	if e.fn.Body == nil {
		return
	}
	ast.Inspect(e.fn.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok && (sel.Sel.Name == "do" || sel.Sel.Name == "doKind") {
			s.request(call, sel.Sel.Name, e)
			return true
		}
		for _, callee := range s.callees(call) {
			s.visit(s.bind(callee, call, e))
		}
		return true
	})
}

// envKey names a function with its evaluable bindings, so that each
// distinct call context is walked once.
func (s *scanner) envKey(e *scanEnv) string {
	var b strings.Builder
	b.WriteString(s.pos(e.fn))
	for _, k := range sortedKeys(e.params) {
		v, err := s.str(e.params[k].expr, e.params[k].env)
		if err == nil {
			fmt.Fprintf(&b, " %s=%q", k, v)
		}
	}
	for _, k := range sortedKeys(e.types) {
		fmt.Fprintf(&b, " %s:%s", k, e.types[k])
	}
	return b.String()
}

// callees are the client functions a call may reach: a package function
// (generic or not) or a method of that name on any receiver.
func (s *scanner) callees(call *ast.CallExpr) []*ast.FuncDecl {
	fun := call.Fun
	switch f := fun.(type) {
	case *ast.IndexExpr:
		fun = f.X
	case *ast.IndexListExpr:
		fun = f.X
	}
	switch f := fun.(type) {
	case *ast.Ident:
		if fn, ok := s.pkg.funcs[f.Name]; ok && fn.Recv == nil {
			return []*ast.FuncDecl{fn}
		}
	case *ast.SelectorExpr:
		if id, ok := f.X.(*ast.Ident); ok && s.pkg.files[id.Name] {
			return nil // another package
		}
		return s.pkg.byName[f.Sel.Name]
	}
	return nil
}

// bind is the environment of callee called by call in e.
func (s *scanner) bind(callee *ast.FuncDecl, call *ast.CallExpr, e *scanEnv) *scanEnv {
	ne := &scanEnv{fn: callee, params: map[string]thunk{}, types: map[string]string{}, depth: e.depth + 1}
	i := 0
	for _, field := range callee.Type.Params.List {
		for _, name := range field.Names {
			if i < len(call.Args) {
				ne.params[name.Name] = thunk{expr: call.Args[i], env: e}
			}
			i++
		}
		if len(field.Names) == 0 {
			i++
		}
	}
	var targs []ast.Expr
	switch f := call.Fun.(type) {
	case *ast.IndexExpr:
		targs = []ast.Expr{f.Index}
	case *ast.IndexListExpr:
		targs = f.Indices
	}
	if callee.Type.TypeParams != nil {
		i := 0
		for _, field := range callee.Type.TypeParams.List {
			for _, name := range field.Names {
				if i < len(targs) {
					ne.types[name.Name] = s.render(targs[i], e)
				}
				i++
			}
		}
	}
	return ne
}

// request records the c.do / c.doKind call when its method is GET.
func (s *scanner) request(call *ast.CallExpr, name string, e *scanEnv) {
	mi := 1 // do(ctx, method, path, query, in, out)
	if name == "doKind" {
		mi = 2 // doKind(ctx, kind, method, path, query, in, out)
	}
	if len(call.Args) != mi+5 {
		s.errs = append(s.errs, s.pos(call)+": "+name+" with "+strconv.Itoa(len(call.Args))+" arguments")
		return
	}
	method, err := s.str(call.Args[mi], e)
	if err != nil {
		s.errs = append(s.errs, s.pos(call)+": method: "+err.Error())
		return
	}
	if method != "GET" {
		return
	}
	path, err := s.str(call.Args[mi+1], e)
	if err != nil {
		s.errs = append(s.errs, s.pos(call)+": path: "+err.Error())
		return
	}
	decode, err := s.outType(call.Args[mi+4], e)
	if err != nil {
		s.errs = append(s.errs, s.pos(call)+": decode target: "+err.Error())
		return
	}
	s.reads = append(s.reads, clientRead{Path: path, Decode: decode, Pos: s.pos(call)})
}

// str evaluates a string expression: literals, +, constants, locals
// defined once, bound parameters, escape(...) as {} and one-line helpers
// returning a string expression.
func (s *scanner) str(x ast.Expr, e *scanEnv) (string, error) {
	switch v := x.(type) {
	case *ast.BasicLit:
		if v.Kind == token.STRING {
			return strconv.Unquote(v.Value)
		}
	case *ast.ParenExpr:
		return s.str(v.X, e)
	case *ast.BinaryExpr:
		if v.Op == token.ADD {
			l, err := s.str(v.X, e)
			if err != nil {
				return "", err
			}
			r, err := s.str(v.Y, e)
			return l + r, err
		}
	case *ast.SelectorExpr:
		if id, ok := v.X.(*ast.Ident); ok && id.Name == "http" && strings.HasPrefix(v.Sel.Name, "Method") {
			return strings.ToUpper(strings.TrimPrefix(v.Sel.Name, "Method")), nil
		}
	case *ast.Ident:
		if t, ok := e.params[v.Name]; ok {
			return s.str(t.expr, t.env)
		}
		if def := localDef(e.fn, v.Name); def != nil {
			return s.str(def, e)
		}
		if c, ok := s.pkg.consts[v.Name]; ok {
			return s.str(c, &scanEnv{params: map[string]thunk{}, types: map[string]string{}})
		}
		return "", fmt.Errorf("%s is not a constant, a local or a bound parameter", v.Name)
	case *ast.CallExpr:
		if id, ok := v.Fun.(*ast.Ident); ok {
			if id.Name == "escape" {
				return "{}", nil
			}
			if fn, ok := s.pkg.funcs[id.Name]; ok && fn.Recv == nil && fn.Body != nil && len(fn.Body.List) == 1 {
				if ret, ok := fn.Body.List[0].(*ast.ReturnStmt); ok && len(ret.Results) == 1 {
					return s.str(ret.Results[0], s.bind(fn, v, e))
				}
			}
		}
	}
	return "", fmt.Errorf("cannot evaluate %s", exprString(x))
}

// localDef is the expression a local of fn is defined with (const, var or
// :=), nil when there is none.
func localDef(fn *ast.FuncDecl, name string) ast.Expr {
	return findLocal(fn, name, func(d *ast.ValueSpec, i int) ast.Expr {
		if i < len(d.Values) {
			return d.Values[i]
		}
		return nil
	}, func(rhs ast.Expr) ast.Expr { return rhs })
}

// localType is the declared type of a local (var name T, name := T{...},
// name := &T{...}), nil when there is none.
func localType(fn *ast.FuncDecl, name string) ast.Expr {
	return findLocal(fn, name, func(d *ast.ValueSpec, _ int) ast.Expr { return d.Type }, func(rhs ast.Expr) ast.Expr {
		if u, ok := rhs.(*ast.UnaryExpr); ok && u.Op == token.AND {
			rhs = u.X
		}
		if cl, ok := rhs.(*ast.CompositeLit); ok {
			return cl.Type
		}
		return nil
	})
}

// findLocal walks the declarations of the local name in fn (const and var
// specs, := assignments) and returns the first non-nil answer of fromSpec
// (given the spec and the name's index in it) or fromDefine (given the
// assigned expression); nil when there is none.
func findLocal(fn *ast.FuncDecl, name string, fromSpec func(*ast.ValueSpec, int) ast.Expr, fromDefine func(ast.Expr) ast.Expr) ast.Expr {
	if fn == nil || fn.Body == nil {
		return nil
	}
	var found ast.Expr
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		if found != nil {
			return false
		}
		switch d := n.(type) {
		case *ast.ValueSpec:
			for i, id := range d.Names {
				if id.Name == name {
					if x := fromSpec(d, i); x != nil {
						found = x
					}
				}
			}
		case *ast.AssignStmt:
			if d.Tok == token.DEFINE && len(d.Lhs) == len(d.Rhs) {
				for i, l := range d.Lhs {
					if id, ok := l.(*ast.Ident); ok && id.Name == name {
						if x := fromDefine(d.Rhs[i]); x != nil {
							found = x
						}
					}
				}
			}
		}
		return true
	})
	return found
}

// outType renders the type of the value a decode target points at.
func (s *scanner) outType(x ast.Expr, e *scanEnv) (string, error) {
	switch v := x.(type) {
	case *ast.Ident:
		if v.Name == "nil" {
			return "", nil
		}
		if t, ok := e.params[v.Name]; ok {
			return s.outType(t.expr, t.env)
		}
	case *ast.UnaryExpr:
		if id, ok := v.X.(*ast.Ident); ok && v.Op == token.AND {
			if t := localType(e.fn, id.Name); t != nil {
				return s.render(t, e), nil
			}
		}
	}
	return "", fmt.Errorf("cannot tell the type of %s", exprString(x))
}

// render writes a type expression in the notation renderType uses for a
// reflect.Type, with e's type parameters replaced by their arguments.
func (s *scanner) render(x ast.Expr, e *scanEnv) string {
	switch v := x.(type) {
	case *ast.Ident:
		if t, ok := e.types[v.Name]; ok {
			return t
		}
		if v.Name == "interface{}" {
			return "any"
		}
		return v.Name
	case *ast.SelectorExpr:
		return exprString(v.X) + "." + v.Sel.Name
	case *ast.StarExpr:
		return "*" + s.render(v.X, e)
	case *ast.ArrayType:
		if v.Len == nil {
			return "[]" + s.render(v.Elt, e)
		}
		return "[" + exprString(v.Len) + "]" + s.render(v.Elt, e)
	case *ast.MapType:
		return "map[" + s.render(v.Key, e) + "]" + s.render(v.Value, e)
	case *ast.IndexExpr:
		return s.render(v.X, e) + "[" + s.render(v.Index, e) + "]"
	case *ast.IndexListExpr:
		args := make([]string, len(v.Indices))
		for i, a := range v.Indices {
			args[i] = s.render(a, e)
		}
		return s.render(v.X, e) + "[" + strings.Join(args, ",") + "]"
	case *ast.InterfaceType:
		return "any"
	case *ast.StructType:
		var fields []string
		for _, f := range v.Fields.List {
			tag := ""
			if f.Tag != nil {
				raw, _ := strconv.Unquote(f.Tag.Value)
				tag = reflect.StructTag(raw).Get("json")
			}
			for _, n := range f.Names {
				fields = append(fields, n.Name+" "+s.render(f.Type, e)+" json:"+tag)
			}
		}
		return "struct{" + strings.Join(fields, "; ") + "}"
	}
	return exprString(x)
}

func exprString(x ast.Expr) string {
	var b strings.Builder
	writeExpr(&b, x)
	return b.String()
}

func writeExpr(b *strings.Builder, x ast.Expr) {
	switch v := x.(type) {
	case *ast.Ident:
		b.WriteString(v.Name)
	case *ast.BasicLit:
		b.WriteString(v.Value)
	case *ast.SelectorExpr:
		writeExpr(b, v.X)
		b.WriteString("." + v.Sel.Name)
	case *ast.CallExpr:
		writeExpr(b, v.Fun)
		b.WriteString("(...)")
	case *ast.BinaryExpr:
		writeExpr(b, v.X)
		b.WriteString(" " + v.Op.String() + " ")
		writeExpr(b, v.Y)
	case *ast.UnaryExpr:
		b.WriteString(v.Op.String())
		writeExpr(b, v.X)
	default:
		fmt.Fprintf(b, "%T", x)
	}
}

// renderType writes t in the scan's notation: client types unqualified,
// other named types as pkg.Name, anonymous structs with their json tags.
func renderType(t reflect.Type) string {
	const clientPkg = "github.com/integration-service/terraform-provider-service/internal/client"
	if t.Name() != "" {
		name := strings.ReplaceAll(t.Name(), clientPkg+".", "")
		if t.PkgPath() == "" || t.PkgPath() == clientPkg {
			return name
		}
		return t.PkgPath()[strings.LastIndex(t.PkgPath(), "/")+1:] + "." + name
	}
	switch t.Kind() {
	case reflect.Pointer:
		return "*" + renderType(t.Elem())
	case reflect.Slice:
		return "[]" + renderType(t.Elem())
	case reflect.Array:
		return "[" + strconv.Itoa(t.Len()) + "]" + renderType(t.Elem())
	case reflect.Map:
		return "map[" + renderType(t.Key()) + "]" + renderType(t.Elem())
	case reflect.Interface:
		return "any"
	case reflect.Struct:
		fields := make([]string, t.NumField())
		for i := range t.NumField() {
			f := t.Field(i)
			fields[i] = f.Name + " " + renderType(f.Type) + " json:" + f.Tag.Get("json")
		}
		return "struct{" + strings.Join(fields, "; ") + "}"
	}
	return t.String()
}
