package jsmod

import (
	"bytes"

	"github.com/tdewolff/parse/v2/js"
)

// Text is a piece of literal text the module writes: a string literal, or
// the literal part of a template between its substitutions.
type Text struct {
	Value string
	Pos   Pos
	// Compared marks a string literal a value is compared with (===,
	// !==, == or !=): a value the code tests for, such as 'pending'.
	Compared bool
}

// Texts returns the module's literal texts in source order: what an error
// message it raises is made of, and the values it compares with.
func (m *Module) Texts() []Text {
	if m.ast == nil {
		return nil
	}
	compared := map[Pos]bool{}
	var out []Text
	literal := func(e js.LiteralExpr) {
		if e.TokenType != js.StringToken {
			return
		}
		if v, ok := stringValue(e.Data); ok {
			pos := m.pos(e.Data)
			out = append(out, Text{Value: v, Pos: pos, Compared: compared[pos]})
		}
	}
	Inspect(m.ast, func(n js.INode) bool {
		switch e := n.(type) {
		case *js.BinaryExpr:
			switch e.Op {
			case js.EqEqEqToken, js.NotEqEqToken, js.EqEqToken, js.NotEqToken:
				for _, side := range []js.IExpr{e.X, e.Y} {
					if l, ok := Literal(Unparen(side)); ok {
						compared[m.pos(l.Data)] = true
					}
				}
			}
		case *js.LiteralExpr:
			literal(*e)
		case js.LiteralExpr:
			literal(e)
		case *js.TemplateExpr:
			for _, part := range e.List {
				out = m.templatePart(out, part.Value)
			}
			out = m.templatePart(out, e.Tail)
		}
		return true
	})
	return out
}

// templatePart adds the literal text of one part of a template, written
// between "`" or "}" and "${" or "`".
func (m *Module) templatePart(out []Text, raw []byte) []Text {
	body := bytes.TrimPrefix(bytes.TrimPrefix(raw, []byte("`")), []byte("}"))
	body = bytes.TrimSuffix(bytes.TrimSuffix(body, []byte("`")), []byte("${"))
	if len(body) == 0 {
		return out
	}
	if v, ok := cook(body); ok {
		out = append(out, Text{Value: v, Pos: m.pos(raw)})
	}
	return out
}
