// mcp-runtime-entry.mjs: the entry point a strict-export-v1 package bundles
// into mcp-tool/runtime.mjs, one self-contained file holding the official
// MCP SDK server and zod. The adapter imports exactly these three names:
//
//   import { McpServer, StdioServerTransport, z } from './runtime.mjs';
//
// Reviewed once and copied byte-for-byte; edit the original, never a copy.

export { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
export { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
export { z } from 'zod';
