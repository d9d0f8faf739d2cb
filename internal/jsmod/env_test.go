package jsmod

import (
	"fmt"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/diag"
	"github.com/google/go-cmp/cmp"
)

// names returns "NAME@line:col" for each read.
func names(reads []EnvRead) []string {
	out := []string{}
	for _, r := range reads {
		out = append(out, fmt.Sprintf("%s@%d:%d", r.Name, r.Pos.Line, r.Pos.Column))
	}
	return out
}

func TestEnvReads(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"dot", `const a = process.env.API_BASE_URL;`, []string{"API_BASE_URL@1:23"}},
		{"optional chaining", `const a = process?.env?.API_BASE_URL;`, []string{"API_BASE_URL@1:25"}},
		{"index string", `const a = process.env["A"] + process.env['B'];`, []string{"A@1:23", "B@1:42"}},
		{"index template", "const a = process.env[`A`];", []string{"A@1:23"}},
		{"index const", "const KEY = \"A\";\nconst a = process.env[KEY];", []string{"A@1:13"}},
		{"index variable", "export function f(k) { return process.env[k]; }", []string{}},
		{"destructuring", `const { A, B: bee, C = "x", "D-E": de, ...rest } = process.env;`, []string{"A@1:9", "B@1:12", "C@1:20", "D-E@1:29"}},
		{"nested destructuring", `const { env: { A } } = process;`, []string{"A@1:16"}},
		{"destructured env", "const { env } = process;\nconst a = env.A;", []string{"A@2:15"}},
		{"env alias", "const e = process.env;\nexport const a = e.A, b = e['B'];", []string{"A@2:20", "B@2:29"}},
		{"rest alias", "const { A, ...others } = process.env;\nconst b = others.B;", []string{"A@1:9", "B@2:18"}},
		{"parameter default", `export function f({ A } = process.env) { return A; }`, []string{"A@1:21"}},
		{"globalThis", `const a = globalThis.process.env.A;`, []string{"A@1:34"}},
		{"import default", "import proc from 'node:process';\nconst a = proc.env.A;", []string{"A@2:20"}},
		{"import namespace", "import * as p from 'process';\nconst a = p.env.A;", []string{"A@2:17"}},
		{"import env", "import { env as e } from 'node:process';\nconst a = e.A;", []string{"A@2:13"}},
		{"import of another process", "import process from './fake-process.mjs';\nconst a = process.env.A;", []string{}},
		{"shadowed by a parameter", `export function f(process) { return process.env.A; }`, []string{}},
		{"shadowed by a local", `export function f() { const process = { env: {} }; return process.env.A; }`, []string{}},
		{"used in a nested function", `export function f() { return () => process.env.A; }`, []string{"A@1:48"}},
		{"deduplicated in source order", "const b = process.env.B;\nconst a = process.env.A;\nconst b2 = process.env.B;", []string{"B@1:23", "A@2:23"}},
		{"assignment is not a read", `process.env.A = "https://api.invalid"; delete process.env.B;`, []string{}},
		{"compound assignment reads", `process.env.A ??= "x";`, []string{"A@1:13"}},
		{"spread env", "const env = { DEFAULT: '1', ...process.env };\nconst a = env.A, d = env.DEFAULT;", []string{"A@2:15", "DEFAULT@2:26"}},
		{"let alias is not followed", "let e = process.env;\nconst a = e.A;", []string{}},
		{"injectable environment", "export function f(context = {}) {\n  const env = context.env ?? process.env;\n  return env.A + env['B'];\n}", []string{"A@3:14", "B@3:22"}},
		{"injectable environment with or", "export function f(c) { return (c.env || process.env).A; }", []string{"A@1:54"}},
		{"other fallback objects are not the environment", "export function f(c) { return (c.env ?? {}).A; }", []string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := mustParse(t, tc.src)
			if diff := cmp.Diff(tc.want, names(m.EnvReads())); diff != "" {
				t.Errorf("EnvReads (-want +got)\n%s", diff)
			}
		})
	}
}

// fallbacks returns "VAR -> URL @line:col" for each fallback.
func fallbacks(fs []EnvFallback) []string {
	out := []string{}
	for _, f := range fs {
		out = append(out, fmt.Sprintf("%s -> %s @%d:%d", f.Var, f.URL, f.Pos.Line, f.Pos.Column))
	}
	return out
}

