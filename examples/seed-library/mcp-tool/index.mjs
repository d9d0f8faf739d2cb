// Stdio entry of the seed-library MCP server. Nothing but JSON-RPC may be
// written to stdout: diagnostics go to stderr.

import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createServer } from './server.mjs';

await createServer().connect(new StdioServerTransport());
