package strictjs

import (
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/jsmod"
	"github.com/tdewolff/parse/v2/js"
)

// The modules the adapter may import, and what.
const (
	runtimeImport    = "./runtime.mjs"
	coreImport       = "../function-core/index.mjs"
	normalizerImport = "../portable-error-normalizer.mjs"
)

var (
	runtimeNames = []string{"McpServer", "StdioServerTransport", "z"}
	configKeys   = []string{"annotations", "description", "inputSchema", "outputSchema", "title"}
	hintNames    = []string{"destructiveHint", "idempotentHint", "openWorldHint", "readOnlyHint"}
	// bannedNames are what a registration's config must never reach: the
	// environment, globals, and ways to load or build code.
	bannedNames = []string{"globalThis", "window", "document", "self", "global", "process", "require", "createRequire", "eval", "Function"}
)

// adapterModule is what the rules know about the adapter's top level.
type adapterModule struct {
	m       *jsmod.Module
	server  string              // the McpServer instance's name
	helpers map[string]js.INode // top-level functions and const initialisers, by name
	inert   map[string]bool     // helpers found inert (memo)
}

// adapter applies the MCP adapter rules.
func (c *checker) adapter(m *jsmod.Module) {
	a := &adapterModule{m: m, helpers: map[string]js.INode{}, inert: map[string]bool{}}
	c.adapterImports(m)
	for _, stmt := range m.AST().BlockStmt.List {
		switch s := stmt.(type) {
		case *js.FuncDecl:
			if s.Name != nil {
				a.helpers[string(s.Name.Data)] = s
			}
		case *js.VarDecl:
			for _, el := range s.List {
				v, ok := el.Binding.(*js.Var)
				if !ok || el.Default == nil {
					continue
				}
				a.helpers[string(v.Data)] = el.Default
				if n, ok := jsmod.Unparen(el.Default).(*js.NewExpr); ok && lastName(n.X) == "McpServer" {
					a.server = string(v.Data)
				}
			}
		}
	}
	if a.server == "" {
		c.report(RuleMCPRegistration, m, jsmod.Pos{}, "declares no const server = new McpServer({…}) to register the Tools on")
	}
	registered := c.registrations(a)
	c.adapterTopLevel(a, registered)
	c.errorContract(m)
}

// adapterImports: ./runtime.mjs for exactly McpServer, StdioServerTransport
// and z; the Canonical Functions by name; normalizeToolError; nothing else.
func (c *checker) adapterImports(m *jsmod.Module) {
	seen := map[string][]string{}
	for _, stmt := range m.AST().BlockStmt.List {
		if e, ok := stmt.(*js.ExportStmt); ok && e.Module != nil {
			c.report(RuleMCPImport, m, firstToken(m, e), "re-exports from another module; the adapter imports only")
		}
		imp, ok := stmt.(*js.ImportStmt)
		if !ok {
			continue
		}
		spec, _ := jsmod.StringValue(imp.Module)
		at := m.Position(imp.Module)
		var names []string
		plain := imp.Default == nil
		for _, al := range imp.List {
			if al.Name != nil && string(al.Name) != string(al.Binding) || string(al.Binding) == "*" {
				plain = false
			}
			names = append(names, string(al.Binding))
		}
		switch spec {
		case runtimeImport:
			sorted := slices.Sorted(slices.Values(names))
			if !plain || !slices.Equal(sorted, runtimeNames) {
				c.report(RuleMCPImport, m, at, "must be exactly import { McpServer, StdioServerTransport, z } from %q", runtimeImport)
			}
		case normalizerImport:
			if !plain || !slices.Equal(names, []string{"normalizeToolError"}) {
				c.report(RuleMCPImport, m, at, "must be exactly import { normalizeToolError } from %q", normalizerImport)
			}
		case coreImport:
			if !plain {
				c.report(RuleMCPImport, m, at, "must import the Functions by their own names: import { … } from %q", coreImport)
			}
		default:
			c.report(RuleMCPImport, m, at, "imports %q; the adapter imports only %s, %s and %s", spec, runtimeImport, coreImport, normalizerImport)
		}
		seen[spec] = append(seen[spec], names...)
	}
	for _, imp := range m.Imports() {
		if imp.Dynamic() {
			c.report(RuleMCPImport, m, imp.Pos, "dynamic import() is not allowed in the adapter")
		}
	}
	if _, ok := seen[runtimeImport]; !ok {
		c.report(RuleMCPImport, m, jsmod.Pos{}, "does not import McpServer, StdioServerTransport and z from %q", runtimeImport)
	}
	if _, ok := seen[normalizerImport]; !ok {
		c.report(RuleMCPImport, m, jsmod.Pos{}, "does not import normalizeToolError from %q", normalizerImport)
	}
	for _, cf := range c.f.caps {
		if !slices.Contains(seen[coreImport], cf.cap.FunctionExport) {
			c.report(RuleMCPImport, m, jsmod.Pos{}, "does not import the Function %s from %q", cf.cap.FunctionExport, coreImport)
		}
	}
}

