package jsmod

import (
	"cmp"
	"slices"

	"github.com/tdewolff/parse/v2/js"

	"github.com/code2skill/code2skill/internal/credential"
)

// CredentialLiteral is a credential written into a module.
type CredentialLiteral struct {
	// What says what the literal is: "a JSON Web Token" and the like for a
	// known format, else `a literal assigned to "apiKey"`.
	What string
	// Known is set for a literal in the format of a well-known credential,
	// which is one wherever it appears; otherwise the literal is a
	// credential by the name it is assigned to.
	Known bool
	// Redacted is the start of the literal, for messages.
	Redacted string
	Pos      Pos // where the literal starts
}

// CredentialLiterals returns, in source order, the string literals of the
// module that are credentials:
//
//   - a literal in the format of a well-known credential anywhere (a JSON
//     Web Token, a GitHub, Slack, Stripe, AWS, Google, OpenAI or Anthropic
//     key, a private key block);
//   - a literal that looks like a secret (no spaces, not a variable or
//     header name, not a URL) given to a name that denotes a credential:
//     const apiKey = "…", { password: "…" }, client.token = "…",
//     { authorization: "Bearer …" }, a parameter or destructuring default,
//     a class field, and the fallback of an environment read
//     (process.env.SHOP_API_TOKEN ?? "…"), the hard-coded token that
//     outlives its test.
//
// credential.Name decides which names denote credentials and
// credential.Secret which values look like one; the constant holding a
// variable's name (const API_TOKEN = "CODE2SKILL_SHOP_API_TOKEN") is not a
// credential.
func (m *Module) CredentialLiterals() []CredentialLiteral {
	var out []CredentialLiteral
	at := map[Pos]int{} // index in out of the literal at a position
	add := func(c CredentialLiteral) {
		if !c.Pos.IsValid() {
			return
		}
		i, seen := at[c.Pos]
		switch {
		case !seen:
			at[c.Pos] = len(out)
			out = append(out, c)
		case c.Known && !out[i].Known:
			out[i] = c // a known format says more than a name
		}
	}
	named := func(name string, e js.IExpr) {
		if e == nil || !credential.Name(name) {
			return
		}
		if s, pos, ok := m.stringLiteral(e); ok && credential.Secret(name, s) {
			add(CredentialLiteral{What: "a literal assigned to " + quote(name), Redacted: credential.Redact(s), Pos: pos})
		}
	}
	Inspect(m.ast, func(n js.INode) bool {
		switch n := n.(type) {
		case *js.LiteralExpr, *js.TemplateExpr:
			if s, pos, ok := m.stringLiteral(n.(js.IExpr)); ok {
				if what, ok := credential.Format(s); ok {
					add(CredentialLiteral{What: what, Known: true, Redacted: credential.Redact(s), Pos: pos})
				}
			}
		case *js.BindingElement:
			if v, ok := n.Binding.(*js.Var); ok {
				named(string(v.Data), n.Default)
			}
		case *js.BindingObjectItem:
			if n.Key != nil {
				named(m.keyName(n.Key), n.Value.Default)
			}
		case *js.Property:
			if n.Name != nil && !n.Spread {
				named(m.keyName(n.Name), n.Value)
			} else if v, ok := n.Value.(*js.Var); ok && n.Init != nil { // { token = "…" } = obj
				named(string(v.Data), n.Init)
			}
		case *js.Field:
			if n.Name.Private != nil { // #token = "…"
				named(string(n.Name.Private.Data), n.Init)
			} else {
				named(m.keyName(&n.Name.PropertyName), n.Init)
			}
		case *js.BinaryExpr:
			if n.Op == js.EqToken {
				switch x := Unparen(n.X).(type) {
				case *js.Var:
					named(string(x.Data), n.Y)
				case *js.DotExpr:
					if lit, ok := Literal(x.Y); ok {
						named(string(lit.Data), n.Y)
					}
				}
			}
		}
		return true
	})
	for _, f := range m.envFacts().secretFallbacks {
		add(CredentialLiteral{What: "the fallback of the environment variable " + f.Var, Redacted: credential.Redact(f.URL), Pos: f.URLPos})
	}
	slices.SortFunc(out, func(a, b CredentialLiteral) int {
		return cmp.Or(comparePos(a.Pos, b.Pos), cmp.Compare(a.What, b.What))
	})
	return out
}

// stringLiteral returns the value and position of a string literal or a
// template literal without substitutions.
func (m *Module) stringLiteral(e js.IExpr) (string, Pos, bool) {
	switch e := Unparen(e).(type) {
	case *js.LiteralExpr:
		if e.TokenType == js.StringToken {
			if s, ok := stringValue(e.Data); ok {
				return s, m.pos(e.Data), true
			}
		}
	case *js.TemplateExpr:
		if e.Tag == nil && len(e.List) == 0 {
			if s, ok := templateValue(e.Tail); ok {
				return s, m.pos(e.Tail), true
			}
		}
	}
	return "", Pos{}, false
}

// keyName returns the name of a property key that is not computed, or a
// string-valued computed one, or "".
func (m *Module) keyName(n *js.PropertyName) string {
	if n.Computed != nil {
		s, _, _ := m.stringLiteral(n.Computed)
		return s
	}
	if n.Literal.TokenType == js.StringToken {
		s, _ := stringValue(n.Literal.Data)
		return s
	}
	return string(n.Literal.Data)
}

func quote(s string) string { return `"` + s + `"` }
