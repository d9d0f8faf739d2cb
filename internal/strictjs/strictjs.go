// Package strictjs applies the runtime rules of a strict-export-v1 package
// to its JavaScript: the Function core (function-core/index.mjs), the MCP
// adapter (mcp-tool/index.mjs), the self-contained MCP runtime
// (mcp-tool/runtime.mjs) and the reviewed assets they import. Every rule
// reads the syntax tree internal/jsmod parses (a real parser, never regular
// expressions over the text) and compares what the code says with the
// Canonical Contract and its derived schema contract.
//
//	core, _ := derive.Load(dir)             // the Portable Core
//	in := core.Inputs
//	pkg, _, _ := pkgdir.Open(dir)
//	findings := strictjs.Check(pkg, in)
//
// The rules accept the code code2skill compile writes and the reasonable
// hand-written variants of it: either quote style and template literals
// without substitutions for strings; any member order in object literals;
// `export async function f`, `export const f = async (…) => …` or an export
// list naming such a declaration; async arrow or function callbacks; a
// dry-run guard written `process.env.V === "1"`, `process.env["V"] === '1'`
// or `"1" === process.env.V`; any name for the McpServer instance.
//
// # Schemas in registrations
//
// The textual rule of the established validator wants inputSchema and
// outputSchema to be raw JSON Schema object literals, which SDK 1.32.2
// refuses at registration ("must be a Zod schema or raw shape"). These
// forms are accepted instead, and each must be inert:
//
//   - a JSON literal: an object literal of strings, numbers, booleans, null,
//     arrays and objects with plain keys;
//   - a call of a helper the adapter declares at its top level (a function
//     declaration or a const-bound function) with one JSON literal
//     argument, as compile writes: inputSchema({…}), outputSchema({…});
//   - a zod expression: a call chain rooted at the imported z whose
//     arguments are JSON literals, zod expressions, or object and array
//     literals of those (z.fromJSONSchema({…}).meta({…}),
//     z.object({ q: z.string() }).strict()).
//
// Every JSON literal that is the value itself, the helper's argument, or an
// argument of a call in the zod chain's own spine must equal the contract's
// inputSchema or outputSchema; a zod builder without one is left to the
// detached probe, which compares what tools/list shows with the contract.
//
// # The default dispatcher
//
// A Function sends its requests through the dispatcher of its trusted
// runtime context, and without one through dispatchHttp, the reviewed
// default of portable-http-dispatch.mjs (byte-identical to the asset). The
// Function core may import exactly { dispatchHttp } from it, under that
// name, when a capability sends HTTP requests. dispatchHttp counts as a
// network call: called, it must be given a step URL like any request. Its
// only other use is the fallback of an HTTP Function's choice of
// dispatcher, bound to a const named dispatch so that every request still
// goes through a call the URL rules check by name:
//
//	const dispatch = typeof context?.dispatch === "function" ? context.dispatch : dispatchHttp;
//
// (context. for context?., and the comparison either way round). Any other
// reference to dispatchHttp (an alias, an argument, a choice under another
// name or outside a Function) is reported, as is an alias of any network
// call made through a conditional or logical expression.
//
// # The guarded write
//
// A deterministic-workflow write must hand its dispatch to the guard as
// portable-workflow-guard.mjs documents: const state =
// protectedWorkflowStateFor(context, "<workflowId>"), then return
// state.guard.dispatchWithPolicy({workflowId: "<workflowId>", input,
// runtimeContext: context, operationKey: state.operationKey}, dispatch) as
// the Function's last statement, with nothing sent before. The dispatch may
// be context.dispatch itself (the Host's dispatcher performs the write from
// the checked input) or a function of the guard's checked input that sends
// the contract's requests; it must not read the unchecked input, and no
// request of the Function may go out anywhere else.
//
// # What Check assumes
//
// Check judges the JavaScript only. It reports a missing or unreadable file
// under STRICT_JS_FILE and a module node would refuse under JS_SYNTAX, and
// otherwise expects the contract to have passed its own checks (derive's
// and the contract rules): it compares with the contract, it does not judge
// it. A mcp-tool/runtime.mjs byte-identical to the runtime code2skill ships
// is known to pass (its tests check that) and is not parsed again.
package strictjs

