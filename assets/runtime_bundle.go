package assets

import _ "embed"

//go:generate go run ../internal/mcpruntime/genruntime -root .. -out strict/runtime.mjs

//go:embed strict/runtime.mjs
var mcpRuntime string

// MCPRuntime is mcp-tool/runtime.mjs, the self-contained MCP runtime of a
// strict package: RuntimeEntry bundled with the pinned
// @modelcontextprotocol/sdk and zod (and their dependencies) into one ES
// module that imports only node: built-ins, behind a banner naming every
// bundled package, its version and its licence. It is generated
// (go generate ./assets, which needs "npm ci" at the repository root) and
// copied byte-for-byte by compile; internal/mcpruntime's tests rebuild it
// and fail when it differs. Unlike the other assets it sits in mcp-tool/,
// not at the package root, and Runtime does not list it.
var MCPRuntime = Asset{"mcp-tool/runtime.mjs", StrictProfile, "strict/runtime.mjs", mcpRuntime}
