package probe

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/assets"
	"github.com/code2skill/code2skill/examples"
	"github.com/code2skill/code2skill/internal/jsmod"
	"github.com/code2skill/code2skill/internal/pkgdir"
	"github.com/code2skill/code2skill/internal/testnode"
)

// benchTools is the size of the benchmark package.
const benchTools = 10

// benchPackage writes a strict package of benchTools local tools (every
// other one a write) with one literal registration each, and the case files
// that prove it: a --call and an --error-call per tool, a --dry-run-call per
// write tool.
func benchPackage(b *testing.B) (string, Options) {
	b.Helper()
	testnode.Node(b)
	dir := b.TempDir()
	pkg := filepath.Join(dir, "sample-bench")
	write := func(name string, data []byte) {
		p := filepath.Join(pkg, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	writeJSON := func(name string, v any) {
		data, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			b.Fatal(err)
		}
		write(name, data)
	}

	var capabilities, bundle, calls, errorCalls, dryRuns []map[string]any
	var adapter, functions strings.Builder
	adapter.WriteString(benchAdapterHead)
	for i := range benchTools {
		name := fmt.Sprintf("sample_tool_%02d", i)
		export := fmt.Sprintf("sampleTool%02d", i)
		policy := map[string]any{"sideEffect": "read", "idempotency": "safe", "automaticRetry": "read-only-bounded",
			"confirmation": "not-required", "unknownOutcome": "not-applicable"}
		if i%2 == 1 {
			policy = map[string]any{"sideEffect": "update", "idempotency": "idempotent", "automaticRetry": "never",
				"confirmation": "not-required", "unknownOutcome": "stop-and-reconcile"}
		}
		capabilities = append(capabilities, map[string]any{
			"toolName": name,
			"inputSchema": map[string]any{"type": "object", "additionalProperties": false, "required": []string{"value"},
				"properties": map[string]any{
					"value": map[string]any{"type": "string", "minLength": 1, "description": "Value to echo."},
					"mode":  map[string]any{"type": "string", "enum": []string{"plain", "loud"}},
				}},
			"outputSchema": map[string]any{"type": "object", "additionalProperties": false, "required": []string{"status", "data"},
				"properties": map[string]any{
					"status": map[string]any{"type": "integer", "enum": []int{200}},
					"data": map[string]any{"type": "object", "additionalProperties": false, "required": []string{"echo"},
						"properties": map[string]any{"echo": map[string]any{"type": "string"}}},
				}},
			"annotations": map[string]any{"readOnlyHint": i%2 == 0, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false},
			"errorContract": map[string]any{"codePath": []string{"code"}, "messagePath": []string{"message"},
				"detailsPath": []string{"details"}, "retryabilityPath": []string{"retryable"}},
			"operationPolicy":  policy,
			"operationSummary": map[string]any{"implementationKind": "local", "stepCount": 0},
		})
		bundle = append(bundle, map[string]any{"toolName": name})
		calls = append(calls, map[string]any{"name": name, "arguments": map[string]any{"value": "sample"}})
		errorCalls = append(errorCalls, map[string]any{"name": name, "arguments": map[string]any{"value": "fail"}})
		if i%2 == 1 {
			dryRuns = append(dryRuns, map[string]any{"name": name, "arguments": map[string]any{"value": "sample", "mode": "loud"}})
		}
		fmt.Fprintf(&functions, "export const %s = echo;\n", export)
		fmt.Fprintf(&adapter, "server.registerTool(%q, config(%q, %q, %q), callback(%q, fn.%s));\n",
			name, name, "Sample bench: tool "+name, "Echoes its value, or fails for \"fail\".", name, export)
	}
	adapter.WriteString("await server.connect(new StdioServerTransport());\n")

	writeJSON("export-profile.json", map[string]any{"schemaVersion": "v1", "profile": "strict-export-v1",
		"protocolVersion": "2025-11-25", "dryRunEnvironmentVariable": "SAMPLE_BENCH_DRY_RUN"})
	writeJSON("capability-bundle.json", map[string]any{"schemaVersion": "v1", "capabilities": bundle})
	writeJSON("mcp-tool/schema-contract.json", map[string]any{"schemaVersion": "vNext", "capabilities": capabilities})
	write("mcp-tool/index.mjs", []byte(adapter.String()))
	write("function-core/index.mjs", []byte(benchFunctions+functions.String()))
	write(assets.MCPRuntime.Name(), assets.MCPRuntime.Bytes())
	write(assets.ErrorNormalizer.Name(), assets.ErrorNormalizer.Bytes())

	cases := func(name string, v any) []string {
		data, _ := json.Marshal(v)
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			b.Fatal(err)
		}
		return []string{p}
	}
	return pkg, Options{
		Calls:       cases("calls.json", calls),
		ErrorCalls:  cases("errors.json", errorCalls),
		DryRunCalls: cases("dry-run.json", dryRuns),
		TempDir:     b.TempDir(),
	}
}

const benchFunctions = `export async function echo(input) {
  if (input.value === "fail") {
    throw Object.assign(new Error("the sample bench refuses this value"), { code: "VALUE_REFUSED", details: { field: "value" }, outcomeKnown: true });
  }
  return { status: 200, data: { echo: input.mode === "loud" ? input.value.toUpperCase() : input.value } };
}
`

