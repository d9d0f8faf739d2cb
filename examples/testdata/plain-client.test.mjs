// The strict sample in a plain MCP client: the official SDK Client starts
// the package exactly as MCP-SETUP.md's mcpServers entry registers it
// (command, arguments, and only the environment variables it names), and
// talks to the lending desk the Go test serves. The desk counts every
// request it receives (GET /__received), so each test can say what reached
// it, or that nothing did.
//
// PLAIN_PACKAGE is the package directory, PLAIN_BASE_URL the desk's base
// URL, PLAIN_TOKEN a member's token the desk accepts.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const pkg = process.env.PLAIN_PACKAGE;
const values = { LENDING_DESK_BASE_URL: process.env.PLAIN_BASE_URL, LENDING_DESK_TOKEN: process.env.PLAIN_TOKEN };

// registration reads MCP-SETUP.md's mcpServers entry: the command, the
// arguments with the documented package path replaced by the real one,
// and the names of the variables it sets; and, from its table of
// variables, the one the registration leaves out: the dry-run variable,
// set only when needed.
function registration() {
  const doc = readFileSync(join(pkg, 'MCP-SETUP.md'), 'utf8');
  const documented = [...doc.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((m) => m[1]);
  for (const [, block] of doc.matchAll(/```json\n([\s\S]*?)```/g)) {
    const config = JSON.parse(block);
    if (config.mcpServers === undefined) {
      continue;
    }
    const [entry] = Object.values(config.mcpServers);
    const names = Object.keys(entry.env);
    const optional = documented.filter((n) => !names.includes(n));
    assert.equal(optional.length, 1, `MCP-SETUP.md documents ${documented}; the registration sets ${names}`);
    return {
      command: entry.command,
      args: entry.args.map((a) => a.replace('/absolute/path/to/equipment-lending', pkg)),
      names,
      dryRunVariable: optional[0],
    };
  }
  throw new Error('MCP-SETUP.md has no mcpServers registration');
}

const reg = registration();

async function received() {
  return (await fetch(`${values.LENDING_DESK_BASE_URL}/__received`)).json();
}

// connect starts the server as MCP-SETUP.md registers it, with env given
// for the names it lists (a value of undefined leaves a name out). answer,
// when given, declares the elicitation capability and answers each form.
async function connect({ env = values, answer, dryRun = false } = {}) {
  assert.equal(reg.command, 'node');
  const set = {};
  for (const name of reg.names) {
    assert.ok(Object.hasOwn(values, name), `MCP-SETUP.md registers ${name}, which this test does not know`);
    if (env[name] !== undefined) {
      set[name] = env[name];
    }
  }
  if (dryRun) {
    set[reg.dryRunVariable] = '1';
  }
  const transport = new StdioClientTransport({ command: process.execPath, args: reg.args, env: set, stderr: 'pipe' });
  const client = new Client({ name: 'plain-client', version: '1' }, { capabilities: answer ? { elicitation: { form: {} } } : {} });
  const asked = [];
  if (answer) {
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params);
      return answer(request.params);
    });
  }
  await client.connect(transport);
  // A host lists the Tools first: the client then checks every result of
  // a Tool against the output schema it listed, error results included.
  const { tools } = await client.listTools();
  return { client, asked, tools };
}

function ok(result) {
  assert.equal(result.isError, false, JSON.stringify(result));
  return result.structuredContent.data;
}

// refused reads the structured Tool error of an error result, the JSON of
// its one text block (no structuredContent, which the client would check
// against the success schema), and checks its code.
function refused(result, code) {
  assert.equal(result.isError, true, JSON.stringify(result));
  assert.equal(result.structuredContent, undefined, JSON.stringify(result));
  assert.equal(result.content.length, 1, JSON.stringify(result));
  const error = JSON.parse(result.content[0].text);
  assert.deepEqual(Object.keys(error), ['code', 'message', 'details', 'retryable']);
  assert.equal(error.code, code, JSON.stringify(error));
  assert.equal(typeof error.message, 'string');
  assert.equal(typeof error.retryable, 'boolean');
  return error;
}

// call calls a Tool as hosts do, through callTool, which returns a result
// or throws.
const call = (client, name, args) => client.callTool({ name, arguments: args });
const fail = call;
const terms = { days: 2, note: 'plain client' };