// registrations checks every registerTool call and returns those at the top
// level, the only place they may be.
func (c *checker) registrations(a *adapterModule) map[*js.CallExpr]bool {
	m := a.m
	top := map[*js.CallExpr]bool{}
	for _, stmt := range m.AST().BlockStmt.List {
		if es, ok := stmt.(*js.ExprStmt); ok {
			if call, ok := jsmod.Unparen(es.Value).(*js.CallExpr); ok && lastName(call.X) == "registerTool" {
				top[call] = true
			}
		}
	}
	count := map[string]int{}
	jsmod.Inspect(m.AST(), func(n js.INode) bool {
		call, ok := n.(*js.CallExpr)
		if !ok || (lastName(call.X) != "registerTool" && lastName(call.X) != "tool") {
			return true
		}
		at := firstToken(m, call)
		d, isDot := jsmod.Unparen(call.X).(*js.DotExpr)
		switch {
		case !top[call]:
			c.report(RuleMCPRegistration, m, at, "registers a Tool away from the module's top level (in a function, loop or condition); each Tool needs one literal registration statement")
			return true
		case !isDot || lastName(call.X) != "registerTool":
			c.report(RuleMCPRegistration, m, at, "registers a Tool other than by server.registerTool(…)")
			return true
		case a.server != "":
			if name, _ := ident(d.X); name != a.server {
				c.report(RuleMCPRegistration, m, at, "registers a Tool on %s, not on the McpServer %s", name, a.server)
			}
		}
		tool, ok := str(arg(call, 0))
		if !ok {
			c.report(RuleMCPRegistration, m, at, "the Tool name must be a string literal")
			return true
		}
		count[tool]++
		cf := c.f.byTool(tool)
		switch {
		case cf == nil:
			c.report(RuleMCPRegistration, m, at, "registers %q, which is not a Tool of the contract", tool)
		case count[tool] > 1:
			c.report(RuleMCPRegistration, m, at, "registers %q more than once", tool)
		default:
			c.registration(a, call, cf)
		}
		return true
	})
	for _, cf := range c.f.caps {
		if count[cf.cap.ToolName] == 0 {
			c.report(RuleMCPRegistration, m, jsmod.Pos{}, "Tool %q of capability %s is not registered", cf.cap.ToolName, cf.cap.ID)
		}
	}
	return top
}

