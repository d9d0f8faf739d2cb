package compile

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/assets"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/golden"
	"github.com/code2skill/code2skill/internal/jsmod"
)

// A package under test: where its Portable Core and its tool docs are.
type testPackage struct {
	name string // also its directory under testdata/
	core string // the directory of its four inputs
}

var (
	referencePackage = testPackage{"reference", "../contract/testdata/reference"}
	// compiledPackages compile in full.
	compiledPackages = []testPackage{
		referencePackage,
		{"synthetic/attachment", "../derive/testdata/synthetic/attachment/input"},
		{"synthetic/backend-write", "../derive/testdata/synthetic/backend-write/input"},
		{"synthetic/goals-handoffs", "../derive/testdata/synthetic/goals-handoffs/input"},
		{"synthetic/workflow-write", "../derive/testdata/synthetic/workflow-write/input"},
	}
	// readOnlyPackage has a local capability whose output is computed by
	// a formula the contract does not state: it must not compile.
	readOnlyPackage = testPackage{"synthetic/read-only", "../derive/testdata/synthetic/read-only/input"}
)

func (p testPackage) docsDir() string { return filepath.Join("testdata", filepath.FromSlash(p.name)) }

// load reads the package's inputs, failing the test on any finding: the
// fixtures are valid packages.
func load(tb testing.TB, p testPackage) *Inputs {
	tb.Helper()
	loaded, err := derive.Load(p.core)
	core, list := loaded.Inputs, loaded.Read()
	if err != nil {
		tb.Fatal(err)
	}
	list.Merge(derive.Check(core))
	docs, dl, err := ReadToolDocs(p.docsDir())
	if err != nil {
		tb.Fatal(err)
	}
	list.Merge(dl)
	if list.Len() > 0 {
		tb.Fatalf("%s: the inputs have findings: %v", p.name, list.Sorted())
	}
	return &Inputs{Core: core, ToolDocs: docs}
}

// withContract returns the reference inputs with another contract, which
// must pass derive's checks: a refusal fixture differs from a valid package
// only in what compile refuses.
func withContract(tb testing.TB, data []byte, docs ToolDocs) *Inputs {
	tb.Helper()
	in := load(tb, referencePackage)
	c, l := contract.DecodeContract(contract.ContractFile, data)
	l.Merge(derive.Check(&derive.Inputs{Contract: c, Topology: in.Core.Topology, Host: in.Core.Host, Export: in.Core.Export}))
	if l.HasErrors() {
		tb.Fatalf("the fixture contract has errors: %v", l.Sorted())
	}
	in.Core.Contract = c
	if docs != nil {
		in.ToolDocs = docs
	}
	return in
}

func file(tb testing.TB, res *Result, path string) []byte {
	tb.Helper()
	i := slices.IndexFunc(res.Files, func(f File) bool { return f.Path == path })
	if i < 0 {
		tb.Fatalf("no %s among %d files", path, len(res.Files))
	}
	return res.Files[i].Data
}

