package strictjs

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/assets"
	"github.com/code2skill/code2skill/internal/compile"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/jsmod"
	"github.com/code2skill/code2skill/internal/pkgdir"
)

// example is a compiled package under test: its Portable Core and the
// directory of its tool docs.
type example struct {
	name, core, docs string
}

var (
	reference = example{"reference", "../contract/testdata/reference", "../compile/testdata/reference"}
	examples  = []example{
		reference,
		{"attachment", "../derive/testdata/synthetic/attachment/input", "../compile/testdata/synthetic/attachment"},
		{"backend-write", "../derive/testdata/synthetic/backend-write/input", "../compile/testdata/synthetic/backend-write"},
		{"goals-handoffs", "../derive/testdata/synthetic/goals-handoffs/input", "../compile/testdata/synthetic/goals-handoffs"},
		{"workflow-write", "../derive/testdata/synthetic/workflow-write/input", "../compile/testdata/synthetic/workflow-write"},
	}
)

// build compiles an example (with another contract when data is not nil)
// into a fresh package directory and returns it with its inputs.
func build(tb testing.TB, ex example, data []byte) (string, *derive.Inputs) {
	tb.Helper()
	loaded, err := derive.Load(ex.core)
	core, list := loaded.Inputs, loaded.Read()
	if err != nil || list.HasErrors() {
		tb.Fatalf("%s: %v %v", ex.name, err, list.Sorted())
	}
	if data != nil {
		c, l := contract.DecodeContract(contract.ContractFile, data)
		if l.HasErrors() {
			tb.Fatal(l.Sorted())
		}
		core.Contract = c
	}
	docs, _, err := compile.ReadToolDocs(ex.docs)
	if err != nil {
		tb.Fatal(err)
	}
	res, list := compile.Compile(&compile.Inputs{Core: core, ToolDocs: docs})
	if !res.Compiled() {
		tb.Fatalf("%s does not compile: %v", ex.name, list.Sorted())
	}
	dir := tb.TempDir()
	if ds, err := compile.Write(dir, res.Files); err != nil || len(ds) > 0 {
		tb.Fatal(ds, err)
	}
	return dir, core
}

func check(tb testing.TB, dir string, in *derive.Inputs) *diag.List {
	tb.Helper()
	pkg, ds, err := pkgdir.Open(dir)
	if err != nil || len(ds) > 0 {
		tb.Fatal(ds, err)
	}
	return Check(pkg, in)
}

// TestCompiledExamplesPass: what compile writes passes every runtime rule.
func TestCompiledExamplesPass(t *testing.T) {
	for _, ex := range examples {
		t.Run(ex.name, func(t *testing.T) {
			dir, in := build(t, ex, nil)
			if l := check(t, dir, in); l.Len() > 0 {
				t.Errorf("findings on the compiled %s package:\n%s", ex.name, strings.Join(lines(l), "\n"))
			}
		})
	}
}

// TestShippedRuntimePasses parses the MCP runtime code2skill ships and
// applies the runtime rules to it, which Check skips for that exact file.
func TestShippedRuntimePasses(t *testing.T) {
	m, ds := jsmod.Parse(RuntimeFile, assets.MCPRuntime.Bytes())
	if m == nil {
		t.Fatal(ds)
	}
	c := &checker{f: &facts{}, list: &diag.List{}}
	c.runtime(m)
	if c.list.Len() > 0 {
		t.Errorf("the shipped runtime breaks the runtime rules: %v", lines(c.list))
	}
}

func lines(l *diag.List) []string {
	var out []string
	for _, d := range l.Sorted() {
		out = append(out, d.String())
	}
	return out
}

// edit replaces old by new in one file of a package; old must occur.
type edit struct {
	file, old, new string
}

