package strictjs

import "github.com/code2skill/code2skill/internal/diag"

// The runtime rules, one per family of checks.
var (
	RuleFile = diag.Register("STRICT_JS_FILE", diag.Error,
		"a JavaScript file of the strict runtime is missing, not a regular file, or unreadable")

	// Function core.
	RuleCoreImport = diag.Register("STRICT_JS_CORE_IMPORT", diag.Error,
		"the Function core imports something other than non-effectful node: built-ins (and dispatchHttp from the default dispatcher when a capability sends HTTP requests, the workflow guard when a write is guarded), or imports dynamically")
	RuleCoreExport = diag.Register("STRICT_JS_CORE_EXPORT", diag.Error,
		"a Canonical functionExport is not exported from the Function core as an async function")
	RuleCoreStatus = diag.Register("STRICT_JS_CORE_STATUS", diag.Error,
		"an HTTP Function core reads response.ok, or never compares an exact response status")
	RuleCoreURL = diag.Register("STRICT_JS_CORE_URL", diag.Error,
		"the Function core's URLs are not exactly the contract's step URLs, or a request goes out other than to one of them")
	RuleCoreLocalNetwork = diag.Register("STRICT_JS_CORE_LOCAL_NETWORK", diag.Error,
		"a local Function reaches for the network or a dispatcher")
	RuleParamReassigned = diag.Register("STRICT_JS_PARAM_REASSIGNED", diag.Error,
		"a Function or Tool callback assigns to its input or runtime context parameter")
	RuleCoreModuleEffect = diag.Register("STRICT_JS_CORE_MODULE_EFFECT", diag.Error,
		"the Function core acts (network, files, processes, dispatch, a Canonical Function) outside its exported Functions")
	RuleGuardUse = diag.Register("STRICT_JS_GUARD_USE", diag.Error,
		"a deterministic-workflow write does not dispatch through portable-workflow-guard.mjs in the guard's reviewed shape")
	RuleGuardAsset = diag.Register("STRICT_JS_GUARD_ASSET", diag.Error,
		"portable-workflow-guard.mjs is missing or differs from the reviewed asset while a write is guarded")
	RuleDispatcherAsset = diag.Register("STRICT_JS_DISPATCHER_ASSET", diag.Error,
		"portable-http-dispatch.mjs is unreadable or differs from the reviewed asset while a capability sends HTTP requests")

	// MCP adapter.
	RuleMCPImport = diag.Register("STRICT_JS_MCP_IMPORT", diag.Error,
		"the MCP adapter imports other than McpServer, StdioServerTransport and z from ./runtime.mjs, the Functions by name and normalizeToolError")
	RuleNormalizerAsset = diag.Register("STRICT_JS_NORMALIZER_ASSET", diag.Error,
		"portable-error-normalizer.mjs differs from the reviewed asset")
	RuleMCPRegistration = diag.Register("STRICT_JS_MCP_REGISTRATION", diag.Error,
		"the Tools are not registered exactly once each by a literal server.registerTool(\"<tool>\", {config}, async callback) at the module's top level")
	RuleMCPConfigInert = diag.Register("STRICT_JS_MCP_CONFIG_INERT", diag.Error,
		"a registration's config reads the environment or globals, loads code, or calls anything but zod and the adapter's own inert helpers")
	RuleMCPSchema = diag.Register("STRICT_JS_MCP_SCHEMA", diag.Error,
		"a registration's inputSchema or outputSchema is not an accepted form, or its JSON Schema differs from the contract's")
	RuleMCPTitle = diag.Register("STRICT_JS_MCP_TITLE", diag.Error,
		"a Tool title is not a literal shaped as the documentation language's titles (领域：动作对象, Domain: Action object) with a specific action")
	RuleMCPDescription = diag.Register("STRICT_JS_MCP_DESCRIPTION", diag.Error,
		"a Tool description is not a literal long enough in the documentation language (110 characters and 60 Chinese characters, 200 characters and 30 English words) covering its seven topics")
	RuleMCPAnnotations = diag.Register("STRICT_JS_MCP_ANNOTATIONS", diag.Error,
		"a registration's annotations are not the contract's four literal hints, or openWorldHint contradicts the implementation")
	RuleMCPModuleEffect = diag.Register("STRICT_JS_MCP_MODULE_EFFECT", diag.Error,
		"the MCP adapter acts at its top level other than by registering Tools and one server.connect(new StdioServerTransport())")
	RuleMCPCallback = diag.Register("STRICT_JS_MCP_CALLBACK", diag.Error,
		"a Tool callback is not the reviewed wrapper: (input, runtimeContext), dry-run guard, then one try calling its own Function and projecting the result")
	RuleMCPDryRun = diag.Register("STRICT_JS_MCP_DRY_RUN", diag.Error,
		"a Tool callback does not start with the literal dry-run guard returning the contract's policy and summary")
	RuleMCPNormalizerCall = diag.Register("STRICT_JS_MCP_NORMALIZER_CALL", diag.Error,
		"a Tool callback's catch does not start with normalizeToolError(error, <the contract's literal operationPolicy>) and project isError: true")
	RuleMCPErrorContract = diag.Register("STRICT_JS_MCP_ERROR_CONTRACT", diag.Error,
		"an error-contract path segment names a member the adapter and the normalizer never produce")

	// mcp-tool/runtime.mjs.
	RuleRuntimeImport = diag.Register("STRICT_JS_RUNTIME_IMPORT", diag.Error,
		"mcp-tool/runtime.mjs imports anything but non-effectful node: built-ins, or imports dynamically: it is not self-contained")
	RuleRuntimePrimitive = diag.Register("STRICT_JS_RUNTIME_PRIMITIVE", diag.Error,
		"mcp-tool/runtime.mjs holds a client-network or process-control primitive, or does not export McpServer, StdioServerTransport and z")
)