// TestGolden compiles the reference package and the synthetic ones and
// compares the generated modules with their golden files
// (CODE2SKILL_UPDATE=1 rewrites them). The copied assets must be the
// reviewed ones byte for byte, and the guard is there exactly when a write
// is guarded, the dispatcher exactly when a capability sends HTTP requests.
func TestGolden(t *testing.T) {
	for _, p := range compiledPackages {
		t.Run(p.name, func(t *testing.T) {
			res, list := Compile(load(t, p))
			if list.Len() > 0 || !res.Compiled() {
				t.Fatalf("want every capability compiled without findings, got %v %+v", list.Sorted(), res.Capabilities)
			}
			for _, c := range res.Capabilities {
				if c.Status != StatusCompiled || len(c.Reasons) > 0 {
					t.Errorf("%s: %s %v", c.CapabilityID, c.Status, c.Reasons)
				}
			}
			want := filepath.Join(p.docsDir(), "want")
			golden.Check(t, filepath.Join(want, "function-core", "index.mjs"), file(t, res, FunctionCoreFile))
			golden.Check(t, filepath.Join(want, "mcp-tool", "index.mjs"), file(t, res, AdapterFile))
			for _, a := range []assets.Asset{assets.MCPRuntime, assets.ErrorNormalizer} {
				if !a.Matches(file(t, res, a.Name())) {
					t.Errorf("%s is not the reviewed asset", a.Name())
				}
			}
			sends := slices.ContainsFunc(load(t, p).Core.Contract.Capabilities, func(c contract.Capability) bool {
				return c.Implementation.Kind == contract.ImplementationHTTP
			})
			hasDispatcher := slices.ContainsFunc(res.Files, func(f File) bool { return f.Path == DispatcherFile })
			if hasDispatcher != sends {
				t.Errorf("dispatcher copied: %v, a capability sends HTTP requests: %v", hasDispatcher, sends)
			}
			if hasDispatcher && !assets.HTTPDispatch.Matches(file(t, res, DispatcherFile)) {
				t.Error("the dispatcher is not the reviewed asset")
			}
			guarded := slices.ContainsFunc(load(t, p).Core.Contract.Capabilities, func(c contract.Capability) bool {
				return c.RuntimeProtection != nil && c.RuntimeProtection.Mode == contract.ProtectionDeterministicWorkflow
			})
			hasGuard := slices.ContainsFunc(res.Files, func(f File) bool { return f.Path == GuardFile })
			if hasGuard != guarded {
				t.Errorf("guard copied: %v, a write is guarded: %v", hasGuard, guarded)
			}
			if hasGuard && !assets.WorkflowGuard.Matches(file(t, res, GuardFile)) {
				t.Error("the guard is not the reviewed asset")
			}
		})
	}
}

// TestCompiledModulesParse checks that node would load every generated
// module: each parses as an ES module.
func TestCompiledModulesParse(t *testing.T) {
	for _, p := range compiledPackages {
		res, _ := Compile(load(t, p))
		for _, path := range []string{FunctionCoreFile, AdapterFile} {
			if _, ds := jsmod.Parse(path, file(t, res, path)); len(ds) > 0 {
				t.Errorf("%s %s: %v", p.name, path, ds)
			}
		}
	}
}

// TestDeterministic compiles the same inputs twice, decoded afresh, and
// wants the same bytes.
func TestDeterministic(t *testing.T) {
	for _, p := range compiledPackages {
		a, _ := Compile(load(t, p))
		b, _ := Compile(load(t, p))
		if len(a.Files) != len(b.Files) {
			t.Fatalf("%s: %d files, then %d", p.name, len(a.Files), len(b.Files))
		}
		for i := range a.Files {
			if a.Files[i].Path != b.Files[i].Path || !bytes.Equal(a.Files[i].Data, b.Files[i].Data) {
				t.Errorf("%s: %s differs between two compiles", p.name, a.Files[i].Path)
			}
		}
	}
}

// TestReadOnlyPackageRequiresReview: a local capability computing its
// output by a formula the contract does not state makes the whole package
// require review, and only that capability is marked.
func TestReadOnlyPackageRequiresReview(t *testing.T) {
	res, list := Compile(load(t, readOnlyPackage))
	if res.Compiled() || res.Files != nil {
		t.Fatal("a package with an uncompilable capability produced files")
	}
	if got := list.RuleIDs(); !slices.Equal(got, []string{RuleLocalNotStatic.ID}) {
		t.Fatalf("rules %v, want %s", got, RuleLocalNotStatic.ID)
	}
	d := list.Sorted()[0]
	if d.File != contract.ContractFile || d.Pointer != "/capabilities/2/outputs/0" || !strings.Contains(d.Message, `"estimate-watering"`) {
		t.Errorf("finding %v does not name the capability and its output", d)
	}
	var statuses []string
	for _, c := range res.Capabilities {
		statuses = append(statuses, c.CapabilityID+"="+c.Status)
	}
	want := []string{"list-ferns=compiled", "get-fern=compiled", "estimate-watering=requires-review"}
	if !slices.Equal(statuses, want) {
		t.Errorf("statuses %v, want %v", statuses, want)
	}
}

