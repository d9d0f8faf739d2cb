package probe

import (
	"errors"
	"io/fs"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/mcpcheck"
	"github.com/code2skill/code2skill/internal/pkgdir"
	"github.com/code2skill/code2skill/internal/reach"
)

// The files a strict package's expectations come from, as derive writes
// them.
const (
	bundleFile   = derive.BundleFile
	contractFile = derive.MCPSchemaFile
	profileFile  = contract.ExportProfileFile
)

// hintNames are the four annotations a contract fixes for every tool.
var hintNames = []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}

// expectations is what a package says its server must do.
type expectations struct {
	strict          bool
	protocolVersion string
	dryRunVariable  string          // set to 1 for the dry-run cases
	tools           []*expectedTool // contract order; nil for core packages
	// httpTools are a core package's Tools that pass an HTTP answer
	// through (httptools.go).
	httpTools map[string]bool
	// config is the environment a core package's dry-run session gets
	// for what the user did not give; nil for a strict package.
	config *reach.Setup
}

// expectedTool is one tool of a strict package's schema contract.
type expectedTool struct {
	name        string
	pointer     string // of its entry in mcp-tool/schema-contract.json
	input       *canonjson.Object
	output      *canonjson.Object
	annotations *canonjson.Object
	errors      errorContract
	policy      canonjson.Value
	summary     canonjson.Value
	rules       *canonjson.Object // conditionalRules; nil when none
	write       bool
}

// errorContract says where a Tool error carries its parts, as paths of
// member names inside structuredContent.
type errorContract struct {
	code, message, details []string
	retryability           []string // nil when the contract declares none
}

func (e *expectations) tool(name string) *expectedTool {
	i := slices.IndexFunc(e.tools, func(t *expectedTool) bool { return t.name == name })
	if i < 0 {
		return nil
	}
	return e.tools[i]
}

// coreExpectations are those of a core-export-v1 package: the protocol
// version, tools checked for shape rather than against a contract, and the
// dry-run variable the example and the scaffold honour.
func coreExpectations() *expectations {
	return &expectations{protocolVersion: mcpcheck.DefaultProtocolVersion, dryRunVariable: contract.DefaultDryRunVariable}
}

// loadStrict reads a strict package's expectations. Problems are findings;
// the result is nil when the probe cannot know what to expect. A package
// without its derived views gets them from its Portable Core, derived in
// process. core is the package's Portable Core, or nil to load it here.
func loadStrict(pkg *pkgdir.Package, core *derive.Core, l *diag.List) *expectations {
	if core == nil {
		core, _ = derive.Load(pkg.Dir())
	}
	rd := &docReader{pkg: pkg, diags: l, core: core}
	if !pkg.Has(bundleFile) || !pkg.Has(contractFile) {
		if !pkg.Has(contract.ContractFile) {
			l.Add(RuleExpectations.New(contractFile, "%s and %s come from code2skill derive, and the package has neither them nor the %s they are derived from",
				bundleFile, contractFile, contract.ContractFile))
			return nil
		}
		if rd.views = derivedViews(core, l); rd.views == nil {
			return nil
		}
	}
	e := &expectations{strict: true, protocolVersion: mcpcheck.DefaultProtocolVersion, dryRunVariable: contract.DefaultDryRunVariable}

	if prof := rd.profile(); prof != nil {
		if v := prof.ProtocolVersion; v != "" {
			e.protocolVersion = v
		} else if prof.Raw.Has("protocolVersion") {
			rd.notString(profileFile, "/protocolVersion", prof.Raw.At("protocolVersion"))
		}
		switch v := prof.DryRunEnvironmentVariable; {
		case v == "" && prof.Raw.Has("dryRunEnvironmentVariable"):
			rd.notString(profileFile, "/dryRunEnvironmentVariable", prof.Raw.At("dryRunEnvironmentVariable"))
		case v != "" && !contract.ValidVariableName(v):
			rd.report(profileFile, "/dryRunEnvironmentVariable", "%q is not an environment variable name of 3-81 characters A-Z 0-9 _", v)
		default:
			e.dryRunVariable = prof.DryRunVariable()
		}
	}

	var bundleTools []string
	if bundle, ok := rd.object(bundleFile); ok {
		for i, c := range rd.objects(bundleFile, bundle, "capabilities") {
			if name, ok := rd.str(bundleFile, diag.Pointer("capabilities", i, "toolName"), field(c, "toolName")); ok {
				bundleTools = append(bundleTools, name)
			}
		}
	}

	if contract, ok := rd.object(contractFile); ok {
		for i, c := range rd.objects(contractFile, contract, "capabilities") {
			if t := rd.tool(c, diag.Pointer("capabilities", i)); t != nil {
				e.tools = append(e.tools, t)
			}
		}
	}
	if rd.failed {
		return nil
	}
	var contractTools []string
	for _, t := range e.tools {
		contractTools = append(contractTools, t.name)
	}
	if missing, extra := setDiff(bundleTools, contractTools); len(missing)+len(extra) > 0 {
		var parts []string
		if len(missing) > 0 {
			parts = append(parts, "it lacks "+quoteList(missing))
		}
		if len(extra) > 0 {
			parts = append(parts, "it adds "+quoteList(extra))
		}
		l.Add(RuleContractTools.New(contractFile, "the schema contract does not match %s: %s; run code2skill derive",
			bundleFile, strings.Join(parts, " and ")).AtPointer("/capabilities"))
		return nil
	}
	return e
}

