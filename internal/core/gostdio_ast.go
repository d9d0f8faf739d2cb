package core

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/code2skill/code2skill/internal/credential"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/jsmod"
)

// goSource is the package's Go code, parsed: the static rules read it
// through go/ast, as they read JavaScript through jsmod.
type goSource struct {
	fset  *token.FileSet
	files map[string]*ast.File // package-relative path → file
	// funcs indexes the top-level functions of each directory:
	// dir → name → declaration (and the file it is in).
	funcs map[string]map[string]goFunc
}

type goFunc struct {
	decl *ast.FuncDecl
	file string
}

// parseGo parses every .go file of the package, reporting those that do
// not parse.
func (c *checker) parseGo() *goSource {
	src := &goSource{fset: token.NewFileSet(), files: map[string]*ast.File{}, funcs: map[string]map[string]goFunc{}}
	for _, f := range c.pkg.Match("**/*.go") {
		b, err := c.pkg.ReadFile(f.Path)
		if err != nil {
			continue
		}
		file, err := parser.ParseFile(src.fset, f.Path, b, parser.SkipObjectResolution)
		if err != nil {
			d := RuleGoSyntax.New(f.Path, "%v", err)
			var list scanner.ErrorList
			if errors.As(err, &list) && len(list) > 0 {
				d = RuleGoSyntax.New(f.Path, "%s", list[0].Msg).At(list[0].Pos.Line, list[0].Pos.Column)
			}
			c.add(d)
			continue
		}
		src.files[f.Path] = file
		if strings.HasSuffix(f.Path, "_test.go") {
			continue
		}
		dir := path.Dir(f.Path)
		if src.funcs[dir] == nil {
			src.funcs[dir] = map[string]goFunc{}
		}
		for _, d := range file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
				src.funcs[dir][fd.Name.Name] = goFunc{fd, f.Path}
			}
		}
	}
	return src
}

func (s *goSource) at(rule *diag.Rule, file string, pos token.Pos, format string, args ...any) diag.Diagnostic {
	p := s.fset.Position(pos)
	return rule.New(file, format, args...).At(p.Line, p.Column)
}

func (s *goSource) sortedFiles() []string { return sortedKeys(s.files) }

// stringLit returns the value of a string literal.
func goString(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	v, err := strconv.Unquote(lit.Value)
	return v, err == nil
}

// literalURL reports whether s is an http(s) URL of a real host: .invalid
// hosts are test addresses.
func literalURL(s string) bool {
	l := strings.ToLower(strings.TrimSpace(s))
	if !strings.HasPrefix(l, "http://") && !strings.HasPrefix(l, "https://") {
		return false
	}
	host := l[strings.Index(l, "://")+3:]
	if i := strings.IndexAny(host, "/?#"); i >= 0 {
		host = host[:i]
	}
	if i := strings.LastIndex(host, ":"); i >= 0 {
		host = host[:i]
	}
	return host != "" && host != "invalid" && !strings.HasSuffix(host, ".invalid")
}

// envRead reports whether e reads an environment variable: os.Getenv,
// os.LookupEnv, or a Getenv/getenv/LookupEnv method of a runtime context.
func envRead(e ast.Expr) bool {
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	switch sel.Sel.Name {
	case "Getenv", "LookupEnv", "getenv", "lookupEnv":
		return true
	}
	return false
}

// checkGoSource applies the static rules that matter in Go: environment
// reads falling back to literal URLs, literal service addresses and
// credentials in the code, and the annotations of each Tool against the
// methods its Function sends.
func (c *checker) checkGoSource(src *goSource) {
	for _, file := range src.sortedFiles() {
		f := src.files[file]
		test := strings.HasSuffix(file, "_test.go")
		c.goLiterals(src, file, f, test)
		if !test {
			c.goEnvFallbacks(src, file, f)
		}
	}
	c.goAnnotations(src)
}

