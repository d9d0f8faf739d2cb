package jsmod

import (
	"slices"

	"github.com/tdewolff/parse/v2/js"

	"github.com/code2skill/code2skill/internal/credential"
)

// LiteralBaseURL is a literal http(s) URL a module sends its requests to,
// with no environment variable in the way: the production (or test)
// address of the source, hard-coded.
type LiteralBaseURL struct {
	URL string // as written (a template keeps its ${…})
	// Where says how it is used: `the base URL "API_BASE"`, "the URL of a
	// fetch call", "the base of a URL".
	Where string
	Pos   Pos
}

// LiteralBaseURLs returns, in source order, the literal http(s) URLs the
// module uses as a service address:
//
//	const API_BASE = 'https://api.example.com';   { baseUrl: `https://…` }
//	fetch('https://api.example.com/items')       fetch(`https://api.example.com/items/${id}`)
//	new URL(path, 'https://api.example.com/')
//
// An address-named binding (credential.Address: base URL, API base,
// host, endpoint, origin) holding such a literal is one, and so is a literal
// given to fetch or to new URL as its base. URLs under the reserved
// .invalid domain, and literals an environment read falls back to (those
// are EnvURLFallbacks), are not reported.
func (m *Module) LiteralBaseURLs() []LiteralBaseURL {
	fallbacks := map[Pos]bool{}
	for _, f := range m.EnvURLFallbacks() {
		fallbacks[f.URLPos] = true
	}
	var out []LiteralBaseURL
	add := func(e js.IExpr, where string) {
		url, pos, ok := m.literalURL(e)
		if ok && !fallbacks[pos] {
			out = append(out, LiteralBaseURL{URL: url, Where: where, Pos: pos})
		}
	}
	Inspect(m.ast, func(n js.INode) bool {
		switch n := n.(type) {
		case *js.BindingElement:
			if v, ok := n.Binding.(*js.Var); ok && credential.Address(string(v.Data)) {
				add(n.Default, "the base URL "+quote(string(v.Data)))
			}
		case *js.Property:
			if n.Name != nil && !n.Spread && credential.Address(m.keyName(n.Name)) {
				add(n.Value, "the base URL "+quote(m.keyName(n.Name)))
			}
		case *js.Field:
			if n.Name.Private == nil && credential.Address(m.keyName(&n.Name.PropertyName)) {
				add(n.Init, "the base URL "+quote(m.keyName(&n.Name.PropertyName)))
			}
		case *js.CallExpr:
			if calleeName(n.X) == "fetch" && len(n.Args.List) > 0 {
				add(n.Args.List[0].Value, "the URL of a fetch call")
			}
		case *js.NewExpr:
			if v, ok := Unparen(n.X).(*js.Var); ok && string(v.Data) == "URL" && n.Args != nil && len(n.Args.List) > 1 {
				add(n.Args.List[1].Value, "the base of a URL")
			}
		}
		return true
	})
	slices.SortStableFunc(out, func(a, b LiteralBaseURL) int { return comparePos(a.Pos, b.Pos) })
	return slices.CompactFunc(out, func(a, b LiteralBaseURL) bool { return a.Pos == b.Pos })
}

// literalURL returns the http(s) URL a string literal or a template
// starting with a scheme holds, outside the .invalid domain.
func (m *Module) literalURL(e js.IExpr) (string, Pos, bool) {
	if e == nil {
		return "", Pos{}, false
	}
	if s, pos, ok := m.stringLiteral(e); ok {
		return s, pos, isHTTPURL(s) && !reservedInvalidHost(s)
	}
	t, ok := Unparen(e).(*js.TemplateExpr)
	if !ok || t.Tag != nil || len(t.List) == 0 {
		return "", Pos{}, false
	}
	head := t.List[0].Value // "`text${"
	if len(head) < 3 {
		return "", Pos{}, false
	}
	s, ok := cook(head[1 : len(head)-2])
	if !ok || !isHTTPURL(s) || reservedInvalidHost(s+"x") {
		return "", Pos{}, false
	}
	return s + "…", m.pos(head), true
}

// calleeName returns the name a call's callee ends with: fetch for fetch(…),
// globalThis.fetch(…) and context.fetch(…).
func calleeName(e js.IExpr) string { return string(nameToken(e)) }

// nameToken returns the token of the name a callee ends with.
func nameToken(e js.IExpr) []byte {
	switch x := Unparen(e).(type) {
	case *js.Var:
		return x.Data
	case *js.DotExpr:
		if lit, ok := Literal(x.Y); ok {
			return lit.Data
		}
	}
	return nil
}
