package jsmod

import "github.com/tdewolff/parse/v2/js"

// DroppedCall is a call whose result the code drops: a statement that is
// the call alone (or void of it), so that a promise it returns is neither
// awaited, returned nor kept. In a test, the test ends before such a
// call's answer arrives, and what it returns is never checked.
type DroppedCall struct {
	// Callee is the name the callee ends with: f for f(…) and a.f(…).
	Callee string
	// Import is what the callee's name imports, when it is an imported
	// binding called directly; its Local is empty otherwise.
	Import ImportRef
	Pos    Pos
}

// DroppedCalls returns the module's dropped calls in source order.
func (m *Module) DroppedCalls() []DroppedCall {
	if m.ast == nil {
		return nil
	}
	imports := importBindings(m.ast)
	var out []DroppedCall
	Inspect(m.ast, func(n js.INode) bool {
		stmt, ok := n.(*js.ExprStmt)
		if !ok {
			return true
		}
		e := Unparen(stmt.Value)
		if u, ok := e.(*js.UnaryExpr); ok && u.Op == js.VoidToken {
			e = Unparen(u.X)
		}
		call, ok := e.(*js.CallExpr)
		if !ok {
			return true
		}
		name := calleeName(call.X)
		if name == "" {
			return true
		}
		d := DroppedCall{Callee: name, Pos: m.firstLiteralPos(call)}
		if v, ok := Unparen(call.X).(*js.Var); ok {
			if b, ok := imports[string(v.Data)]; ok {
				d.Import = ImportRef{Local: name, Specifier: b.module, Name: b.name}
			}
		}
		if !d.Pos.IsValid() {
			d.Pos = m.pos(nameToken(call.X))
		}
		out = append(out, d)
		return true
	})
	return out
}
