package jsmod

import (
	"slices"

	"github.com/tdewolff/parse/v2/js"
)

// ToolRegistration is one server.registerTool(name, config, handler) call,
// as far as its arguments are written as literals.
type ToolRegistration struct {
	Name string // "" when the name is not a literal
	Pos  Pos    // of the call's name argument, or of the call
	// Description is config.description when it is a string literal, a
	// template without substitutions or a concatenation of those; set
	// tells it is known.
	Description    string
	DescriptionSet bool
	DescriptionPos Pos
	// Hints are the boolean literals of config.annotations, by name.
	Hints map[string]Hint
	// Inputs are the property names of config.inputSchema when it is an
	// object literal, or a call (z.object, z.looseObject) of one.
	Inputs []string
	// Uses are the imported bindings the handler refers to: the Functions
	// it calls, in the order they are written.
	Uses []ImportRef

	handler js.IExpr // the last argument, read by RequestMethods
}

// Hint is an annotation hint written as a boolean literal.
type Hint struct {
	Value bool
	Pos   Pos
}

// ImportRef is a name a module imports.
type ImportRef struct {
	Local     string // the local binding
	Specifier string // the module it comes from, as written
	Name      string // the exported name; "default" or "*"
}

// ToolRegistrations returns the module's registerTool calls in source
// order. A registration whose name is not a literal has Name "": the
// server's tool set is then not known from the source alone. The module is
// read once; callers must not modify the result.
func (m *Module) ToolRegistrations() []ToolRegistration {
	m.toolsOnce.Do(func() { m.tools = m.toolRegistrations() })
	return m.tools
}

func (m *Module) toolRegistrations() []ToolRegistration {
	consts := m.constInits()
	var out []ToolRegistration
	Inspect(m.ast, func(n js.INode) bool {
		call, ok := n.(*js.CallExpr)
		if !ok {
			return true
		}
		dot, ok := Unparen(call.X).(*js.DotExpr)
		if !ok {
			return true
		}
		if lit, ok := Literal(dot.Y); !ok || string(lit.Data) != "registerTool" || len(call.Args.List) == 0 {
			return true
		}
		r := ToolRegistration{Hints: map[string]Hint{}}
		if s, pos, ok := m.stringLiteral(call.Args.List[0].Value); ok {
			r.Name, r.Pos = s, pos
		} else {
			r.Pos = m.firstLiteralPos(call)
		}
		if len(call.Args.List) > 1 {
			if cfg, ok := resolveObject(call.Args.List[1].Value, consts); ok {
				m.readToolConfig(&r, cfg, consts)
			}
		}
		if len(call.Args.List) > 2 {
			r.handler = call.Args.List[len(call.Args.List)-1].Value
			r.Uses = m.importRefs(r.handler)
		}
		out = append(out, r)
		return true
	})
	slices.SortStableFunc(out, func(a, b ToolRegistration) int { return comparePos(a.Pos, b.Pos) })
	return out
}

// readToolConfig reads the description, annotations and input names of a
// registration's config object.
func (m *Module) readToolConfig(r *ToolRegistration, cfg *js.ObjectExpr, consts map[*js.Var]js.IExpr) {
	for _, p := range cfg.List {
		if p.Name == nil || p.Spread {
			continue
		}
		switch m.keyName(p.Name) {
		case "description":
			r.Description, r.DescriptionPos, r.DescriptionSet = m.concatenation(p.Value)
		case "annotations":
			if ann, ok := resolveObject(p.Value, consts); ok {
				for _, h := range ann.List {
					if h.Name == nil || h.Spread {
						continue
					}
					if lit, ok := Literal(h.Value); ok && (lit.TokenType == js.TrueToken || lit.TokenType == js.FalseToken) {
						r.Hints[m.keyName(h.Name)] = Hint{Value: lit.TokenType == js.TrueToken, Pos: m.pos(lit.Data)}
					}
				}
			}
		case "inputSchema":
			schema := Unparen(p.Value)
			if c, ok := schema.(*js.CallExpr); ok && len(c.Args.List) > 0 {
				schema = c.Args.List[0].Value
			}
			if obj, ok := resolveObject(schema, consts); ok {
				for _, q := range obj.List {
					if q.Name != nil && !q.Spread {
						r.Inputs = append(r.Inputs, m.keyName(q.Name))
					}
				}
			}
		}
	}
}