// registration checks one literal registration of a Canonical Tool.
func (c *checker) registration(a *adapterModule, call *js.CallExpr, cf *capFacts) {
	m := a.m
	tool := cf.cap.ToolName
	at := firstToken(m, call)
	if len(call.Args.List) != 3 || slices.ContainsFunc(call.Args.List, func(x js.Arg) bool { return x.Rest }) {
		c.report(RuleMCPRegistration, m, at, "%s: registerTool takes exactly the name, a config object literal and an async callback", tool)
		return
	}
	config, ok := jsmod.Unparen(arg(call, 1)).(*js.ObjectExpr)
	if !ok {
		c.report(RuleMCPRegistration, m, at, "%s: the config must be an object literal written in the call", tool)
	} else {
		c.config(a, config, cf)
	}
	switch cb := jsmod.Unparen(arg(call, 2)).(type) {
	case *js.ArrowFunc:
		if !cb.Async {
			break
		}
		c.callback(m, cb.Params, &cb.Body, cf, firstToken(m, cb))
		return
	case *js.FuncDecl:
		if !cb.Async || cb.Generator {
			break
		}
		c.callback(m, cb.Params, &cb.Body, cf, firstToken(m, cb))
		return
	}
	c.report(RuleMCPRegistration, m, at, "%s: the callback must be an async function written in the call", tool)
}

// config checks a registration's config: its keys, prose, schemas,
// annotations, and that it is inert.
func (c *checker) config(a *adapterModule, config *js.ObjectExpr, cf *capFacts) {
	m := a.m
	tool := cf.cap.ToolName
	at := firstToken(m, config)
	names, values, plain := properties(config)
	if sorted := slices.Sorted(slices.Values(names)); !plain || !slices.Equal(sorted, configKeys) {
		c.report(RuleMCPRegistration, m, at, "%s: the config must hold exactly title, description, inputSchema, outputSchema and annotations, each written out", tool)
	}
	c.inert(a, config, tool)

	if v, ok := values["title"]; ok {
		if s, ok := str(v); !ok {
			c.report(RuleMCPTitle, m, firstToken(m, v), "%s: the title must be a string literal", tool)
		} else if why := c.f.prose.titleProblem(s); why != "" {
			c.report(RuleMCPTitle, m, firstToken(m, v), "%s: title %q %s", tool, s, why)
		}
	}
	if v, ok := values["description"]; ok {
		if s, ok := str(v); !ok {
			c.report(RuleMCPDescription, m, firstToken(m, v), "%s: the description must be a string literal", tool)
		} else if why := c.f.prose.descriptionProblem(s); why != "" {
			c.report(RuleMCPDescription, m, firstToken(m, v), "%s: the description %s", tool, why)
		}
	}
	if v, ok := values["inputSchema"]; ok {
		c.schema(a, v, cf.input, tool, "inputSchema")
	}
	if v, ok := values["outputSchema"]; ok {
		c.schema(a, v, cf.output, tool, "outputSchema")
	}
	if v, ok := values["annotations"]; ok {
		c.annotations(m, v, cf)
	}
}

// inert reports what a config reaches that it must not: banned names,
// dynamic imports, and calls other than zod's and the adapter's inert
// helpers.
func (c *checker) inert(a *adapterModule, n js.INode, tool string) {
	m := a.m
	jsmod.Inspect(n, func(n js.INode) bool {
		switch n := n.(type) {
		case *js.Var:
			name := string(n.Name())
			switch {
			case slices.Contains(bannedNames, name):
				c.report(RuleMCPConfigInert, m, firstToken(m, n), "%s: the config reaches %s", tool, name)
			case c.f.isExport(name):
				c.report(RuleMCPConfigInert, m, firstToken(m, n), "%s: the config reaches the Canonical Function %s", tool, name)
			case a.helpers[name] != nil && !c.inertHelper(a, name):
				c.report(RuleMCPConfigInert, m, firstToken(m, n), "%s: the config uses %s, which is not inert", tool, name)
			}
		case *js.CallExpr:
			if lit, ok := jsmod.Literal(n.X); ok && lit.TokenType == js.ImportToken {
				c.report(RuleMCPConfigInert, m, firstToken(m, n), "%s: the config imports code", tool)
				return true
			}
			root := rootName(n.X)
			if root != "z" && a.helpers[root] == nil {
				c.report(RuleMCPConfigInert, m, firstToken(m, n), "%s: the config calls %s; only zod and the adapter's own helpers may be called there", tool, calleeText(n.X))
			}
		case *js.NewExpr:
			c.report(RuleMCPConfigInert, m, firstToken(m, n), "%s: the config constructs %s", tool, calleeText(n.X))
		}
		return true
	})
}

