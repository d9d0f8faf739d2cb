package strictjs

import (
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/jsmod"
	"github.com/tdewolff/parse/v2/js"
)

// effectfulBuiltins are the node: modules that reach files, processes,
// sockets, code loading or workers; a Function core may import none of
// them (the prefix "node:" omitted).
var effectfulBuiltins = []string{
	"child_process", "cluster", "dgram", "dns", "dns/promises", "fs", "fs/promises", "http", "http2", "https",
	"inspector", "inspector/promises", "module", "net", "readline", "readline/promises", "repl", "tls", "vm",
	"wasi", "worker_threads",
}

// guardImport is how the Function core imports the workflow guard.
const guardImport = "../portable-workflow-guard.mjs"

// function is an exported Function of the core: its name and its
// parameters and body.
type function struct {
	name   string
	params js.Params
	body   *js.BlockStmt
	node   js.INode
}

// core applies the Function core rules.
func (c *checker) core(m *jsmod.Module) {
	c.coreImports(m)
	c.dispatcherImports(m)
	fns := c.coreExports(m)
	// A guarded write that hands context.dispatch itself to the guard
	// leaves its requests to the Host's dispatcher: its URLs need not
	// appear in the core.
	var hostSent []string
	for _, fn := range fns {
		if cf := c.f.byExport(fn.name); cf.workflowID != "" && hostDispatch(fn) {
			for _, s := range cf.cap.Implementation.Steps {
				hostSent = append(hostSent, s.URL)
			}
		}
	}
	c.coreURLs(m, hostSent)
	c.coreModuleEffects(m, fns)
	c.coreAliases(m)
	c.dispatcherUses(m, fns)
	c.ownGuards(m)
	for _, fn := range fns {
		cf := c.f.byExport(fn.name)
		c.reassigned(m, fn.body, paramNames(fn.params))
		if cf.http {
			if cf.workflowID != "" {
				c.guarded(m, fn, cf)
			}
			continue
		}
		jsmod.Inspect(fn.body, func(n js.INode) bool {
			switch n := n.(type) {
			case *js.CallExpr:
				if networkCall(n) || lastName(n.X) == "dispatch" || lastName(n.X) == "dispatchWithPolicy" {
					c.report(RuleCoreLocalNetwork, m, firstToken(m, n), "%s is a local Function and must not send requests", fn.name)
				}
			case *js.NewExpr:
				if networkNew(n) {
					c.report(RuleCoreLocalNetwork, m, firstToken(m, n), "%s is a local Function and must not open connections", fn.name)
				}
			}
			return true
		})
	}
}

// coreImports: node: built-ins without effects only, the default dispatcher
// when a capability sends HTTP requests, the guard when a write is guarded,
// nothing dynamic.
func (c *checker) coreImports(m *jsmod.Module) {
	for _, imp := range m.Imports() {
		spec := imp.Specifier
		switch {
		case imp.Dynamic():
			c.report(RuleCoreImport, m, imp.Pos, "dynamic import() is not allowed in the Function core")
		case spec == dispatcherImport:
			if imp.Kind != jsmod.StaticImport {
				c.report(RuleCoreImport, m, imp.Pos, "%s is imported, not re-exported: the Function core exports its Functions only", spec)
			}
			// The names are dispatcherImports' to judge.
		case spec == guardImport:
			if !c.f.guarded {
				c.report(RuleCoreImport, m, imp.Pos, "imports %s, but no write of the contract is guarded by a workflow", spec)
			}
		case !strings.HasPrefix(spec, "node:"):
			c.report(RuleCoreImport, m, imp.Pos, "imports %q: the Function core may import only node: built-ins, and must not depend on packages or other files", spec)
		case slices.Contains(effectfulBuiltins, strings.TrimPrefix(spec, "node:")):
			c.report(RuleCoreImport, m, imp.Pos, "imports %s, which reaches files, processes, sockets or code loading; business I/O goes through context.dispatch", spec)
		}
	}
}

