// The seed-library MCP server: one literal registration per capability, each
// calling its Function and projecting the obtained result unchanged.
//
// Input schemas are open on purpose: they describe the known fields to the
// agent without rejecting a number sent as a string, a null, a missing field
// or an extra one. The seed library's backend remains the authority on what
// is valid, and its answer reaches the agent as httpStatus + bodyText.

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { searchSeedVarieties, reserveSeedPackets, listMyReservations, cancelReservation } from '../function-core/index.mjs';
import { toAgentResult, toAgentError } from '../portable-agent-result.mjs';

const looseText = (description) => z.union([z.string(), z.number()]).nullish().describe(description);
const looseCount = (description) => z.union([z.number(), z.string()]).nullish().describe(description);

/**
 * Calls a Function and turns what it obtained, or the failure to obtain
 * anything, into a Tool result. The MCP request's abort signal reaches the
 * Function, so a call the host cancels stops its request.
 */
async function call(fn, input, context, extra) {
  try {
    return toAgentResult(await fn(input, { ...context, signal: extra?.signal }));
  } catch (error) {
    return toAgentError(error);
  }
}

/**
 * Creates the server. context is passed to every Function (tests inject
 * fetch and env through it; the stdio entry passes nothing).
 */
export function createServer(context = {}) {
  const server = new McpServer({ name: 'seed-library', version: '1.0.0' });

  server.registerTool(
    'search_seed_varieties',
    {
      title: 'Search seed varieties',
      description:
        'Lists the seed varieties of the community seed library catalog, optionally filtered by a search phrase and a sowing month. ' +
        'Read-only. Returns the catalog service answer unchanged as httpStatus and bodyText; each variety record in the body ' +
        '(varietyId, lotCode, name, packetsAvailable …) can be passed whole as selectedVariety to reserve_seed_packets.',
      inputSchema: z.looseObject({
        query: looseText('Words to look for in variety names and descriptions, e.g. "tomato" or "early pea". Optional.'),
        sowingMonth: looseCount('Month the seeds are sown in, 1–12. Optional.'),
      }),
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    async (input, extra) => call(searchSeedVarieties, input, context, extra),
  );

  server.registerTool(
    'reserve_seed_packets',
    {
      title: 'Reserve seed packets',
      description:
        'Reserves packets of one seed variety for pickup at the seed library. Pass the variety record the member selected from ' +
        'search_seed_varieties whole as selectedVariety (its varietyId and lotCode both go into the reservation), the number of ' +
        'packets and the pickup date and time. Creates a reservation for the member the host signed in unless CODE2SKILL_DRY_RUN=1, ' +
        'in which case it returns the request it would send (the token not shown). Returns the reservation service answer unchanged ' +
        'as httpStatus and bodyText: 201 with the reservation, 409 when fewer packets are left than asked, 401 without a valid token.',
      inputSchema: z.looseObject({
        selectedVariety: z
          .looseObject({
            varietyId: looseText('Identifier of the selected variety, from its search record.'),
            lotCode: looseText('Seed lot of the selected variety, from its search record.'),
          })
          .nullish()
          .describe('The variety record the member selected from search_seed_varieties, passed whole.'),
        packetCount: looseCount('Number of packets to reserve.'),
        pickupDate: looseText('Pickup day, YYYY-MM-DD.'),
        pickupTime: looseText('Pickup time of day, HH:MM (24-hour). Optional; midnight when left out.'),
        note: looseText('A note for the volunteers preparing the packets. Optional.'),
      }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    },
    async (input, extra) => call(reserveSeedPackets, input, context, extra),
  );

  server.registerTool(
    'list_my_reservations',
    {
      title: 'List my reservations',
      description:
        'Lists the reservations of the member the host signed in, newest first, optionally only those in one state. Read-only. ' +
        'Returns the reservation service answer as httpStatus and bodyText; each reservation (reservationId, varietyName, ' +
        'packetCount, pickupAt, status) can be passed by its reservationId to cancel_reservation. The member session token the ' +
        'service repeats in its answer (member.sessionToken) is removed; everything else is unchanged. A 401 means the host has ' +
        'no valid token for the member.',
      inputSchema: z.looseObject({
        status: looseText('Only reservations in this state: active, collected or cancelled. Optional; all when left out.'),
      }),
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
    async (input, extra) => call(listMyReservations, input, context, extra),
  );

  server.registerTool(
    'cancel_reservation',
    {
      title: 'Cancel a reservation',
      description:
        'Cancels one of the member\'s active reservations by its reservationId (from list_my_reservations): the packets go back ' +
        'on the shelf for anyone to reserve, and a cancelled reservation cannot be restored. Unless CODE2SKILL_DRY_RUN=1, in which ' +
        'case it returns the request it would send. Returns the reservation service answer unchanged as httpStatus and bodyText ' +
        '(404 when the reservation is not the member\'s or does not exist, 409 when it was already collected).',
      inputSchema: z.looseObject({
        reservationId: looseText('Identifier of the reservation to cancel, from list_my_reservations.'),
      }),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
    },
    async (input, extra) => call(cancelReservation, input, context, extra),
  );

  return server;
}