// inertHelper reports whether a top-level helper of the adapter is inert: it
// reaches no banned name, calls no Canonical Function and has no effect.
func (c *checker) inertHelper(a *adapterModule, name string) bool {
	if v, ok := a.inert[name]; ok {
		return v
	}
	a.inert[name] = true // assume so while looking, which ends recursion
	if variable, isGuard := dryRunCondition(nodeExpr(a.helpers[name])); isGuard && variable == c.f.dryRun {
		// const dryRun = process.env.<the dry-run variable> === "1": the
		// dry-run switch, which decides the output schema Tools list.
		return true
	}
	ok := true
	jsmod.Inspect(a.helpers[name], func(n js.INode) bool {
		switch n := n.(type) {
		case *js.Var:
			v := string(n.Name())
			if slices.Contains(bannedNames, v) || c.f.isExport(v) || v != name && a.helpers[v] != nil && !c.inertHelper(a, v) {
				ok = false
			}
		case *js.CallExpr:
			if effectCall(n) != "" {
				ok = false
			}
			if lit, isLit := jsmod.Literal(n.X); isLit && lit.TokenType == js.ImportToken {
				ok = false
			}
		case *js.NewExpr:
			if lastName(n.X) != "RegExp" && rootName(n.X) != "z" {
				ok = false
			}
		}
		return ok
	})
	a.inert[name] = ok
	return ok
}

// nodeExpr returns n as an expression, or nil.
func nodeExpr(n js.INode) js.IExpr {
	e, _ := n.(js.IExpr)
	return e
}

// rootName returns the first name of a member or call chain: z for
// z.object({…}).strict, f for f(x).
func rootName(e js.IExpr) string {
	for {
		switch x := jsmod.Unparen(e).(type) {
		case *js.Var:
			return string(x.Name())
		case *js.DotExpr:
			e = x.X
		case *js.IndexExpr:
			e = x.X
		case *js.CallExpr:
			e = x.X
		default:
			return ""
		}
	}
}

// calleeText names a callee for messages.
func calleeText(e js.IExpr) string {
	if p, ok := path(e); ok {
		return p
	}
	if r := rootName(e); r != "" {
		return r + "…"
	}
	return "a computed function"
}

// schema checks an inputSchema or outputSchema value: an accepted form whose
// JSON literals equal the contract's schema.
func (c *checker) schema(a *adapterModule, v js.IExpr, want canonjson.Value, tool, key string) {
	m := a.m
	at := firstToken(m, v)
	literals, ok := schemaLiterals(a, v)
	if !ok {
		c.report(RuleMCPSchema, m, at, "%s: %s must be the contract's JSON Schema as a literal, a helper of the adapter applied to it, or a zod expression", tool, key)
		return
	}
	for _, lit := range literals {
		if !canonjson.Equal(lit, want) {
			c.report(RuleMCPSchema, m, at, "%s: the %s written here differs from the contract's (%s)", tool, key, difference(want, lit))
			return
		}
	}
}

