package core

import (
	"context"
	"testing"

	"github.com/code2skill/code2skill/internal/jsmod"
	"github.com/code2skill/code2skill/internal/mcpcheck"
	"github.com/code2skill/code2skill/internal/sandbox"
	"github.com/code2skill/code2skill/internal/testnode"
)

// The validate benchmarks split the cost of validating the bundled example:
//
//	BenchmarkValidateExample    the whole command: structure, discovery and tests
//	BenchmarkValidateStructure  code2skill's in-process work alone (--skip-tests)
//	BenchmarkNodeTests          node --test over the example's tests, nothing else
//	BenchmarkNodeDiscovery      one MCP server start, initialize and tools/list
//
// Discovery and tests run side by side, so the whole command costs about
// the slower of the two node stages plus the structure stage.
// nodeProcesses/op counts the node processes validate starts.

func BenchmarkValidateExample(b *testing.B) {
	dir := examplePackage(b, nil)
	var res *Result
	defer testnode.ReportCPU(b)()
	for b.Loop() {
		jsmod.ForgetParses() // a cold parse, as in a process of its own
		res = validate(b, dir, Options{})
	}
	if res.Diagnostics.HasErrors() {
		b.Fatalf("the example failed:\n%s", dump(res))
	}
	b.ReportMetric(float64(res.NodeProcesses), "nodeProcesses/op")
}

func BenchmarkValidateStructure(b *testing.B) {
	dir := examplePackage(b, nil)
	b.ReportAllocs()
	for b.Loop() {
		jsmod.ForgetParses() // a cold parse, as in a process of its own
		if res := validate(b, dir, Options{SkipTests: true}); res.Diagnostics.HasErrors() {
			b.Fatal(dump(res))
		}
	}
}

func BenchmarkNodeTests(b *testing.B) {
	dir := examplePackage(b, nil)
	files := []string{"tests/mcp-server.test.mjs", "tests/reserve.test.mjs", "tests/search.test.mjs"}
	for b.Loop() {
		jsmod.ForgetParses() // a cold parse, as in a process of its own
		res, err := sandbox.Run(context.Background(), append([]string{"node", "--test"}, files...), sandbox.Options{Dir: dir, Env: testEnv})
		if err != nil || res.ExitCode != 0 {
			b.Fatalf("node --test: %v, exit %d", err, res.ExitCode)
		}
	}
}

func BenchmarkNodeDiscovery(b *testing.B) {
	dir := examplePackage(b, nil)
	defer testnode.ReportCPU(b)()
	for b.Loop() {
		jsmod.ForgetParses() // a cold parse, as in a process of its own
		d, err := mcpcheck.Discover(context.Background(), dir, mcpcheck.Options{Profile: mcpcheck.ProfileCore})
		if err != nil || d.Diagnostics.HasErrors() {
			b.Fatalf("discovery: %v %v", err, d.Diagnostics.Sorted())
		}
	}
}