func TestEnvURLFallbacks(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		// Forms that fall back to a default environment.
		{"or", `const u = process.env.API_URL || "https://api.example.com";`, []string{"API_URL -> https://api.example.com @1:34"}},
		{"injectable environment", "export function f(c = {}) {\n  const env = c.env ?? process.env;\n  return env.API_URL || 'https://api.example.com';\n}", []string{"API_URL -> https://api.example.com @3:25"}},
		{"nullish", `const u = process.env.API_URL ?? 'http://localhost:8080';`, []string{"API_URL -> http://localhost:8080 @1:34"}},
		{"template", "const u = process.env.API_URL ?? `https://api.example.com`;", []string{"API_URL -> https://api.example.com @1:34"}},
		{"template with substitutions", "const u = process.env.API_URL || `https://${region}.example.com`;", []string{"API_URL -> https://${region}.example.com @1:34"}},
		{"upper-case scheme", `const u = process.env.API_URL || "HTTPS://API.EXAMPLE.COM";`, []string{"API_URL -> HTTPS://API.EXAMPLE.COM @1:34"}},
		{"index", `const u = process.env["API_URL"] || "https://a.example";`, []string{"API_URL -> https://a.example @1:37"}},
		{"ternary", `const u = process.env.API_URL ? process.env.API_URL : "https://a.example";`, []string{"API_URL -> https://a.example @1:55"}},
		{"inverted ternary", `const u = !process.env.API_URL ? "https://a.example" : process.env.API_URL;`, []string{"API_URL -> https://a.example @1:34"}},
		{"destructuring default", `const { API_URL = "https://a.example" } = process.env;`, []string{"API_URL -> https://a.example @1:19"}},
		{"renamed destructuring default", `const { API_URL: base = "https://a.example" } = process.env;`, []string{"API_URL -> https://a.example @1:25"}},
		{"alias", "const base = process.env.API_URL;\nexport const u = base || \"https://a.example\";", []string{"API_URL -> https://a.example @2:26"}},
		{"destructured alias", "const { API_URL } = process.env;\nexport const u = API_URL ?? \"https://a.example\";", []string{"API_URL -> https://a.example @2:29"}},
		{"alias in a function", "const base = process.env.API_URL;\nexport function url() { return base || \"https://a.example\"; }", []string{"API_URL -> https://a.example @2:40"}},
		{"trimmed", `const u = process.env.API_URL?.trim() || "https://a.example";`, []string{"API_URL -> https://a.example @1:42"}},
		{"String()", `const u = String(process.env.API_URL ?? "") || "https://a.example";`, []string{"API_URL -> https://a.example @1:48"}},
		{"parenthesised", `const u = (process.env.API_URL) || ("https://a.example");`, []string{"API_URL -> https://a.example @1:37"}},
		{"chain", `const u = process.env.A || process.env.B || "https://a.example";`, []string{"A -> https://a.example @1:45", "B -> https://a.example @1:45"}},
		{"const URL", "const DEFAULT_URL = \"https://a.example\";\nconst u = process.env.API_URL || DEFAULT_URL;", []string{"API_URL -> https://a.example @2:23"}},
		{"logical assignment", `process.env.API_URL ??= "https://a.example";`, []string{"API_URL -> https://a.example @1:25"}},
		{"env alias", "const env = process.env;\nconst u = env.API_URL || \"https://a.example\";", []string{"API_URL -> https://a.example @2:26"}},
		{"const object default", "const DEFAULTS = { apiBase: \"https://a.example\" };\nconst u = process.env.API_URL ?? DEFAULTS.apiBase;", []string{"API_URL -> https://a.example @2:23"}},
		{"defaults under a spread", "const env = { API_URL: \"https://a.example\", ...process.env };\nconst u = env.API_URL;", []string{"API_URL -> https://a.example @1:24"}},
		{"destructured defaults under a spread", "const { API_URL } = { 'API_URL': `https://a.example`, TIMEOUT: '30', ...process.env };", []string{"API_URL -> https://a.example @1:34"}},
		{"template starting with a const object's URL", "const CONFIG = { API_HOST: 'https://api.example.com' };\nexport function base(env) { return env.API_URL || `${CONFIG.API_HOST}/api`; }\nexport const u = base(process.env);", []string{"API_URL -> ${CONFIG.API_HOST}/api @2:51"}},
		{"template starting with a const URL", "const HOST = 'https://api.example.com';\nconst u = process.env.API_URL ?? `${HOST}/v2`;", []string{"API_URL -> ${HOST}/v2 @2:34"}},
		{"defaults spread before the environment", "const DEFAULTS = { API_URL: 'https://a.example' };\nconst env = { ...DEFAULTS, ...process.env };\nconst u = env.API_URL;", []string{"API_URL -> https://a.example @3:15"}},
		{"node:process import", "import { env } from 'node:process';\nconst u = env.API_URL || \"https://a.example\";", []string{"API_URL -> https://a.example @2:26"}},
		// Forms that do not.
		{"no fallback", `const u = process.env.API_URL;`, []string{}},
		{"non-URL fallback", `const t = process.env.TIMEOUT ?? "30"; const p = process.env.PROTO || "https";`, []string{}},
		{"non-URL template", "const t = process.env.TIMEOUT ?? `30`;", []string{}},
		{"other scheme", `const u = process.env.FEED || "ftp://files.example";`, []string{}},
		{".invalid assignment", `process.env.API_URL = "https://api.invalid";`, []string{}},
		{".invalid fallback", `const u = process.env.API_URL || "https://api.invalid/v1";`, []string{}},
		{"URL not from the environment", `export function f(input) { return input.url || "https://a.example"; }`, []string{}},
		{"shadowed process", `export function f(process) { return process.env.API_URL || "https://a.example"; }`, []string{}},
		{"and", `const u = process.env.API_URL && "https://a.example";`, []string{}},
		{"let alias", "let base = process.env.API_URL;\nbase = base || \"https://a.example\";", []string{}},
		{"tagged template", "const u = process.env.API_URL || tag`https://a.example`;", []string{}},
		{"spread then literal", "const env = { ...process.env, API_URL: \"https://a.example\" };\nconst u = env.API_URL;", []string{}},
		{"template starting with a non-URL", "const PREFIX = 'api';\nconst u = process.env.API_URL ?? `${PREFIX}/v2`;", []string{}},
		{"template starting with the input", "export function f(input) { return process.env.API_URL ?? `${input.base}/v2`; }", []string{}},
		{"environment spread over defaults", "const DEFAULTS = { API_URL: 'https://a.example' };\nconst env = { ...process.env, ...DEFAULTS };\nconst u = env.API_URL;", []string{}},
		{"object without env", "const cfg = { apiBase: \"https://a.example\" };\nconst u = cfg.apiBase;", []string{}},
		{"missing URL stops", "const base = process.env.API_URL;\nif (!base) throw new Error('API_URL is not set');", []string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := mustParse(t, tc.src)
			if diff := cmp.Diff(tc.want, fallbacks(m.EnvURLFallbacks())); diff != "" {
				t.Errorf("EnvURLFallbacks (-want +got)\n%s", diff)
			}
			var diags []diag.Diagnostic
			for _, d := range m.Check() {
				if d.Rule != RuleBaseURLLiteral.ID { // a literal address besides the fallback is another rule's
					diags = append(diags, d)
				}
			}
			if len(diags) != len(tc.want) {
				t.Fatalf("Check() = %v, want %d findings", diags, len(tc.want))
			}
			for i, d := range diags {
				f := m.EnvURLFallbacks()[i]
				if d.Rule != RuleEnvURLFallback.ID || d.Severity != diag.Error || d.File != "x.mjs" ||
					d.Line != f.Pos.Line || d.Column != f.Pos.Column ||
					!strings.Contains(d.Message, f.Var) || !strings.Contains(d.Message, f.URL) {
					t.Errorf("Check()[%d] = %+v for %+v", i, d, f)
				}
			}
		})
	}
}

