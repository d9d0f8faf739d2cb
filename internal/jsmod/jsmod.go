// Package jsmod reads static facts from the .mjs and .js files of a package
// in process, without running node: whether each file is a valid
// ECMAScript module, what it imports, which environment variables it reads,
// whether a read falls back to a literal http(s) URL (a default
// environment, which core-export-v1 forbids), whether a credential is
// written into it, and how many node:test tests it declares.
//
// A file is parsed once into a Module; every fact is a method over that
// Module's syntax tree, so later checks add extractors, not parses (an
// extractor walks m.ast with inspect and places tokens with m.pos):
//
//	m, diags := jsmod.Parse("function-core/index.mjs", src)
//	list.Add(diags...)
//	if m != nil {
//		list.Add(m.Check()...)
//		for _, v := range m.EnvReads() { … }
//	}
//
// # Two parsers, one tree
//
// No single pure-Go JavaScript parser both rejects what node rejects and
// exposes a syntax tree, so validity and facts come from two:
//
//   - github.com/evanw/esbuild/pkg/api decides validity. Given a .mjs name,
//     its parser enforces the ECMAScript early errors V8 enforces in
//     modules (redeclarations, duplicate or undeclared exports, strict-mode
//     reserved words and octal literals, private names, labels, top-level
//     return, HTML comments) and reports a precise line, byte column and
//     message. It has no public syntax tree.
//   - github.com/tdewolff/parse/v2/js builds the tree the facts are read
//     from. On its own it accepts many modules node rejects (it misses most
//     early errors and is lenient about automatic semicolon insertion), and
//     it does not parse import attributes (`with { type: "json" }`). Its
//     nodes carry no positions, but token bytes in the tree are slices of
//     the source, so positions are recovered from their addresses (see
//     subsliceOffset); import attribute clauses are blanked before it sees
//     them (see parseTree).
//
// A module is valid when both accept it. tdewolff rejects the syntax
// esbuild supports ahead of node 20 (decorators, `await using`), so the pair
// agrees with node where either alone would not. TestNodeAgrees checks the
// verdict against node itself on a corpus of valid and invalid modules and
// lists the few known disagreements.
//
// The esbuild pass is most of the cost (it also prints the module, which
// cannot be switched off): BenchmarkParse and BenchmarkStages measure it.
package jsmod

import (
	"crypto/sha256"
	"slices"
	"sync"

	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/endpoint"
	"github.com/tdewolff/parse/v2/js"
)

// Module is one parsed ECMAScript module.
type Module struct {
	File string // package-relative slash path, used in diagnostics

	src   []byte // the source as parsed, with one spare byte of capacity the parser uses
	lines lineIndex
	ast   *js.AST

	imports map[string]importBinding // local names bound by import declarations

	envOnce sync.Once
	env     *envFacts

	toolsOnce sync.Once
	tools     []ToolRegistration

	declsOnce sync.Once
	decls     *declIndex
}

// Parse parses src as an ECMAScript module. When it is not one, Parse
// returns a nil Module and a JS_SYNTAX finding with the line, byte column
// and parser message of the first error; when it nests deeper than the
// analyser follows, a JS_NESTING_LIMIT finding. The same file name and
// source parsed again gives the same, shared, Module.
func Parse(file string, src []byte) (*Module, []diag.Diagnostic) {
	k := parseKey{file, sha256.Sum256(src)}
	if r, ok := parses.get(k); ok {
		return r.m, slices.Clone(r.ds)
	}
	m, ds := parseModule(file, src)
	parses.put(k, parseResult{m: m, ds: ds, size: len(src)})
	return m, slices.Clone(ds)
}

func parseModule(file string, src []byte) (*Module, []diag.Diagnostic) {
	// The tree parser writes a NUL sentinel one past the end of its input
	// unless that would reallocate; a private copy with spare capacity keeps
	// token slices pointing into m.src (positions depend on it) and leaves
	// the caller's bytes alone.
	buf := make([]byte, len(src), len(src)+1)
	copy(buf, src)
	m := &Module{File: file, src: buf, lines: newLineIndex(buf)}
	// The tree parser goes first because it bounds nesting: esbuild does
	// not, and a few hundred kilobytes of brackets would exhaust its stack.
	ast, treeErr, nested := m.parseTree()
	if nested {
		return nil, []diag.Diagnostic{treeErr}
	}
	if d, ok := m.checkSyntax(); !ok {
		return nil, []diag.Diagnostic{d}
	}
	if ast == nil {
		return nil, []diag.Diagnostic{treeErr}
	}
	m.ast = ast
	m.imports = importBindings(ast)
	return m, nil
}

// Check returns the findings about the package's own code (not its
// tests): every environment read that falls back to a literal URL
// (JS_ENV_URL_FALLBACK), every service address written into the code
// (JS_BASE_URL_LITERAL) and every credential written into the code
// (JS_CREDENTIAL_LITERAL).
func (m *Module) Check() []diag.Diagnostic { return m.CheckAllowing(nil) }

// CheckAllowing is Check for a package that declares public endpoints:
// a literal address under one of them is the endpoint of a public
// protocol, not a service address (see internal/endpoint).
func (m *Module) CheckAllowing(public endpoint.List) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, f := range m.EnvURLFallbacks() {
		out = append(out, RuleEnvURLFallback.New(m.File,
			"environment variable %s falls back to %s when it is unset; a default environment is forbidden: "+
				"leave the base URL to the host's configuration and stop before the request when it is missing",
			f.Var, f.URL).At(f.Pos.Line, f.Pos.Column))
	}
	for _, u := range m.LiteralBaseURLs() {
		if public.Covers(u.URL) {
			continue
		}
		out = append(out, RuleBaseURLLiteral.New(m.File,
			"%s is the literal address %s: every call goes there whatever the host configures; "+
				"read the base URL from its CODE2SKILL_<FEATURE>_<SERVICE>_BASE_URL variable when the call runs and stop before the request when it is missing",
			u.Where, u.URL).At(u.Pos.Line, u.Pos.Column))
	}
	return append(out, m.credentialFindings(false)...)
}

// CheckTest returns the findings about a test module: credentials in the
// format of a well-known token or key. A test injects fake credentials by
// name on purpose, so only real-looking ones are reported there.
func (m *Module) CheckTest() []diag.Diagnostic {
	return m.credentialFindings(true)
}

func (m *Module) credentialFindings(knownOnly bool) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, c := range m.CredentialLiterals() {
		if knownOnly && !c.Known {
			continue
		}
		out = append(out, RuleCredentialLiteral.New(m.File,
			"%s (%q) is written into the code; credentials are the host's to inject through the environment, "+
				"never part of the package: read it from a CODE2SKILL_<FEATURE>_<SERVICE>_… variable and stop before the request when it is missing",
			c.What, c.Redacted).At(c.Pos.Line, c.Pos.Column))
	}
	return out
}

// pos returns where a token of the tree starts, or the zero Pos when its
// bytes are not a slice of the source.
func (m *Module) pos(tok []byte) Pos {
	off, ok := subsliceOffset(m.src, tok)
	if !ok {
		return Pos{}
	}
	return m.lines.pos(off)
}