import (
	"errors"
	"io/fs"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/assets"
	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/jsmod"
	"github.com/code2skill/code2skill/internal/pkgdir"
)

// The files the rules read, relative to the package root.
const (
	FunctionCoreFile = "function-core/index.mjs"
	AdapterFile      = "mcp-tool/index.mjs"
	RuntimeFile      = "mcp-tool/runtime.mjs"
	NormalizerFile   = "portable-error-normalizer.mjs"
	DispatcherFile   = "portable-http-dispatch.mjs"
	GuardFile        = "portable-workflow-guard.mjs"
)

// Check applies the runtime rules to the JavaScript of the strict package
// pkg, whose decoded Portable Core is in (the contract is required, the
// export profile optional: it names the dry-run variable and the allowed
// origins). It returns every finding at once.
func Check(pkg *pkgdir.Package, in *derive.Inputs) *diag.List {
	l := &diag.List{}
	if pkg == nil || in == nil || in.Contract == nil {
		return l
	}
	f := newFacts(in)
	c := &checker{f: f, list: l}
	core := c.module(pkg, FunctionCoreFile)
	adapter := c.module(pkg, AdapterFile)
	normalizer, _ := c.read(pkg, NormalizerFile)
	if normalizer != nil && !assets.ErrorNormalizer.Matches(normalizer) {
		l.Add(RuleNormalizerAsset.New(NormalizerFile, "differs from the reviewed portable-error-normalizer.mjs (SHA-256 %s); copy the asset unchanged", assets.ErrorNormalizer.SHA256()))
	}
	if f.guarded {
		c.asset(pkg, assets.WorkflowGuard, RuleGuardAsset, "a write is guarded by a workflow")
	}
	if f.http {
		c.asset(pkg, assets.HTTPDispatch, RuleDispatcherAsset, "a capability sends HTTP requests")
	}
	if core != nil {
		c.core(core)
	}
	if adapter != nil {
		c.adapter(adapter)
	}
	if runtime, ok := c.read(pkg, RuntimeFile); ok && !assets.MCPRuntime.Matches(runtime) {
		if m, ds := jsmod.Parse(RuntimeFile, runtime); m == nil {
			l.Add(ds...)
		} else {
			c.runtime(m)
		}
	}
	return l
}

// checker carries what every rule needs.
type checker struct {
	f    *facts
	list *diag.List
}

// asset judges the package's copy of a reviewed asset it needs (why): it
// must be the asset byte for byte. Presence is the required-files gate's
// to report; these rules judge the content of what is there.
func (c *checker) asset(pkg *pkgdir.Package, a assets.Asset, rule *diag.Rule, why string) {
	data, err := pkg.ReadFile(a.Name())
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		c.list.Add(rule.New(a.Name(), "%s, and %s cannot be read: %v", why, a.Name(), unwrap(err)))
	case !a.Matches(data):
		c.list.Add(rule.New(a.Name(), "differs from the reviewed %s (SHA-256 %s); copy the asset unchanged", a.Name(), a.SHA256()))
	}
}

// read reads a file of the package, reporting it when it cannot be read.
func (c *checker) read(pkg *pkgdir.Package, rel string) ([]byte, bool) {
	data, err := pkg.ReadFile(rel)
	if err != nil {
		what := "cannot be read"
		if errors.Is(err, fs.ErrNotExist) {
			what = "is missing"
		}
		c.list.Add(RuleFile.New(rel, "%s: a strict package's runtime needs it (%v)", what, unwrap(err)))
		return nil, false
	}
	return data, true
}

// module reads and parses a module, reporting why when it cannot.
func (c *checker) module(pkg *pkgdir.Package, rel string) *jsmod.Module {
	data, ok := c.read(pkg, rel)
	if !ok {
		return nil
	}
	m, ds := jsmod.Parse(rel, data)
	c.list.Add(ds...)
	return m
}

func unwrap(err error) error {
	if u := errors.Unwrap(err); u != nil {
		return u
	}
	return err
}

