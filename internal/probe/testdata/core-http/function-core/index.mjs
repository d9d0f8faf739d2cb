// The Functions of a core-export-v1 test package that answers without a
// network: each reads a Response it builds itself, as a Function reads the
// one fetch returns. CORE_FAULT plants mistakes (several, comma-separated,
// where they break different Tools): no-status returns the parsed body
// without httpStatus, leak-token puts SHELF_TOKEN into the result,
// unmasked shows it in the dry-run request.
import { readHttpResponse } from '../portable-agent-result.mjs';

const faults = (process.env.CORE_FAULT ?? '').split(',');
const fault = (name) => faults.includes(name);

export async function listShelves(input = {}) {
  const response = new Response(JSON.stringify({ shelves: [{ id: 's-1', room: input.room ?? 'north' }] }), { status: 200 });
  if (fault('no-status')) {
    return response.json();
  }
  const result = await readHttpResponse(response);
  return fault('leak-token') ? { ...result, token: process.env.SHELF_TOKEN } : result;
}

export async function addShelf(input = {}) {
  const authorization = fault('unmasked') ? `Token ${process.env.SHELF_TOKEN}` : '[credential, not shown]';
  if (process.env.CODE2SKILL_DRY_RUN === '1') {
    return { dryRun: true, request: { method: 'POST', url: 'https://shelves.invalid/shelves', headers: { authorization }, body: { label: input.label } } };
  }
  return readHttpResponse(new Response('{"id":"s-2"}', { status: 201 }));
}
