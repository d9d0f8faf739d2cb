package jsmod

import (
	"slices"

	"github.com/tdewolff/parse/v2/js"
)

// ImportKind says how a module depends on another.
type ImportKind uint8

const (
	// StaticImport is an import declaration: `import x from "m"`,
	// `import "m"`.
	StaticImport ImportKind = iota + 1
	// ReExport is an export declaration with a from clause:
	// `export * from "m"`, `export { x } from "m"`.
	ReExport
	// DynamicImport is an import() call.
	DynamicImport
)

// String returns "import", "export-from" or "dynamic-import".
func (k ImportKind) String() string {
	switch k {
	case StaticImport:
		return "import"
	case ReExport:
		return "export-from"
	case DynamicImport:
		return "dynamic-import"
	}
	return "unknown"
}

// Import is one dependency of a module on another.
type Import struct {
	Kind ImportKind
	// Specifier is the module specifier as the code names it, e.g.
	// "node:fs" or "../function-core/index.mjs". It is "" for an import()
	// whose argument is not a string literal.
	Specifier string
	// Pos is where the specifier literal starts (for a non-literal import()
	// argument: its first literal token, or the zero Pos when it has none).
	Pos Pos
}

// Dynamic reports whether the dependency is an import() call.
func (i Import) Dynamic() bool { return i.Kind == DynamicImport }

// Imports returns every import declaration, re-export and import() call of
// the module, in source order; those whose position is unknown come last.
func (m *Module) Imports() []Import {
	var out []Import
	Inspect(m.ast, func(n js.INode) bool {
		switch n := n.(type) {
		case *js.ImportStmt:
			out = append(out, m.specifier(StaticImport, n.Module))
		case *js.ExportStmt:
			if n.Module != nil {
				out = append(out, m.specifier(ReExport, n.Module))
			}
		case *js.CallExpr:
			if lit, ok := Literal(n.X); ok && lit.TokenType == js.ImportToken && len(n.Args.List) > 0 {
				out = append(out, m.dynamicImport(n.Args.List[0].Value))
			}
		}
		return true
	})
	slices.SortStableFunc(out, func(a, b Import) int { return comparePos(a.Pos, b.Pos) })
	return out
}

func (m *Module) specifier(kind ImportKind, tok []byte) Import {
	s, _ := stringValue(tok)
	return Import{Kind: kind, Specifier: s, Pos: m.pos(tok)}
}

func (m *Module) dynamicImport(arg js.IExpr) Import {
	if lit, ok := Literal(arg); ok && lit.TokenType == js.StringToken {
		return m.specifier(DynamicImport, lit.Data)
	}
	if t, ok := arg.(*js.TemplateExpr); ok && t.Tag == nil && len(t.List) == 0 {
		s, _ := templateValue(t.Tail)
		return Import{Kind: DynamicImport, Specifier: s, Pos: m.pos(t.Tail)}
	}
	return Import{Kind: DynamicImport, Pos: m.firstLiteralPos(arg)}
}

// firstLiteralPos returns the position of the first token inside n whose
// bytes the tree kept as a slice of the source. Variable references are
// skipped: their bytes are those of the declaration, not of the use.
func (m *Module) firstLiteralPos(n js.INode) Pos {
	var best Pos
	Inspect(n, func(n js.INode) bool {
		var tok []byte
		switch n := n.(type) {
		case *js.LiteralExpr:
			tok = n.Data
		case *js.TemplateExpr:
			if len(n.List) > 0 {
				tok = n.List[0].Value
			} else {
				tok = n.Tail
			}
		case *js.DotExpr:
			if lit, ok := Literal(n.Y); ok {
				tok = lit.Data
			}
		}
		if p := m.pos(tok); p.IsValid() && (!best.IsValid() || p.Line < best.Line || p.Line == best.Line && p.Column < best.Column) {
			best = p
		}
		return true
	})
	return best
}

// importBinding is what an import declaration binds a local name to.
type importBinding struct {
	module string // the specifier, decoded
	name   string // the imported name; "default" or "*" for default and namespace imports
}

// importBindings maps every local name an import declaration binds to what
// it imports. The tree does not declare import bindings as variables, so a
// reference to one resolves to an undeclared variable of that name.
func importBindings(ast *js.AST) map[string]importBinding {
	out := map[string]importBinding{}
	for _, stmt := range ast.BlockStmt.List {
		imp, ok := stmt.(*js.ImportStmt)
		if !ok {
			continue
		}
		module, _ := stringValue(imp.Module)
		if imp.Default != nil {
			out[string(imp.Default)] = importBinding{module, "default"}
		}
		for _, a := range imp.List {
			if a.Binding == nil {
				continue
			}
			name := a.Binding // `{ env }` imports env as env
			if a.Name != nil {
				name = a.Name
				if s, ok := stringValue(name); ok { // `{ "env" as e }`
					name = []byte(s)
				}
			}
			out[string(a.Binding)] = importBinding{module, string(name)}
		}
	}
	return out
}
