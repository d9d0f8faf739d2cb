package vectors

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/pkgdir"
	"github.com/code2skill/code2skill/internal/reftest"
	"github.com/code2skill/code2skill/internal/testnode"
)

// BenchmarkReference runs every vector of the reference example (Portable
// Core inputs, derived views, the hand-written Function core, adapter,
// normaliser, guard and bundled MCP runtime), as code2skill vectors does.
// Besides the time of a run it reports the node processes started and how
// the time splits between node (start, loading the package, the calls) and
// code2skill's own work (reading and checking the contract, the detached
// copy, planning, judging, encoding the evidence).
func BenchmarkReference(b *testing.B) {
	testnode.Node(b)
	benchmarkRun(b, buildPackage(b, "reference", nil))
}

// BenchmarkCompiledReference runs every vector of the reference example as
// code2skill compile builds it: the compiled Function core and adapter
// instead of the hand-written ones.
func BenchmarkCompiledReference(b *testing.B) {
	testnode.Node(b)
	benchmarkRun(b, reftest.Package(b))
}

// benchmarkRun runs the vectors of the package in dir, as code2skill
// vectors does, and reports how the time splits.
func benchmarkRun(b *testing.B, dir string) {
	b.ReportAllocs()
	var node, own time.Duration
	processes := 0
	selfStart, childrenStart := cpu(b, self), cpu(b, children)
	for b.Loop() {
		res, err := Run(context.Background(), dir, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if _, failed, _ := res.Counts(); failed > 0 {
			b.Fatalf("%d checks failed", failed)
		}
		node += res.Node
		own += res.Elapsed - res.Node
		processes += res.NodeProcesses
	}
	n := float64(b.N)
	b.ReportMetric(float64((cpu(b, self)-selfStart).Microseconds())/1000/n, "own-cpu-ms/op")
	b.ReportMetric(float64((cpu(b, children)-childrenStart).Microseconds())/1000/n, "node-cpu-ms/op")
	b.ReportMetric(float64(processes)/n, "node-processes/op")
	b.ReportMetric(float64(node.Milliseconds())/n, "node-ms/op")
	b.ReportMetric(float64(own.Microseconds())/1000/n, "own-ms/op")
}

// BenchmarkOwnWork measures code2skill's own work on the reference example
// without node: reading and checking the contract, the detached copy,
// planning every call, then judging the recorded outcome of a real run and
// encoding the evidence and summary.
func BenchmarkOwnWork(b *testing.B) {
	testnode.Node(b)
	dir := buildPackage(b, "reference", nil)
	s, _, err := prepare(dir, Options{})
	if err != nil || s == nil {
		b.Fatal(err)
	}
	if err := s.r.execute(context.Background(), s.p.calls); err != nil {
		b.Fatal(err)
	}
	recorded := make([][]*run, len(s.p.calls))
	for i, c := range s.p.calls {
		recorded[i] = c.runs
	}
	load, processes := s.r.load, s.r.processes
	s.cleanup()
	b.ReportAllocs()
	start := cpu(b, self)
	for b.Loop() {
		s, res, err := prepare(dir, Options{})
		if err != nil || s == nil {
			b.Fatal(err)
		}
		for i, c := range s.p.calls {
			c.runs = recorded[i]
		}
		s.r.load, s.r.loaded, s.r.processes = load, true, processes
		s.finish(res, nil)
		s.cleanup()
		if _, failed, _ := res.Counts(); failed > 0 {
			b.Fatalf("%d checks failed", failed)
		}
	}
	b.ReportMetric(float64((cpu(b, self)-start).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

// BenchmarkStages splits BenchmarkOwnWork into its stages.
func BenchmarkStages(b *testing.B) {
	testnode.Node(b)
	dir := buildPackage(b, "reference", nil)
	s, _, err := prepare(dir, Options{})
	if err != nil || s == nil {
		b.Fatal(err)
	}
	if err := s.r.execute(context.Background(), s.p.calls); err != nil {
		b.Fatal(err)
	}
	defer s.cleanup()
	in := s.p.in
	b.Run("read-and-check", func(b *testing.B) {
		for b.Loop() {
			loaded, _ := derive.Load(dir)
			in := loaded.Inputs
			derive.Check(in)
		}
	})
	b.Run("detach", func(b *testing.B) {
		pkg, _, _ := pkgdir.Open(dir)
		for b.Loop() {
			_, tmp, err := detach(pkg, "")
			if err != nil {
				b.Fatal(err)
			}
			os.RemoveAll(tmp)
		}
	})
	b.Run("plan", func(b *testing.B) {
		for b.Loop() {
			plan(in, true)
		}
	})
	b.Run("judge-and-encode", func(b *testing.B) {
		for b.Loop() {
			p := plan(in, true)
			for i, c := range p.calls {
				c.runs = s.p.calls[i].runs
			}
			res := &Result{Diagnostics: &diag.List{}}
			res.record(p, nil)
		}
	})
}
