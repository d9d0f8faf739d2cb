package compile

import (
	"strings"

	"github.com/code2skill/code2skill/assets"
	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/hostruntime"
)

// files returns the runtime of a program whose capabilities all compile, in
// a fixed order: the two generated modules, then the assets they import,
// copied byte for byte.
func (p *program) files() []File {
	files := []File{
		{FunctionCoreFile, p.functionCore()},
		{AdapterFile, p.adapter()},
		{RuntimeFile, assets.MCPRuntime.Bytes()},
		{NormalizerFile, assets.ErrorNormalizer.Bytes()},
	}
	if p.http() {
		files = append(files, File{DispatcherFile, assets.HTTPDispatch.Bytes()})
	}
	if p.guarded() {
		files = append(files, File{GuardFile, assets.WorkflowGuard.Bytes()})
	}
	if p.hostBinding != nil {
		files = append(files, File{hostruntime.BindingFile, p.hostBinding}, File{hostruntime.RuntimeFile, assets.HostRuntime.Bytes()})
	}
	return files
}

// reservedNames are the names the generated modules declare or read in the
// scope where they name Function exports: the helpers and constants of the
// Function core, the imports and helpers of the adapter, the parameters
// and locals of its callbacks, and the globals either reads. An export of
// one of these names would shadow it or be shadowed.
var reservedNames = []string{
	// Function core.
	"CAPABILITIES", "FunctionError", "MAX_ERRORS", "checkInput", "requireConfirmation", "dispatch", "dispatchHttp", "requireAttachments",
	"attachmentOf", "withSignal", "checkRules", "someAt", "valuesAt", "sizeOf", "expectStatus", "REJECTION_CODES", "statusCategory", "sourceText", "fromResponse", "outputOf", "bind", "expandPath", "isPathSegment",
	"validate", "addError", "hasType", "isURI", "jsonEqual", "project", "present", "valueAt", "ownValue",
	"setOwn", "isRecord", "jsonOrNull", "pointer", "escapePointer", "describe", "protectedWorkflowStateFor",
	// Adapter, callbacks included.
	"McpServer", "StdioServerTransport", "z", "normalizeToolError", "dryRun", "dryRunOutputSchema", "inputSchema",
	"outputSchema", "server", "input", "runtimeContext", "dryRunResult", "functionResult", "toolError",
	// Globals.
	"Array", "Error", "JSON", "Number", "Object", "RegExp", "String", "URL", "encodeURIComponent", "process",
	"undefined",
}

// Report returns compile-report.json: the package as the user named it, the
// contract, the outcome per capability (with the reasons of those that
// require review) and whether the runtime was compiled and written. Keys are
// sorted, as the established format has them.
func (r *Result) Report(candidate string, written bool) []byte {
	caps := canonjson.Array{}
	for _, c := range r.Capabilities {
		o := canonjson.NewObject(
			canonjson.Member{Key: "capabilityId", Value: canonjson.String(c.CapabilityID)},
		)
		if len(c.Reasons) > 0 {
			o.Set("reason", canonjson.String(strings.Join(c.Reasons, "; ")))
		}
		o.Set("status", canonjson.String(c.Status))
		o.Set("toolName", canonjson.String(c.ToolName))
		caps = append(caps, o)
	}
	return canonjson.Encode(canonjson.NewObject(
		canonjson.Member{Key: "candidate", Value: canonjson.String(candidate)},
		canonjson.Member{Key: "capabilities", Value: caps},
		canonjson.Member{Key: "compiled", Value: canonjson.Bool(r.Compiled() && written)},
		canonjson.Member{Key: "contractId", Value: canonjson.String(r.ContractID)},
	))
}