// TestRefusals: for every reason compile refuses, a contract (or tool docs)
// that differs from the valid reference package by that reason alone.
// Nothing is produced, and the finding names the capability and the field.
func TestRefusals(t *testing.T) {
	ref := contracttest.Reference(t, contract.ContractFile)
	patch := func(ops ...contracttest.Op) []byte { return contracttest.Patch(t, ref, ops...) }
	step := "/capabilities/3/implementation/steps/0" // save-sample-draft: PUT …/draft, body requestData
	docs := func(t *testing.T) ToolDocs { return load(t, referencePackage).ToolDocs }
	binding := func(source, location, path string) string {
		return `{"source": ` + source + `, "location": "` + location + `", "path": ` + path + `, "evidenceRefs": ["ev-contract-save"]}`
	}
	requestData := `{"kind": "input", "inputName": "requestData"}`
	draftID := `{"kind": "input", "inputName": "draftId"}`
	draftInput := func(required string) string {
		return `{"name": "draftId", "type": "string", "schema": {"type": "string"}, "description": "The draft.", "required": ` + required +
			`, "informationClass": "required", "sourceStrategies": ["user"], "valueDomain": {"kind": "unconstrained"}, "evidenceRefs": ["ev-contract-save"]}`
	}
	tests := []struct {
		name    string
		in      func(t *testing.T) *Inputs
		rule    *diag.Rule
		file    string
		pointer string
	}{
		{"no tool docs at all", func(t *testing.T) *Inputs {
			in := load(t, referencePackage)
			in.ToolDocs = nil
			return in
		}, RuleToolDocsMissing, ToolDocsFile, ""},
		{"a Tool without an entry", func(t *testing.T) *Inputs {
			in := load(t, referencePackage)
			delete(in.ToolDocs, "save_sample_draft")
			return in
		}, RuleToolDocsMissing, ToolDocsFile, ""},
		{"a blank description", func(t *testing.T) *Inputs {
			in := load(t, referencePackage)
			d := in.ToolDocs["save_sample_draft"]
			d.Description = "  "
			in.ToolDocs["save_sample_draft"] = d
			return in
		}, RuleToolDocsMissing, ToolDocsFile, "/save_sample_draft"},
		{"a computed local output", func(t *testing.T) *Inputs {
			return withContract(t, patch(
				contracttest.Set("/capabilities/3/implementation", `{"kind": "local"}`),
			), docs(t))
		}, RuleLocalNotStatic, contract.ContractFile, "/capabilities/3/outputs/0"},
		{"a two-segment header", func(t *testing.T) *Inputs {
			return withContract(t, patch(contracttest.Append(step+"/bindings", binding(requestData, "header", `["x-a", "b"]`))), docs(t))
		}, RuleBindingTarget, contract.ContractFile, step + "/bindings/1/path"},
		{"a two-segment multipart field", func(t *testing.T) *Inputs {
			return withContract(t, patch(contracttest.Append(step+"/bindings", binding(requestData, "multipart", `["file", "name"]`))), docs(t))
		}, RuleBindingTarget, contract.ContractFile, step + "/bindings/1/path"},
		{"two body bindings writing one place", func(t *testing.T) *Inputs {
			return withContract(t, patch(contracttest.Append(step+"/bindings", binding(requestData, "body", `["requestData", "subject"]`))), docs(t))
		}, RuleBindingTarget, contract.ContractFile, step + "/bindings/1/path"},
		{"a placeholder without a binding", func(t *testing.T) *Inputs {
			return withContract(t, patch(contracttest.Set(step+"/url", `"https://application.example/api/sample-request/draft/{draftId}"`)), docs(t))
		}, RuleURLTemplate, contract.ContractFile, step + "/url"},
		{"a path binding without a placeholder", func(t *testing.T) *Inputs {
			return withContract(t, patch(
				contracttest.Append("/capabilities/3/inputs", draftInput("true")),
				contracttest.Append(step+"/bindings", binding(draftID, "path", `["draftId"]`)),
			), docs(t))
		}, RuleURLTemplate, contract.ContractFile, step + "/bindings/1/path/0"},
		{"an optional input in the path", func(t *testing.T) *Inputs {
			return withContract(t, patch(
				contracttest.Set(step+"/url", `"https://application.example/api/sample-request/draft/{draftId}"`),
				contracttest.Append("/capabilities/3/inputs", draftInput("false")),
				contracttest.Append(step+"/bindings", binding(draftID, "path", `["draftId"]`)),
			), docs(t))
		}, RuleURLTemplate, contract.ContractFile, step + "/bindings/1/source/inputName"},
		{"an object input in the path", func(t *testing.T) *Inputs {
			return withContract(t, patch(
				contracttest.Set(step+"/url", `"https://application.example/api/sample-request/draft/{draft}"`),
				contracttest.Append(step+"/bindings", binding(requestData, "path", `["draft"]`)),
			), docs(t))
		}, RuleURLTemplate, contract.ContractFile, step + "/bindings/1/source/inputName"},
		{"a placeholder in the query", func(t *testing.T) *Inputs {
			return withContract(t, patch(contracttest.Set(step+"/url", `"https://application.example/api/sample-request/draft?id={draftId}"`)), docs(t))
		}, RuleURLTemplate, contract.ContractFile, step + "/url"},
		{"a keyword outside the subset", func(t *testing.T) *Inputs {
			return withContract(t, patch(contracttest.Set("/capabilities/3/inputs/0/schema/properties/note/anyOf", `[{"type": "string"}]`)), docs(t))
		}, RuleSchemaUnsupported, contract.ContractFile, "/capabilities/3/inputs/0/schema/properties/note/anyOf"},
		{"a format other than uri", func(t *testing.T) *Inputs {
			return withContract(t, patch(contracttest.Set("/capabilities/3/inputs/0/schema/properties/note/format", `"email"`)), docs(t))
		}, RuleSchemaUnsupported, contract.ContractFile, "/capabilities/3/inputs/0/schema/properties/note/format"},
		{"a pattern ECMAScript reads differently", func(t *testing.T) *Inputs {
			return withContract(t, patch(contracttest.Set("/capabilities/3/inputs/0/schema/properties/note/pattern", `"(?i)^seed"`)), docs(t))
		}, RuleSchemaUnsupported, contract.ContractFile, "/capabilities/3/inputs/0/schema/properties/note/pattern"},
		{"a tuple of item schemas", func(t *testing.T) *Inputs {
			return withContract(t, patch(contracttest.Set("/capabilities/4/inputs/3/schema/items", `[{"type": "object"}]`)), docs(t))
		}, RuleSchemaUnsupported, contract.ContractFile, "/capabilities/4/inputs/3/schema/items"},
		{"a workflow entered through another capability", func(t *testing.T) *Inputs {
			return withContract(t, patch(
				contracttest.Set("/workflows/1/entryCapabilityId", `"validate-sample-request"`),
				contracttest.Set("/workflows/1/capabilityIds", `["validate-sample-request", "submit-sample-request"]`),
			), docs(t))
		}, RuleWorkflow, contract.ContractFile, "/workflows/1/entryCapabilityId"},
		{"a membership condition without a list", func(t *testing.T) *Inputs {
			return withContract(t, patch(contracttest.Set("/capabilities/2/inputs/2/requiredWhen/0/operator", `"in"`)), docs(t))
		}, RuleCondition, contract.ContractFile, "/capabilities/2/inputs/2/requiredWhen/0"},
		{"a constraint condition with an unknown operator", func(t *testing.T) *Inputs {
			return withContract(t, patch(contracttest.Set("/capabilities/2/constraints/0/then/operator", `"has-items"`)), docs(t))
		}, RuleCondition, contract.ContractFile, "/capabilities/2/constraints/0/then"},
		{"a comparison with a grant bound to the Function", func(t *testing.T) *Inputs {
			return withContract(t, patch(contracttest.Set("/capabilities/4/constraints/0/enforcement", `"function-and-runtime"`)), docs(t))
		}, RuleConstraint, contract.ContractFile, "/capabilities/4/constraints/0"},
		{"a comparison of two inputs bound to the Function", func(t *testing.T) *Inputs {
			return withContract(t, patch(
				contracttest.Set("/capabilities/4/constraints/0/enforcement", `"function"`),
				contracttest.Set("/capabilities/4/constraints/0/left", `{"source": "input", "path": ["requestData", "subject"]}`),
				contracttest.Set("/capabilities/4/constraints/0/right", `{"source": "input", "path": ["requestData", "note"]}`),
			), docs(t))
		}, RuleConstraint, contract.ContractFile, "/capabilities/4/constraints/0"},
		{"a grant binding bound to the Function", func(t *testing.T) *Inputs {
			return withContract(t, patch(contracttest.Set("/capabilities/4/constraints/1/enforcement", `"function"`)), docs(t))
		}, RuleConstraint, contract.ContractFile, "/capabilities/4/constraints/1/enforcement"},
		{"a forbidden shape with another predicate", func(t *testing.T) *Inputs {
			return withContract(t, patch(
				contracttest.Set("/capabilities/1/constraints/0/enforcement", `"schema"`),
				contracttest.Set("/capabilities/1/constraints/0/predicate", `{"operator": "non-empty"}`),
			), docs(t))
		}, RuleConstraint, contract.ContractFile, "/capabilities/1/constraints/0/predicate"},
		{"an export named like a helper", func(t *testing.T) *Inputs {
			return withContract(t, patch(contracttest.Set("/capabilities/3/functionExport", `"checkInput"`)), docs(t))
		}, RuleNameReserved, contract.ContractFile, "/capabilities/3/functionExport"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, list := Compile(tt.in(t))
			if res.Compiled() || res.Files != nil {
				t.Fatal("compiled despite the refusal")
			}
			i := slices.IndexFunc(list.Sorted(), func(d diag.Diagnostic) bool { return d.Rule == tt.rule.ID })
			if i < 0 {
				t.Fatalf("no %s finding among %v", tt.rule.ID, list.Sorted())
			}
			d := list.Sorted()[i]
			if d.File != tt.file || d.Pointer != tt.pointer || !strings.Contains(d.Message, "requires review") {
				t.Errorf("finding %s#%s %q; want %s#%s", d.File, d.Pointer, d.Message, tt.file, tt.pointer)
			}
			review := slices.IndexFunc(res.Capabilities, func(c CapabilityResult) bool { return c.Status == StatusRequiresReview })
			if review < 0 || len(res.Capabilities[review].Reasons) == 0 {
				t.Errorf("no capability requires review with a reason: %+v", res.Capabilities)
			} else if !strings.Contains(d.Message, res.Capabilities[review].CapabilityID) {
				t.Errorf("finding %q does not name capability %s", d.Message, res.Capabilities[review].CapabilityID)
			}
		})
	}
}