// derivedViews returns the views the probe reads, derived in process from
// the package's Portable Core, keyed by path; nil (with the findings) when
// the inputs have errors or cannot be read.
func derivedViews(core *derive.Core, l *diag.List) map[string]*canonjson.Object {
	if err := core.Err(); err != nil {
		l.Add(RuleExpectations.New(contract.ContractFile, "cannot derive the expectations: %v", err))
		return nil
	}
	if found := core.Findings(); found.HasErrors() {
		l.Merge(found)
		l.Add(RuleExpectations.New(contract.ContractFile, "the package has no derived views and its Portable Core has errors, so the probe cannot know what to expect"))
		return nil
	}
	views := core.Views()
	return map[string]*canonjson.Object{bundleFile: views.Bundle, contractFile: views.SchemaContract}
}

// docReader reads the expectation files, reporting what is missing. views,
// when set, holds the derived views computed in process; core is the
// package's Portable Core.
type docReader struct {
	pkg    *pkgdir.Package
	diags  *diag.List
	core   *derive.Core
	views  map[string]*canonjson.Object
	failed bool
}

func (rd *docReader) report(file, pointer, format string, args ...any) {
	rd.failed = true
	rd.diags.Add(RuleExpectations.New(file, format, args...).AtPointer(pointer))
}

// read returns the bytes of an expectation file, reporting when it is
// missing or unreadable.
func (rd *docReader) read(file string) ([]byte, bool) {
	data, err := rd.pkg.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		rd.report(file, "", "%s is missing; the probe reads its expectations from it (code2skill derive writes it)", file)
		return nil, false
	}
	if err != nil {
		rd.report(file, "", "cannot read %s: %v", file, err)
		return nil, false
	}
	return data, true
}

// profile returns the export profile as the Portable Core's reader
// decoded it. It is nil, reported, when the file is missing, is not JSON
// or is not an object; the format findings that reading defers are
// check-contract's, not the probe's.
func (rd *docReader) profile() *contract.ExportProfile {
	if p := rd.core.Export; p != nil && p.Raw != nil {
		return p
	}
	rd.object(profileFile) // says why it is not JSON or not an object
	return nil
}

// object returns a file whose top level must be an object: a view derived
// in process, or the file read and decoded.
func (rd *docReader) object(file string) (*canonjson.Object, bool) {
	if view, ok := rd.views[file]; ok {
		return view, true
	}
	data, ok := rd.read(file)
	if !ok {
		return nil, false
	}
	v, err := canonjson.Decode(data)
	if err != nil {
		var se *canonjson.SyntaxError
		if errors.As(err, &se) {
			rd.failed = true
			rd.diags.Add(se.Diagnostic(file))
		}
		return nil, false
	}
	o, ok := v.(*canonjson.Object)
	if !ok {
		rd.report(file, "", "the top level of %s is %s, want an object", file, canonjson.TypeName(v))
	}
	return o, ok
}

func (rd *docReader) str(file, pointer string, v canonjson.Value) (string, bool) {
	s, ok := v.(canonjson.String)
	if !ok || s == "" {
		rd.notString(file, pointer, v)
		return "", false
	}
	return string(s), true
}

