package jsmod

import (
	"regexp"
	"slices"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"
)

// RequestAwait is an await of a request: `await fetch(…)`, or `await` of
// a call of one of the module's functions that sends one
// (`await attempt(false)` where attempt returns fetch(…)). Offsets are
// byte offsets into the source, for placing the await among the ranges
// of a coverage report: Start at the await keyword, End just after its
// operand.
type RequestAwait struct {
	Start, End int
	Pos        Pos
	// Operand is the awaited expression as written.
	Operand string
}

// fetchCall is a call of fetch written as fetch(, x.fetch(, x?.fetch( or
// fetch?.(.
var fetchCall = regexp.MustCompile(`(?:^|[^\w$])fetch\s*(?:\?\.)?\s*\(`)

// RequestAwaits returns the awaits of requests in the module, in source
// order. They are found in the token stream (the syntax tree keeps no
// positions of expressions): an await's operand runs to the end of its
// member and call chain.
func (m *Module) RequestAwaits() []RequestAwait {
	senders := m.sendingFunctions()
	var out []RequestAwait
	for _, a := range m.awaits() {
		operand := string(m.src[a.start+len("await") : a.end])
		if !fetchCall.MatchString(operand) && !callsAny(operand, senders) {
			continue
		}
		out = append(out, RequestAwait{Start: a.start, End: a.end, Pos: m.lines.pos(a.start), Operand: trimSpace(operand)})
	}
	return out
}

// sendingFunctions returns the names of the module's functions whose body
// calls fetch, directly or through another of them.
func (m *Module) sendingFunctions() []string {
	idx := m.declarations()
	calls := map[string][]string{} // function -> the names it calls
	for v, fn := range idx.funcs {
		var names []string
		Inspect(fn.body, func(n js.INode) bool {
			if c, ok := n.(*js.CallExpr); ok {
				if name := calleeName(c.X); name != "" {
					names = append(names, name)
				}
			}
			return true
		})
		calls[string(v.Data)] = names
	}
	var out []string
	for changed := true; changed; {
		changed = false
		for _, name := range sortedNames(calls) {
			if slices.Contains(out, name) {
				continue
			}
			if slices.ContainsFunc(calls[name], func(c string) bool { return c == "fetch" || slices.Contains(out, c) }) {
				out = append(out, name)
				changed = true
			}
		}
	}
	slices.Sort(out)
	return out
}

