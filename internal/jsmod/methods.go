package jsmod

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/tdewolff/parse/v2/js"
)

// Request methods sent through helpers and wrappers.
//
// A Tool rarely writes its HTTP method where its handler is. The handler
// calls a Function of another module, the Function calls a helper, and the
// method is an argument somewhere along the way:
//
//	server.registerTool('delete_comment', {...}, (input) => call(deleteComment, input));
//	export function deleteComment(input, context) { return followWrite('DELETE', path, context); }
//	function followWrite(method, path, context) { return send({ method, path }, context); }
//
// RequestMethods follows the handler into the functions it calls or passes
// on (declarations, consts bound to function expressions, imported
// functions of the package's other modules), with the parameters bound to
// what the arguments evaluate to: string literals, consts, object
// literals, functions, and the alternatives of a ternary or a fallback.
// Every method property it meets on the way ({ method: 'DELETE' },
// { method }, method: verb.toUpperCase()) is a method the Tool may send.
// The work is bounded (maxMethodDepth, maxMethodInstances) whatever the
// input.

// RequestMethod is an HTTP method a Tool may send and where its name is
// written.
type RequestMethod struct {
	Method string // upper-cased
	File   string // the module the method's literal is written in
	Pos    Pos
}

// ModuleResolver returns the module of the package a relative import
// specifier of from denotes, or nil when it is not one.
type ModuleResolver func(from *Module, specifier string) *Module

// httpMethods are the method names RequestMethods reports.
var httpMethods = []string{"GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"}

const (
	// maxMethodDepth bounds how deep calls are followed from a handler.
	maxMethodDepth = 6
	// maxMethodInstances bounds the (function, arguments) pairs one
	// handler's analysis follows.
	maxMethodInstances = 256
)

// RequestMethods returns the HTTP methods the handler of a registration of
// this module may send, in the order of the files and positions they are
// written at, each method and position once. resolve finds imported
// modules; nil follows this module only.
func (m *Module) RequestMethods(r ToolRegistration, resolve ModuleResolver) []RequestMethod {
	if r.handler == nil {
		return nil
	}
	e := &methodEval{resolve: resolve, instances: map[string]bool{}}
	e.walk(m, r.handler, nil, 0)
	out := e.found
	slices.SortFunc(out, func(a, b RequestMethod) int {
		return cmp.Or(strings.Compare(a.File, b.File), comparePos(a.Pos, b.Pos), strings.Compare(a.Method, b.Method))
	})
	return slices.CompactFunc(out, func(a, b RequestMethod) bool {
		return a.Method == b.Method && a.File == b.File && a.Pos == b.Pos
	})
}

// mkind is what a value of the method analysis is.
type mkind uint8

const (
	mUnknown mkind = iota
	mStrings       // one of some string literals
	mFunc          // a function
	mObject        // an object literal
)

type mval struct {
	kind mkind
	strs []mstring      // mStrings
	fn   *mfunc         // mFunc
	obj  *js.ObjectExpr // mObject
	mod  *Module        // where fn or obj is written
	env  *mscope        // what fn or obj closes over
}

type mstring struct {
	s    string
	file string
	pos  Pos
}

type mfunc struct {
	params js.Params
	body   *js.BlockStmt
}

// mscope binds parameters to values; a function's scope continues the one
// it was written in.
type mscope struct {
	vars   map[*js.Var]mval
	parent *mscope
}

func (s *mscope) lookup(v *js.Var) (mval, bool) {
	for ; s != nil; s = s.parent {
		if x, ok := s.vars[v]; ok {
			return x, true
		}
	}
	return mval{}, false
}

type methodEval struct {
	resolve   ModuleResolver
	instances map[string]bool
	found     []RequestMethod
	evalDepth int
}