// coreExports finds every Canonical export as an async function, reporting
// those missing.
func (c *checker) coreExports(m *jsmod.Module) []function {
	decls := map[string]function{}  // top-level async functions and const-bound async functions, by name
	exported := map[string]string{} // exported name -> local name
	add := func(name string, e js.IExpr) {
		switch e := jsmod.Unparen(e).(type) {
		case *js.FuncDecl:
			if e.Async && !e.Generator {
				decls[name] = function{name: name, params: e.Params, body: &e.Body, node: e}
			}
		case *js.ArrowFunc:
			if e.Async {
				decls[name] = function{name: name, params: e.Params, body: &e.Body, node: e}
			}
		}
	}
	var declare func(stmt js.IStmt, export bool)
	declare = func(stmt js.IStmt, export bool) {
		switch s := stmt.(type) {
		case *js.FuncDecl:
			if s.Name != nil {
				add(string(s.Name.Data), s)
				if export {
					exported[string(s.Name.Data)] = string(s.Name.Data)
				}
			}
		case *js.VarDecl:
			for _, el := range s.List {
				if v, ok := el.Binding.(*js.Var); ok && el.Default != nil && s.TokenType == js.ConstToken {
					add(string(v.Data), el.Default)
					if export {
						exported[string(v.Data)] = string(v.Data)
					}
				}
			}
		case *js.ExportStmt:
			if s.Module != nil || s.Default {
				return
			}
			if s.Decl != nil {
				if d, ok := s.Decl.(js.IStmt); ok {
					declare(d, true)
				}
				return
			}
			for _, a := range s.List {
				local, name := string(a.Binding), string(a.Binding)
				if a.Name != nil {
					local = string(a.Name)
				}
				exported[name] = local
			}
		}
	}
	for _, stmt := range m.AST().BlockStmt.List {
		declare(stmt, false)
	}
	var fns []function
	for _, cf := range c.f.caps {
		name := cf.cap.FunctionExport
		fn, ok := decls[exported[name]]
		if _, isExported := exported[name]; !isExported || !ok {
			c.report(RuleCoreExport, m, jsmod.Pos{}, "capability %s needs export async function %s(input, context)", cf.cap.ID, name)
			continue
		}
		fn.name = name
		fns = append(fns, fn)
	}
	return fns
}

// placeholderRE matches a {name} placeholder of a URL template.
var placeholderRE = regexp.MustCompile(`\{[^{}/?#]*\}`)

// coreURLs: every http(s) literal is a step URL (or a value a schema
// allows), every step URL appears, every origin is allowed, every request
// goes out to a step URL; and an HTTP core compares exact statuses and
// never reads .ok. One walk serves both.
func (c *checker) coreURLs(m *jsmod.Module, hostSent []string) {
	seen := map[string]bool{}
	status := false
	literals := func(tok []byte, s string) {
		if !isHTTPURL(s) {
			return
		}
		seen[s] = true
		at := m.Position(tok)
		switch {
		case slices.Contains(c.f.urls, s):
			if o, ok := origin(s); ok && c.f.origins != nil && !slices.Contains(c.f.origins, o) {
				c.report(RuleCoreURL, m, at, "the origin of %s is not in allowedRuntimeOrigins", s)
			}
		case slices.Contains(c.f.schemaStrings, s):
		default:
			c.report(RuleCoreURL, m, at, "%s is not a step URL of the contract", s)
		}
	}
	jsmod.Inspect(m.AST(), func(n js.INode) bool {
		switch n := n.(type) {
		case *js.LiteralExpr:
			if n.TokenType == js.StringToken {
				if s, ok := jsmod.StringValue(n.Data); ok {
					literals(n.Data, s)
				}
			}
		case *js.TemplateExpr:
			if len(n.List) == 0 {
				if s, ok := jsmod.TemplateValue(n.Tail); ok {
					literals(n.Tail, s)
				}
			} else if text := templateText(n); isHTTPURL(text) && !c.templateURL(n) {
				c.report(RuleCoreURL, m, m.Position(n.List[0].Value), "the URL template %s does not follow a step URL of the contract", text)
			}
		case *js.CallExpr:
			if (networkCall(n) || lastName(n.X) == "dispatch") && !c.requestURL(n) {
				c.report(RuleCoreURL, m, firstToken(m, n), "a request must go to one of the contract's step URLs, written as its literal")
			}
			if ix, ok := jsmod.Unparen(n.X).(*js.IndexExpr); ok {
				if name, constant := str(ix.Y); constant && (slices.Contains(networkNames, name) || name == "dispatch") {
					c.report(RuleCoreURL, m, firstToken(m, n), "%s is called through a computed member; call it by name", name)
				}
			}
		case *js.NewExpr:
			if networkNew(n) {
				c.report(RuleCoreURL, m, firstToken(m, n), "the Function core must not open %s connections; requests go through context.dispatch", lastName(n.X))
			}
		case *js.DotExpr:
			if lit, ok := jsmod.Literal(n.Y); ok && c.f.http {
				switch string(lit.Data) {
				case "ok":
					c.report(RuleCoreStatus, m, m.Position(lit.Data), "reads .ok, which accepts any 2xx; compare the response status with the contract's successStatusCodes")
				case "status":
					status = true
				}
			}
		}
		return true
	})
	if c.f.http && !status {
		c.report(RuleCoreStatus, m, jsmod.Pos{}, "never reads a response's .status; the contract accepts exact status codes")
	}
	for _, u := range c.f.urls {
		if !seen[u] && !slices.Contains(hostSent, u) && !c.templateSeen(m, u) {
			c.report(RuleCoreURL, m, jsmod.Pos{}, "the contract's step URL %s appears nowhere in the Function core", u)
		}
	}
}