// goLiterals reports credentials (known formats anywhere; secret-looking
// values of credential-named consts, vars and fields outside tests) and
// literal service addresses outside tests.
func (c *checker) goLiterals(src *goSource, file string, f *ast.File, test bool) {
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.BasicLit:
			if v, ok := goString(x); ok {
				if kind, found := credential.Format(v); found {
					c.add(src.at(jsmod.RuleCredentialLiteral, file, x.Pos(), "a %s is written into the package's Go code (%s…); the host injects credentials through the environment", kind, clipText(v, 6)))
				}
			}
		case *ast.ValueSpec:
			if test {
				return true
			}
			for i, name := range x.Names {
				if i < len(x.Values) {
					c.goNamedLiteral(src, file, name.Name, x.Values[i])
				}
			}
		case *ast.KeyValueExpr:
			if test {
				return true
			}
			key := ""
			switch k := x.Key.(type) {
			case *ast.Ident:
				key = k.Name
			case *ast.BasicLit:
				key, _ = goString(k)
			}
			if key != "" {
				c.goNamedLiteral(src, file, key, x.Value)
			}
		case *ast.CallExpr:
			if test {
				return true
			}
			if sel, ok := x.Fun.(*ast.SelectorExpr); ok {
				if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "http" && slices.Contains([]string{"Get", "Post", "Head", "NewRequest", "NewRequestWithContext"}, sel.Sel.Name) {
					for _, a := range x.Args {
						if v, ok := goString(a); ok && literalURL(v) {
							c.add(src.at(jsmod.RuleBaseURLLiteral, file, a.Pos(), "a literal service address %q is sent to; the host configures the base URL through an environment variable", v))
						}
					}
				}
			}
		}
		return true
	})
}

// goNamedLiteral judges a literal given a name: a credential-named one
// holding a secret, an address-named one holding a URL.
func (c *checker) goNamedLiteral(src *goSource, file, name string, value ast.Expr) {
	v, ok := goString(value)
	if !ok {
		return
	}
	if credential.Name(name) && credential.Secret(name, v) {
		if _, known := credential.Format(v); !known { // a known format is reported once, above
			c.add(src.at(jsmod.RuleCredentialLiteral, file, value.Pos(), "%s holds a credential-looking literal (%s…); the host injects credentials through the environment", name, clipText(v, 4)))
		}
	}
	if credential.Address(name) && literalURL(v) {
		c.add(src.at(jsmod.RuleBaseURLLiteral, file, value.Pos(), "%s holds the literal service address %q; the host configures the base URL through an environment variable", name, v))
	}
}

// goEnvFallbacks reports an environment read that falls back to a literal
// URL: cmp.Or(os.Getenv("X"), "https://…"), or a variable assigned from
// an environment read and then, in the same function, a literal URL.
func (c *checker) goEnvFallbacks(src *goSource, file string, f *ast.File) {
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		fromEnv := map[string]bool{}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.CallExpr:
				env := slices.ContainsFunc(x.Args, envRead)
				for _, a := range x.Args {
					if v, ok := goString(a); ok && env && literalURL(v) {
						c.add(src.at(jsmod.RuleEnvURLFallback, file, a.Pos(), "an environment read falls back to the literal URL %q; a missing base URL must stop the call", v))
					}
				}
			case *ast.AssignStmt:
				for i, lhs := range x.Lhs {
					id, ok := lhs.(*ast.Ident)
					if !ok {
						continue
					}
					var rhs ast.Expr
					switch {
					case len(x.Rhs) == len(x.Lhs):
						rhs = x.Rhs[i]
					case len(x.Rhs) == 1 && i == 0:
						rhs = x.Rhs[0] // v, ok := os.LookupEnv(X)
					}
					if rhs == nil {
						continue
					}
					if envRead(rhs) {
						fromEnv[id.Name] = true
						continue
					}
					if v, ok := goString(rhs); ok && fromEnv[id.Name] && literalURL(v) {
						c.add(src.at(jsmod.RuleEnvURLFallback, file, rhs.Pos(), "%s, read from the environment, falls back to the literal URL %q; a missing base URL must stop the call", id.Name, v))
					}
				}
			}
			return true
		})
	}
}

// goTool is one mcp.AddTool call: the Tool's name, its hints and the
// Function its handler calls.
type goTool struct {
	name        string
	file        string
	pos         token.Pos
	readOnly    bool
	destructive *bool
	fnDir       string // directory of the Function's package
	fnName      string
}

