// entry.mjs: the entry point code2skill bundles into client.mjs, the
// official MCP TypeScript SDK Client (the pinned @modelcontextprotocol/sdk)
// and the driver in one self-contained file that imports only node:
// built-ins. CODE2SKILL_CLIENT_VERSION is the version of the SDK the
// bundle holds, set when it is built.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

import { serve } from './driver.mjs';

serve({ Client, StdioClientTransport, ElicitRequestSchema, name: 'typescript-sdk Client', version: CODE2SKILL_CLIENT_VERSION });
