package jsmod

import (
	"fmt"
	"path"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// program parses modules by path and resolves relative imports among them.
func program(t *testing.T, files map[string]string) (map[string]*Module, ModuleResolver) {
	t.Helper()
	mods := map[string]*Module{}
	for name, src := range files {
		m, ds := Parse(name, []byte(src))
		if m == nil {
			t.Fatalf("%s: %v", name, ds)
		}
		mods[name] = m
	}
	return mods, func(from *Module, spec string) *Module {
		return mods[path.Clean(path.Join(path.Dir(from.File), spec))]
	}
}

func methodsOf(t *testing.T, files map[string]string) map[string][]string {
	t.Helper()
	mods, resolve := program(t, files)
	out := map[string][]string{}
	for _, r := range mods["mcp-tool/server.mjs"].ToolRegistrations() {
		got := []string{}
		for _, m := range mods["mcp-tool/server.mjs"].RequestMethods(r, resolve) {
			got = append(got, fmt.Sprintf("%s %s:%d:%d", m.Method, m.File, m.Pos.Line, m.Pos.Column))
		}
		out[r.Name] = got
	}
	return out
}

const serverPrelude = "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\n" +
	"import * as core from '../function-core/index.mjs';\n"

func TestRequestMethods(t *testing.T) {
	for _, tc := range []struct {
		name   string
		server string
		core   string
		want   map[string][]string
	}{
		{
			name: "literal in the Function",
			server: "import { listItems } from '../function-core/index.mjs';\n" +
				"const server = new McpServer({ name: 'x', version: '1' });\n" +
				"server.registerTool('list_items', {}, async (input) => listItems(input));\n",
			core: "export async function listItems(input) {\n  return fetch('u', { method: 'GET' });\n}\n",
			want: map[string][]string{"list_items": {"GET function-core/index.mjs:2:31"}},
		},
		{
			name: "a constant passed to a helper",
			server: "import { deleteComment } from '../function-core/index.mjs';\n" +
				"const server = new McpServer({ name: 'x', version: '1' });\n" +
				"server.registerTool('delete_comment', {}, async (input, extra) => call(deleteComment, input, extra));\n" +
				"async function call(fn, input, extra) { return fn(input, { signal: extra?.signal }); }\n",
			core: "function send(request, context) {\n" +
				"  const method = request.method ?? 'GET';\n" +
				"  return fetch(request.path, { method, signal: context.signal });\n" +
				"}\n" +
				"function followWrite(method, path, context) { return send({ method, path }, context); }\n" +
				"export async function deleteComment(input, context = {}) {\n" +
				"  return followWrite('DELETE', `comments/${input.id}`, context);\n" +
				"}\n",
			want: map[string][]string{"delete_comment": {"GET function-core/index.mjs:2:36", "DELETE function-core/index.mjs:7:22"}},
		},
		{
			name: "a method the handler fixes",
			server: "import { followWrite } from '../function-core/index.mjs';\n" +
				"const server = new McpServer({ name: 'x', version: '1' });\n" +
				"server.registerTool('remove_item', {}, async (input) => followWrite(`DELETE`, input));\n" +
				"server.registerTool('update_item', {}, async (input) => followWrite(VERBS.update, input));\n" +
				"const VERBS = { update: 'patch' };\n",
			core: "export const followWrite = async (verb, input) => fetch(input.path, { method: verb.toUpperCase() });\n",
			want: map[string][]string{
				"remove_item": {"DELETE mcp-tool/server.mjs:3:69"},
				"update_item": {"PATCH mcp-tool/server.mjs:5:25"},
			},
		},
		{
			name: "alternatives and an object parameter",
			server: serverPrelude +
				"const server = new McpServer({ name: 'x', version: '1' });\n" +
				"server.registerTool('save_item', {}, async (input) => core.saveItem(input));\n" +
				"server.registerTool('save_draft', {}, async (input) => saveDraft(input));\n" +
				"import { saveDraft } from '../function-core/index.mjs';\n",
			core: "const request = ({ method = 'GET', path }) => fetch(path, { method });\n" +
				"export function saveItem(input) { return request({ method: input.id ? 'PUT' : 'POST', path: 'items' }); }\n" +
				"function draft(input) { return request({ method: 'PUT', path: 'drafts' }); }\n" +
				"export { draft as saveDraft };\n",
			want: map[string][]string{
				// core.saveItem is read through a namespace import, which is not followed.
				"save_item":  {},
				"save_draft": {"PUT function-core/index.mjs:3:50"},
			},
		},
		{
			name: "nothing known",
			server: "import { lookUp } from '../function-core/index.mjs';\n" +
				"const server = new McpServer({ name: 'x', version: '1' });\n" +
				"server.registerTool('look_up', {}, async (input) => lookUp(input));\n",
			core: "export function lookUp(input) { return fetch(input.path, { method: input.method }); }\n",
			want: map[string][]string{"look_up": {}},
		},
		{
			name: "recursion and deep chains end",
			server: "import { a } from '../function-core/index.mjs';\n" +
				"const server = new McpServer({ name: 'x', version: '1' });\n" +
				"server.registerTool('deep', {}, async (input) => a('DELETE'));\n",
			core: "export function a(m) { return b(m); }\nfunction b(m) { return a(m) || c(m); }\n" +
				"function c(m) { return d(m); }\nfunction d(m) { return e(m); }\nfunction e(m) { return f(m); }\n" +
				"function f(m) { return g(m); }\nfunction g(m) { return fetch('u', { method: m }); }\n",
			want: map[string][]string{"deep": {}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := methodsOf(t, map[string]string{"mcp-tool/server.mjs": tc.server, "function-core/index.mjs": tc.core})
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("RequestMethods (-want +got)\n%s", diff)
			}
		})
	}
}