// TestStaticLocalCompiles is the passing side of COMPILE_LOCAL_NOT_STATIC:
// a local capability whose outputs each have one static value compiles to
// a Function returning them.
func TestStaticLocalCompiles(t *testing.T) {
	data := contracttest.Patch(t, contracttest.Reference(t, contract.ContractFile),
		contracttest.Set("/capabilities/3/implementation", `{"kind": "local"}`),
		contracttest.Set("/capabilities/3/outputs/0/valueDomain", `{"kind": "static", "values": ["draft-local"], "evidenceRefs": ["ev-contract-save"]}`),
	)
	res, list := Compile(withContract(t, data, nil))
	if !res.Compiled() || list.HasErrors() {
		t.Fatalf("a fully static local capability did not compile: %v", list.Sorted())
	}
	core := string(file(t, res, FunctionCoreFile))
	if !strings.Contains(core, `return { status: "success", data: {"draftId": "draft-local"} };`) {
		t.Errorf("the local Function does not return its static output:\n%s", core)
	}
	start := strings.Index(core, "export async function saveSampleDraft(")
	end := strings.Index(core[start:], "\n}\n")
	if body := core[start : start+end]; strings.Contains(body, "dispatch") {
		t.Errorf("the local Function picks a dispatcher:\n%s", body)
	}
}

