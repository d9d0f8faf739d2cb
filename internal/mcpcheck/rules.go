package mcpcheck

import "github.com/code2skill/code2skill/internal/diag"

// Rules about the server process and the protocol session.
var (
	RuleServerExited = diag.Register("MCP_SERVER_EXITED", diag.Error,
		"the MCP server exited or crashed before the session was over")
	RuleExitStatus = diag.Register("MCP_SERVER_EXIT_STATUS", diag.Error,
		"the MCP server exited with a non-zero code when its stdin was closed")
	RuleShutdownForced = diag.Register("MCP_SERVER_SHUTDOWN_FORCED", diag.Warning,
		"the MCP server did not exit when its stdin was closed and had to be signalled")
	RuleRequestTimeout = diag.Register("MCP_REQUEST_TIMEOUT", diag.Error,
		"the MCP server did not answer a request within the time limit")
	RuleStdoutNoise = diag.Register("MCP_STDOUT_NOT_JSONRPC", diag.Error,
		"the MCP server wrote a stdout line that is not a JSON-RPC message")
	RuleUnsolicited = diag.Register("MCP_UNSOLICITED_RESPONSE", diag.Error,
		"the MCP server sent a response to a request the client never sent; it was discarded")
	RuleDiscoveryTimeout = diag.Register("MCP_DISCOVERY_TIMEOUT", diag.Error,
		"discovery (initialize and every tools/list page) did not finish within its overall time limit")
	RuleInitialize = diag.Register("MCP_INITIALIZE_FAILED", diag.Error,
		"the MCP server answered initialize with an error or a malformed result")
	RuleProtocolVersion = diag.Register("MCP_PROTOCOL_VERSION", diag.Error,
		"initialize did not negotiate the protocol version asked for")
	RuleToolsList = diag.Register("MCP_TOOLS_LIST_FAILED", diag.Error,
		"the MCP server answered tools/list with an error or a malformed result")
)

// Rules about the shape of one tools/list entry.
var (
	RuleToolName = diag.Register("MCP_TOOL_NAME", diag.Error,
		"a tool name is not 1-64 characters of A-Z a-z 0-9 _ . - (SEP-986)")
	RuleToolNameDuplicate = diag.Register("MCP_TOOL_NAME_DUPLICATE", diag.Error,
		"two tools/list entries have the same name")
	RuleToolTitle = diag.Register("MCP_TOOL_TITLE", diag.Error,
		"a tool has no non-empty title")
	RuleToolDescription = diag.Register("MCP_TOOL_DESCRIPTION", diag.Error,
		"a tool has no non-empty description")
	RuleToolAnnotations = diag.Register("MCP_TOOL_ANNOTATIONS", diag.Error,
		"a tool does not declare readOnlyHint, destructiveHint, idempotentHint and openWorldHint as booleans")
	RuleToolInputSchema = diag.Register("MCP_TOOL_INPUT_SCHEMA", diag.Error,
		"a tool's inputSchema is missing or not an object schema")
	RuleToolOutputSchema = diag.Register("MCP_TOOL_OUTPUT_SCHEMA", diag.Error,
		"a tool's outputSchema is present but not an object schema")
	RuleToolInputClosed = diag.Register("MCP_TOOL_INPUT_SCHEMA_CLOSED", diag.Error,
		"core-export-v1: a tool's inputSchema forbids additional properties; it must stay open")
	RuleToolOutputClosed = diag.Register("MCP_TOOL_OUTPUT_SCHEMA_CLOSED", diag.Error,
		"core-export-v1: a tool declares a closed outputSchema; declare none or an open one")
)
