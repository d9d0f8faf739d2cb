package strictjs

import (
	"github.com/code2skill/code2skill/internal/jsmod"
	"github.com/tdewolff/parse/v2/js"
)

// The default dispatcher: the one name the Function core may import from
// the reviewed portable-http-dispatch.mjs, and the const its Functions bind
// their dispatcher to.
const (
	dispatcherImport = "../portable-http-dispatch.mjs"
	dispatcherName   = "dispatchHttp"
	dispatchConst    = "dispatch"
)

// dispatcherImports checks how the Function core imports the default
// dispatcher: only when a capability sends HTTP requests, and exactly
// import { dispatchHttp } from "../portable-http-dispatch.mjs", so that
// dispatchHttp means the reviewed dispatcher wherever the rules meet it.
func (c *checker) dispatcherImports(m *jsmod.Module) {
	for _, stmt := range m.AST().BlockStmt.List {
		imp, ok := stmt.(*js.ImportStmt)
		if !ok {
			continue
		}
		if s, _ := jsmod.StringValue(imp.Module); s != dispatcherImport {
			continue
		}
		at := m.Position(imp.Module)
		if !c.f.http {
			c.report(RuleCoreImport, m, at, "imports %s, but no capability of the contract sends HTTP requests", dispatcherImport)
			continue
		}
		exact := imp.Default == nil && len(imp.List) == 1 && imp.List[0].Name == nil && string(imp.List[0].Binding) == dispatcherName
		if !exact {
			c.report(RuleCoreImport, m, at, "must import exactly { %s } from %s, under its own name", dispatcherName, dispatcherImport)
		}
	}
}

// dispatcherUses: dispatchHttp is either called, with a step URL (which
// coreURLs checks), or it is the fallback of a Function's reviewed choice
// of its dispatcher,
//
//	const dispatch = typeof context?.dispatch === "function" ? context.dispatch : dispatchHttp;
//
// inside an exported HTTP Function, whose requests then go through calls of
// dispatch that the URL rules check by name. Any other reference (an alias,
// an argument, a property, a choice bound to another name or made outside
// a Function) could carry the dispatcher where no rule follows it.
func (c *checker) dispatcherUses(m *jsmod.Module, fns []function) {
	for _, fn := range fns {
		if c.f.byExport(fn.name).http {
			dispatcherRefs(m, fn.body, true, nil, func(at jsmod.Pos) {
				c.report(RuleCoreURL, m, at, "%s uses %s other than by calling it or choosing it as the fallback of const %s; requests must be checkable by name",
					fn.name, dispatcherName, dispatchConst)
			})
		} else {
			dispatcherRefs(m, fn.body, false, nil, func(at jsmod.Pos) {
				c.report(RuleCoreLocalNetwork, m, at, "%s is a local Function and must not reach for a dispatcher", fn.name)
			})
		}
	}
	dispatcherRefs(m, m.AST(), false, fns, func(at jsmod.Pos) {
		c.report(RuleCoreURL, m, at, "%s is used outside the exported Functions; only a Function may choose it as its dispatcher", dispatcherName)
	})
}

// dispatcherRefs reports, inside n but outside the Functions skip, every
// reference to dispatchHttp that is neither a call (the other rules judge
// calls) nor, when choice is true, the fallback of a reviewed choice of
// dispatcher. A finding points at the statement holding the reference.
func dispatcherRefs(m *jsmod.Module, n js.INode, choice bool, skip []function, report func(jsmod.Pos)) {
	r := &refWalker{m: m, choice: choice, skip: skip, report: report}
	if n != nil {
		js.Walk(r, n)
	}
}

// refWalker is the visitor of dispatcherRefs; stmts holds the statements
// enclosing the node it is in.
type refWalker struct {
	m      *jsmod.Module
	choice bool
	skip   []function
	report func(jsmod.Pos)
	stmts  []js.INode
}

func (r *refWalker) Enter(n js.INode) js.IVisitor {
	switch n := n.(type) {
	case *js.ImportStmt:
		return nil
	case *js.FuncDecl, *js.ArrowFunc:
		for _, fn := range r.skip {
			if same(fn.node, n) {
				return nil
			}
		}
	case *js.CallExpr:
		if name, ok := ident(n.X); ok && name == dispatcherName {
			for _, a := range n.Args.List {
				js.Walk(r, a.Value)
			}
			return nil
		}
	case *js.VarDecl:
		if r.choice && n.TokenType == js.ConstToken {
			r.stmts = append(r.stmts, n)
			for i := range n.List {
				if el := &n.List[i]; !dispatcherChoice(el) {
					js.Walk(r, el.Binding)
					js.Walk(r, el.Default)
				}
			}
			r.stmts = r.stmts[:len(r.stmts)-1]
			return nil
		}
	case *js.Var:
		if string(n.Name()) == dispatcherName {
			r.report(r.where(n))
		}
	}
	if _, ok := n.(js.IStmt); ok {
		r.stmts = append(r.stmts, n)
	}
	return r
}

// where returns the position of the statement holding the reference v: a
// declaration's first name, or the statement's first literal token.
func (r *refWalker) where(v *js.Var) jsmod.Pos {
	if len(r.stmts) == 0 {
		return r.m.Position(v.Name())
	}
	stmt := r.stmts[len(r.stmts)-1]
	if d, ok := stmt.(*js.VarDecl); ok && len(d.List) > 0 {
		if name, ok := d.List[0].Binding.(*js.Var); ok {
			if p := r.m.Position(name.Data); p.IsValid() {
				return p
			}
		}
	}
	return firstToken(r.m, stmt)
}

func (r *refWalker) Exit(n js.INode) {
	if _, ok := n.(js.IStmt); ok {
		r.stmts = r.stmts[:len(r.stmts)-1]
	}
}

// dispatcherChoice reports whether el binds the const dispatch to the
// runtime context's dispatcher when it is a function and to dispatchHttp
// otherwise: dispatch = typeof context.dispatch === "function" ?
// context.dispatch : dispatchHttp, with context?. in place of context.
// and the comparison either way round.
func dispatcherChoice(el *js.BindingElement) bool {
	if name, ok := el.Binding.(*js.Var); !ok || string(name.Name()) != dispatchConst {
		return false
	}
	cond, ok := jsmod.Unparen(el.Default).(*js.CondExpr)
	if !ok {
		return false
	}
	test, ok := jsmod.Unparen(cond.Cond).(*js.BinaryExpr)
	if !ok || test.Op != js.EqEqEqToken {
		return false
	}
	isTypeof := func(e js.IExpr) bool {
		u, ok := jsmod.Unparen(e).(*js.UnaryExpr)
		if !ok || u.Op != js.TypeofToken {
			return false
		}
		p, _ := path(u.X)
		return p == "context.dispatch"
	}
	isFunction := func(e js.IExpr) bool {
		s, ok := str(e)
		return ok && s == "function"
	}
	if !(isTypeof(test.X) && isFunction(test.Y) || isFunction(test.X) && isTypeof(test.Y)) {
		return false
	}
	host, _ := path(cond.X)
	fallback, _ := ident(cond.Y)
	return host == "context.dispatch" && fallback == dispatcherName
}