// walk records the method properties in n and follows the calls it makes.
// depth counts the calls followed to get here: 0 is the handler, 1 the
// function it calls.
func (e *methodEval) walk(mod *Module, n js.INode, sc *mscope, depth int) {
	Inspect(n, func(n js.INode) bool {
		switch n := n.(type) {
		case *js.Property:
			if n.Spread {
				return true
			}
			var v mval
			switch {
			case n.Name != nil && mod.keyName(n.Name) == "method":
				v = e.eval(mod, n.Value, sc)
			case n.Name == nil && n.Init == nil:
				if x, ok := n.Value.(*js.Var); ok && string(x.Data) == "method" {
					v = e.eval(mod, x, sc)
				}
			}
			for _, s := range v.strs {
				if method := strings.ToUpper(s.s); slices.Contains(httpMethods, method) {
					e.found = append(e.found, RequestMethod{Method: method, File: s.file, Pos: s.pos})
				}
			}
		case *js.CallExpr:
			callee := e.eval(mod, n.X, sc)
			var args []mval
			for _, a := range n.Args.List {
				if a.Rest {
					break
				}
				args = append(args, e.eval(mod, a.Value, sc))
			}
			if callee.kind == mFunc {
				e.call(callee, args, depth+1)
			}
			// A function passed on (call(deleteComment, input)) is called
			// by the callee: follow it with what the handler has.
			for _, a := range args {
				if a.kind == mFunc && callee.kind != mFunc {
					e.call(a, nil, depth+1)
				}
			}
		}
		return true
	})
}

// call follows a call of fn with args and returns what it may return.
func (e *methodEval) call(fn mval, args []mval, depth int) mval {
	if depth > maxMethodDepth || len(e.instances) >= maxMethodInstances {
		return mval{}
	}
	key := instanceID(fn, args)
	if e.instances[key] {
		return mval{}
	}
	e.instances[key] = true
	sc := &mscope{vars: map[*js.Var]mval{}, parent: fn.env}
	for i, el := range fn.fn.params.List {
		var arg mval
		if i < len(args) {
			arg = args[i]
		}
		if arg.kind == mUnknown && el.Default != nil {
			arg = e.eval(fn.mod, el.Default, sc)
		}
		e.bind(fn.mod, el.Binding, arg, sc)
	}
	e.walk(fn.mod, fn.fn.body, sc, depth)
	var out mval
	for _, ret := range returns(fn.fn.body) {
		out = union(out, e.eval(fn.mod, ret.Value, sc))
	}
	return out
}

// bind binds a parameter, a name or an object pattern, to a value.
func (e *methodEval) bind(mod *Module, b js.IBinding, v mval, sc *mscope) {
	switch b := b.(type) {
	case *js.Var:
		sc.vars[b] = v
	case *js.BindingObject:
		for _, item := range b.List {
			if item.Key == nil || item.Key.Computed != nil {
				continue
			}
			inner := mval{}
			if v.kind == mObject {
				inner = e.member(v, mod.keyName(item.Key))
			}
			if inner.kind == mUnknown && item.Value.Default != nil {
				inner = e.eval(mod, item.Value.Default, sc)
			}
			e.bind(mod, item.Value.Binding, inner, sc)
		}
	}
}

// instanceID identifies a call by its function and the values of its
// arguments, so that each is followed once.
func instanceID(fn mval, args []mval) string {
	var b strings.Builder
	b.WriteString(ptrID(fn.fn.body))
	for _, a := range args {
		b.WriteByte('|')
		switch a.kind {
		case mStrings:
			for _, s := range a.strs {
				b.WriteString(s.s + ",")
			}
		case mFunc:
			b.WriteString("f" + ptrID(a.fn.body))
		case mObject:
			b.WriteString("o" + ptrID(a.obj))
		}
	}
	return b.String()
}

