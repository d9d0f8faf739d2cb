package jsmod

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const serverModule = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { findOrders, cancelOrder as cancel } from '../function-core/index.mjs';
import * as core from '../function-core/other.mjs';

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true };

export function createServer(context = {}) {
  const server = new McpServer({ name: 'shop', version: '1.0.0' });
  server.registerTool(
    'find_orders',
    {
      title: 'Find orders',
      description: 'Finds orders. ' + ' Read-only.',
      inputSchema: z.looseObject({ query: z.string(), 'page-size': z.number() }),
      annotations: READ,
    },
    async (input) => call(findOrders, input, context),
  );
  server.registerTool('cancel_order', {
    description: describe('x'),
    annotations: { readOnlyHint: false, destructiveHint: false },
    inputSchema: { orderId: z.string() },
  }, (input, extra) => cancel(input, { ...context, signal: extra.signal }));
  server.registerTool(name, {}, core.other);
  return server;
}
`

func TestToolRegistrations(t *testing.T) {
	m := mustParse(t, serverModule)
	got := []string{}
	for _, r := range m.ToolRegistrations() {
		got = append(got, fmt.Sprintf("%q@%d:%d desc=%q(%v)@%d inputs=%v hints=%v uses=%v",
			r.Name, r.Pos.Line, r.Pos.Column, r.Description, r.DescriptionSet, r.DescriptionPos.Line, r.Inputs, r.Hints, r.Uses))
	}
	want := []string{
		`"find_orders"@11:5 desc="Finds orders.  Read-only."(true)@14 inputs=[query page-size] ` +
			`hints=map[destructiveHint:{false {6 53}} idempotentHint:{true {6 76}} openWorldHint:{true {6 97}} readOnlyHint:{true {6 30}}] ` +
			`uses=[{findOrders ../function-core/index.mjs findOrders}]`,
		`"cancel_order"@20:23 desc=""(false)@0 inputs=[orderId] hints=map[destructiveHint:{false {22 58}} readOnlyHint:{false {22 34}}] ` +
			`uses=[{cancel ../function-core/index.mjs cancelOrder}]`,
		`""@25:10 desc=""(false)@0 inputs=[] hints=map[] uses=[{core ../function-core/other.mjs *}]`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestFunctionLiterals(t *testing.T) {
	m := mustParse(t, `export async function findOrders(input, context) {
  return send(context, { method: 'GET', path: 'orders' });
}
export const cancelOrder = async (input, context) => {
  const request = { method: "DELETE", path: 'orders/' + input.id };
  return send(context, request);
};
export function other() { return 1; }
`)
	for _, tc := range []struct {
		name string
		want []Pos
	}{
		{"findOrders", []Pos{{2, 34}, {2, 47}}},
		{"cancelOrder", []Pos{{5, 29}, {5, 45}}},
		{"other", nil},
		{"missing", nil},
	} {
		if diff := cmp.Diff(tc.want, m.FunctionLiterals(tc.name)); diff != "" {
			t.Errorf("FunctionLiterals(%s) (-want +got)\n%s", tc.name, diff)
		}
	}
}