// notString reports v, which should have been a non-empty string.
func (rd *docReader) notString(file, pointer string, v canonjson.Value) {
	rd.report(file, pointer, "want a non-empty string, found %s", canonjson.TypeName(v))
}

// list returns the objects of a non-empty array member of o.
func (rd *docReader) objects(file string, o *canonjson.Object, key string) []*canonjson.Object {
	v, _ := o.Get(key)
	arr, ok := v.(canonjson.Array)
	if !ok || len(arr) == 0 {
		rd.report(file, diag.Pointer(key), "want a non-empty array of capabilities, found %s", canonjson.TypeName(v))
		return nil
	}
	out := make([]*canonjson.Object, len(arr))
	for i, e := range arr {
		if out[i], ok = e.(*canonjson.Object); !ok {
			rd.report(file, diag.Pointer(key, i), "want an object, found %s", canonjson.TypeName(e))
			out[i] = canonjson.NewObject()
		}
	}
	return out
}

// tool reads one capability of the schema contract.
func (rd *docReader) tool(c *canonjson.Object, at string) *expectedTool {
	const file = contractFile
	name, ok := rd.str(file, at+"/toolName", field(c, "toolName"))
	if !ok {
		return nil
	}
	t := &expectedTool{name: name, pointer: at}
	schema := func(key string) *canonjson.Object {
		o, ok := field(c, key).(*canonjson.Object)
		if !ok {
			rd.report(file, at+diag.Pointer(key), "tool %q: want a JSON Schema object, found %s", name, canonjson.TypeName(field(c, key)))
		}
		return o
	}
	t.input, t.output = schema("inputSchema"), schema("outputSchema")
	if t.annotations = schema("annotations"); t.annotations != nil {
		for _, h := range hintNames {
			if _, ok := field(t.annotations, h).(canonjson.Bool); !ok {
				rd.report(file, at+diag.Pointer("annotations", h), "tool %q: want a boolean %s", name, h)
			}
		}
	}
	if ec := schema("errorContract"); ec != nil {
		path := func(key string, required bool) []string {
			v, present := ec.Get(key)
			if _, null := v.(canonjson.Null); !required && (!present || null) {
				return nil // an optional path may be absent or null
			}
			arr, ok := v.(canonjson.Array)
			var out []string
			for _, e := range arr {
				if s, isStr := e.(canonjson.String); isStr && s != "" {
					out = append(out, string(s))
				} else {
					ok = false
				}
			}
			if !ok || len(out) == 0 {
				rd.report(file, at+diag.Pointer("errorContract", key), "tool %q: want a non-empty array of member names", name)
			}
			return out
		}
		t.errors = errorContract{
			code:         path("codePath", true),
			message:      path("messagePath", true),
			details:      path("detailsPath", true),
			retryability: path("retryabilityPath", false),
		}
	}
	t.policy, t.summary = field(c, "operationPolicy"), field(c, "operationSummary")
	t.rules = conditionalRules(c)
	policy, ok := t.policy.(*canonjson.Object)
	if !ok {
		rd.report(file, at+"/operationPolicy", "tool %q: want an object, found %s", name, canonjson.TypeName(t.policy))
	} else if side, ok := field(policy, "sideEffect").(canonjson.String); ok {
		t.write = side != "read"
	} else {
		rd.report(file, at+"/operationPolicy/sideEffect", "tool %q: want a string", name)
	}
	if _, ok := t.summary.(*canonjson.Object); !ok {
		rd.report(file, at+"/operationSummary", "tool %q: want an object, found %s", name, canonjson.TypeName(t.summary))
	}
	return t
}

// field returns a member of o, or nil.
func field(o *canonjson.Object, key string) canonjson.Value {
	if o == nil {
		return nil
	}
	v, _ := o.Get(key)
	return v
}

// setDiff returns the names of want missing from got and the names of got
// not in want, each sorted.
func setDiff(want, got []string) (missing, extra []string) {
	for _, w := range want {
		if !slices.Contains(got, w) {
			missing = append(missing, w)
		}
	}
	for _, g := range got {
		if !slices.Contains(want, g) {
			extra = append(extra, g)
		}
	}
	slices.Sort(missing)
	slices.Sort(extra)
	return slices.Compact(missing), slices.Compact(extra)
}

// quoteList renders names as "a", "b".
func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = `"` + n + `"`
	}
	return strings.Join(q, ", ")
}
