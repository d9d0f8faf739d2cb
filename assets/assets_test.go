package assets

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/jsmod"
	"github.com/code2skill/code2skill/internal/sandbox"
	"github.com/code2skill/code2skill/internal/testnode"
	"github.com/code2skill/code2skill/internal/testtier"
	"github.com/tdewolff/parse/v2/js"
)

// TestCoreNode runs the node --test suite of the core assets.
func TestCoreNode(t *testing.T) {
	t.Parallel()
	runNodeTests(t, "core", sandbox.DenyNetwork)
}

// TestStrictNode runs the node --test suite of the strict assets, but for
// the dispatcher's.
func TestStrictNode(t *testing.T) {
	t.Parallel()
	runNodeTests(t, "strict", sandbox.DenyNetwork)
}

// TestHTTPDispatchNode runs the node --test suites of the dispatcher and the
// host runtime, which serve HTTP on the loopback interface inside the node
// process: the sandbox's network namespace has no usable loopback, so this
// one process keeps the network.
func TestHTTPDispatchNode(t *testing.T) {
	t.Parallel()
	runNodeTests(t, "strict", sandbox.AllowNetwork)
}

// networkSuites are the test files that need the network (the loopback
// interface): they run only with sandbox.AllowNetwork, the others only
// without.
var networkSuites = []string{"portable-http-dispatch.test.mjs", "portable-host-runtime.test.mjs"}

