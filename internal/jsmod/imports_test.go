package jsmod

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func mustParse(t *testing.T, src string) *Module {
	t.Helper()
	m, diags := Parse("x.mjs", []byte(src))
	if m == nil {
		t.Fatalf("Parse(%q): %v", src, diags)
	}
	return m
}

func TestImports(t *testing.T) {
	m := mustParse(t, `import "./side-effect.mjs";
import fs, { readFile as rf } from 'node:fs';
import * as path from "node:\u0070ath";
import data from "./d.json" with { type: "json" };
export * from "./all.mjs";
export { a as b } from './some.mjs';
export const local = 1;
const name = "./x.mjs";
async function load() {
  if (await import("./cond.mjs")) return import(name + "?v=" + local);
  return import(`+"`./tpl.mjs`"+`);
}
import("./top-level.mjs").then(() => {});
import(name);
export { load };
`)
	want := []Import{
		{StaticImport, "./side-effect.mjs", Pos{1, 8}},
		{StaticImport, "node:fs", Pos{2, 36}},
		{StaticImport, "node:path", Pos{3, 23}},
		{StaticImport, "./d.json", Pos{4, 18}},
		{ReExport, "./all.mjs", Pos{5, 15}},
		{ReExport, "./some.mjs", Pos{6, 24}},
		{DynamicImport, "./cond.mjs", Pos{10, 20}},
		{DynamicImport, "", Pos{10, 56}}, // the first literal of name + "?v=" + local
		{DynamicImport, "./tpl.mjs", Pos{11, 17}},
		{DynamicImport, "./top-level.mjs", Pos{13, 8}},
		{DynamicImport, "", Pos{}}, // import(name) at the top level: no literal, no position
	}
	if diff := cmp.Diff(want, m.Imports()); diff != "" {
		t.Errorf("Imports (-want +got)\n%s", diff)
	}
	for _, i := range m.Imports() {
		if i.Dynamic() != (i.Kind == DynamicImport) {
			t.Errorf("%v: Dynamic() = %v", i, i.Dynamic())
		}
	}
}

func TestImportKindString(t *testing.T) {
	for k, want := range map[ImportKind]string{StaticImport: "import", ReExport: "export-from", DynamicImport: "dynamic-import", 0: "unknown"} {
		if k.String() != want {
			t.Errorf("%d.String() = %q, want %q", k, k.String(), want)
		}
	}
}