// eval works out what an expression may evaluate to.
func (e *methodEval) eval(mod *Module, x js.IExpr, sc *mscope) mval {
	if x == nil || e.evalDepth > maxEvalDepth {
		return mval{}
	}
	e.evalDepth++
	defer func() { e.evalDepth-- }()
	switch x := Unparen(x).(type) {
	case *js.Var:
		return e.evalVar(mod, x, sc)
	case *js.LiteralExpr, js.LiteralExpr:
		if s, pos, ok := mod.stringLiteral(x); ok {
			return mval{kind: mStrings, strs: []mstring{{s, mod.File, pos}}}
		}
	case *js.TemplateExpr:
		if s, pos, ok := mod.stringLiteral(x); ok {
			return mval{kind: mStrings, strs: []mstring{{s, mod.File, pos}}}
		}
	case *js.CondExpr:
		return union(e.eval(mod, x.X, sc), e.eval(mod, x.Y, sc))
	case *js.BinaryExpr:
		if x.Op == js.OrToken || x.Op == js.NullishToken {
			return union(e.eval(mod, x.X, sc), e.eval(mod, x.Y, sc))
		}
	case *js.ArrowFunc:
		return mval{kind: mFunc, fn: &mfunc{x.Params, &x.Body}, mod: mod, env: sc}
	case *js.FuncDecl:
		return mval{kind: mFunc, fn: &mfunc{x.Params, &x.Body}, mod: mod, env: sc}
	case *js.ObjectExpr:
		return mval{kind: mObject, obj: x, mod: mod, env: sc}
	case *js.DotExpr:
		if lit, ok := Literal(x.Y); ok {
			return e.member(e.eval(mod, x.X, sc), string(lit.Data))
		}
	case *js.IndexExpr:
		if k := e.eval(mod, x.Y, sc); len(k.strs) == 1 {
			return e.member(e.eval(mod, x.X, sc), k.strs[0].s)
		}
	case *js.CallExpr:
		if dot, ok := Unparen(x.X).(*js.DotExpr); ok {
			if lit, ok := Literal(dot.Y); ok {
				switch string(lit.Data) {
				case "toUpperCase", "toLowerCase", "trim", "toString":
					if v := e.eval(mod, dot.X, sc); v.kind == mStrings {
						return v
					}
				}
			}
		}
	}
	return mval{}
}

// member reads a property of an object literal.
func (e *methodEval) member(obj mval, name string) mval {
	if obj.kind != mObject {
		return mval{}
	}
	var out mval
	for _, p := range obj.obj.List {
		switch {
		case p.Spread:
			if inner := e.member(e.eval(obj.mod, p.Value, obj.env), name); inner.kind != mUnknown {
				out = inner
			}
		case p.Name != nil && obj.mod.keyName(p.Name) == name:
			out = e.eval(obj.mod, p.Value, obj.env)
		case p.Name == nil && p.Init == nil:
			if v, ok := p.Value.(*js.Var); ok && string(v.Data) == name {
				out = e.eval(obj.mod, v, obj.env)
			}
		}
	}
	return out
}

// evalVar evaluates a reference: a bound parameter, a function or const of
// the module, or an import of another module of the package.
func (e *methodEval) evalVar(mod *Module, v *js.Var, sc *mscope) mval {
	r := root(v)
	if x, ok := sc.lookup(r); ok {
		return x
	}
	if r.Decl == js.NoDecl {
		imp, ok := mod.imports[string(r.Data)]
		if !ok || e.resolve == nil || imp.name == "*" {
			return mval{}
		}
		target := e.resolve(mod, imp.module)
		if target == nil {
			return mval{}
		}
		return e.exported(target, imp.name)
	}
	idx := mod.declarations()
	if fn, ok := idx.funcs[r]; ok {
		return mval{kind: mFunc, fn: fn, mod: mod, env: sc}
	}
	if init, ok := idx.consts[r]; ok {
		return e.eval(mod, init, sc)
	}
	return mval{}
}

// exported evaluates what a module exports under name.
func (e *methodEval) exported(mod *Module, name string) mval {
	idx := mod.declarations()
	local, ok := idx.exports[name]
	if !ok {
		return mval{}
	}
	if fn, ok := idx.funcs[local]; ok {
		return mval{kind: mFunc, fn: fn, mod: mod}
	}
	if init, ok := idx.consts[local]; ok {
		return e.eval(mod, init, nil)
	}
	return mval{}
}