// hostDispatch reports whether a Function ends by handing context.dispatch
// itself to the workflow guard.
func hostDispatch(fn function) bool {
	stmts := fn.body.List
	if len(stmts) == 0 {
		return false
	}
	ret, ok := stmts[len(stmts)-1].(*js.ReturnStmt)
	if !ok || ret.Value == nil {
		return false
	}
	call, ok := jsmod.Unparen(ret.Value).(*js.CallExpr)
	if !ok || lastName(call.X) != "dispatchWithPolicy" || len(call.Args.List) != 2 {
		return false
	}
	p, _ := path(call.Args.List[1].Value)
	return p == "context.dispatch"
}

// requestURL reports whether the first argument of a request is a step
// URL: its literal, a template with the URL's text around substitutions in
// place of its {placeholders}, or a call expanding its literal.
func (c *checker) requestURL(call *js.CallExpr) bool {
	if len(call.Args.List) == 0 || call.Args.List[0].Rest {
		return false
	}
	arg := jsmod.Unparen(call.Args.List[0].Value)
	if s, ok := str(arg); ok {
		return slices.Contains(c.f.urls, s)
	}
	switch a := arg.(type) {
	case *js.TemplateExpr:
		return c.templateURL(a)
	case *js.CallExpr:
		if len(a.Args.List) > 0 {
			if s, ok := str(a.Args.List[0].Value); ok {
				return slices.Contains(c.f.urls, s)
			}
		}
	}
	return false
}

// templateURL reports whether a template literal with substitutions is a
// step URL with its {placeholders} substituted.
func (c *checker) templateURL(t *js.TemplateExpr) bool {
	if t.Tag != nil {
		return false
	}
	var parts []string
	for _, p := range t.List {
		parts = append(parts, templatePart(p.Value))
	}
	parts = append(parts, templatePart(t.Tail))
	for _, u := range c.f.urls {
		if slices.Equal(placeholderRE.Split(u, -1), parts) {
			return true
		}
	}
	return false
}

// templateSeen reports whether the step URL u appears as a template with
// its placeholders substituted.
func (c *checker) templateSeen(m *jsmod.Module, u string) bool {
	found := false
	jsmod.Inspect(m.AST(), func(n js.INode) bool {
		if t, ok := n.(*js.TemplateExpr); ok && len(t.List) > 0 {
			var parts []string
			for _, p := range t.List {
				parts = append(parts, templatePart(p.Value))
			}
			parts = append(parts, templatePart(t.Tail))
			found = found || slices.Equal(placeholderRE.Split(u, -1), parts)
		}
		return !found
	})
	return found
}

// templatePart returns the text of a template token without its delimiters
// (` … ${, } … ${, } … `).
func templatePart(tok []byte) string {
	s := string(tok)
	s = strings.TrimPrefix(strings.TrimPrefix(s, "`"), "}")
	return strings.TrimSuffix(strings.TrimSuffix(s, "${"), "`")
}

func templateText(t *js.TemplateExpr) string {
	var b strings.Builder
	for _, p := range t.List {
		b.WriteString(templatePart(p.Value))
		b.WriteString("{}")
	}
	b.WriteString(templatePart(t.Tail))
	return b.String()
}

// coreModuleEffects: outside the exported Functions nothing acts and no
// Canonical Function is called.
func (c *checker) coreModuleEffects(m *jsmod.Module, fns []function) {
	c.effectsOutside(m, m.AST(), RuleCoreModuleEffect, "outside the exported Functions", func(n js.INode) bool {
		return slices.ContainsFunc(fns, func(fn function) bool { return same(fn.node, n) })
	})
}

