// Stdio entry of the field-notes MCP server. Standard output carries
// JSON-RPC only: anything else must be written to standard error.

import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createServer } from './server.mjs';

await createServer().connect(new StdioServerTransport());
