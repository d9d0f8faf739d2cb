package probe

import "github.com/code2skill/code2skill/internal/diag"

// Rules about what the probe expects of a strict package.
var (
	RuleExpectations = diag.Register("PROBE_EXPECTATIONS", diag.Error,
		"capability-bundle.json, mcp-tool/schema-contract.json or export-profile.json is missing or lacks what the probe needs")
	RuleContractTools = diag.Register("PROBE_CONTRACT_TOOLS", diag.Error,
		"the schema contract does not cover exactly the capability bundle's tools")
	RuleCoverage = diag.Register("PROBE_COVERAGE", diag.Error,
		"the cases leave a tool without a --call or --error-call, or a write tool without a --dry-run-call")
	RuleReachableModules = diag.Register("PROBE_DETACHED_MODULES_REACHABLE", diag.Warning,
		"a node_modules directory above the detached copy lets node resolve packages from outside it")
	RuleOffline = diag.Register("PROBE_OFFLINE", diag.Info,
		"offline probe: business calls were not run and runtime verification is still required")
	RuleNetworkNotDenied = diag.Register("PROBE_NETWORK_NOT_DENIED", diag.Error,
		"business calls were not made: the sandbox could not deny this server the network, and --allow-network was not given")
)

// Rules about the tools/list surface of a strict package.
var (
	RuleToolMissing = diag.Register("PROBE_TOOL_MISSING", diag.Error,
		"a tool the contract declares is not in tools/list")
	RuleToolUnexpected = diag.Register("PROBE_TOOL_UNEXPECTED", diag.Error,
		"tools/list has a tool the contract does not declare")
	RuleAnnotations = diag.Register("PROBE_TOOL_ANNOTATIONS", diag.Error,
		"a tool's annotations differ from the contract's four hints")
	RuleInputSchema = diag.Register("PROBE_TOOL_INPUT_SCHEMA", diag.Error,
		"a tool's inputSchema differs from the contract's projection")
	RuleOutputSchema = diag.Register("PROBE_TOOL_OUTPUT_SCHEMA", diag.Error,
		"a tool's outputSchema differs from the contract's projection")
)

// Rules about protocol errors.
var (
	RuleUnknownTool = diag.Register("PROBE_UNKNOWN_TOOL", diag.Error,
		"a tools/call of an unknown tool was not rejected")
	RuleInvalidArguments = diag.Register("PROBE_INVALID_ARGUMENTS", diag.Error,
		"a call with missing required (or unexpected) arguments was not rejected by a protocol error or a structured Tool error")
)

// Rules about the results of the supplied cases.
var (
	RuleCallFailed = diag.Register("PROBE_CALL_FAILED", diag.Error,
		"a --call or --dry-run-call case did not succeed")
	RuleStructured = diag.Register("PROBE_RESULT_STRUCTURED", diag.Error,
		"a result's structuredContent is missing or not an object")
	RuleText = diag.Register("PROBE_RESULT_TEXT", diag.Error,
		"a result has no text block whose JSON equals its structuredContent")
	RuleResultSchema = diag.Register("PROBE_RESULT_SCHEMA", diag.Error,
		"a successful result does not match the contract's outputSchema")
	RuleCallStatus = diag.Register("PROBE_CALL_HTTP_STATUS", diag.Error,
		"a --call's result passes through an HTTP status other than 2xx, or than the one its case expects")
	RuleAuthFailed = diag.Register("PROBE_AUTH_FAILED", diag.Error,
		"a --call was answered HTTP 401 or 403: the service refused the credentials the server was given")
	RuleErrorCall = diag.Register("PROBE_ERROR_CALL", diag.Error,
		"an --error-call case did not fail: neither a Tool error (isError: true) nor an HTTP error status (or the one its case expects)")
	RuleErrorEnvelope = diag.Register("PROBE_ERROR_ENVELOPE", diag.Error,
		"a Tool error lacks the declared envelope: code, message, details (with their failure category), retryability")
	RuleResultCredential = diag.Register("PROBE_RESULT_CREDENTIAL", diag.Error,
		"no credential leaves through a Tool's result, dry-run result or error: none the credential judge finds, none of the credential values the server was given")
	RuleResultAssertion = diag.Register("PROBE_RESULT_ASSERTION", diag.Error,
		`a case's result assertions hold: the value at each "equals" pointer is equal, the one at each "contains" pointer holds the text`)
	RuleTranscriptRedacted = diag.Register("PROBE_TRANSCRIPT_REDACTED", diag.Info,
		"the transcript holds no credential: those the exchange carried were written as [redacted]")
	RuleDryRun = diag.Register("PROBE_DRY_RUN", diag.Error,
		"a dry-run result is not exactly {dryRun: true, validatedInput, operationPolicy, operationSummary} matching the arguments and the contract")
)

// Rules about results as the clients that receive them read them (the
// TypeScript SDK Client, the Inspector CLI, the Go SDK client): each
// finding names the Tool and the clients that would fail their caller.
var (
	RuleClientSuccess = diag.Register("PROBE_CLIENT_SUCCESS_REFUSED", diag.Error,
		"a success a validating client throws on instead of returning it: no structuredContent, or structuredContent breaking the outputSchema the Tool lists")
	RuleClientErrorStructured = diag.Register("PROBE_CLIENT_ERROR_STRUCTURED", diag.Error,
		"an error result carries structuredContent: breaking the listed outputSchema it makes the pinned TypeScript SDK Client throw instead of returning the error; satisfying it, it reads as a success")
	RuleClientErrorText = diag.Register("PROBE_CLIENT_ERROR_NO_TEXT", diag.Error,
		"an error result has no text content, so no client has a message saying why the call failed")
)

// Rules about protocol errors as clients meet them.
var (
	RuleMalformedFrame = diag.Register("PROBE_MALFORMED_FRAME", diag.Error,
		"a line that is not JSON was not met as spec 000 asks: the server answered other than with JSON-RPC parse error -32700, or did not go on answering the next request")
	RuleUnknownMethod = diag.Register("PROBE_UNKNOWN_METHOD", diag.Error,
		"a request of a method no MCP server has was not answered with JSON-RPC error -32601 (method not found)")
)
