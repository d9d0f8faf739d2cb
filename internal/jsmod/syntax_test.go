package jsmod

import (
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/diag"
	"github.com/google/go-cmp/cmp"
	"github.com/tdewolff/parse/v2/js"
)

func TestParseAcceptsModernModules(t *testing.T) {
	for _, tc := range []struct{ name, src string }{
		{"empty", ""},
		{"imports and exports", `import a, { b as c } from "./a.mjs"; import * as ns from "node:fs"; export { c as d }; export default a; export * as all from "./b.mjs";`},
		{"top-level await", `const fs = await import("node:fs"); export { fs };`},
		{"class private fields and static blocks", `export class A { #x = 1; static #y; static { this.z = 1; } #m() { return #x in this; } get x() { return this.#x; } }`},
		{"optional chaining and nullish", `const o = null; export const v = o?.a?.[0]?.(1) ?? 2;`},
		{"logical assignment and bigint", `let a = 1n ** 2n; a ||= 3n; a &&= 4n; a ??= 5n; export { a };`},
		{"regex flags", `export const r = /a(?<n>b)/dgimsuy; export const s = /[\p{L}--\p{N}]/v;`},
		{"numeric separators", `export const n = 1_000_000, h = 0xFF_FF;`},
		{"async generators and for await", `export async function* g() { for await (const x of []) yield* [x]; }`},
		{"arbitrary module namespace names", `const a = 1; export { a as "a name" };`},
		{"hashbang", "#!/usr/bin/env node\nexport const a = 1;"},
		{"byte order mark", "\ufeffexport const a = 1;"},
		{"import attributes", `import data from "./d.json" with { type: "json" }; export default data;`},
		{"import attributes across lines", "import data from './d.json'\n  with {\n    type: 'json' };\nexport { data };"},
		{"re-export attributes", `export * from "./a.json" with { type: "json" }; export { default as b } from "./b.json" with { "type": "json" };`},
		{"dynamic import options", `const m = await import("./a.json", { with: { type: "json" } }); export { m };`},
		{"import.meta", `export const dir = new URL(".", import.meta.url);`},
		{"asi", "const a = 1\nconst b = a\n+ 2\nexport { b }"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, diags := Parse("x.mjs", []byte(tc.src))
			if m == nil || len(diags) > 0 {
				t.Fatalf("Parse rejected a valid module: %v", diags)
			}
		})
	}
}

func TestParseReportsSyntaxErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		line, col int
		msg       string // a substring of the message
	}{
		{"unexpected end", "export function f() {\n  return 1;\n", 3, 1, "Unexpected end of file"},
		{"redeclaration", "let a = 1;\nlet a = 2;", 2, 5, `The symbol "a" has already been declared`},
		{"undeclared export", "const a = 1;\nexport { nothere };", 2, 10, `"nothere" is not declared`},
		{"duplicate export", "export const a = 1;\nconst b = 2;\nexport { b as a };", 3, 15, `Multiple exports with the same name "a"`},
		{"await outside async", "function f() {\n  await g();\n}", 2, 3, `"await" can only be used inside an "async" function`},
		{"top-level return", "return 1;", 1, 1, "Top-level return"},
		{"legacy octal", "const x = 017;", 1, 11, "Legacy octal literals"},
		{"with statement", "with (Math) {}", 1, 1, "With statements"},
		{"html comment", "<!-- x\nexport {};", 1, 1, "HTML"},
		{"duplicate parameter", "function f(a, a) {}", 1, 15, `"a" cannot be bound multiple times`},
		{"undeclared private name", "class A { m() { return this.#x; } }", 1, 29, `"#x" must be declared`},
		{"unterminated string", "const s = \"abc\ndef\";", 1, 15, "Unterminated string literal"},
		{"unterminated regex", "const r = /[/;", 1, 15, "Unterminated regular expression"},
		{"jsx", "const x = <div/>;", 1, 11, "JSX"},
		{"typescript", "const x: number = 1;", 1, 8, `Expected ";" but found ":"`},
		{"column counts bytes", "const café = 'é' @ 2;", 1, 20, `Expected ";" but found "@"`},
		{"line separator ends a line", "const a = 1;\u2028const b = 2 @ 3;", 2, 13, `found "@"`},
		{"crlf", "const a = 1;\r\nconst b = 2 @ 3;", 2, 13, `found "@"`},
		{"error after import attributes", "import x from 'y' with { type: 'json' };\nconst a = 1 @ 2;", 2, 13, `found "@"`},
		// Syntax esbuild supports ahead of node 20: the tree parser rejects it.
		{"decorator", "@dec class A {}", 1, 1, "unexpected @"},
		{"await using", "await using x = y;", 1, 13, "unexpected x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, diags := Parse("x.mjs", []byte(tc.src))
			if m != nil || len(diags) != 1 {
				t.Fatalf("Parse = %v, %v; want nil and one finding", m, diags)
			}
			d := diags[0]
			if d.Rule != RuleSyntax.ID || d.Severity != diag.Error || d.File != "x.mjs" {
				t.Errorf("finding = %+v", d)
			}
			if d.Line != tc.line || d.Column != tc.col {
				t.Errorf("position = %d:%d, want %d:%d (%s)", d.Line, d.Column, tc.line, tc.col, d.Message)
			}
			if !strings.Contains(d.Message, tc.msg) {
				t.Errorf("message %q does not contain %q", d.Message, tc.msg)
			}
		})
	}
}