// concatenation evaluates a string literal, a template without
// substitutions, or a + concatenation of those.
func (m *Module) concatenation(e js.IExpr) (string, Pos, bool) {
	if b, ok := Unparen(e).(*js.BinaryExpr); ok && b.Op == js.AddToken {
		x, pos, ok1 := m.concatenation(b.X)
		y, _, ok2 := m.concatenation(b.Y)
		return x + y, pos, ok1 && ok2
	}
	return m.stringLiteral(e)
}

// importRefs returns the imported bindings an expression refers to, each
// once, in the order they are written.
func (m *Module) importRefs(e js.IExpr) []ImportRef {
	var out []ImportRef
	Inspect(e, func(n js.INode) bool {
		v, ok := n.(*js.Var)
		if !ok {
			return true
		}
		r := root(v)
		imp, ok := m.imports[string(r.Data)]
		if r.Decl != js.NoDecl || !ok {
			return true
		}
		ref := ImportRef{Local: string(r.Data), Specifier: imp.module, Name: imp.name}
		if !slices.Contains(out, ref) {
			out = append(out, ref)
		}
		return true
	})
	return out
}

// FunctionLiterals returns where the string literals inside the body of
// the module's top-level function name are written.
func (m *Module) FunctionLiterals(name string) []Pos {
	body := m.TopLevelFunction(name)
	if body == nil {
		return nil
	}
	var out []Pos
	Inspect(body, func(n js.INode) bool {
		if e, ok := n.(js.IExpr); ok {
			if _, pos, ok := m.stringLiteral(e); ok {
				out = append(out, pos)
			}
		}
		return true
	})
	return out
}

// TopLevelFunction returns the body of a function the module declares at
// its top level (exported or not) under name: a function declaration, or a
// const bound to a function or arrow expression; nil when there is none.
func (m *Module) TopLevelFunction(name string) *js.BlockStmt {
	for _, stmt := range m.ast.BlockStmt.List {
		if e, ok := stmt.(*js.ExportStmt); ok && e.Decl != nil {
			stmt, _ = e.Decl.(js.IStmt)
			if stmt == nil {
				continue
			}
		}
		switch d := stmt.(type) {
		case *js.FuncDecl:
			if d.Name != nil && string(d.Name.Data) == name {
				return &d.Body
			}
		case *js.VarDecl:
			if d.TokenType != js.ConstToken {
				continue
			}
			for _, el := range d.List {
				v, ok := el.Binding.(*js.Var)
				if !ok || string(v.Data) != name {
					continue
				}
				switch f := Unparen(el.Default).(type) {
				case *js.ArrowFunc:
					return &f.Body
				case *js.FuncDecl:
					return &f.Body
				}
			}
		}
	}
	return nil
}

// TopLevelFunctionPos returns where the name of a function the module
// declares at its top level is written, or the zero Pos.
func (m *Module) TopLevelFunctionPos(name string) Pos {
	for _, stmt := range m.ast.BlockStmt.List {
		if e, ok := stmt.(*js.ExportStmt); ok && e.Decl != nil {
			stmt, _ = e.Decl.(js.IStmt)
		}
		switch d := stmt.(type) {
		case *js.FuncDecl:
			if d.Name != nil && string(d.Name.Data) == name {
				return m.pos(d.Name.Data)
			}
		case *js.VarDecl:
			for _, el := range d.List {
				if v, ok := el.Binding.(*js.Var); ok && string(v.Data) == name {
					return m.pos(v.Data)
				}
			}
		}
	}
	return Pos{}
}

// constInits maps the module's const-declared names to their initialisers.
func (m *Module) constInits() map[*js.Var]js.IExpr {
	out := map[*js.Var]js.IExpr{}
	Inspect(m.ast, func(n js.INode) bool {
		if d, ok := n.(*js.VarDecl); ok && d.TokenType == js.ConstToken {
			for _, el := range d.List {
				if v, ok := el.Binding.(*js.Var); ok && el.Default != nil {
					out[v] = el.Default
				}
			}
		}
		return true
	})
	return out
}

// resolveObject returns the object literal e is, or names through consts.
func resolveObject(e js.IExpr, consts map[*js.Var]js.IExpr) (*js.ObjectExpr, bool) {
	for range 8 {
		switch x := Unparen(e).(type) {
		case *js.ObjectExpr:
			return x, true
		case *js.Var:
			init, ok := consts[root(x)]
			if !ok {
				return nil, false
			}
			e = init
		default:
			return nil, false
		}
	}
	return nil, false
}