// schemaLiterals returns the JSON literals of an accepted schema form that
// must equal the contract's schema, or false when v is no accepted form.
func schemaLiterals(a *adapterModule, v js.IExpr) ([]canonjson.Value, bool) {
	v = jsmod.Unparen(v)
	if j, ok := jsonValue(v); ok {
		if _, isObject := j.(*canonjson.Object); isObject {
			return []canonjson.Value{j}, true
		}
		return nil, false
	}
	call, ok := v.(*js.CallExpr)
	if !ok {
		return nil, false
	}
	// A helper of the adapter applied to one JSON literal.
	if name, isVar := ident(call.X); isVar && name != "z" {
		if a.helpers[name] == nil || len(call.Args.List) != 1 || call.Args.List[0].Rest {
			return nil, false
		}
		j, ok := jsonValue(call.Args.List[0].Value)
		if !ok {
			return nil, false
		}
		return []canonjson.Value{j}, true
	}
	// A zod chain: the JSON literal arguments along its spine count.
	if rootName(call) != "z" || !zodExpr(call) {
		return nil, false
	}
	var out []canonjson.Value
	for e := js.IExpr(call); ; {
		switch x := jsmod.Unparen(e).(type) {
		case *js.CallExpr:
			for _, arg := range x.Args.List {
				if j, ok := jsonValue(arg.Value); ok {
					if _, isObject := j.(*canonjson.Object); isObject {
						out = append(out, j)
					}
				}
			}
			e = x.X
			continue
		case *js.DotExpr:
			e = x.X
			continue
		}
		return out, true
	}
}

// zodExpr reports whether e is built from z alone: chains rooted at z whose
// arguments are literals, zod expressions and literals of those.
func zodExpr(e js.IExpr) bool {
	switch x := jsmod.Unparen(e).(type) {
	case *js.Var:
		return string(x.Name()) == "z"
	case *js.DotExpr:
		return zodExpr(x.X)
	case *js.CallExpr:
		if !zodExpr(x.X) {
			return false
		}
		for _, a := range x.Args.List {
			if a.Rest || !zodArg(a.Value) {
				return false
			}
		}
		return true
	}
	return false
}

func zodArg(e js.IExpr) bool {
	if _, ok := jsonValue(e); ok {
		return true
	}
	switch x := jsmod.Unparen(e).(type) {
	case *js.ObjectExpr:
		_, values, plain := properties(x)
		if !plain {
			return false
		}
		for _, v := range values {
			if !zodArg(v) {
				return false
			}
		}
		return true
	case *js.ArrayExpr:
		for _, el := range x.List {
			if el.Spread || el.Value == nil || !zodArg(el.Value) {
				return false
			}
		}
		return true
	}
	return zodExpr(e)
}

// difference names the first place two JSON values differ.
func difference(want, got canonjson.Value) string {
	var walk func(w, g canonjson.Value, at string) string
	walk = func(w, g canonjson.Value, at string) string {
		wo, wok := w.(*canonjson.Object)
		gobj, gok := g.(*canonjson.Object)
		if wok && gok {
			for k, wv := range wo.All() {
				gv, ok := gobj.Get(k)
				if !ok {
					return at + "/" + k + " is missing"
				}
				if !canonjson.Equal(wv, gv) {
					return walk(wv, gv, at+"/"+k)
				}
			}
			for _, k := range gobj.Keys() {
				if !wo.Has(k) {
					return at + "/" + k + " is not in the contract"
				}
			}
		}
		if at == "" {
			at = "/"
		}
		return at + " differs"
	}
	return walk(want, got, "")
}

// annotations: the contract's four hints as boolean literals, and an
// openWorldHint true exactly for HTTP implementations.
func (c *checker) annotations(m *jsmod.Module, v js.IExpr, cf *capFacts) {
	tool := cf.cap.ToolName
	at := firstToken(m, v)
	got, ok := jsonValue(v)
	o, isObject := got.(*canonjson.Object)
	if !ok || !isObject {
		c.report(RuleMCPAnnotations, m, at, "%s: annotations must be an object literal of the four hints", tool)
		return
	}
	if keys := slices.Sorted(slices.Values(o.Keys())); !slices.Equal(keys, hintNames) {
		c.report(RuleMCPAnnotations, m, at, "%s: annotations must hold exactly %s", tool, strings.Join(hintNames, ", "))
		return
	}
	// Whether the contract's own hints are right (openWorldHint for HTTP,
	// readOnlyHint for reads) is judged once, on the contract; here the
	// registration must say what the contract says.
	if !canonjson.Equal(got, cf.annotations) {
		c.report(RuleMCPAnnotations, m, at, "%s: annotations differ from the contract's (%s)", tool, difference(cf.annotations, got))
	}
}