// runNodeTests runs the test files of one asset set that match network in
// a single sandboxed node --test process and fails unless at least one test
// ran and none failed.
func runNodeTests(t *testing.T, set string, network sandbox.Network) {
	testnode.Node(t)
	testnode.Modules(t) // the suites import the pinned MCP SDK and zod
	files, err := filepath.Glob(filepath.Join(set, "test", "*.test.mjs"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files in %s/test", set)
	}
	argv := []string{"node", "--test", "--test-reporter=tap"}
	for _, f := range files {
		if slices.Contains(networkSuites, filepath.Base(f)) == (network == sandbox.AllowNetwork) {
			argv = append(argv, filepath.ToSlash(f))
		}
	}
	if len(argv) == 3 {
		t.Fatalf("no test files in %s/test for this network policy", set)
	}
	res, err := sandbox.Run(context.Background(), argv, sandbox.Options{Dir: ".", Timeout: testtier.Budget(t), Network: network, Binds: testnode.Binds(t)})
	if err != nil {
		t.Fatal(err)
	}
	out := string(res.Stdout) + string(res.Stderr)
	if res.ExitCode != 0 {
		t.Fatalf("node --test %s failed (exit %d):\n%s", set, res.ExitCode, out)
	}
	pass := testnode.TAPCount(out, "pass")
	if pass == 0 || testnode.TAPCount(out, "fail") != 0 {
		t.Fatalf("node --test %s: want passing tests and no failures:\n%s", set, out)
	}
	t.Logf("node --test %s: %d tests passed", set, pass)
}

// TestRuntimeListsEveryReviewedModule guards the list of runtime assets
// against the reviewed modules on disk: every module under core/ and
// strict/ (but the generated bundle, MCPRuntime, which
// internal/mcpruntime rebuilds and compares) is exactly one asset of
// Runtime(), whose Source() names it, so that a module added without
// being shipped, or an asset pointed at another file, fails here. The
// bytes of each are those go:embed read; the bundle is what needs a
// fresh build to be checked.
func TestRuntimeListsEveryReviewedModule(t *testing.T) {
	var modules []string
	for _, dir := range []string{"core", "strict"} {
		found, err := filepath.Glob(filepath.Join(dir, "*.mjs"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range found {
			if f = filepath.ToSlash(f); f != MCPRuntime.Source() {
				modules = append(modules, f)
			}
		}
	}
	var sources []string
	for _, a := range Runtime() {
		sources = append(sources, a.Source())
		data, err := os.ReadFile(a.Source())
		if err != nil {
			t.Errorf("%s: %v", a.Name(), err)
			continue
		}
		if !a.Matches(data) {
			t.Errorf("%s is not the module %s it names", a.Name(), a.Source())
		}
		if a.Matches(append(data, '\n')) {
			t.Errorf("%s matches a modified copy", a.Name())
		}
		if len(a.SHA256()) != 64 {
			t.Errorf("%s: SHA256() = %q", a.Name(), a.SHA256())
		}
	}
	slices.Sort(modules)
	slices.Sort(sources)
	if !slices.Equal(modules, sources) {
		t.Errorf("the reviewed modules %v are not the runtime assets' sources %v", modules, sources)
	}
}

// TestStrictContracts pins the names strict-export-v1 validation looks for
// in the reviewed strict assets and their exports.
func TestStrictContracts(t *testing.T) {
	for _, c := range []struct {
		asset Asset
		want  []string
	}{
		{ErrorNormalizer, []string{"export function normalizeToolError(error, operationPolicy)",
			"UNKNOWN_DISPATCH_OUTCOME", "code", "message", "details", "retryable", "outcomeKnown"}},
		{WorkflowGuard, []string{"export class GuardViolation", "export class UnknownDispatchOutcomeError",
			"export class PortableWorkflowGuard", "async dispatchWithPolicy(", "export function protectedWorkflowStateFor(",
			"bindingSources", "runtimeContext", "safeInput", "UNKNOWN_DISPATCH_OUTCOME", "automaticRetryAllowed = false"}},
		{HTTPDispatch, []string{"export async function dispatchHttp(url, options)", "HOST_AUTHENTICATION_REQUIRED",
			"code", "message", "details", "retryable", "outcomeKnown"}},
		{RuntimeEntry, []string{"McpServer", "StdioServerTransport", "export { z } from 'zod'"}},
		{AgentResult, []string{"export function toAgentResult(", "export function toAgentError(",
			"export async function readHttpResponse(", "export async function httpResultFromError("}},
	} {
		text := string(c.asset.Bytes())
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("%s lacks %q", c.asset.Name(), w)
			}
		}
	}
	// A guard never calls a verifier: the word may not even appear.
	if strings.Contains(strings.ToLower(string(WorkflowGuard.Bytes())), "verif") {
		t.Errorf("%s mentions a verifier", WorkflowGuard.Name())
	}
}

// TestHTTPDispatchSurface pins what the dispatcher offers: exactly two
// exports, the async functions dispatchHttp (a Function core's default) and
// dispatchHostHttp (the host runtime's), and nothing it imports. The
// runtime rules let a Function core import dispatchHttp only.
func TestHTTPDispatchSurface(t *testing.T) {
	m, ds := jsmod.Parse(HTTPDispatch.Name(), HTTPDispatch.Bytes())
	if m == nil {
		t.Fatal(ds)
	}
	if imports := m.Imports(); len(imports) != 0 {
		t.Errorf("the dispatcher imports %v; it uses node's globals only", imports)
	}
	var exports []string
	for _, stmt := range m.AST().BlockStmt.List {
		e, ok := stmt.(*js.ExportStmt)
		if !ok {
			continue
		}
		f, ok := e.Decl.(*js.FuncDecl)
		if !ok || f.Name == nil || !f.Async || e.Default {
			t.Errorf("an export other than an async function declaration: %s", e.String())
			continue
		}
		exports = append(exports, string(f.Name.Data))
	}
	if !slices.Equal(exports, []string{"dispatchHttp", "dispatchHostHttp"}) {
		t.Errorf("the dispatcher exports %v, want exactly dispatchHttp and dispatchHostHttp", exports)
	}
}

// TestShippedRuntimeStandsAlone checks that the mcp-tool/runtime.mjs a
// strict package ships (RuntimeEntry bundled; internal/mcpruntime checks
// that it is exactly that build) stands alone: it imports nothing but node:
// built-ins, and node, with no node_modules in reach, finds the three names
// in it and serves tools/list over stdio.
func TestShippedRuntimeStandsAlone(t *testing.T) {
	t.Parallel()
	testnode.Node(t)
	js := MCPRuntime.Bytes()
	mod, diags := jsmod.Parse("mcp-tool/runtime.mjs", js)
	if mod == nil {
		t.Fatalf("the bundle does not parse: %v", diags)
	}
	for _, imp := range mod.Imports() {
		if !strings.HasPrefix(imp.Specifier, "node:") {
			t.Errorf("the bundle still imports %q (%s)", imp.Specifier, imp.Kind)
		}
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "runtime.mjs"), js, 0o644); err != nil {
		t.Fatal(err)
	}
	const probe = `
import { PassThrough } from 'node:stream';
import * as runtime from './runtime.mjs';
const { McpServer, StdioServerTransport, z } = runtime;
const server = new McpServer({ name: 'bundle-check', version: '1.0.0' });
server.registerTool('sample_echo', {
  title: 'Echo',
  description: 'Echoes its input.',
  inputSchema: { text: z.string().optional() },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
}, async (input) => ({ content: [{ type: 'text', text: JSON.stringify(input) }] }));
const stdin = new PassThrough(), stdout = new PassThrough();
let out = '';
const replied = new Promise((resolve) => stdout.on('data', (c) => {
  out += c;
  if (out.includes('\n')) resolve();
}));
await server.connect(new StdioServerTransport(stdin, stdout));
stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) + '\n');
await replied;
console.log(JSON.stringify({ exports: Object.keys(runtime).sort(), reply: JSON.parse(out.split('\n')[0]) }));
process.exit(0);
`
	if err := os.WriteFile(filepath.Join(dir, "probe.mjs"), []byte(probe), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := sandbox.Run(context.Background(), []string{"node", "probe.mjs"}, sandbox.Options{Dir: dir, Timeout: testtier.Budget(t)})
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 0 {
		t.Fatalf("node could not use the bundle:\n%s%s", res.Stdout, res.Stderr)
	}
	var got struct {
		Exports []string
		Reply   struct {
			Result struct{ Tools []struct{ Name string } }
		}
	}
	if err := json.Unmarshal(res.Stdout, &got); err != nil {
		t.Fatalf("%v:\n%s", err, res.Stdout)
	}
	if strings.Join(got.Exports, ",") != "McpServer,StdioServerTransport,z" {
		t.Errorf("the bundle exports %v", got.Exports)
	}
	if len(got.Reply.Result.Tools) != 1 || got.Reply.Result.Tools[0].Name != "sample_echo" {
		t.Errorf("tools/list through the bundle: %s", res.Stdout)
	}
}
