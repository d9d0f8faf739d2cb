// Package compile turns the Portable Core of a strict-export-v1 package into
// its runtime: function-core/index.mjs (one async Function per capability),
// mcp-tool/index.mjs (one literal MCP registration per Tool), and byte-for-
// byte copies of the reviewed assets the two import (the error normalizer,
// the default HTTP dispatcher when a capability sends requests, the
// workflow guard when a hard workflow exists, and the self-contained MCP
// runtime).
//
// Compile is a pure function of its inputs: the decoded contract and export
// profile (derive.Inputs) and the authored Tool prose
// (authoring/tool-docs.json). It builds on derive's schema projection
// (derive.SchemaContract), never on a projection of its own, writes every
// string through one quoting routine and every JSON value through one
// printer, and iterates nothing unordered, so the same inputs give the same
// bytes.
//
//	docs, list := compile.DecodeToolDocs(compile.ToolDocsFile, data)
//	res, findings := compile.Compile(&compile.Inputs{Core: core, ToolDocs: docs})
//	if res.Compiled() {
//		// write res.Files
//	}
//
// # All or nothing
//
// A capability compiles only when code can honour its whole contract. When
// one cannot, no file is produced: every reason is a finding naming the
// capability, the contract field (a JSON Pointer) and why, and the
// capability's status is requires-review. The reasons are: a local
// implementation that is not fully static (compile never invents a
// computation); a binding whose target a request cannot carry (a multi-
// segment header, multipart or URL path target, or two bindings writing
// the same place); a URL template whose {placeholders} and path bindings
// disagree, or that binds an optional or non-scalar input into the path; a
// schema keyword or value the compiled validator does not implement; a
// deterministic-workflow write whose workflow does not name it as its entry;
// a Function export that collides with a name the generated modules use; a
// requiredWhen, forbiddenWhen or constraint condition without a compiled
// form; a constraint bound to the Function in a form it cannot check (a
// comparison, a grant binding); and a Tool without an authored title or
// description (prose is never invented).
//
// # The Function core
//
// Each Function validates its input against the closed input schema with
// every keyword of the portable subset, then against the rules over several
// fields: no input left out while one of its requiredWhen conditions holds,
// none given while one of its forbiddenWhen conditions holds, and every
// constraint the Function enforces holding (enforcement function,
// function-and-runtime or schema; runtime and runtime-before-dispatch are
// the runtime's). Conditions are compiled to JavaScript from the one
// definition of their meaning, internal/condition (see conditionJS). It
// then either returns the contract's static output (local) or sends the
// contract's HTTP steps, in order, through a dispatcher, its only way out:
//
//	options = {method, authentication, headers, query?, body?, multipart?, signal?}
//	dispatch(url, options) → {status, data}
//
// signal is the runtime context's, when it has one: the MCP SDK's per-call
// AbortSignal, which a client's cancellation aborts.
//
// The dispatcher is the trusted runtime context's, and only when the
// context supplies none, the reviewed default of portable-http-dispatch.mjs:
//
//	const dispatch = typeof context?.dispatch === "function" ? context.dispatch : dispatchHttp;
//
// A Host that holds credentials passes its own context.dispatch; the MCP
// adapter passes the SDK's per-request context, which carries none, so a
// plain stdio session sends with dispatchHttp. That dispatcher serves only
// requests whose authentication is "none" and refuses any other before
// sending (HOST_AUTHENTICATION_REQUIRED, outcome known): credentials never
// come from a Tool's arguments.
//
// The URL is the step's URL literal; {placeholders} in its path are
// replaced by their bound values, percent-encoded as one path segment.
// Bindings place inputs, earlier responses and Host-resolved attachments
// (context.resolvedAttachments) at their paths in query, headers, body or
// multipart; a multi-segment query or body path nests objects, and an
// omitted optional input is left out. Every step's status must be one the
// contract accepts, and the output step's data is reduced to the closed
// output schema and checked against it. Failures before anything was sent,
// and rejections a response proves, carry outcomeKnown, so that the error
// normalizer does not turn an invalid write input into an unknown dispatch
// outcome.
//
// A deterministic-workflow write hands its dispatch to the workflow guard
// (portable-workflow-guard.mjs) in the guard's documented shape, passing as
// the dispatch the Function's own requests built from the guard's checked,
// frozen copy of the input and sent through the same resolved dispatcher:
//
//	const protectedWorkflowState = protectedWorkflowStateFor(context, "<workflowId>");
//	return protectedWorkflowState.guard.dispatchWithPolicy({
//	  workflowId: "<workflowId>", input, runtimeContext: context,
//	  operationKey: protectedWorkflowState.operationKey,
//	}, async (safeInput) => { … the steps, from safeInput … });
//
// # The MCP adapter
//
// mcp-tool/index.mjs imports McpServer, StdioServerTransport and z from
// ./runtime.mjs, the Functions, and normalizeToolError, and registers each
// Tool literally: title and description from tool-docs, the derived input
// and output schemas as JSON literals, the contract's annotations, and a
// callback that starts with the dry-run guard, then calls its Function in a
// try and normalizes failures with the literal operation policy. SDK 1.32.2
// registers zod schemas only, so each schema literal goes through
// inputSchema(…) or outputSchema(…), helpers of the adapter that wrap it with
// zod's z.fromJSONSchema(schema).meta(schema): the SDK validates exactly the
// schema and tools/list shows it unchanged. An output schema also accepts the
// dry-run envelope, which the same Tool returns when the dry-run variable is
// "1".
package compile