func sortedNames(m map[string][]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// callsAny reports whether text calls one of the named functions.
func callsAny(text string, names []string) bool {
	for _, n := range names {
		if regexp.MustCompile(`(?:^|[^\w$.])` + regexp.QuoteMeta(n) + `\s*\(`).MatchString(text) {
			return true
		}
	}
	return false
}

type awaitSpan struct{ start, end int }

// awaits lexes the module and returns every await and where its operand
// ends.
func (m *Module) awaits() []awaitSpan {
	src := m.src[:len(m.src):len(m.src)]
	toks := lexAll(src)
	var out []awaitSpan
	for i, t := range toks {
		if t.tt != js.AwaitToken {
			continue
		}
		end, ok := operandEnd(toks, i+1)
		if ok {
			out = append(out, awaitSpan{t.off, end})
		}
	}
	return out
}

type token struct {
	tt  js.TokenType
	off int // byte offset
	len int
}

// lexAll returns the significant tokens of src (no whitespace, line
// terminators or comments), reading a / as a regular expression where an
// expression starts.
func lexAll(src []byte) []token {
	l := js.NewLexer(parse.NewInputBytes(src))
	var out []token
	off := 0
	for {
		tt, data := l.Next()
		if tt == js.DivToken || tt == js.DivEqToken {
			if len(out) == 0 || startsExpression(out[len(out)-1].tt) {
				// The regular expression starts where the slash did.
				if rt, rdata := l.RegExp(); rt == js.RegExpToken {
					tt, data = rt, rdata
				}
			}
		}
		if tt == js.ErrorToken {
			return out
		}
		switch tt {
		case js.WhitespaceToken, js.LineTerminatorToken, js.CommentToken, js.CommentLineTerminatorToken:
		default:
			out = append(out, token{tt: tt, off: off, len: len(data)})
		}
		off += len(data)
	}
}

// startsExpression reports whether a / after a token of this type starts
// a regular expression rather than a division.
func startsExpression(tt js.TokenType) bool {
	switch tt {
	case js.IdentifierToken, js.NumericToken, js.StringToken, js.CloseParenToken, js.CloseBracketToken,
		js.CloseBraceToken, js.TemplateToken, js.TemplateEndToken, js.ThisToken, js.TrueToken, js.FalseToken, js.NullToken,
		js.RegExpToken, js.IncrToken, js.DecrToken:
		return false
	}
	return true
}

// operandEnd returns the byte offset just after the operand of an await
// whose operand starts at token i: a primary expression and its chain of
// member accesses, calls and tagged templates.
func operandEnd(toks []token, i int) (int, bool) {
	if i >= len(toks) {
		return 0, false
	}
	end := -1
	// The primary: new X(...), a name, a literal, a group, a template.
	for i < len(toks) && toks[i].tt == js.NewToken {
		i++
	}
	if i >= len(toks) {
		return 0, false
	}
	switch tt := toks[i].tt; {
	case tt == js.OpenParenToken || tt == js.OpenBracketToken || tt == js.OpenBraceToken:
		j, ok := closing(toks, i)
		if !ok {
			return 0, false
		}
		end, i = toks[j].off+toks[j].len, j+1
	case tt == js.TemplateStartToken:
		j, ok := templateEnd(toks, i)
		if !ok {
			return 0, false
		}
		end, i = toks[j].off+toks[j].len, j+1
	default:
		end, i = toks[i].off+toks[i].len, i+1
	}
	for i < len(toks) {
		switch toks[i].tt {
		case js.DotToken, js.OptChainToken:
			if i+1 >= len(toks) {
				return end, true
			}
			if toks[i+1].tt == js.OpenParenToken || toks[i+1].tt == js.OpenBracketToken {
				i++ // ?.( and ?.[
				continue
			}
			end, i = toks[i+1].off+toks[i+1].len, i+2
		case js.OpenParenToken, js.OpenBracketToken:
			j, ok := closing(toks, i)
			if !ok {
				return end, true
			}
			end, i = toks[j].off+toks[j].len, j+1
		case js.TemplateToken:
			end, i = toks[i].off+toks[i].len, i+1
		case js.TemplateStartToken:
			j, ok := templateEnd(toks, i)
			if !ok {
				return end, true
			}
			end, i = toks[j].off+toks[j].len, j+1
		default:
			return end, true
		}
	}
	return end, true
}

// closing returns the index of the token closing the bracket at i.
func closing(toks []token, i int) (int, bool) {
	depth := 0
	for j := i; j < len(toks); j++ {
		switch toks[j].tt {
		case js.OpenParenToken, js.OpenBracketToken, js.OpenBraceToken:
			depth++
		case js.CloseParenToken, js.CloseBracketToken, js.CloseBraceToken:
			depth--
			if depth == 0 {
				return j, true
			}
		}
	}
	return 0, false
}

// templateEnd returns the index of the token ending the template that
// starts at i.
func templateEnd(toks []token, i int) (int, bool) {
	depth := 0
	for j := i; j < len(toks); j++ {
		switch toks[j].tt {
		case js.TemplateStartToken:
			depth++
		case js.TemplateEndToken:
			depth--
			if depth == 0 {
				return j, true
			}
		}
	}
	return 0, false
}

func trimSpace(s string) string {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\n' || s[0] == '\t' || s[0] == '\r') {
		s = s[1:]
	}
	return s
}
