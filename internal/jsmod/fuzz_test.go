package jsmod

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/code2skill/code2skill/internal/diag"
)

// FuzzParse checks Parse's invariants on arbitrary input: no panic, one
// registered finding with an in-range position or a Module whose facts
// all have in-range positions, and the same answer twice.
func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/crosscheck/*")
	seeds = append(seeds, benchModule)
	for _, file := range seeds {
		src, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	for _, s := range []string{
		`const u = process.env.API_URL || "https://a.example";`,
		"const { A = `https://${x}.example`, ...r } = process.env; const b = r.B ?? 'http://b.example';",
		"import p, { env as e } from 'node:process'; const base = p.env.X?.trim(); export const u = base ? base : e.Y || 'https://y';",
		`import d from "./d.json" with { type: "json" }; export * from "x" with {type:"json"};`,
		`const a = process.env["\u0041"] || "\x68ttps://a";`,
		scaffoldIdiom,
		serverModule,
		"function r(env, n) { return r(env, n) || env[n] || 'tok3n-123456'; }\nexport const t = r(process.env, 'SHOP_TOKEN');",
		"import { test } from 'node:test';\ntest('a', () => {});\nconst password = 'hunter22';",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 1<<14 {
			t.Skip("inputs are capped at 16 KiB to keep the fuzzer fast")
		}
		m, diags := Parse("f.mjs", src)
		lines := len(newLineIndex(src))
		inRange := func(what string, line, col int, known bool) {
			if line < 0 || line > lines || col < 0 || (known && (line == 0 || col == 0)) {
				t.Fatalf("%s at %d:%d, source has %d lines", what, line, col, lines)
			}
		}
		if m == nil {
			if len(diags) != 1 {
				t.Fatalf("no Module and %d findings", len(diags))
			}
		} else if len(diags) != 0 {
			t.Fatalf("a Module and findings %v", diags)
		}
		if m != nil {
			diags = m.Check()
			for _, i := range m.Imports() {
				inRange("import", i.Pos.Line, i.Pos.Column, i.Specifier != "")
			}
			for _, r := range m.EnvReads() {
				inRange("env read", r.Pos.Line, r.Pos.Column, false)
			}
			for _, fb := range m.EnvURLFallbacks() {
				inRange("fallback", fb.Pos.Line, fb.Pos.Column, false)
			}
			for _, c := range m.CredentialLiterals() {
				inRange("credential", c.Pos.Line, c.Pos.Column, true)
			}
			for _, r := range m.ToolRegistrations() {
				inRange("registration", r.Pos.Line, r.Pos.Column, false)
				for _, h := range r.Hints {
					inRange("hint", h.Pos.Line, h.Pos.Column, false)
				}
				for _, rm := range m.RequestMethods(r, nil) {
					inRange("method", rm.Pos.Line, rm.Pos.Column, true)
				}
				for _, u := range r.Uses {
					for _, p := range m.FunctionLiterals(u.Local) {
						inRange("literal", p.Line, p.Column, true)
					}
				}
			}
			if m.TestsDeclared() < 0 {
				t.Fatal("negative test count")
			}
		}
		for _, d := range diags {
			if _, ok := diag.Lookup(d.Rule); !ok || d.File != "f.mjs" || d.Message == "" {
				t.Fatalf("malformed finding %+v", d)
			}
			inRange(d.Rule, d.Line, d.Column, d.Rule != RuleSyntax.ID)
		}

		m2, diags2 := Parse("f.mjs", src)
		if (m == nil) != (m2 == nil) || (m == nil && !slices.Equal(diags, diags2)) {
			t.Fatalf("Parse is not deterministic: %v then %v", diags, diags2)
		}
		if m != nil && (!slices.Equal(m.Imports(), m2.Imports()) || !slices.Equal(m.EnvReads(), m2.EnvReads()) ||
			!slices.Equal(m.EnvURLFallbacks(), m2.EnvURLFallbacks()) || !slices.Equal(m.CredentialLiterals(), m2.CredentialLiterals())) {
			t.Fatal("facts are not deterministic")
		}
	})
}
