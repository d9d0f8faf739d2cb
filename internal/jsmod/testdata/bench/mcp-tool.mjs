// MCP adapter of the garden-plots package: one Tool per capability of the
// fictional community garden's plot booking service, registered literally
// so that agents and validators can read them without running anything.

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import {
  listPlots,
  describePlot,
  reservePlot,
  cancelReservation,
  listWaitingList,
  joinWaitingList,
  recordHarvest,
} from '../function-core/index.mjs';
import { toolResult, toolError } from '../portable-agent-result.mjs';

const DRY_RUN = 'CODE2SKILL_DRY_RUN';
const PLOTS_BASE_URL = 'CODE2SKILL_GARDEN_PLOTS_BASE_URL';

/** The runtime context every Function receives: the environment and fetch. */
function runtimeContext() {
  return {
    env: process.env,
    fetch: globalThis.fetch,
    dryRun: process.env[DRY_RUN] === '1',
  };
}

const server = new McpServer({ name: 'garden-plots', version: '1.0.0' });

const plotId = z.string().describe('Identifier of a plot, as listed by list_plots (for example "B-12").');
const season = z
  .union([z.string(), z.number()])
  .optional()
  .describe('Growing season, a year such as 2026; defaults to the current season on the backend.');

server.registerTool(
  'list_plots',
  {
    title: 'Garden plots: list plots',
    description:
      'Lists the plots of the community garden with their size, sun exposure and whether they are free. ' +
      'Read-only. Use it before reserve_plot to let the member choose a plot.',
    inputSchema: {
      season,
      onlyFree: z.boolean().optional().describe('When true, only plots nobody has reserved.'),
      minSquareMetres: z.number().optional().describe('Smallest plot size to include, in square metres.'),
    },
    annotations: { readOnlyHint: true, openWorldHint: true },
  },
  async (input, extra) => {
    try {
      const result = await listPlots(input, runtimeContext(extra));
      return toolResult(result);
    } catch (error) {
      return toolError(error);
    }
  },
);

server.registerTool(
  'describe_plot',
  {
    title: 'Garden plots: describe a plot',
    description:
      'Returns everything the service knows about one plot: soil notes, water access, neighbours and ' +
      'its reservation history. Read-only.',
    inputSchema: { plotId, season },
    annotations: { readOnlyHint: true, openWorldHint: true },
  },
  async (input, extra) => {
    try {
      return toolResult(await describePlot(input, runtimeContext(extra)));
    } catch (error) {
      return toolError(error);
    }
  },
);

server.registerTool(
  'reserve_plot',
  {
    title: 'Garden plots: reserve a plot',
    description:
      'Reserves a free plot for a member for one season. Writes: the reservation is created on the ' +
      'backend unless CODE2SKILL_DRY_RUN is "1". Pass the plot chosen from list_plots whole.',
    inputSchema: {
      plot: z
        .object({
          plotId: z.string(),
          bed: z.string().optional(),
        })
        .passthrough()
        .describe('The plot record the member selected, passed as returned by list_plots.'),
      memberNumber: z.string().describe('Membership number printed on the member card.'),
      season,
      note: z.string().optional().describe('Free text for the garden coordinator.'),
    },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  },
  async (input, extra) => {
    try {
      return toolResult(await reservePlot(input, runtimeContext(extra)));
    } catch (error) {
      return toolError(error);
    }
  },
);

server.registerTool(
  'cancel_reservation',
  {
    title: 'Garden plots: cancel a reservation',
    description:
      'Cancels a reservation the member holds. Writes: the plot becomes free for the waiting list. ' +
      'Needs the reservation number returned by reserve_plot.',
    inputSchema: {
      reservationNumber: z.string().describe('Number of the reservation to cancel.'),
      reason: z.string().optional(),
    },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  },
  async (input, extra) => {
    try {
      return toolResult(await cancelReservation(input, runtimeContext(extra)));
    } catch (error) {
      return toolError(error);
    }
  },
);

server.registerTool(
  'list_waiting_list',
  {
    title: 'Garden plots: list the waiting list',
    description: 'Lists the members waiting for a plot, oldest request first. Read-only.',
    inputSchema: { season },
    annotations: { readOnlyHint: true, openWorldHint: true },
  },
  async (input, extra) => {
    try {
      return toolResult(await listWaitingList(input, runtimeContext(extra)));
    } catch (error) {
      return toolError(error);
    }
  },
);