// effectsOutside reports what must not run outside the places that may have
// effects, as rule: calls with an external effect, calls of a Canonical
// Function and network connections under n, except in the subtrees skip
// (when not nil) accepts. outside ends each message ("outside a Tool
// callback").
func (c *checker) effectsOutside(m *jsmod.Module, n js.INode, rule *diag.Rule, outside string, skip func(js.INode) bool) {
	jsmod.Inspect(n, func(n js.INode) bool {
		if skip != nil && skip(n) {
			return false
		}
		switch n := n.(type) {
		case *js.CallExpr:
			if what := effectCall(n); what != "" {
				c.report(rule, m, firstToken(m, n), "%s %s", what, outside)
			}
			if name, ok := ident(n.X); ok && c.f.isExport(name) {
				c.report(rule, m, firstToken(m, n), "calls the Canonical Function %s %s", name, outside)
			}
		case *js.NewExpr:
			if networkNew(n) {
				c.report(rule, m, firstToken(m, n), "opens a %s connection %s", lastName(n.X), outside)
			}
		}
		return true
	})
}

// ownGuards: the guard and the protected state come from the trusted
// runtime context of each call. A Function core that constructs a
// PortableWorkflowGuard, or keeps a protected state at its top level, would
// hold protection the Host does not control.
func (c *checker) ownGuards(m *jsmod.Module) {
	jsmod.Inspect(m.AST(), func(n js.INode) bool {
		if x, ok := n.(*js.NewExpr); ok && lastName(x.X) == "PortableWorkflowGuard" {
			c.report(RuleGuardUse, m, firstToken(m, x), "constructs a PortableWorkflowGuard; the guard comes from the trusted runtime context of each call")
		}
		return true
	})
	for _, stmt := range m.AST().BlockStmt.List {
		if e, ok := stmt.(*js.ExportStmt); ok && e.Decl != nil {
			stmt, _ = e.Decl.(js.IStmt)
		}
		d, ok := stmt.(*js.VarDecl)
		if !ok {
			continue
		}
		for _, el := range d.List {
			if call, ok := jsmod.Unparen(el.Default).(*js.CallExpr); ok && lastName(call.X) == "protectedWorkflowStateFor" {
				c.report(RuleGuardUse, m, firstToken(m, call), "keeps a protected workflow state at the module's top level; read it from each call's context")
			}
		}
	}
}

// coreAliases reports functions with effects bound to other names: a
// request function under RuleCoreURL, any other effect under
// RuleCoreModuleEffect.
func (c *checker) coreAliases(m *jsmod.Module) {
	aliases(m.AST(), func(name string, at js.INode) {
		if slices.Contains(networkNames, name) || name == "dispatch" {
			c.report(RuleCoreURL, m, firstToken(m, at), "%s is aliased; call it by name so that every request can be checked", name)
		} else {
			c.report(RuleCoreModuleEffect, m, firstToken(m, at), "%s is aliased; effects must be called by name where they can be checked", name)
		}
	})
}

// reassigned reports assignments to the parameters named in body.
func (c *checker) reassigned(m *jsmod.Module, body js.INode, params []string) {
	jsmod.Inspect(body, func(n js.INode) bool {
		var target js.IExpr
		switch n := n.(type) {
		case *js.BinaryExpr:
			if isAssign(n.Op) {
				target = n.X
			}
		case *js.UnaryExpr:
			switch n.Op {
			case js.PreIncrToken, js.PreDecrToken, js.PostIncrToken, js.PostDecrToken:
				target = n.X
			}
		}
		if name, ok := ident(target); ok && slices.Contains(params, name) {
			c.report(RuleParamReassigned, m, firstToken(m, n), "assigns to the parameter %s; the Function must act on what it was given", name)
		}
		return true
	})
}

func isAssign(op js.TokenType) bool {
	switch op {
	case js.EqToken, js.AddEqToken, js.SubEqToken, js.MulEqToken, js.DivEqToken, js.ModEqToken, js.ExpEqToken,
		js.LtLtEqToken, js.GtGtEqToken, js.GtGtGtEqToken, js.BitAndEqToken, js.BitOrEqToken, js.BitXorEqToken,
		js.AndEqToken, js.OrEqToken, js.NullishEqToken:
		return true
	}
	return false
}

// paramNames returns the names of plain parameters.
func paramNames(p js.Params) []string {
	var out []string
	for _, el := range p.List {
		if v, ok := el.Binding.(*js.Var); ok {
			out = append(out, string(v.Data))
		}
	}
	return out
}

// origin returns scheme://host[:port] of an http(s) URL.
func origin(raw string) (string, bool) {
	u, err := url.Parse(placeholderRE.ReplaceAllString(raw, "x"))
	if err != nil || u.Host == "" {
		return "", false
	}
	return strings.ToLower(u.Scheme) + "://" + u.Host, true
}