// report adds a finding of rule about a node of module m.
func (c *checker) report(rule *diag.Rule, m *jsmod.Module, at jsmod.Pos, format string, args ...any) {
	d := rule.New(m.File, format, args...)
	if at.IsValid() {
		d = d.At(at.Line, at.Column)
	}
	c.list.Add(d)
}

// facts are what the contract says the runtime must be.
type facts struct {
	contract *contract.Contract
	caps     []*capFacts // contract order
	dryRun   string
	origins  []string // allowed runtime origins; nil without an export profile
	urls     []string // the step URLs, in contract order, each once
	// schemaStrings are the strings the schemas allow as values (enum and
	// const): URLs among them may appear in the Function core.
	schemaStrings []string
	guarded       bool // some write dispatches through the workflow guard
	http          bool // some capability sends HTTP requests
	// prose judges the Tools' titles and descriptions, in the export
	// profile's documentation language.
	prose *proseRules
}

// capFacts is what the contract says about one capability.
type capFacts struct {
	cap             *contract.Capability
	input, output   canonjson.Value
	annotations     canonjson.Value
	policy, summary canonjson.Value
	workflowID      string // deterministic-workflow writes
	http            bool
}

func newFacts(in *derive.Inputs) *facts {
	c := in.Contract
	f := &facts{contract: c, dryRun: in.Export.DryRunVariable(), prose: proseOf(in.Export.Language())}
	if e := in.Export; e != nil {
		f.origins = append([]string{}, e.AllowedRuntimeOrigins...)
	}
	entries, _ := member(derive.SchemaContract(c), "capabilities").(canonjson.Array)
	for i := range c.Capabilities {
		cp := &c.Capabilities[i]
		cf := &capFacts{cap: cp, http: cp.Implementation.Kind == contract.ImplementationHTTP}
		if i < len(entries) {
			e, _ := entries[i].(*canonjson.Object)
			cf.input, cf.output = member(e, "inputSchema"), member(e, "outputSchema")
			cf.annotations, cf.policy, cf.summary = member(e, "annotations"), member(e, "operationPolicy"), member(e, "operationSummary")
		}
		if p := cp.RuntimeProtection; p != nil && p.Mode == contract.ProtectionDeterministicWorkflow && p.WorkflowID != "" {
			cf.workflowID = p.WorkflowID
			f.guarded = true
		}
		f.http = f.http || cf.http
		for _, s := range cp.Implementation.Steps {
			if !slices.Contains(f.urls, s.URL) {
				f.urls = append(f.urls, s.URL)
			}
		}
		collectStrings(cf.input, &f.schemaStrings)
		collectStrings(cf.output, &f.schemaStrings)
		f.caps = append(f.caps, cf)
	}
	return f
}

// collectStrings adds the strings that enum and const members of a schema
// allow.
func collectStrings(v canonjson.Value, out *[]string) {
	switch v := v.(type) {
	case *canonjson.Object:
		for k, e := range v.All() {
			if k == "enum" || k == "const" {
				addStrings(e, out)
			}
			collectStrings(e, out)
		}
	case canonjson.Array:
		for _, e := range v {
			collectStrings(e, out)
		}
	}
}

func addStrings(v canonjson.Value, out *[]string) {
	switch v := v.(type) {
	case canonjson.String:
		*out = append(*out, string(v))
	case canonjson.Array:
		for _, e := range v {
			addStrings(e, out)
		}
	}
}

func (f *facts) byExport(name string) *capFacts {
	for _, c := range f.caps {
		if c.cap.FunctionExport == name {
			return c
		}
	}
	return nil
}

func (f *facts) byTool(name string) *capFacts {
	for _, c := range f.caps {
		if c.cap.ToolName == name {
			return c
		}
	}
	return nil
}

// isExport reports whether name is a Canonical Function export.
func (f *facts) isExport(name string) bool { return f.byExport(name) != nil }

func member(o *canonjson.Object, key string) canonjson.Value {
	v, _ := o.Get(key)
	return v
}

// isHTTPURL reports whether s starts with an http:// or https:// scheme.
func isHTTPURL(s string) bool {
	l := strings.ToLower(s)
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://")
}
