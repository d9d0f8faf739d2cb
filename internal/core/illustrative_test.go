package core

import (
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/diag"
)

const illustrativeServer = `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { findOrders } from '../function-core/index.mjs';
export function createServer(context = {}) {
  const server = new McpServer({ name: 'order-desk', version: '0.1.0' });
  server.registerTool('find_orders', { title: 'Find orders', description: 'Finds orders.' }, async (input) => findOrders(input, context));
  return server;
}
`

const illustrativeCore = `function optionalText(v) { return v == null ? undefined : String(v); }
export async function send(request, context) { return context.fetch(request.path); }
export async function findOrders(input = {}, context = {}) {
  return send({ method: 'GET', path: 'find-orders', query: { q: optionalText(input.query) } }, context);
}
`

func TestIllustrativeRequests(t *testing.T) {
	for _, tc := range []struct {
		name string
		fn   string
		want []*diag.Rule
	}{
		{"the scaffold's request", illustrativeCore, []*diag.Rule{RulePlaceholderRequest}},
		{"as an arrow", strings.Replace(strings.Replace(illustrativeCore, "export async function findOrders(input = {}, context = {}) {\n  return send(",
			"export const findOrders = async (input = {}, context = {}) =>\n  send(", 1), "context);\n}\n", "context);\n", 1),
			[]*diag.Rule{RulePlaceholderRequest}},
		{"another path", strings.Replace(illustrativeCore, "path: 'find-orders'", "path: 'orders'", 1), nil},
		{"another parameter", strings.Replace(illustrativeCore, "q: optionalText(input.query)", "status: optionalText(input.status)", 1), nil},
		{"more than the request", strings.Replace(illustrativeCore, "  return send(", "  const since = optionalText(input.since);\n  return send(", 1), nil},
		{"a body", strings.Replace(illustrativeCore, "query: {", "body: { since: 1 }, query: {", 1), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := testChecker(t, map[string]string{"mcp-tool/server.mjs": illustrativeServer, "function-core/index.mjs": tc.fn})
			c.checkScripts()
			c.checkIllustrativeRequests()
			wantRules(t, c, tc.want...)
			for _, d := range c.result.Diagnostics.Sorted() {
				if !strings.HasPrefix(d.Location(), "function-core/index.mjs:4:") || !strings.Contains(d.Message, `"find_orders"`) {
					t.Errorf("finding %v, want it at the path literal, naming the Tool", d)
				}
			}
		})
	}
}