func TestEnvFallbackPositions(t *testing.T) {
	m := mustParse(t, "const DEFAULT_URL = 'https://a.example';\nconst base = process.env.API_URL;\nconst u = base || DEFAULT_URL;\nconst v = process.env.OTHER || DEFAULT_URL;")
	want := []EnvFallback{
		// Neither is written in the fallback: point at the URL.
		{Var: "API_URL", URL: "https://a.example", Pos: Pos{1, 21}, VarPos: Pos{2, 26}, URLPos: Pos{1, 21}},
		// The read is written there, the URL is not: point at the read.
		{Var: "OTHER", URL: "https://a.example", Pos: Pos{4, 23}, VarPos: Pos{4, 23}, URLPos: Pos{1, 21}},
	}
	if diff := cmp.Diff(want, m.EnvURLFallbacks()); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestCook(t *testing.T) {
	for _, tc := range []struct {
		raw, want string
		ok        bool
	}{
		{`plain`, "plain", true},
		{`a\nb\t\\\'\"`, "a\nb\t\\'\"", true},
		{`\x41\u0042\u{43}\u{1F600}`, "ABC\U0001F600", true},
		{`\uD83D\uDE00`, "\U0001F600", true},
		{`\uD83D`, "\uFFFD", true},
		{"line\\\ncontinued", "linecontinued", true},
		{"cr\r\nlf", "cr\nlf", true},
		{`\q`, "q", true},
		{`\x4`, "", false},
		{`\u{110000}`, "", false},
		{`\u12`, "", false},
		{`trailing\`, "", false},
	} {
		got, ok := cook([]byte(tc.raw))
		if got != tc.want || ok != tc.ok {
			t.Errorf("cook(%q) = %q, %v; want %q, %v", tc.raw, got, ok, tc.want, tc.ok)
		}
	}
}
