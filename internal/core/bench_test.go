package core

import (
	"context"
	"slices"
	"testing"

	"github.com/code2skill/code2skill/internal/jsmod"
	"github.com/code2skill/code2skill/internal/mcpcheck"
	"github.com/code2skill/code2skill/internal/pkgdir"
	"github.com/code2skill/code2skill/internal/sandbox"
	"github.com/code2skill/code2skill/internal/testnode"
)

// The validate benchmarks split the cost of validating the bundled example:
//
//	BenchmarkValidateExample    the whole command: structure, discovery and tests
//	BenchmarkValidateStructure  code2skill's in-process work alone (--skip-tests)
//	BenchmarkNodeTests          node --test over the example's tests, nothing else
//	BenchmarkNodeTestsCoverage  the same with V8's coverage collected and judged
//	BenchmarkNodeDiscovery      one MCP server start, initialize and tools/list
//	BenchmarkNodeDiscoveryReach the same with the recorder preloaded and every
//	                            reachability call made and judged
//
// Discovery and tests run side by side, so the whole command costs about
// the slower of the two node stages plus the structure stage; what the
// reachability calls add is BenchmarkNodeDiscoveryReach minus
// BenchmarkNodeDiscovery, in the same node process (no new one), and what
// proving the tests adds BenchmarkNodeTestsCoverage minus BenchmarkNodeTests.
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
	files := benchChecker(b, dir).testFiles()
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

func BenchmarkNodeTestsCoverage(b *testing.B) {
	dir := examplePackage(b, nil)
	c := benchChecker(b, dir)
	files := c.testFiles()
	for b.Loop() {
		cov, err := newCoverageDir()
		if err != nil {
			b.Fatal(err)
		}
		res, err := sandbox.Run(context.Background(), append([]string{"node", "--test"}, files...),
			sandbox.Options{Dir: dir, Env: append(slices.Clip(testEnv), cov.env()), Binds: []sandbox.Bind{cov.bind()}})
		if err != nil || res.ExitCode != 0 {
			b.Fatalf("node --test: %v, exit %d", err, res.ExitCode)
		}
		c.judgeCoverage(cov)
		cov.remove()
		if c.result.Diagnostics.Len() != 0 {
			b.Fatal(c.result.Diagnostics.Sorted())
		}
	}
}

func BenchmarkNodeDiscoveryReach(b *testing.B) {
	dir := examplePackage(b, nil)
	c := benchChecker(b, dir)
	defer testnode.ReportCPU(b)()
	for b.Loop() {
		c.result = &Result{}
		c.discover(context.Background())
		if c.result.Diagnostics.HasErrors() || c.result.Reach == nil || len(c.failed) > 0 {
			b.Fatalf("discovery: %v %v", c.failed, c.result.Diagnostics.Sorted())
		}
	}
	b.ReportMetric(float64(c.result.Reach.Calls), "calls/op")
}

// benchChecker is a checker over the example that has run its structure
// stage, as discovery and the tests expect.
func benchChecker(b *testing.B, dir string) *checker {
	b.Helper()
	pkg, _, err := pkgdir.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	c := newChecker(pkg, Options{}, &Result{})
	c.envVars = c.checkScripts()
	return c
}

// BenchmarkCoverageJudge is code2skill's own work on the coverage the
// example's test run writes: reading every report and judging it.
func BenchmarkCoverageJudge(b *testing.B) {
	dir := examplePackage(b, nil)
	c := benchChecker(b, dir)
	cov, err := newCoverageDir()
	if err != nil {
		b.Fatal(err)
	}
	defer cov.remove()
	res, err := sandbox.Run(context.Background(), append([]string{"node", "--test"}, c.testFiles()...),
		sandbox.Options{Dir: dir, Env: append(slices.Clip(testEnv), cov.env()), Binds: []sandbox.Bind{cov.bind()}})
	if err != nil || res.ExitCode != 0 {
		b.Fatalf("node --test: %v, exit %d", err, res.ExitCode)
	}
	b.ReportAllocs()
	for b.Loop() {
		c.result = &Result{}
		c.judgeCoverage(cov)
	}
	if c.result.Diagnostics.Len() != 0 {
		b.Fatal(c.result.Diagnostics.Sorted())
	}
}