// TestToolDocs checks the decoding of authoring/tool-docs.json.
func TestToolDocs(t *testing.T) {
	tests := []struct {
		name, json string
		rules      []string
		tools      []string
	}{
		{"valid", `{"a_tool": {"title": "T：动作对象", "description": "D"}}`, nil, []string{"a_tool"}},
		{"not JSON", `{"a_tool": `, []string{"JSON_SYNTAX"}, nil},
		{"not an object", `["a_tool"]`, []string{RuleToolDocsInvalid.ID}, nil},
		{"an entry that is a string", `{"a_tool": "T"}`, []string{RuleToolDocsInvalid.ID}, []string{}},
		{"an unknown member", `{"a_tool": {"title": "T", "description": "D", "summary": "S"}}`, []string{RuleToolDocsInvalid.ID}, []string{"a_tool"}},
		{"a title that is not a string", `{"a_tool": {"title": 3, "description": "D"}}`, []string{RuleToolDocsInvalid.ID}, []string{"a_tool"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			docs, list := DecodeToolDocs(ToolDocsFile, []byte(tt.json))
			if got := list.RuleIDs(); !slices.Equal(got, tt.rules) {
				t.Errorf("rules %v, want %v", got, tt.rules)
			}
			var tools []string
			if docs != nil {
				tools = []string{}
				for name := range docs {
					tools = append(tools, name)
				}
			}
			if !slices.Equal(tools, tt.tools) {
				t.Errorf("tools %v, want %v", tools, tt.tools)
			}
		})
	}
}

