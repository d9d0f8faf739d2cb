// mcp-relay.mjs: a small relay between MCP's stdio and Streamable HTTP
// transports, built on the pinned SDK, for the conformance suite, which
// speaks Streamable HTTP only.
//
//   node mcp-relay.mjs serve <command> [args...]
//     serves Streamable HTTP on 127.0.0.1 (a free port; the first line of
//     stdout is {"url": "http://127.0.0.1:<port>/mcp"}) and starts, for
//     each HTTP session, a stdio server of its own with the command, in
//     this process's environment: a session's messages go to its server
//     unchanged, and the server's come back on that session.
//
//   node mcp-relay.mjs connect <url>
//     is a stdio server to its parent whose messages are those of the
//     Streamable HTTP server at url: a stdio client (code2skill's own)
//     meets an HTTP server through it.

import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

const [mode, ...rest] = process.argv.slice(2);

// pipe passes every message of a to b and back, and closes each when the
// other closes.
function pipe(a, b) {
  a.onmessage = (message) => b.send(message).catch((error) => console.error('relay:', error.message));
  b.onmessage = (message) => a.send(message).catch((error) => console.error('relay:', error.message));
  a.onclose = () => b.close();
  b.onclose = () => a.close();
  a.onerror = (error) => console.error('relay:', error.message);
  b.onerror = (error) => console.error('relay:', error.message);
}

async function body(req) {
  const chunks = [];
  for await (const chunk of req) {
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : JSON.parse(text);
}

function refuse(res, status, message) {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

async function serve([command, ...args]) {
  const sessions = new Map();
  const http = createServer(async (req, res) => {
    try {
      const parsed = req.method === 'POST' ? await body(req) : undefined;
      const id = req.headers['mcp-session-id'];
      if (id !== undefined) {
        const transport = sessions.get(id);
        if (transport === undefined) {
          refuse(res, 404, 'no such session');
          return;
        }
        await transport.handleRequest(req, res, parsed);
        return;
      }
      if (req.method !== 'POST' || !isInitializeRequest(parsed)) {
        refuse(res, 400, 'a session starts with an initialize request');
        return;
      }
      const server = new StdioClientTransport({ command, args, env: { ...process.env }, stderr: 'inherit' });
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => sessions.set(sid, transport),
      });
      pipe(transport, server);
      await transport.start();
      const closed = transport.onclose;
      transport.onclose = () => {
        sessions.delete(transport.sessionId);
        closed();
      };
      await server.start();
      await transport.handleRequest(req, res, parsed);
    } catch (error) {
      if (!res.headersSent) {
        refuse(res, 400, String(error?.message ?? error));
      }
    }
  });
  http.listen(0, '127.0.0.1', () => {
    process.stdout.write(JSON.stringify({ url: `http://127.0.0.1:${http.address().port}/mcp` }) + '\n');
  });
  const stop = () => {
    http.close();
    for (const transport of sessions.values()) {
      transport.close();
    }
    setTimeout(() => process.exit(0), 1000).unref();
  };
  process.stdin.on('end', stop);
  process.stdin.resume();
  process.on('SIGTERM', stop);
}

async function connect([url]) {
  const remote = new StreamableHTTPClientTransport(new URL(url));
  const local = new StdioServerTransport();
  pipe(local, remote);
  await remote.start();
  await local.start();
}

if (mode === 'serve') {
  await serve(rest);
} else if (mode === 'connect') {
  await connect(rest);
} else {
  console.error('usage: mcp-relay.mjs serve <command> [args...] | connect <url>');
  process.exit(2);
}