describe('the strict sample in a plain MCP client', () => {
  it('lists its five Tools, calls every read and, with confirmation accepted, every write', async () => {
    let answer = { action: 'accept', content: { confirm: true } };
    const { client, asked } = await connect({ answer: () => answer });
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(),
        ['create_equipment_loan', 'list_lendable_equipment', 'quote_equipment_loan', 'remove_returned_loan', 'return_equipment_loan']);

      const { items } = ok(await call(client, 'list_lendable_equipment', {}));
      const item = items.find((i) => i.available);
      const { quote } = ok(await call(client, 'quote_equipment_loan', { itemId: item.itemId, terms }));
      const loan = ok(await call(client, 'create_equipment_loan', { quote, terms }));
      assert.equal(loan.status, 'active');
      assert.equal(asked.length, 0, 'the loan needs no confirmation');

      const before = await received();
      for (const action of ['decline', 'cancel']) {
        answer = { action };
        refused(await fail(client, 'return_equipment_loan', { loanId: loan.loanId }),
          action === 'decline' ? 'HOST_CONFIRMATION_DECLINED' : 'HOST_CONFIRMATION_CANCELLED');
      }
      assert.deepEqual(await received(), before, 'declined and cancelled returns reach nothing');
      assert.equal(asked.length, 2);
      assert.match(asked[0].message, new RegExp(loan.loanId), 'the member sees which loan');

      answer = { action: 'accept', content: { confirm: true } };
      const returned = ok(await call(client, 'return_equipment_loan', { loanId: loan.loanId }));
      assert.deepEqual([returned.loanId, returned.status], [loan.loanId, 'returned']);
      const after = await received();
      assert.equal(after[`POST /api/loans/${loan.loanId}/return`], 1, 'the accepted return was sent once');

      // The removal: the desk removes without asking and answers 204
      // without a body; the deployer requires the member's confirmation.
      for (const action of ['decline', 'cancel']) {
        answer = { action };
        refused(await fail(client, 'remove_returned_loan', { loanId: returned.loanId }),
          action === 'decline' ? 'HOST_CONFIRMATION_DECLINED' : 'HOST_CONFIRMATION_CANCELLED');
      }
      assert.deepEqual(await received(), after, 'declined and cancelled removals reach nothing');
      answer = { action: 'accept', content: { confirm: true } };
      const removed = await call(client, 'remove_returned_loan', { loanId: returned.loanId });
      assert.equal(removed.isError, false, JSON.stringify(removed));
      assert.deepEqual(removed.structuredContent, { status: 204, data: null });
      assert.deepEqual(JSON.parse(removed.content[0].text), { status: 204, data: null });
      assert.equal((await received())[`DELETE /api/loans/${loan.loanId}`], 1, 'the accepted removal was sent once');
      assert.equal(asked.length, 6, 'each return and removal asked the member');
    } finally {
      await client.close();
    }
  });

  it('refuses the return and the removal before dispatch in a client without elicitation, and another session\'s quote', async () => {
    const first = await connect();
    const second = await connect();
    try {
      const { items } = ok(await call(first.client, 'list_lendable_equipment', {}));
      const item = items.find((i) => i.available);
      const { quote } = ok(await call(first.client, 'quote_equipment_loan', { itemId: item.itemId, terms }));
      const before = await received();
      refused(await fail(second.client, 'create_equipment_loan', { quote, terms }), 'PROTECTED_OPERATION_MISSING');
      refused(await fail(second.client, 'return_equipment_loan', { loanId: 'loan-0001' }), 'HOST_CONFIRMATION_UNAVAILABLE');
      refused(await fail(second.client, 'remove_returned_loan', { loanId: 'loan-0001' }), 'HOST_CONFIRMATION_UNAVAILABLE');
      assert.deepEqual(await received(), before, 'nothing reached the desk');
      const loan = ok(await call(first.client, 'create_equipment_loan', { quote, terms }));
      assert.equal(loan.status, 'active', 'the session that was issued the quote borrows with it');
    } finally {
      await first.client.close();
      await second.client.close();
    }
  });

  // A missing credential is the next test's.
  it('returns a refused token, refused arguments and a dry-run write as results', async () => {
    const before = await received();
    const refusedToken = await connect({ env: { ...values, LENDING_DESK_TOKEN: 'not-a-member-token' } });
    try {
      const error = refused(await call(refusedToken.client, 'list_lendable_equipment', {}), 'AUTHORIZATION_REJECTED');
      assert.equal(error.details.category, 'authorization');
      const input = refused(await call(refusedToken.client, 'list_lendable_equipment', { category: 'hammers' }), 'INVALID_INPUT');
      assert.equal(input.details.category, 'input');
      assert.deepEqual(input.details.errors.map((e) => e.path), ['/category']);
    } finally {
      await refusedToken.client.close();
    }
    const dry = await connect({ dryRun: true });
    try {
      const listed = dry.tools.find((t) => t.name === 'create_equipment_loan');
      assert.deepEqual(listed.outputSchema.required, ['dryRun', 'validatedInput', 'operationPolicy', 'operationSummary']);
      const quote = { grantId: 'grant-dry-run', itemId: 'item-1', payloadDigest: '0'.repeat(64), expiresAt: '2030-01-01T00:00:00Z' };
      const result = await call(dry.client, 'create_equipment_loan', { quote, terms });
      assert.equal(result.isError, false, JSON.stringify(result));
      assert.equal(result.structuredContent.dryRun, true);
      assert.deepEqual(result.structuredContent.validatedInput, { quote, terms });
    } finally {
      await dry.client.close();
    }
    const after = await received();
    assert.equal(after['GET /api/equipment'] ?? 0, (before['GET /api/equipment'] ?? 0) + 1, 'only the read with the refused token reached the desk');
  });

  it('refuses every call without the deployment the registration names', async () => {
    const before = await received();
    for (const [name, code] of [['LENDING_DESK_BASE_URL', 'HOST_BASE_URL_MISSING'], ['LENDING_DESK_TOKEN', 'HOST_CREDENTIAL_MISSING']]) {
      const { client } = await connect({ env: { ...values, [name]: undefined } });
      try {
        refused(await fail(client, 'list_lendable_equipment', {}), code);
      } finally {
        await client.close();
      }
    }
    assert.deepEqual(await received(), before);
  });
});