// goAnnotations checks each Tool's readOnlyHint and destructiveHint
// against the methods its Function sends, followed through the
// functions of the module it calls.
func (c *checker) goAnnotations(src *goSource) {
	module := c.goModule()
	for _, file := range src.sortedFiles() {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		for _, t := range goTools(src, file, module) {
			if t.fnName == "" {
				continue
			}
			methods := src.methods(t.fnDir, t.fnName, module, map[string]bool{}, 0)
			fn := src.funcs[t.fnDir][t.fnName]
			for _, m := range methods {
				where := src.fset.Position(m.pos)
				switch {
				case t.readOnly && (m.method == "PUT" || m.method == "PATCH" || m.method == "DELETE"):
					c.add(src.at(RuleAnnotationReadOnly, t.file, t.pos, "tool %q is readOnlyHint: true, but its Function %s sends %s (%s:%d)", t.name, t.fnName, m.method, where.Filename, where.Line))
				case t.destructive != nil && !*t.destructive && m.method == "DELETE":
					c.add(src.at(RuleAnnotationDestructive, t.file, t.pos, "tool %q is destructiveHint: false, but its Function %s sends DELETE (%s:%d)", t.name, t.fnName, where.Filename, where.Line))
				case t.readOnly && m.method == "POST" && m.own && fn.decl != nil:
					c.add(src.at(RuleAnnotationReadOnlyPost, t.file, t.pos, "tool %q is readOnlyHint: true, but its Function %s writes POST (%s:%d): right for an API that reads through POST, otherwise set readOnlyHint: false", t.name, t.fnName, where.Filename, where.Line))
				}
			}
		}
	}
}

// goModule is the module path go.mod declares, or "".
func (c *checker) goModule() string {
	if b, err := c.pkg.ReadFile("go.mod"); err == nil {
		if m, _, err := parseGoMod(b); err == nil {
			return m.module
		}
	}
	return ""
}

// goMethod is an HTTP method written in a Function or a helper it calls.
type goMethod struct {
	method string
	pos    token.Pos
	own    bool // in the Function's own body
}

var httpMethods = map[string]string{
	"MethodGet": "GET", "MethodPost": "POST", "MethodPut": "PUT", "MethodPatch": "PATCH", "MethodDelete": "DELETE",
}

// methods lists the HTTP methods written in the function dir.name and in
// the module's functions it calls, to a bounded depth.
func (s *goSource) methods(dir, name, module string, seen map[string]bool, depth int) []goMethod {
	key := dir + "." + name
	fn, ok := s.funcs[dir][name]
	if !ok || seen[key] || depth > 8 {
		return nil
	}
	seen[key] = true
	imports := s.moduleImports(fn.file, module)
	var out []goMethod
	ast.Inspect(fn.decl.Body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.SelectorExpr:
			if pkg, ok := x.X.(*ast.Ident); ok && pkg.Name == "http" {
				if m, ok := httpMethods[x.Sel.Name]; ok {
					out = append(out, goMethod{m, x.Pos(), depth == 0})
				}
			}
		case *ast.BasicLit:
			if v, ok := goString(x); ok {
				for _, m := range httpMethods {
					if v == m {
						out = append(out, goMethod{m, x.Pos(), depth == 0})
					}
				}
			}
		case *ast.CallExpr:
			switch f := x.Fun.(type) {
			case *ast.Ident:
				for _, m := range s.methods(dir, f.Name, module, seen, depth+1) {
					m.own = false
					out = append(out, m)
				}
			case *ast.SelectorExpr:
				if pkg, ok := f.X.(*ast.Ident); ok {
					if d, ok := imports[pkg.Name]; ok {
						for _, m := range s.methods(d, f.Sel.Name, module, seen, depth+1) {
							m.own = false
							out = append(out, m)
						}
					}
				}
			}
		}
		return true
	})
	return out
}

// moduleImports maps the names a file imports the module's own packages
// under to their directories.
func (s *goSource) moduleImports(file, module string) map[string]string {
	out := map[string]string{}
	f := s.files[file]
	if f == nil || module == "" {
		return out
	}
	for _, imp := range f.Imports {
		p, err := strconv.Unquote(imp.Path.Value)
		if err != nil || !strings.HasPrefix(p, module+"/") {
			continue
		}
		dir := strings.TrimPrefix(p, module+"/")
		name := path.Base(dir)
		if imp.Name != nil {
			name = imp.Name.Name
		} else if fs, ok := s.funcs[dir]; ok {
			for _, fn := range fs {
				if pf := s.files[fn.file]; pf != nil {
					name = pf.Name.Name
				}
				break
			}
		}
		out[name] = dir
	}
	return out
}