// TestUnknownToolDocsWarn: an entry for a Tool the contract lacks is a
// warning; it does not stop compile.
func TestUnknownToolDocsWarn(t *testing.T) {
	in := load(t, referencePackage)
	in.ToolDocs["retired_tool"] = ToolDoc{Title: "T", Description: "D", At: "/retired_tool"}
	res, list := Compile(in)
	if !res.Compiled() || list.HasErrors() || !list.Has(RuleToolDocsUnknown) {
		t.Fatalf("want a compiled package and one warning, got %v", list.Sorted())
	}
}

// TestReadToolDocs reads the file from a package: absent is no finding,
// a FIFO or directory is one, never a hang.
func TestReadToolDocs(t *testing.T) {
	dir := t.TempDir()
	docs, list, err := ReadToolDocs(dir)
	if err != nil || docs != nil || list.Len() > 0 {
		t.Fatalf("absent file: %v %v %v", docs, list.Sorted(), err)
	}
	if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(ToolDocsFile)), 0o755); err != nil {
		t.Fatal(err)
	}
	_, list, err = ReadToolDocs(dir)
	if err != nil || list.RuleIDs() == nil {
		t.Fatalf("a directory in its place: want a finding, got %v %v", list.Sorted(), err)
	}
}

// TestReservedNamesCoverGeneratedCode checks reservedNames against the code
// compile writes: every function, class and const the helpers declare, and
// every name the adapter binds at its top level.
func TestReservedNamesCoverGeneratedCode(t *testing.T) {
	res, _ := Compile(load(t, referencePackage))
	decl := regexp.MustCompile(`(?m)^(?:function|class|const)\s+([A-Za-z_$][\w$]*)`)
	var names []string
	for _, src := range []string{corelib, string(file(t, res, AdapterFile))} {
		for _, m := range decl.FindAllStringSubmatch(src, -1) {
			names = append(names, m[1])
		}
	}
	names = append(names, "protectedWorkflowStateFor", "McpServer", "StdioServerTransport", "z", "normalizeToolError")
	for _, n := range names {
		if !slices.Contains(reservedNames, n) {
			t.Errorf("the generated code declares %s, which reservedNames lacks", n)
		}
	}
}

