package jsmod

import (
	"errors"
	"strings"

	"github.com/code2skill/code2skill/internal/diag"
	"github.com/evanw/esbuild/pkg/api"
	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"
)

// checkSyntax asks esbuild whether the source is a valid ECMAScript module.
// esbuild decides between module and script code from the file name, not
// from Format: the .mjs name makes it apply everything that holds only in
// modules (strict mode, top-level await, no top-level return, no HTML
// comments), whatever the file is called in the package. Target ESNext
// keeps it from rejecting syntax for being too new. Only the first error is
// reported, as node does: later ones are often consequences of it.
func (m *Module) checkSyntax() (diag.Diagnostic, bool) {
	res := api.Transform(string(m.src), api.TransformOptions{
		Loader:     api.LoaderJS,
		Format:     api.FormatESModule,
		Target:     api.ESNext,
		Sourcefile: "module.mjs",
		LogLevel:   api.LogLevelSilent,
	})
	if len(res.Errors) == 0 {
		return diag.Diagnostic{}, true
	}
	e := res.Errors[0]
	// Some messages end with a colon that introduces a note ("Cannot use
	// "new.target" here:"); the note adds nothing without its source line.
	d := RuleSyntax.New(m.File, "not a valid ES module: %s", strings.TrimSuffix(e.Text, ":"))
	if loc := e.Location; loc != nil {
		d = d.At(loc.Line, loc.Column+1) // esbuild columns are 0-based bytes
	}
	return d, false
}

// maxAttributeClauses bounds the blank-and-retry loop of parseTree: one
// iteration per import attribute clause, which a module has at most one of
// per import or re-export.
const maxAttributeClauses = 256

// maxNesting is how deep tdewolff/parse follows nested expressions and
// statements (js.NestedExprLimit, js.NestedStmtLimit); each link of a
// member, call or binary operator chain counts as a level.
const maxNesting = 1000

// parseTree builds the syntax tree. On failure it returns the finding to
// report when esbuild accepts the module, and whether the failure was the
// nesting bound, which is reported whatever esbuild says.
//
// tdewolff/parse does not know import attributes (`import data from
// "./d.json" with { type: "json" }`): it reads `with` as the start of a
// with statement and fails at its `{`. When it fails exactly there, the
// clause is blanked with spaces (newlines kept, so every offset stays
// valid) and the parse retried. Any other failure is syntax esbuild
// tolerates but node 20 does not (see the package comment).
func (m *Module) parseTree() (tree *js.AST, d diag.Diagnostic, nested bool) {
	src, blanked := m.src, false
	for range maxAttributeClauses {
		ast, err := js.Parse(parse.NewInputBytes(src), js.Options{})
		if err == nil {
			// Token slices point into the blanked copy, and positions are
			// computed from m.src's addresses, so it must be that copy.
			m.src = src
			return ast, diag.Diagnostic{}, false
		}
		var perr *parse.Error
		if !errors.As(err, &perr) {
			return nil, RuleSyntax.New(m.File, "not a valid ES module: %v", err), false
		}
		off := m.lines.offset(src, perr.Line, perr.Column)
		p := m.lines.pos(off)
		if strings.HasPrefix(perr.Message, "too many nested") {
			return nil, RuleNestingLimit.New(m.File,
				"nested more than %d levels deep (%s), counting each link of a member, call or operator chain: "+
					"code2skill cannot analyse it; split the expression or statement", maxNesting, strings.TrimPrefix(perr.Message, "too many ")).At(p.Line, p.Column), true
		}
		start, end, ok := attributeClause(src, off)
		if !ok {
			return nil, RuleSyntax.New(m.File, "not a valid ES module: %s", perr.Message).At(p.Line, p.Column), false
		}
		if !blanked {
			src, blanked = make([]byte, len(m.src), cap(m.src)), true
			copy(src, m.src)
		}
		blank(src[start:end])
	}
	return nil, RuleSyntax.New(m.File, "not a valid ES module: more than %d import attribute clauses", maxAttributeClauses), false
}

// attributeClause reports whether the `{` at offset brace opens the
// attribute list of an import attribute clause — `"specifier" with {` —
// and returns the byte range of the clause from `with` to its `}`.
func attributeClause(src []byte, brace int) (start, end int, ok bool) {
	if brace >= len(src) || src[brace] != '{' {
		return 0, 0, false
	}
	i := skipSpaceBack(src, brace)
	if i < 4 || string(src[i-4:i]) != "with" {
		return 0, 0, false
	}
	start = i - 4
	if j := skipSpaceBack(src, start); j == 0 || (src[j-1] != '"' && src[j-1] != '\'') {
		return 0, 0, false
	}
	// The attribute list holds only keys, string values, colons and commas:
	// its end is the first `}` outside a string.
	for k := brace + 1; k < len(src); k++ {
		switch src[k] {
		case '}':
			return start, k + 1, true
		case '"', '\'':
			q := src[k]
			for k++; k < len(src) && src[k] != q; k++ {
				if src[k] == '\\' {
					k++
				}
			}
		case '{', '(', ';':
			return 0, 0, false
		}
	}
	return 0, 0, false
}

// skipSpaceBack returns the offset just after the last non-whitespace byte
// before i.
func skipSpaceBack(src []byte, i int) int {
	for i > 0 && strings.IndexByte(" \t\n\r\v\f", src[i-1]) >= 0 {
		i--
	}
	return i
}

// blank overwrites b with spaces, keeping line terminators so that lines
// and columns do not move.
func blank(b []byte) {
	for i, c := range b {
		if c != '\n' && c != '\r' {
			b[i] = ' '
		}
	}
}
