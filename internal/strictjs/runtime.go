package strictjs

import (
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/jsmod"
	"github.com/tdewolff/parse/v2/js"
)

// runtime applies the rules of mcp-tool/runtime.mjs: self-contained (node:
// built-ins without effects only, nothing dynamic), no client-network or
// process-control primitive, and the three names the adapter imports.
func (c *checker) runtime(m *jsmod.Module) {
	for _, imp := range m.Imports() {
		spec := imp.Specifier
		switch {
		case imp.Dynamic():
			c.report(RuleRuntimeImport, m, imp.Pos, "dynamic import() makes the runtime load code it does not contain")
		case !strings.HasPrefix(spec, "node:"):
			c.report(RuleRuntimeImport, m, imp.Pos, "imports %q: the runtime must bundle everything but node: built-ins", spec)
		case slices.Contains(effectfulBuiltins, strings.TrimPrefix(spec, "node:")):
			c.report(RuleRuntimeImport, m, imp.Pos, "imports %s; a stdio runtime needs no files, sockets, processes or code loading", spec)
		}
	}
	jsmod.Inspect(m.AST(), func(n js.INode) bool {
		switch n := n.(type) {
		case *js.CallExpr:
			name := lastName(n.X)
			p, _ := path(n.X)
			switch {
			case name == "fetch" && (p == "fetch" || p == "globalThis.fetch"):
				c.report(RuleRuntimePrimitive, m, firstToken(m, n), "calls fetch; a stdio runtime makes no client requests")
			case p == "process.exit" || p == "process.kill" || p == "process.getBuiltinModule":
				c.report(RuleRuntimePrimitive, m, firstToken(m, n), "calls %s", p)
			}
			if ix, ok := jsmod.Unparen(n.X).(*js.IndexExpr); ok {
				if s, _ := str(ix.Y); s == "fetch" || s == "request" {
					c.report(RuleRuntimePrimitive, m, firstToken(m, n), "calls %s through a computed member", s)
				}
			}
		case *js.NewExpr:
			if name := lastName(n.X); name == "WebSocket" || name == "EventSource" {
				c.report(RuleRuntimePrimitive, m, firstToken(m, n), "opens a %s connection", name)
			}
		}
		return true
	})
	exported := map[string]bool{}
	for _, stmt := range m.AST().BlockStmt.List {
		if e, ok := stmt.(*js.ExportStmt); ok && e.Module == nil {
			for _, a := range e.List {
				exported[string(a.Binding)] = true
			}
		}
	}
	for _, name := range runtimeNames {
		if !exported[name] {
			c.report(RuleRuntimePrimitive, m, jsmod.Pos{}, "does not export %s, which the adapter imports", name)
		}
	}
}