func TestParseDoesNotModifyInput(t *testing.T) {
	src := []byte(`import d from "./d.json" with { type: "json" }; export default d;`)
	orig := string(src)
	if _, diags := Parse("x.mjs", src[:len(src):len(src)]); len(diags) > 0 {
		t.Fatal(diags)
	}
	if string(src) != orig {
		t.Errorf("Parse modified its input: %q", src)
	}
}

func TestAttributeClause(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want string // the blanked clause; "" when there is none
	}{
		{`import a from "a" with { type: "json" };`, `with { type: "json" }`},
		{`import a from 'a'with{type:'json'};`, `with{type:'json'}`},
		{"export * from 'a'\nwith {\n 'type': 'j}son' };", "with {\n 'type': 'j}son' }"},
		{`const with1 = 1; f({});`, ""},
		{`x = a.with {`, ""},
		{`import a from "a" with { type: { nested: 1 } };`, ""},
		{`import a from "a" with { type: "json"`, ""},
	} {
		brace := strings.Index(tc.src, "{")
		start, end, ok := attributeClause([]byte(tc.src), brace)
		got := ""
		if ok {
			got = tc.src[start:end]
		}
		if got != tc.want {
			t.Errorf("attributeClause(%q) = %q, want %q", tc.src, got, tc.want)
		}
	}
}

func TestPositions(t *testing.T) {
	src := []byte("ab\ncd\r\nef\rg\u2028h\u2029i")
	ix := newLineIndex(src)
	type lc struct{ Line, Col int }
	var got []lc
	for _, c := range []byte("abcdefghi") {
		p := ix.pos(strings.IndexByte(string(src), c))
		got = append(got, lc{p.Line, p.Column})
	}
	want := []lc{{1, 1}, {1, 2}, {2, 1}, {2, 2}, {3, 1}, {3, 2}, {4, 1}, {5, 1}, {6, 1}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	// Runes to bytes: "é" is two bytes.
	src = []byte("x\néa@")
	if off := newLineIndex(src).offset(src, 2, 3); src[off] != '@' {
		t.Errorf("offset(2, 3) = %d (%q)", off, src[off])
	}

	buf := []byte("hello world")
	if off, ok := subsliceOffset(buf, buf[6:8:8]); !ok || off != 6 {
		t.Errorf("subsliceOffset(slice) = %d, %v", off, ok)
	}
	if _, ok := subsliceOffset(buf, []byte("wo")); ok {
		t.Error("subsliceOffset accepted a copy")
	}
	if _, ok := subsliceOffset(buf[:5], buf[6:8]); ok {
		t.Error("subsliceOffset accepted bytes past the end")
	}
}

func TestNestingLimit(t *testing.T) {
	if js.NestedExprLimit != maxNesting || js.NestedStmtLimit != maxNesting {
		t.Fatalf("tdewolff/parse limits are %d and %d, maxNesting says %d", js.NestedExprLimit, js.NestedStmtLimit, maxNesting)
	}
	parens := func(n int) string {
		return "export const a = " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n) + ";"
	}
	if m, diags := Parse("x.mjs", []byte(parens(maxNesting-1))); m == nil {
		t.Errorf("%d levels: %v", maxNesting-1, diags)
	}
	for _, src := range []string{
		parens(maxNesting),
		"export const a = 1" + strings.Repeat(" + 1", maxNesting) + ";",
		// Deep enough to exhaust esbuild's stack if it ran first.
		strings.Repeat("{", 200_000) + strings.Repeat("}", 200_000),
		"const a = " + strings.Repeat("[", 200_000),
	} {
		m, diags := Parse("x.mjs", []byte(src))
		if m != nil || len(diags) != 1 || diags[0].Rule != RuleNestingLimit.ID || diags[0].Line != 1 {
			t.Errorf("Parse(%.30q…) = %v, %v; want one JS_NESTING_LIMIT finding", src, m, diags)
		}
	}
}