server.registerTool(
  'join_waiting_list',
  {
    title: 'Garden plots: join the waiting list',
    description:
      'Adds a member to the waiting list of a season, optionally with plot preferences. Writes.',
    inputSchema: {
      memberNumber: z.string(),
      season,
      preferences: z
        .array(z.string())
        .optional()
        .describe('Preferred plot identifiers, most wanted first.'),
    },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  },
  async (input, extra) => {
    try {
      return toolResult(await joinWaitingList(input, runtimeContext(extra)));
    } catch (error) {
      return toolError(error);
    }
  },
);

server.registerTool(
  'record_harvest',
  {
    title: 'Garden plots: record a harvest',
    description:
      'Records what a plot produced, for the garden yearly report. Writes. Weights are in kilograms.',
    inputSchema: {
      plotId,
      crop: z.string().describe('Crop name as the member calls it, e.g. "runner beans".'),
      kilograms: z.number().describe('Harvested weight in kilograms.'),
      harvestedOn: z.string().optional().describe('Date of the harvest, YYYY-MM-DD.'),
    },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  },
  async (input, extra) => {
    try {
      return toolResult(await recordHarvest(input, runtimeContext(extra)));
    } catch (error) {
      return toolError(error);
    }
  },
);

// Helpers shared by the Functions when they run inside this adapter.

/** Joins the configured base URL and a path, refusing to run without one. */
export function serviceUrl(path, env = process.env) {
  const base = env[PLOTS_BASE_URL];
  if (typeof base !== 'string' || base.trim() === '') {
    throw new Error(`${PLOTS_BASE_URL} is not set: configure the garden service's base URL`);
  }
  return new URL(path, base.trim().replace(/\/*$/, '/'));
}

/** Normalises a loosely typed season ("2026", 2026, null) for the query string. */
export function seasonParam(value) {
  if (value === undefined || value === null || value === '') return undefined;
  const n = Number(value);
  return Number.isInteger(n) ? String(n) : String(value).trim();
}

/** Reads a response the way the agent should see it: status and raw body. */
export async function readResponse(response) {
  const bodyText = await response.text();
  let body;
  try {
    body = bodyText === '' ? null : JSON.parse(bodyText);
  } catch {
    body = undefined;
  }
  return {
    httpStatus: response.status,
    contentType: response.headers.get('content-type') ?? undefined,
    body,
    bodyText: body === undefined ? bodyText : undefined,
  };
}

class RequestPlan {
  #method;
  #url;
  #headers = new Map();
  #body;

  constructor(method, url) {
    this.#method = method;
    this.#url = url;
  }

  header(name, value) {
    if (value !== undefined) this.#headers.set(name.toLowerCase(), String(value));
    return this;
  }

  json(body) {
    this.#body = JSON.stringify(body, (key, value) => (value === undefined ? undefined : value));
    return this.header('content-type', 'application/json');
  }

  describe() {
    return {
      method: this.#method,
      url: this.#url.href,
      headers: Object.fromEntries([...this.#headers].sort(([a], [b]) => a.localeCompare(b))),
      body: this.#body === undefined ? undefined : JSON.parse(this.#body),
    };
  }

  async send(fetchImpl = globalThis.fetch) {
    const response = await fetchImpl(this.#url, {
      method: this.#method,
      headers: Object.fromEntries(this.#headers),
      body: this.#body,
    });
    return readResponse(response);
  }
}

export function plan(method, path, query = {}) {
  const url = serviceUrl(path);
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
  }
  return new RequestPlan(method, url).header('accept', 'application/json');
}

const weekdays = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** "2026-04-03" → "friday", undefined for anything that is not a date. */
export function weekdayOf(date) {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/u.exec(String(date ?? ''));
  if (!match) return undefined;
  const [, y, m, d] = match.map(Number);
  const day = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
  return weekdays[day];
}

export const limits = Object.freeze({
  maxPreferences: 5,
  maxNoteLength: 500,
  kilogramsPrecision: 0.01,
});

export function roundKilograms(kg) {
  const step = limits.kilogramsPrecision;
  return Math.round(Number(kg) / step) * step;
}

await server.connect(new StdioServerTransport());