// apply applies edits; an edit whose old text is "" replaces the whole file
// (a new text of "\x00" deletes it).
func apply(tb testing.TB, dir string, edits []edit) {
	tb.Helper()
	for _, e := range edits {
		p := filepath.Join(dir, filepath.FromSlash(e.file))
		if e.new == "\x00" {
			if err := os.Remove(p); err != nil {
				tb.Fatal(err)
			}
			continue
		}
		text := ""
		if e.old != "" {
			b, err := os.ReadFile(p)
			if err != nil {
				tb.Fatal(err)
			}
			if !strings.Contains(string(b), e.old) {
				tb.Fatalf("%s does not contain %q", e.file, e.old)
			}
			text = strings.Replace(string(b), e.old, e.new, 1)
		} else {
			text = e.new
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

const (
	core    = FunctionCoreFile
	adapter = AdapterFile
	// Lines of the compiled reference package the fixtures break.
	kindsDispatch = `const response1 = await dispatch("https://application.example/api/sample-request/kinds", withSignal(request1, context));`
	choice        = `const dispatch = typeof context?.dispatch === "function" ? context.dispatch : dispatchHttp;`
	draftChoice   = draftStart + "  const capability = CAPABILITIES[\"save-sample-draft\"];\n  checkInput(capability, input);\n  " + choice + "\n"
	dispatcherImp = `import { dispatchHttp } from "../portable-http-dispatch.mjs";`
	draftStart    = "export async function saveSampleDraft(input, context) {\n"
	submitPolicy  = "    workflowId: \"submit-sample-request\",\n"
	submitGuard   = "  const protectedWorkflowState = protectedWorkflowStateFor(context, \"submit-sample-request\");\n"
	listTitle     = `title: "样例申请：列出申请类型",`
	listRegister  = `server.registerTool("list_sample_request_kinds", {`
	dryRunIf      = `if (process.env.CODE2SKILL_DRY_RUN === "1") {`
	readPolicy    = `{"sideEffect": "read", "idempotency": "safe", "automaticRetry": "read-only-bounded", "confirmation": "not-required", "unknownOutcome": "not-applicable"}`
	connect       = "await server.connect(new StdioServerTransport());"
)

// TestRulesFire breaks a copy of the compiled reference package once per
// case and wants the rule that guards what was broken.
func TestRulesFire(t *testing.T) {
	docs, _, err := compile.ReadToolDocs(reference.docs)
	if err != nil {
		t.Fatal(err)
	}
	listDescription := docs["list_sample_request_kinds"].Description
	tests := []struct {
		name  string
		rule  *diag.Rule
		edits []edit
		patch []contracttest.Op // of the contract Check compares with (and compile uses, see compiledWithPatch)
	}{
		{"a missing Function core", RuleFile, []edit{{core, "", "\x00"}}, nil},
		{"a core node would refuse", jsmod.RuleSyntax, []edit{{core, draftStart, draftStart + "  return )\n"}}, nil},

		{"a file-system import", RuleCoreImport, []edit{{core, "import {", "import { readFileSync } from \"node:fs\";\nimport {"}}, nil},
		{"a package import", RuleCoreImport, []edit{{core, "import {", "import { get } from \"lodash\";\nimport {"}}, nil},
		{"a dynamic import", RuleCoreImport, []edit{{core, draftStart, draftStart + "  await import(\"node:os\");\n"}}, nil},
		{"a guard import without a guarded write", RuleCoreImport, nil, []contracttest.Op{
			contracttest.Set("/capabilities/1/runtimeProtection", `{"mode": "backend-authoritative", "owner": "target-api", "evidenceRefs": ["ev-contract-attachment"]}`),
			contracttest.Set("/capabilities/4/runtimeProtection", `{"mode": "backend-authoritative", "owner": "target-api", "evidenceRefs": ["ev-contract-submit"]}`),
		}},

		{"an export that is not async", RuleCoreExport, []edit{{core, "export async function saveSampleDraft(input, context) {",
			"export function saveSampleDraft(input, context) {\n  return saveDraft(input, context);\n}\n\nasync function saveDraft(input, context) {"}}, nil},
		{"a Function not exported", RuleCoreExport, []edit{{core, "export async function saveSampleDraft(", "async function saveSampleDraft("}}, nil},

		{"response.ok", RuleCoreStatus, []edit{{core, kindsDispatch, kindsDispatch + "\n  if (!response1.ok) { return null; }"}}, nil},

		{"a URL the contract does not name", RuleCoreURL, []edit{{core, `"https://application.example/api/sample-request/kinds"`, `"https://application.example/api/sample-request/kinds/all"`}}, nil},
		{"fetch of a computed URL", RuleCoreURL, []edit{{core, draftStart, draftStart + "  await fetch(context.base + \"/draft\");\n"}}, nil},
		{"an origin not allowed", RuleCoreURL, nil, []contracttest.Op{}},
		{"an aliased dispatcher", RuleCoreURL, []edit{{core, draftStart, draftStart + "  const send = context.dispatch;\n"}}, nil},
		{"a dispatcher aliased in a conditional", RuleCoreURL, []edit{{core, draftStart, draftStart + "  const send = context.ready ? context.dispatch : null;\n"}}, nil},
		{"the default dispatcher aliased", RuleCoreURL, []edit{{core, draftStart, draftStart + "  const send = dispatchHttp;\n"}}, nil},
		{"the default dispatcher shadowed", RuleCoreURL, []edit{{core, draftStart, draftStart + "  const dispatchHttp = context.send;\n"}}, nil},
		{"the default dispatcher handed on", RuleCoreURL, []edit{{core, draftStart, draftStart + "  context.use(dispatchHttp);\n"}}, nil},
		{"the default dispatcher chosen under another name", RuleCoreURL, []edit{{core, draftChoice, strings.Replace(draftChoice, "const dispatch =", "const send =", 1)}}, nil},
		{"the default dispatcher chosen without checking the Host's", RuleCoreURL, []edit{{core, draftChoice, strings.Replace(draftChoice, choice, "const dispatch = context?.dispatch ?? dispatchHttp;", 1)}}, nil},
		{"the default dispatcher chosen against another function", RuleCoreURL, []edit{{core, draftChoice, strings.Replace(draftChoice, "? context.dispatch :", "? context.send :", 1)}}, nil},
		{"the default dispatcher chosen on another test", RuleCoreURL, []edit{{core, draftChoice, strings.Replace(draftChoice, "typeof context?.dispatch === \"function\"", "context?.kind === \"function\"", 1)}}, nil},
		{"the default dispatcher chosen by a helper", RuleCoreURL, []edit{{core, "function requireAttachments(", "function pick(context) {\n  return typeof context?.dispatch === \"function\" ? context.dispatch : dispatchHttp;\n}\n\nfunction requireAttachments("}}, nil},
		{"the default dispatcher sending to a computed URL", RuleCoreURL, []edit{{core, draftStart, draftStart + "  await dispatchHttp(context.base + \"/draft\", {});\n"}}, nil},
		{"the default dispatcher imported under another name", RuleCoreImport, []edit{{core, dispatcherImp, `import { dispatchHttp as send } from "../portable-http-dispatch.mjs";`}}, nil},
		{"the default dispatcher imported as a namespace", RuleCoreImport, []edit{{core, dispatcherImp, `import * as dispatcher from "../portable-http-dispatch.mjs";`}}, nil},
		{"the default dispatcher re-exported", RuleCoreImport, []edit{{core, dispatcherImp, dispatcherImp + "\nexport { dispatchHttp } from \"../portable-http-dispatch.mjs\";"}}, nil},
		{"the default dispatcher imported without HTTP", RuleCoreImport, nil, allLocal()},
		{"the Host's dispatcher imported", RuleCoreImport, []edit{{core, dispatcherImp, `import { dispatchHttp, dispatchHostHttp } from "../portable-http-dispatch.mjs";`}}, nil},
		{"the host runtime imported", RuleCoreImport, []edit{{core, dispatcherImp, dispatcherImp + "\nimport \"../portable-host-runtime.mjs\";"}}, nil},
		{"an edited dispatcher", RuleDispatcherAsset, []edit{{DispatcherFile, "const NO_AUTHENTICATION = 'none';", "const NO_AUTHENTICATION = 'runtime_context';"}}, nil},

		{"a local Function sending a request", RuleCoreLocalNetwork, []edit{{core, "return { status: \"success\"", "await context.dispatch(\"https://application.example/api/sample-request/draft\", {});\n  return { status: \"success\""}}, localDraft},
		{"a local Function choosing a dispatcher", RuleCoreLocalNetwork, []edit{{core, "return { status: \"success\"", choice + "\n  return { status: \"success\""}}, localDraft},

		{"a Function replacing its context", RuleParamReassigned, []edit{{core, draftStart, draftStart + "  context = { ...context };\n"}}, nil},
		{"a callback replacing its input", RuleParamReassigned, []edit{{adapter, dryRunIf, "input = { ...input };\n  " + dryRunIf}}, nil},

		{"a request at import time", RuleCoreModuleEffect, []edit{{core, "const CAPABILITIES", "fetch(\"https://application.example/api/sample-request/kinds\");\nconst CAPABILITIES"}}, nil},
		{"a Function called at import time", RuleCoreModuleEffect, []edit{{core, "const CAPABILITIES", "saveSampleDraft({});\nconst CAPABILITIES"}}, nil},
		{"a helper that dispatches", RuleCoreModuleEffect, []edit{{core, "function requireAttachments(context, names) {\n", "function requireAttachments(context, names) {\n  context.dispatch(\"https://application.example/api/sample-request\", {});\n"}}, nil},
		{"a helper sending with the default dispatcher", RuleCoreModuleEffect, []edit{{core, "function requireAttachments(context, names) {\n", "function requireAttachments(context, names) {\n  dispatchHttp(\"https://application.example/api/sample-request\", {});\n"}}, nil},

		{"a guarded write that sends before the guard", RuleGuardUse, []edit{{core, submitGuard, "  await context.dispatch(\"https://application.example/api/sample-request\", {});\n" + submitGuard}}, nil},
		{"a guarded dispatch reading the unchecked input", RuleGuardUse, []edit{{core, `bind(request1.body, ["requestData"], safeInput["requestData"]);`, `bind(request1.body, ["requestData"], input["requestData"]);`}}, nil},
		{"another workflow's ID", RuleGuardUse, []edit{{core, submitPolicy, "    workflowId: \"upload-sample-attachment\",\n"}}, nil},
		{"bindings passed to the guard", RuleGuardUse, []edit{{core, submitPolicy, submitPolicy + "    expectedBindings: {},\n"}}, nil},
		{"a defaulted context", RuleGuardUse, []edit{{core, "export async function submitSampleRequest(input, context) {", "export async function submitSampleRequest(input, context = {}) {"}}, nil},
		{"no protected state", RuleGuardUse, []edit{{core, submitGuard, "  const protectedWorkflowState = context.protected;\n"}}, nil},
		{"a guard that is not returned", RuleGuardUse, []edit{{core, "  return protectedWorkflowState.guard.dispatchWithPolicy({\n    workflowId: \"submit-sample-request\"", "  await protectedWorkflowState.guard.dispatchWithPolicy({\n    workflowId: \"submit-sample-request\""}}, nil},

		{"a guard of the core's own", RuleGuardUse, []edit{{core, "import { protectedWorkflowStateFor }", "import { PortableWorkflowGuard, protectedWorkflowStateFor }"},
			{core, "const CAPABILITIES", "const sharedGuard = new PortableWorkflowGuard();\nconst CAPABILITIES"}}, nil},
		{"a module-global protected state", RuleGuardUse, []edit{{core, "const CAPABILITIES", "const sharedState = protectedWorkflowStateFor({}, \"submit-sample-request\");\nconst CAPABILITIES"}}, nil},
		{"an edited guard", RuleGuardAsset, []edit{{GuardFile, "export const UNKNOWN_DISPATCH_OUTCOME", "export const UNKNOWN_DISPATCH_OUTCOME_EDITED = 1;\nexport const UNKNOWN_DISPATCH_OUTCOME"}}, nil},

		{"an adapter reading files", RuleMCPImport, []edit{{adapter, "import { McpServer", "import { readFileSync } from \"node:fs\";\nimport { McpServer"}}, nil},
		{"an aliased runtime import", RuleMCPImport, []edit{{adapter, "import { McpServer, StdioServerTransport, z }", "import { McpServer as Server, StdioServerTransport, z }"}}, nil},
		{"a Function imported as a namespace", RuleMCPImport, []edit{{adapter, "import { listSampleRequestKinds, uploadSampleAttachment, validateSampleRequest, saveSampleDraft, submitSampleRequest } from", "import * as core from"}}, nil},

		{"an edited normalizer", RuleNormalizerAsset, []edit{{NormalizerFile, "const READ = 'read';", "const READ = 'reads';"}}, nil},

		{"a missing registration", RuleMCPRegistration, []edit{{adapter, listRegister, "if (false) server.registerTool(\"list_sample_request_kinds\", {"}}, nil},
		{"a registration in a loop", RuleMCPRegistration, []edit{{adapter, listRegister, "for (const name of [\"list_sample_request_kinds\"]) server.registerTool(name, {"}}, nil},
		{"an unknown Tool", RuleMCPRegistration, []edit{{adapter, listRegister, `server.registerTool("list_sample_kinds", {`}}, nil},
		{"a config key too many", RuleMCPRegistration, []edit{{adapter, listTitle, listTitle + "\n  _meta: {},"}}, nil},

		{"a config reading the environment", RuleMCPConfigInert, []edit{{adapter, "function inputSchema(schema) {\n  return z.fromJSONSchema(schema)", "function inputSchema(schema) {\n  return z.fromJSONSchema(process.env.LOOSE ? {} : schema)"}}, nil},
		{"a dry-run switch on another variable", RuleMCPConfigInert, []edit{{adapter, `const dryRun = process.env.CODE2SKILL_DRY_RUN === "1";`, `const dryRun = process.env.OTHER_VARIABLE === "1";`}}, nil},
		{"a config calling a Function", RuleMCPConfigInert, []edit{{adapter, listTitle, "title: String(listSampleRequestKinds) && \"样例申请：列出申请类型\","}}, nil},

		{"a schema unlike the contract's", RuleMCPSchema, []edit{{adapter, `"enum": ["compact", "full"],`, `"enum": ["compact"],`}}, nil},
		{"a schema built at run time", RuleMCPSchema, []edit{{adapter, "inputSchema: inputSchema({", "inputSchema: inputSchema(structuredClone({"}, {adapter, "    \"required\": [],\n  }),\n  outputSchema", "    \"required\": [],\n  })),\n  outputSchema"}}, nil},

		{"an English title", RuleMCPTitle, []edit{{adapter, listTitle, `title: "Sample requests: list kinds",`}}, nil},
		{"a title without an action", RuleMCPTitle, []edit{{adapter, listTitle, `title: "样例申请：申请类型目录",`}}, nil},
		{"a short description", RuleMCPDescription, []edit{{adapter, `description: ` + quoted(listDescription), `description: "列出样例申请的类型。"`}}, nil},
		{"a description without its side effect", RuleMCPDescription, []edit{{adapter, quoted(listDescription), quoted(strings.ReplaceAll(strings.ReplaceAll(listDescription, "只读操作，没有副作用", "结果可以缓存"), "副作用", ""))}}, nil},

		{"an annotation unlike the contract's", RuleMCPAnnotations, []edit{{adapter, `annotations: {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": true},`, `annotations: {"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false},`}}, nil},

		{"a second connect", RuleMCPModuleEffect, []edit{{adapter, connect, connect + "\n" + connect}}, nil},
		{"a Function called at start-up", RuleMCPModuleEffect, []edit{{adapter, connect, "await listSampleRequestKinds({});\n" + connect}}, nil},

		{"a callback calling another Function", RuleMCPCallback, []edit{{adapter, "const functionResult = await uploadSampleAttachment(input, runtimeContext);", "const functionResult = await listSampleRequestKinds(input, runtimeContext);"}}, nil},
		{"a callback with other parameters", RuleMCPCallback, []edit{{adapter, "}, async (input, runtimeContext) => {\n  if", "}, async (input, extra, runtimeContext) => {\n  if"}}, nil},
		{"a result changed on the way", RuleMCPCallback, []edit{{adapter, "return { structuredContent: functionResult,", "return { structuredContent: { ...functionResult },"}}, nil},

		{"another dry-run variable", RuleMCPDryRun, []edit{{adapter, dryRunIf, `if (process.env.DRY_RUN === "1") {`}}, nil},
		{"a dry-run result with another policy", RuleMCPDryRun, []edit{{adapter, "operationPolicy: " + readPolicy, "operationPolicy: {}"}}, nil},
		{"no dry-run guard", RuleMCPDryRun, []edit{{adapter, dryRunIf, "if (runtimeContext.dryRun) {"}}, nil},

		{"a normalizer call without the policy", RuleMCPNormalizerCall, []edit{{adapter, "normalizeToolError(error, " + readPolicy + ")", "normalizeToolError(error)"}}, nil},
		{"an error result carrying structuredContent", RuleMCPNormalizerCall, []edit{{adapter, "return { content: [{ type: \"text\", text: JSON.stringify(toolError) }], isError: true };", "return { structuredContent: toolError, content: [{ type: \"text\", text: JSON.stringify(toolError) }], isError: true };"}}, nil},
		{"a normalizer call with another policy", RuleMCPNormalizerCall, []edit{{adapter, "normalizeToolError(error, " + readPolicy + ")", "normalizeToolError(error, {\"sideEffect\": \"read\"})"}}, nil},

		{"an error contract the normalizer cannot meet", RuleMCPErrorContract, nil, []contracttest.Op{contracttest.Set("/capabilities/0/errorContract/codePath", `["error", "code"]`)}},

		{"a runtime importing a package", RuleRuntimeImport, []edit{{RuntimeFile, "", "import { z } from \"zod\";\nexport { McpServer, StdioServerTransport } from \"node:process\";\nexport { z };\n"}}, nil},
		{"a runtime that fetches", RuleRuntimePrimitive, []edit{{RuntimeFile, "", "const McpServer = 1, StdioServerTransport = 2, z = 3;\nfetch(\"https://x.example\");\nexport { McpServer, StdioServerTransport, z };\n"}}, nil},
		{"a runtime without z", RuleRuntimePrimitive, []edit{{RuntimeFile, "", "const McpServer = 1, StdioServerTransport = 2;\nexport { McpServer, StdioServerTransport };\n"}}, nil},
	}
	// Every rule of the package has a case.
	for _, r := range diag.Rules() {
		if strings.HasPrefix(r.ID, "STRICT_JS_") && !slices.ContainsFunc(tests, func(tt struct {
			name  string
			rule  *diag.Rule
			edits []edit
			patch []contracttest.Op
		}) bool {
			return tt.rule == r
		}) {
			t.Errorf("rule %s has no case here", r.ID)
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var data []byte
			if tt.patch != nil {
				data = contracttest.Patch(t, contracttest.Reference(t, contract.ContractFile), tt.patch...)
			}
			var dir string
			var in *derive.Inputs
			if compiledWithPatch[tt.name] {
				dir, in = build(t, reference, data)
			} else {
				dir, in = build(t, reference, nil)
				if data != nil {
					c, l := contract.DecodeContract(contract.ContractFile, data)
					if l.HasErrors() {
						t.Fatal(l.Sorted())
					}
					in.Contract = c
				}
			}
			if tt.name == "an origin not allowed" {
				in.Export.AllowedRuntimeOrigins = []string{"https://other.example"}
			}
			apply(t, dir, tt.edits)
			l := check(t, dir, in)
			if !l.Has(tt.rule) {
				t.Fatalf("no %s finding; got:\n%s", tt.rule.ID, strings.Join(lines(l), "\n"))
			}
			for _, d := range l.Sorted() {
				if d.Rule == tt.rule.ID && d.File == "" {
					t.Errorf("%s finding without a file: %v", d.Rule, d)
				}
			}
		})
	}
}

// compiledWithPatch names the cases whose contract patch also changes what
// is compiled; the others compile the reference and judge it against the
// patched contract.
var compiledWithPatch = map[string]bool{"a local Function sending a request": true, "a local Function choosing a dispatcher": true}

// localDraft makes save-sample-draft a local capability with a static
// output, which compiles.
var localDraft = []contracttest.Op{
	contracttest.Set("/capabilities/3/implementation", `{"kind": "local"}`),
	contracttest.Set("/capabilities/3/outputs/0/valueDomain", `{"kind": "static", "values": ["draft-local"], "evidenceRefs": ["ev-contract-save"]}`),
}

// allLocal makes every capability of the reference contract local, so
// that none sends HTTP requests.
func allLocal() []contracttest.Op {
	var ops []contracttest.Op
	for i := range 5 {
		ops = append(ops, contracttest.Set("/capabilities/"+strconv.Itoa(i)+"/implementation", `{"kind": "local"}`))
	}
	return ops
}

// quoted writes s as compile quotes it (it holds no character to escape).
func quoted(s string) string { return `"` + s + `"` }

// TestHandWrittenVariantsPass: the rules accept reasonable hand-written
// forms of what compile writes, not only its text.
func TestHandWrittenVariantsPass(t *testing.T) {
	const listStart = "export async function listSampleRequestKinds(input, context) {"
	submitDispatch := func(text string) string {
		start := strings.Index(text, "  }, async (safeInput) => {\n    const request1 = {\n      \"method\": \"POST\",")
		end := strings.Index(text[start:], "\n  });\n}\n")
		if start < 0 || end < 0 {
			t.Fatal("the submit Function's dispatch is not where the variant expects it")
		}
		return text[start : start+end+len("\n  });")]
	}
	tests := []struct {
		name  string
		edits func(dir string) []edit
	}{
		{"a Function exported through an export list", func(string) []edit {
			return []edit{{core, listStart, "async function listKinds(input, context) {"},
				{core, "// -------", "export { listKinds as listSampleRequestKinds };\n\n// -------"}}
		}},
		{"a Function exported as an async arrow", func(string) []edit {
			return []edit{{core, listStart, "export const listSampleRequestKinds = async (input, context) => {"},
				{core, "  return outputOf(capability, response1);\n}\n", "  return outputOf(capability, response1);\n};\n"}}
		}},
		{"the dispatcher chosen the other way round, without optional chaining", func(string) []edit {
			return []edit{{core, draftChoice, strings.Replace(draftChoice, choice, `const dispatch = ("function" === typeof context.dispatch) ? (context.dispatch) : dispatchHttp;`, 1)}}
		}},
		{"the default dispatcher called directly", func(dir string) []edit {
			return []edit{{core, kindsDispatch, strings.Replace(kindsDispatch, "await dispatch(", "await dispatchHttp(", 1)}}
		}},
		{"the guard handed the Host's dispatcher", func(dir string) []edit {
			b, _ := os.ReadFile(filepath.Join(dir, core))
			return []edit{{core, submitDispatch(string(b)), "  }, context.dispatch);"}}
		}},
		{"single quotes, an async function callback and a reversed guard", func(string) []edit {
			return []edit{
				{adapter, `from "./runtime.mjs";`, `from './runtime.mjs';`},
				{adapter, "}, async (input, runtimeContext) => {\n  if (process.env.CODE2SKILL_DRY_RUN === \"1\") {",
					"}, async function (input, runtimeContext) {\n  if ('1' === process.env['CODE2SKILL_DRY_RUN']) {"},
				{adapter, `content: [{ type: "text", text: JSON.stringify(functionResult) }]`, `content: [{ text: JSON.stringify(functionResult), type: 'text' }]`},
				{adapter, listTitle, "title: `样例申请：列出申请类型`,"},
			}
		}},
		{"another name for the server", func(dir string) []edit {
			b, _ := os.ReadFile(filepath.Join(dir, adapter))
			text := strings.ReplaceAll(string(b), "server.registerTool(", "mcp.registerTool(")
			text = strings.Replace(text, "const server = new McpServer(", "const mcp = new McpServer(", 1)
			text = strings.Replace(text, "await server.connect(", "await mcp.connect(", 1)
			return []edit{{adapter, "", text}}
		}},
		{"zod schemas written inline", func(string) []edit {
			return []edit{
				{adapter, "inputSchema: inputSchema({\n    \"type\": \"object\",\n    \"additionalProperties\": false,\n    \"properties\": {\n      \"detailLevel\"",
					"inputSchema: z.fromJSONSchema({\n    \"type\": \"object\",\n    \"additionalProperties\": false,\n    \"properties\": {\n      \"detailLevel\""},
			}
		}},
		{"a zod builder", func(dir string) []edit {
			b, _ := os.ReadFile(filepath.Join(dir, adapter))
			text := string(b)
			start := strings.Index(text, "inputSchema: inputSchema({")
			end := strings.Index(text[start:], "\n  }),\n  outputSchema")
			return []edit{{adapter, text[start : start+end+len("\n  }),")],
				`inputSchema: z.object({ detailLevel: z.enum(["compact", "full"]).optional() }).strict(),`}}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, in := build(t, reference, nil)
			apply(t, dir, tt.edits(dir))
			if l := check(t, dir, in); l.Len() > 0 {
				t.Errorf("findings on a valid variant:\n%s", strings.Join(lines(l), "\n"))
			}
		})
	}
}