const benchAdapterHead = `import { readFileSync } from "node:fs";
import { McpServer, StdioServerTransport, z } from "./runtime.mjs";
import * as fn from "../function-core/index.mjs";
import { normalizeToolError } from "../portable-error-normalizer.mjs";

const contract = JSON.parse(readFileSync(new URL("./schema-contract.json", import.meta.url), "utf8"));
const spec = (tool) => contract.capabilities.find((c) => c.toolName === tool);
const dryRunResult = z.looseObject({ dryRun: z.literal(true) });
const config = (tool, title, description) => {
  const c = spec(tool);
  const output = z.fromJSONSchema(c.outputSchema);
  return {
    title, description, annotations: c.annotations,
    inputSchema: z.fromJSONSchema(c.inputSchema).meta(c.inputSchema),
    outputSchema: z.looseObject({}).superRefine((v, ctx) => {
      if (!output.safeParse(v).success && !dryRunResult.safeParse(v).success) ctx.addIssue({ code: "custom", message: "bad output" });
    }).meta(c.outputSchema),
  };
};
const project = (value, isError) => ({ structuredContent: value, content: [{ type: "text", text: JSON.stringify(value) }], isError });
const callback = (tool, f) => {
  const { operationPolicy, operationSummary } = spec(tool);
  return async (input) => {
    if (process.env.SAMPLE_BENCH_DRY_RUN === "1") {
      return project({ dryRun: true, validatedInput: input, operationPolicy, operationSummary }, false);
    }
    try {
      return project(await f(input), false);
    } catch (error) {
      return project(normalizeToolError(error, operationPolicy), true);
    }
  };
};
const server = new McpServer({ name: "sample-bench", version: "1" });
`

// BenchmarkProbe probes a 10-tool strict package with the full set of
// cases: 10 calls, 10 error calls, 5 dry-run calls, 10 invalid-argument
// checks and the unknown tool. It reports the node processes started per
// probe; run it with -count to get a median.
func BenchmarkProbe(b *testing.B) {
	pkg, opts := benchPackage(b)
	r, err := Run(context.Background(), pkg, opts)
	if err != nil || r.Diagnostics.HasErrors() {
		b.Fatalf("the benchmark package does not pass: %v %v", err, r.Diagnostics.Sorted())
	}
	if got := r.Checks.Success.Passed + r.Checks.Error.Passed + r.Checks.DryRun.Passed; got != 25 {
		b.Fatalf("%d cases passed, want 25", got)
	}
	b.ReportAllocs()
	b.ResetTimer()
	procs := 0
	for b.Loop() {
		jsmod.ForgetParses() // a cold parse, as in a process of its own
		r, err := Run(context.Background(), pkg, opts)
		if err != nil {
			b.Fatal(err)
		}
		procs += r.NodeProcesses
	}
	b.ReportMetric(float64(procs)/float64(b.N), "node-procs/op")
}

// examplePackage returns the bundled example as after "npm ci": the
// repository's pinned node_modules linked in.
func examplePackage(b testing.TB) string {
	b.Helper()
	testnode.Node(b)
	dir := filepath.Join(b.TempDir(), "seed-library")
	if err := os.CopyFS(dir, examples.SeedLibrary()); err != nil {
		b.Fatal(err)
	}
	testnode.LinkInto(b, dir)
	return dir
}

// BenchmarkProbeExample is "code2skill probe --offline" of the bundled
// example, a core package with its own node_modules.
func BenchmarkProbeExample(b *testing.B) {
	pkg := examplePackage(b)
	var r *Result
	defer testnode.ReportCPU(b)()
	for b.Loop() {
		jsmod.ForgetParses() // a cold parse, as in a process of its own
		var err error
		if r, err = Run(context.Background(), pkg, Options{Offline: true}); err != nil {
			b.Fatal(err)
		}
	}
	if r.Diagnostics.HasErrors() {
		b.Fatalf("the example failed: %v", r.Diagnostics.Sorted())
	}
	b.ReportMetric(float64(r.NodeProcesses), "nodeProcesses/op")
}

// BenchmarkDetach compares the two ways of giving a detached core package
// its dependencies: mounting node_modules into the copy (what the probe
// does where the sandbox confines the file system) and copying it file by
// file (what it did before).
func BenchmarkDetach(b *testing.B) {
	pkg := examplePackage(b)
	p, _, err := pkgdir.Open(pkg)
	if err != nil {
		b.Fatal(err)
	}
	view := p.ModuleView(false)
	b.Run("mount", func(b *testing.B) {
		b.ReportAllocs()
		defer testnode.ReportCPU(b)()
		for b.Loop() {
			jsmod.ForgetParses() // a cold parse, as in a process of its own
			d, err := detach(p, b.TempDir(), view)
			if err != nil {
				b.Fatal(err)
			}
			d.remove()
		}
	})
	// What the probe does before either: walk node_modules whole for
	// links out of the package and special files.
	b.Run("view", func(b *testing.B) {
		b.ReportAllocs()
		defer testnode.ReportCPU(b)()
		for b.Loop() {
			if v := p.ModuleView(false); !v.Runnable() {
				b.Fatal(v.Findings)
			}
		}
	})
	b.Run("copy", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			jsmod.ForgetParses() // a cold parse, as in a process of its own
			if err := p.CopyTo(filepath.Join(b.TempDir(), "copy"), pkgdir.CopyOptions{NodeModules: true}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