// union is a value that may be either of two.
func union(a, b mval) mval {
	switch {
	case a.kind == mUnknown:
		return b
	case b.kind == mUnknown:
		return a
	case a.kind == mStrings && b.kind == mStrings:
		return mval{kind: mStrings, strs: append(slices.Clip(a.strs), b.strs...)}
	}
	return a
}

// declIndex lists a module's function declarations and const bindings by
// the variable that names them, and its exports by exported name.
type declIndex struct {
	funcs   map[*js.Var]*mfunc
	consts  map[*js.Var]js.IExpr
	exports map[string]*js.Var
}

func (m *Module) declarations() *declIndex {
	m.declsOnce.Do(func() { m.decls = m.indexDeclarations() })
	return m.decls
}

func (m *Module) indexDeclarations() *declIndex {
	idx := &declIndex{funcs: map[*js.Var]*mfunc{}, consts: map[*js.Var]js.IExpr{}, exports: map[string]*js.Var{}}
	Inspect(m.ast, func(n js.INode) bool {
		switch n := n.(type) {
		case *js.FuncDecl:
			if n.Name != nil {
				idx.funcs[root(n.Name)] = &mfunc{n.Params, &n.Body}
			}
		case *js.VarDecl:
			if n.TokenType != js.ConstToken {
				return true
			}
			for _, el := range n.List {
				v, ok := el.Binding.(*js.Var)
				if !ok || el.Default == nil {
					continue
				}
				switch f := Unparen(el.Default).(type) {
				case *js.ArrowFunc:
					idx.funcs[root(v)] = &mfunc{f.Params, &f.Body}
				case *js.FuncDecl:
					idx.funcs[root(v)] = &mfunc{f.Params, &f.Body}
				default:
					idx.consts[root(v)] = el.Default
				}
			}
		}
		return true
	})
	// Export lists name top-level declarations.
	byName := map[string]*js.Var{}
	for _, stmt := range m.ast.BlockStmt.List {
		if ex, ok := stmt.(*js.ExportStmt); ok && ex.Decl != nil {
			stmt, _ = ex.Decl.(js.IStmt)
		}
		switch d := stmt.(type) {
		case *js.FuncDecl:
			if d.Name != nil {
				byName[string(d.Name.Data)] = root(d.Name)
			}
		case *js.VarDecl:
			for _, el := range d.List {
				if v, ok := el.Binding.(*js.Var); ok {
					byName[string(v.Data)] = root(v)
				}
			}
		}
	}
	for _, stmt := range m.ast.BlockStmt.List {
		ex, ok := stmt.(*js.ExportStmt)
		if !ok || ex.Module != nil {
			continue
		}
		switch d := ex.Decl.(type) {
		case *js.FuncDecl:
			if d.Name != nil {
				name := string(d.Name.Data)
				if ex.Default {
					name = "default"
				}
				idx.exports[name] = root(d.Name)
			}
		case *js.VarDecl:
			for _, el := range d.List {
				if v, ok := el.Binding.(*js.Var); ok {
					idx.exports[string(v.Data)] = root(v)
				}
			}
		}
		for _, a := range ex.List {
			local, exported := a.Binding, a.Binding
			if a.Name != nil {
				local = a.Name
			}
			if v, ok := byName[string(local)]; ok && exported != nil {
				idx.exports[string(exported)] = v
			}
		}
	}
	return idx
}

// ptrID names a node by its address, to tell instances apart.
func ptrID[T any](p *T) string { return fmt.Sprintf("%p", p) }

// LocalFunction returns the name a function the module exports has where
// it is declared (export { draft as saveDraft }: draft), or "" when the
// module exports no function it declares under that name.
func (m *Module) LocalFunction(exported string) string {
	idx := m.declarations()
	v, ok := idx.exports[exported]
	if !ok {
		return ""
	}
	if _, ok := idx.funcs[v]; !ok {
		return ""
	}
	return string(v.Data)
}
