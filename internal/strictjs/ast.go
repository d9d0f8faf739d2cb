package strictjs

import (
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/jsmod"
	"github.com/tdewolff/parse/v2/js"
)

// str returns the value of a string literal or of a template literal without
// substitutions.
func str(e js.IExpr) (string, bool) {
	e = jsmod.Unparen(e)
	if lit, ok := jsmod.Literal(e); ok && lit.TokenType == js.StringToken {
		return jsmod.StringValue(lit.Data)
	}
	if t, ok := e.(*js.TemplateExpr); ok && t.Tag == nil && len(t.List) == 0 {
		return jsmod.TemplateValue(t.Tail)
	}
	return "", false
}

// ident returns the name e refers to when it is a plain identifier.
func ident(e js.IExpr) (string, bool) {
	if v, ok := jsmod.Unparen(e).(*js.Var); ok {
		return string(v.Name()), true
	}
	return "", false
}

// propertyName returns the name of a non-computed object key.
func propertyName(p *js.PropertyName) (string, bool) {
	if p == nil || p.Computed != nil {
		return "", false
	}
	if p.Literal.TokenType == js.StringToken {
		return jsmod.StringValue(p.Literal.Data)
	}
	return string(p.Literal.Data), len(p.Literal.Data) > 0
}

// path returns the dotted name of a member chain of identifiers and constant
// members ("process.env.X", "server.registerTool", `globalThis["fetch"]` as
// "globalThis.fetch"), or false for anything else.
func path(e js.IExpr) (string, bool) {
	switch e := jsmod.Unparen(e).(type) {
	case *js.Var:
		return string(e.Name()), true
	case *js.DotExpr:
		base, ok := path(e.X)
		if !ok {
			return "", false
		}
		if lit, ok := jsmod.Literal(e.Y); ok {
			return base + "." + string(lit.Data), true
		}
	case *js.IndexExpr:
		base, ok := path(e.X)
		if !ok {
			return "", false
		}
		if s, ok := str(e.Y); ok {
			return base + "." + s, true
		}
	}
	return "", false
}

// lastName returns the last name of a callee: f for f(), m for x.y.m() and
// x["m"](), "" when it is computed from something else.
func lastName(e js.IExpr) string {
	switch e := jsmod.Unparen(e).(type) {
	case *js.Var:
		return string(e.Name())
	case *js.DotExpr:
		if lit, ok := jsmod.Literal(e.Y); ok {
			return string(lit.Data)
		}
	case *js.IndexExpr:
		if s, ok := str(e.Y); ok {
			return s
		}
	}
	return ""
}

// properties returns an object literal's members by name, in order, and
// whether it is plain: no spread, computed, method or accessor members.
func properties(o *js.ObjectExpr) ([]string, map[string]js.IExpr, bool) {
	var names []string
	values := map[string]js.IExpr{}
	plain := true
	for i := range o.List {
		p := &o.List[i]
		name, ok := propertyName(p.Name)
		if p.Spread || !ok || p.Init != nil {
			plain = false
			continue
		}
		if _, method := p.Value.(*js.MethodDecl); method {
			plain = false
			continue
		}
		names = append(names, name)
		values[name] = p.Value
	}
	return names, values, plain
}

// jsonValue returns the JSON value an expression literally writes: object
// and array literals of strings, numbers, booleans and null, with plain
// keys. Anything else (identifiers, calls, spreads, computed keys) is not a
// JSON literal.
func jsonValue(e js.IExpr) (canonjson.Value, bool) {
	e = jsmod.Unparen(e)
	if s, ok := str(e); ok {
		return canonjson.String(s), true
	}
	switch e := e.(type) {
	case *js.ObjectExpr:
		names, values, plain := properties(e)
		if !plain {
			return nil, false
		}
		o := &canonjson.Object{}
		for _, n := range names {
			if _, isVar := values[n].(*js.Var); isVar {
				return nil, false // shorthand or an identifier value
			}
			v, ok := jsonValue(values[n])
			if !ok {
				return nil, false
			}
			o.Set(n, v)
		}
		return o, true
	case *js.ArrayExpr:
		a := canonjson.Array{}
		for _, el := range e.List {
			if el.Spread || el.Value == nil {
				return nil, false
			}
			v, ok := jsonValue(el.Value)
			if !ok {
				return nil, false
			}
			a = append(a, v)
		}
		return a, true
	case *js.UnaryExpr:
		if e.Op == js.NegToken {
			if lit, ok := jsmod.Literal(e.X); ok && lit.TokenType == js.DecimalToken {
				return number("-" + string(lit.Data))
			}
		}
		return nil, false
	}
	lit, ok := jsmod.Literal(e)
	if !ok {
		return nil, false
	}
	switch lit.TokenType {
	case js.TrueToken:
		return canonjson.Bool(true), true
	case js.FalseToken:
		return canonjson.Bool(false), true
	case js.NullToken:
		return canonjson.Null{}, true
	case js.DecimalToken, js.IntegerToken:
		return number(string(lit.Data))
	}
	return nil, false
}

// number reads a JavaScript numeric literal as a JSON number.
func number(text string) (canonjson.Value, bool) {
	text = strings.ReplaceAll(text, "_", "")
	v, err := canonjson.Decode([]byte(text))
	if err != nil {
		return nil, false
	}
	n, ok := v.(canonjson.Number)
	return n, ok
}

// firstToken returns the earliest source position of a token under n, so
// that findings about a node point at it. A node made of identifiers only
// points where the first of them is declared: the tree keeps a variable's
// declaration bytes, not those of each use.
func firstToken(m *jsmod.Module, n js.INode) jsmod.Pos {
	var best, declared jsmod.Pos
	earlier := func(p, than jsmod.Pos) bool {
		return p.IsValid() && (!than.IsValid() || p.Line < than.Line || p.Line == than.Line && p.Column < than.Column)
	}
	consider := func(tok []byte) {
		if p := m.Position(tok); earlier(p, best) {
			best = p
		}
	}
	jsmod.Inspect(n, func(n js.INode) bool {
		switch n := n.(type) {
		case *js.Var:
			if p := m.Position(n.Name()); earlier(p, declared) {
				declared = p
			}
		case *js.LiteralExpr:
			consider(n.Data)
		case *js.DotExpr:
			if lit, ok := jsmod.Literal(n.Y); ok {
				consider(lit.Data)
			}
		case *js.TemplateExpr:
			for _, p := range n.List {
				consider(p.Value)
			}
			consider(n.Tail)
		case *js.PropertyName:
			consider(n.Literal.Data)
		case *js.ImportStmt:
			consider(n.Module)
		case *js.ExportStmt:
			consider(n.Module)
		}
		return true
	})
	if !best.IsValid() {
		return declared
	}
	return best
}

// same reports whether two nodes are the same function node. Nodes are
// compared by identity, and only function nodes (held by pointer) can be.
func same(a, b js.INode) bool {
	switch x := a.(type) {
	case *js.FuncDecl:
		y, ok := b.(*js.FuncDecl)
		return ok && x == y
	case *js.ArrowFunc:
		y, ok := b.(*js.ArrowFunc)
		return ok && x == y
	}
	return false
}