import (
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
)

// Inputs are what compile reads.
type Inputs struct {
	// Core holds the decoded Portable Core. Contract is required; Export
	// is optional (its dry-run variable, contract.DefaultDryRunVariable without it).
	// Compile assumes derive.Check found no error in it.
	Core *derive.Inputs
	// ToolDocs is authoring/tool-docs.json, or nil when the package has
	// none (then every Tool lacks its prose).
	ToolDocs ToolDocs
}

// Capability statuses.
const (
	StatusCompiled       = "compiled"
	StatusRequiresReview = "requires-review"
)

// CapabilityResult says whether one capability compiled.
type CapabilityResult struct {
	CapabilityID string
	ToolName     string
	Status       string   // StatusCompiled or StatusRequiresReview
	Reasons      []string // why it requires review, one line each
}

// File is one file compile produces.
type File struct {
	Path string // slash-separated, relative to the package root
	Data []byte
}

// Result is what one compile produced.
type Result struct {
	ContractID   string
	Capabilities []CapabilityResult // contract order
	// Files is every file of the runtime, in a fixed order, or nil when
	// any capability requires review.
	Files []File
	// Slices split Files into each capability's own code and what the
	// capabilities share; nil when Files is.
	Slices *Slices
}

// Compiled reports whether every capability compiled and Files holds the
// runtime.
func (r *Result) Compiled() bool { return r.Files != nil }

// Paths of the files compile produces, relative to the package root.
const (
	FunctionCoreFile = "function-core/index.mjs"
	AdapterFile      = "mcp-tool/index.mjs"
	RuntimeFile      = "mcp-tool/runtime.mjs"
	NormalizerFile   = "portable-error-normalizer.mjs"
	DispatcherFile   = "portable-http-dispatch.mjs"
	GuardFile        = "portable-workflow-guard.mjs"
	ReportFile       = "compile-report.json"
)

// Compile compiles the inputs. The findings say why capabilities require
// review (errors) and what else is worth knowing (warnings); Files is set
// only when no capability requires review.
func Compile(in *Inputs) (*Result, *diag.List) {
	var list diag.List
	res := &Result{}
	c := in.Core.Contract
	if c == nil {
		return res, &list
	}
	res.ContractID = c.ContractID
	p := plan(in, &list)
	ok := true
	for _, cp := range p.caps {
		r := CapabilityResult{CapabilityID: cp.cap.ID, ToolName: cp.cap.ToolName, Status: StatusCompiled}
		if len(cp.reasons) > 0 {
			r.Status, r.Reasons, ok = StatusRequiresReview, cp.reasons, false
		}
		res.Capabilities = append(res.Capabilities, r)
	}
	if !ok || len(p.caps) == 0 {
		return res, &list
	}
	res.Files = p.files()
	res.Slices = p.slices(res.Files)
	return res, &list
}