// adapterTopLevel: outside the registrations, the module declares and
// connects once; it never acts otherwise, and never calls a Function.
func (c *checker) adapterTopLevel(a *adapterModule, registrations map[*js.CallExpr]bool) {
	m := a.m
	connects := 0
	for _, stmt := range m.AST().BlockStmt.List {
		switch s := stmt.(type) {
		case *js.ImportStmt, *js.FuncDecl, *js.EmptyStmt:
			c.effects(a, stmt)
		case *js.VarDecl:
			c.effects(a, stmt)
		case *js.ExprStmt:
			e := jsmod.Unparen(s.Value)
			if call, ok := e.(*js.CallExpr); ok && registrations[call] {
				// Callbacks run per call, not at start-up; their shape
				// is checked on its own.
				if len(call.Args.List) > 1 {
					c.effects(a, call.Args.List[1].Value)
				}
				continue
			}
			if u, ok := e.(*js.UnaryExpr); ok && u.Op == js.AwaitToken && c.connect(a, u.X) {
				connects++
				continue
			}
			c.report(RuleMCPModuleEffect, m, firstToken(m, s), "a top-level statement other than a registration or the single server.connect(new StdioServerTransport())")
			c.effects(a, stmt)
		default:
			c.report(RuleMCPModuleEffect, m, firstToken(m, stmt), "a top-level statement other than a declaration, a registration or the single server.connect(new StdioServerTransport())")
		}
	}
	if connects != 1 {
		c.report(RuleMCPModuleEffect, m, jsmod.Pos{}, "connects the server %d times; exactly once: await %s.connect(new StdioServerTransport())", connects, a.server)
	}
}

// connect reports whether e is server.connect(new StdioServerTransport()).
func (c *checker) connect(a *adapterModule, e js.IExpr) bool {
	call, ok := jsmod.Unparen(e).(*js.CallExpr)
	if !ok || len(call.Args.List) != 1 {
		return false
	}
	if p, _ := path(call.X); a.server == "" || p != a.server+".connect" {
		return false
	}
	n, ok := jsmod.Unparen(call.Args.List[0].Value).(*js.NewExpr)
	return ok && lastName(n.X) == "StdioServerTransport" && (n.Args == nil || len(n.Args.List) == 0)
}

// effects reports external-effect calls and Canonical Function calls under
// n, which runs at start-up or in a helper.
func (c *checker) effects(a *adapterModule, n js.INode) {
	c.effectsOutside(a.m, n, RuleMCPModuleEffect, "outside a Tool callback", nil)
}

// errorContract: the reviewed normalizer produces {code, message, details,
// retryable}, which the callbacks project unchanged, so each error-contract
// path must name exactly that member.
func (c *checker) errorContract(m *jsmod.Module) {
	for _, cf := range c.f.caps {
		ec := &cf.cap.ErrorContract
		for _, p := range []struct {
			name string
			path []string
			want string
		}{
			{"codePath", ec.CodePath, "code"},
			{"messagePath", ec.MessagePath, "message"},
			{"detailsPath", ec.DetailsPath, "details"},
			{"retryabilityPath", ec.RetryabilityPath, "retryable"},
		} {
			if p.path != nil && !slices.Equal(p.path, []string{p.want}) {
				c.report(RuleMCPErrorContract, m, jsmod.Pos{}, "capability %s: errorContract.%s is %s, but the structured Tool error carries it at %s",
					cf.cap.ID, p.name, strings.Join(p.path, "."), p.want)
			}
		}
	}
}
