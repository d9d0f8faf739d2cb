package jsmod

import (
	"github.com/tdewolff/parse/v2/js"
)

// TestsDeclared returns how many tests the module declares with node:test
// that must run whenever the module runs to its end: calls of test() or
// it() (and their .skip, .todo and .only forms, which node --test still
// counts) written as statements of the module's top level, or of the body
// of a describe() or suite() callback written there. Tests declared
// conditionally, in loops or in helper functions are not counted, so the
// number is a lower bound of what node --test reports for the file: a
// file reporting fewer stopped before its tests ran (an early
// process.exit, say).
func (m *Module) TestsDeclared() int {
	names := map[string]string{} // local name -> node:test export
	for local, imp := range m.imports {
		if imp.module == "node:test" || imp.module == "test" {
			names[local] = imp.name
		}
	}
	if len(names) == 0 {
		return 0
	}
	return m.testsIn(m.ast.BlockStmt.List, names)
}

// testsIn counts the unconditional test declarations among stmts.
func (m *Module) testsIn(stmts []js.IStmt, names map[string]string) int {
	n := 0
	for _, stmt := range stmts {
		es, ok := stmt.(*js.ExprStmt)
		if !ok {
			continue
		}
		call, ok := unawait(es.Value).(*js.CallExpr)
		if !ok {
			continue
		}
		switch testFunction(call.X, names) {
		case "test", "it":
			n++
		case "describe", "suite":
			// The suite's callback runs while the file is loaded.
			for _, arg := range call.Args.List {
				switch f := Unparen(arg.Value).(type) {
				case *js.ArrowFunc:
					n += m.testsIn(f.Body.List, names)
				case *js.FuncDecl:
					n += m.testsIn(f.Body.List, names)
				}
			}
		}
	}
	return n
}

// testFunction returns which node:test function a callee is ("test", "it",
// "describe" or "suite", also through .skip, .todo and .only), or "".
func testFunction(callee js.IExpr, names map[string]string) string {
	callee = Unparen(callee)
	if dot, ok := callee.(*js.DotExpr); ok {
		lit, ok := Literal(dot.Y)
		if !ok {
			return ""
		}
		switch string(lit.Data) {
		case "skip", "todo", "only":
			callee = Unparen(dot.X)
		default:
			// A namespace import: nodeTest.test(…).
			if v, ok := Unparen(dot.X).(*js.Var); ok && root(v).Decl == js.NoDecl && names[string(root(v).Data)] == "*" {
				return testName(string(lit.Data))
			}
			return ""
		}
	}
	v, ok := callee.(*js.Var)
	if !ok || root(v).Decl != js.NoDecl {
		return "" // not an import binding (a local shadows it)
	}
	imported, ok := names[string(root(v).Data)]
	if !ok {
		return ""
	}
	if imported == "default" {
		return "test" // node:test's default export is test
	}
	return testName(imported)
}

func testName(name string) string {
	switch name {
	case "test", "it", "describe", "suite":
		return name
	}
	return ""
}

// unawait strips await and grouping parentheses.
func unawait(e js.IExpr) js.IExpr {
	for {
		e = Unparen(e)
		u, ok := e.(*js.UnaryExpr)
		if !ok || u.Op != js.AwaitToken {
			return e
		}
		e = u.X
	}
}