// TestWriteRefusesLinks: compile never writes through or over a symbolic
// link, and writes nothing when one is in the way.
func TestWriteRefusesLinks(t *testing.T) {
	res, _ := Compile(load(t, referencePackage))
	dir, outside := t.TempDir(), t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, "mcp-tool")); err != nil {
		t.Fatal(err)
	}
	ds, err := Write(dir, res.Files)
	if err != nil || len(ds) != 1 || ds[0].Rule != RuleLinkInTheWay.ID || ds[0].File != "mcp-tool" {
		t.Fatalf("want one %s finding for mcp-tool, got %v %v", RuleLinkInTheWay.ID, ds, err)
	}
	if entries, _ := os.ReadDir(outside); len(entries) > 0 {
		t.Errorf("wrote through the link: %v", entries)
	}
	if _, err := os.Stat(filepath.Join(dir, FunctionCoreFile)); err == nil {
		t.Error("wrote part of the runtime although a link was in the way")
	}
	clean := t.TempDir()
	if ds, err := Write(clean, res.Files); err != nil || len(ds) > 0 {
		t.Fatalf("a plain package: %v %v", ds, err)
	}
	for _, f := range res.Files {
		got, err := os.ReadFile(filepath.Join(clean, filepath.FromSlash(f.Path)))
		if err != nil || !bytes.Equal(got, f.Data) {
			t.Errorf("%s not written as produced: %v", f.Path, err)
		}
	}
}

// TestReport checks compile-report.json: sorted keys, the reasons of the
// capabilities that require review, compiled only when written.
func TestReport(t *testing.T) {
	res, _ := Compile(load(t, readOnlyPackage))
	got := string(res.Report("fern-catalog", false))
	for _, want := range []string{
		`"candidate": "fern-catalog"`,
		`"compiled": false`,
		`"contractId": "synthetic-fern-catalog"`,
		`"reason": "local output millilitresPerWeek is not one static value`,
		`"status": "requires-review"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("report lacks %s:\n%s", want, got)
		}
	}
	if !regexp.MustCompile(`(?s)"candidate".*"capabilities".*"compiled".*"contractId"`).MatchString(got) {
		t.Errorf("keys are not sorted:\n%s", got)
	}
	ok, _ := Compile(load(t, referencePackage))
	if !strings.Contains(string(ok.Report("x", true)), `"compiled": true`) || strings.Contains(string(ok.Report("x", false)), `"compiled": true`) {
		t.Error("compiled must say whether the runtime was written")
	}
}

// TestCommentsCannotBecomeCode: contract text that reaches a comment (the
// contract and workflow IDs) cannot end it with a line break JavaScript
// knows and smuggle code into the module.
func TestCommentsCannotBecomeCode(t *testing.T) {
	for _, brk := range []string{"\\n", "\\r", "\\u2028", "\\u2029"} {
		data := contracttest.Patch(t, contracttest.Reference(t, contract.ContractFile),
			contracttest.Set("/contractId", `"sample`+brk+`globalThis.pwned = 1; //"`))
		res, list := Compile(withContract(t, data, nil))
		if !res.Compiled() {
			t.Fatalf("%s: %v", brk, list.Sorted())
		}
		for _, path := range []string{FunctionCoreFile, AdapterFile} {
			src := file(t, res, path)
			if _, ds := jsmod.Parse(path, src); len(ds) > 0 {
				t.Fatalf("%s %s: %v", brk, path, ds)
			}
			for _, line := range strings.Split(strings.NewReplacer("\r", "\n", "\u2028", "\n", "\u2029", "\n").Replace(string(src)), "\n") {
				if strings.Contains(line, "pwned") && !strings.HasPrefix(strings.TrimSpace(line), "//") {
					t.Errorf("%s %s: contract text became code: %q", brk, path, line)
				}
			}
		}
	}
}
