// driver.mjs: the official MCP TypeScript SDK Client, driven by code2skill
// over stdin and stdout, one JSON document per line, so that one node
// process holds every MCP session a verification needs.
//
// serve(sdk) runs the driver with an SDK's Client: sdk gives Client,
// StdioClientTransport, ElicitRequestSchema (absent in SDKs whose
// setRequestHandler takes the method name), and the name and version of
// the client that runs. Each session is configured as a host embeds the
// client: a StdioClientTransport starting the server with the command,
// arguments, working directory and environment of its registration, the
// elicitation capability (form mode) when the host supports it, and
// tools/list once connected, so that callTool judges every result as the
// host would (output schemas included). Nothing else is done to the
// results: what callTool returns, or the error it throws, is reported.
//
// Requests (each with an id the reply repeats):
//
//   {"op":"open","session":S,"command":C,"args":[...],"env":{...},"cwd":D,
//    "elicitation":true,"clientInfo":{"name":N,"version":V},"timeoutMs":T}
//     -> {"ok":{"protocolVersion":P,"serverInfo":{...},"tools":[...]}}
//   {"op":"call","session":S,"name":N,"arguments":{...},
//    "accept":[field...],"decline":[field...],"timeoutMs":T}
//     -> {"ok":{"result":{...}},"asked":[...]} or {"thrown":{...},"asked":[...]}
//   {"op":"close","session":S} -> {"ok":{"stderr":"..."}}
//
// A failure of a request is {"thrown":{"code":C,"message":M}}; a session
// whose open failed is closed. The first line the driver writes is
// {"ready":{"client":{"name":N,"version":V},"node":"vX"}}. The driver ends
// when its stdin ends, closing every session (each server's stdin first,
// as the stdio transport prescribes).

import { createInterface } from 'node:readline';

const stderrTail = 4000;

export function serve(sdk) {
  const sessions = new Map();
  const write = (message) => process.stdout.write(JSON.stringify(message) + '\n');

  function thrown(error) {
    return {
      code: typeof error?.code === 'number' ? error.code : null,
      name: error?.name ?? 'Error',
      message: String(error?.message ?? error),
    };
  }

  async function open(req) {
    if (sessions.has(req.session)) {
      throw new Error(`session ${req.session} is already open`);
    }
    const capabilities = req.elicitation ? { elicitation: { form: {} } } : {};
    const client = new sdk.Client(req.clientInfo, { capabilities });
    const session = { client, answers: { accept: [], decline: [] }, asked: [], stderr: '', protocolVersion: '' };
    if (req.elicitation) {
      const handler = async (request) => {
        const params = request.params ?? {};
        session.asked.push(params);
        const fields = Object.keys(params.requestedSchema?.properties ?? {});
        const field = fields.length === 1 ? fields[0] : '';
        if (session.answers.accept.includes(field)) {
          return { action: 'accept', content: { [field]: true } };
        }
        if (session.answers.decline.includes(field)) {
          return { action: 'decline' };
        }
        return { action: 'cancel' };
      };
      if (sdk.ElicitRequestSchema) {
        client.setRequestHandler(sdk.ElicitRequestSchema, handler);
      } else {
        client.setRequestHandler('elicitation/create', handler);
      }
    }
    const transport = new sdk.StdioClientTransport({
      command: req.command,
      args: req.args,
      env: req.env,
      cwd: req.cwd,
      stderr: 'pipe',
    });
    // The client tells a transport the negotiated version through this
    // hook (HTTP transports send it as a header); stdio has no use for it.
    transport.setProtocolVersion = (version) => {
      session.protocolVersion = version;
    };
    transport.stderr?.on('data', (chunk) => {
      session.stderr = (session.stderr + chunk.toString()).slice(-stderrTail);
    });
    sessions.set(req.session, session);
    try {
      await client.connect(transport, { timeout: req.timeoutMs });
      const { tools } = await client.listTools(undefined, { timeout: req.timeoutMs });
      return {
        protocolVersion: client.getNegotiatedProtocolVersion?.() ?? session.protocolVersion,
        serverInfo: client.getServerVersion() ?? null,
        tools,
      };
    } catch (error) {
      await close(req);
      error.stderr = session.stderr;
      throw error;
    }
  }

  async function call(req) {
    const session = sessions.get(req.session);
    if (session === undefined) {
      throw new Error(`no session ${req.session}`);
    }
    session.answers = { accept: req.accept ?? [], decline: req.decline ?? [] };
    session.asked = [];
    try {
      const result = await session.client.callTool({ name: req.name, arguments: req.arguments }, undefined, { timeout: req.timeoutMs });
      return { reply: { ok: { result } }, asked: session.asked };
    } catch (error) {
      return { reply: { thrown: thrown(error) }, asked: session.asked };
    }
  }

  async function close(req) {
    const session = sessions.get(req.session);
    if (session === undefined) {
      return { stderr: '' };
    }
    sessions.delete(req.session);
    await session.client.close().catch(() => {});
    return { stderr: session.stderr };
  }

  async function handle(line) {
    let req;
    try {
      req = JSON.parse(line);
    } catch (error) {
      write({ id: null, thrown: thrown(error) });
      return;
    }
    try {
      switch (req.op) {
        case 'open':
          write({ id: req.id, ok: await open(req) });
          return;
        case 'call': {
          const { reply, asked } = await call(req);
          write({ id: req.id, ...reply, asked });
          return;
        }
        case 'close':
          write({ id: req.id, ok: await close(req) });
          return;
        default:
          throw new Error(`unknown op ${JSON.stringify(req.op)}`);
      }
    } catch (error) {
      write({ id: req.id, thrown: thrown(error), stderr: error?.stderr ?? '' });
    }
  }

  const pending = new Set();
  const input = createInterface({ input: process.stdin, crlfDelay: Infinity });
  input.on('line', (line) => {
    if (line.trim() === '') {
      return;
    }
    const p = handle(line).finally(() => pending.delete(p));
    pending.add(p);
  });
  input.on('close', async () => {
    await Promise.allSettled([...pending]);
    await Promise.allSettled([...sessions.keys()].map((session) => close({ session })));
    process.exit(0);
  });
  write({ ready: { client: { name: sdk.name, version: sdk.version }, node: process.version } });
}