// goTools finds the mcp.AddTool calls of a file.
func goTools(src *goSource, file, module string) []goTool {
	f := src.files[file]
	imports := src.moduleImports(file, module)
	var out []goTool
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) != 3 {
			return true
		}
		fun := call.Fun
		if ix, ok := fun.(*ast.IndexListExpr); ok {
			fun = ix.X
		}
		sel, ok := fun.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "AddTool" {
			return true
		}
		t := goTool{file: file, pos: call.Pos()}
		if u, ok := call.Args[1].(*ast.UnaryExpr); ok {
			if cl, ok := u.X.(*ast.CompositeLit); ok {
				toolFields(&t, cl)
			}
		}
		ast.Inspect(call.Args[2], func(n ast.Node) bool {
			s, ok := n.(*ast.SelectorExpr)
			if !ok || t.fnName != "" {
				return true
			}
			if pkg, ok := s.X.(*ast.Ident); ok {
				if d, ok := imports[pkg.Name]; ok {
					if _, ok := src.funcs[d][s.Sel.Name]; ok {
						t.fnDir, t.fnName = d, s.Sel.Name
					}
				}
			}
			return true
		})
		out = append(out, t)
		return true
	})
	return out
}

// toolFields reads the name and the hints of an mcp.Tool literal.
func toolFields(t *goTool, cl *ast.CompositeLit) {
	for _, e := range cl.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		key, _ := kv.Key.(*ast.Ident)
		if key == nil {
			continue
		}
		switch key.Name {
		case "Name":
			t.name, _ = goString(kv.Value)
		case "Annotations":
			v := kv.Value
			if u, ok := v.(*ast.UnaryExpr); ok {
				v = u.X
			}
			acl, ok := v.(*ast.CompositeLit)
			if !ok {
				continue
			}
			for _, ae := range acl.Elts {
				akv, ok := ae.(*ast.KeyValueExpr)
				if !ok {
					continue
				}
				ak, _ := akv.Key.(*ast.Ident)
				if ak == nil {
					continue
				}
				switch ak.Name {
				case "ReadOnlyHint":
					if b, ok := boolLit(akv.Value); ok {
						t.readOnly = b
					}
				case "DestructiveHint":
					if call, ok := akv.Value.(*ast.CallExpr); ok && len(call.Args) == 1 {
						if b, ok := boolLit(call.Args[0]); ok {
							t.destructive = &b
						}
					}
				}
			}
		}
	}
}

func boolLit(e ast.Expr) (bool, bool) {
	id, ok := e.(*ast.Ident)
	if !ok || id.Name != "true" && id.Name != "false" {
		return false, false
	}
	return id.Name == "true", true
}

// checkGoIllustrative reports each Tool whose Function still sends the
// scaffold's illustrative request: its only statement returns send() of a
// GET to the Tool's own goal name with the one query parameter q.
func (c *checker) checkGoIllustrative(src *goSource) {
	module := ""
	if b, err := c.pkg.ReadFile("go.mod"); err == nil {
		if m, _, err := parseGoMod(b); err == nil {
			module = m.module
		}
	}
	for _, file := range src.sortedFiles() {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		for _, t := range goTools(src, file, module) {
			fn, ok := src.funcs[t.fnDir][t.fnName]
			if !ok || fn.decl.Body == nil || !illustrativeGo(fn.decl, strings.ReplaceAll(t.name, "_", "-")) {
				continue
			}
			c.add(src.at(RulePlaceholderRequest, fn.file, fn.decl.Pos(), "tool %q still sends the scaffold's illustrative request (GET %s?q=…): replace %s with the request the application's client really sends", t.name, strings.ReplaceAll(t.name, "_", "-"), t.fnName))
		}
	}
}

// illustrativeGo reports whether a Function is the scaffold's: one return
// of send(ctx, rt, http.MethodGet, "<goal>", url.Values{"q": …}, nil).
func illustrativeGo(fd *ast.FuncDecl, goal string) bool {
	if len(fd.Body.List) != 1 {
		return false
	}
	ret, ok := fd.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return false
	}
	call, ok := ret.Results[0].(*ast.CallExpr)
	if !ok {
		return false
	}
	if id, ok := call.Fun.(*ast.Ident); !ok || id.Name != "send" || len(call.Args) != 6 {
		return false
	}
	sel, ok := call.Args[2].(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "MethodGet" {
		return false
	}
	if p, ok := goString(call.Args[3]); !ok || p != goal {
		return false
	}
	cl, ok := call.Args[4].(*ast.CompositeLit)
	if !ok || len(cl.Elts) != 1 {
		return false
	}
	kv, ok := cl.Elts[0].(*ast.KeyValueExpr)
	if !ok {
		return false
	}
	k, ok := goString(kv.Key)
	return ok && k == "q"
}
