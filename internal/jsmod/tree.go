package jsmod

import "github.com/tdewolff/parse/v2/js"

// Inspect walks the tree under n depth-first, calling f for every node; it
// does not descend into a node for which f returns false. The walk visits
// children in an order of its own (an if statement's body before its
// condition): extractors sort what they collect. Rule packages that read
// facts of their own from the AST walk it with Inspect too.
func Inspect(n js.INode, f func(js.INode) bool) {
	if n == nil {
		return
	}
	js.Walk(inspector(f), n)
}

type inspector func(js.INode) bool

func (f inspector) Enter(n js.INode) js.IVisitor {
	if f(n) {
		return f
	}
	return nil
}

func (f inspector) Exit(js.INode) {}

// Literal returns the literal expression e holds. The tree stores literals
// both by value (property names after a dot) and by pointer.
func Literal(e js.IExpr) (js.LiteralExpr, bool) {
	switch e := e.(type) {
	case js.LiteralExpr:
		return e, true
	case *js.LiteralExpr:
		if e != nil {
			return *e, true
		}
	}
	return js.LiteralExpr{}, false
}

// Unparen strips grouping parentheses.
func Unparen(e js.IExpr) js.IExpr {
	for {
		g, ok := e.(*js.GroupExpr)
		if !ok {
			return e
		}
		e = g.X
	}
}

// root follows a variable reference to the variable it denotes: uses in
// inner scopes are linked to the declaration they resolve to.
func root(v *js.Var) *js.Var {
	for v.Link != nil {
		v = v.Link
	}
	return v
}
