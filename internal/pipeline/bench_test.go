package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkPipeline measures code2skill's own work in a run of the
// 2-capability voucher project (a read and a write guarded by a
// deterministic workflow): reading and judging the Portable Core, deriving
// and writing the views, the markers, the fingerprints of every stage, the
// records, the report and the state. The steps are fakes that start no
// node, so the figures leave out the node processes a real run starts (the
// probe, the vectors and the live calls): see BenchmarkStrictDemo in
// internal/cli for a run with real live calls.
//
//	first-run         every stage runs on a fresh package
//	one-field-change  one capability's description changed: analyze,
//	                  generate, verify and finalize run again
//	unchanged-rerun   nothing changed: every stage is fingerprinted and
//	                  skipped
func BenchmarkPipeline(b *testing.B) {
	ctx := context.Background()
	b.Run("first-run", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			b.StopTimer()
			fx := newFixture(b)
			fx.init(InitOptions{})
			p := fx.pipeline()
			b.StartTimer()
			if _, err := p.Run(ctx, RunOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("one-field-change", func(b *testing.B) {
		fx := newFixture(b)
		fx.init(InitOptions{})
		fx.run(RunOptions{})
		path := filepath.Join(fx.dir, "canonical-contract.json")
		data, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		variants := [2]string{string(data), strings.Replace(string(data), `"description": "`, `"description": "Changed: `, 1)}
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			b.StopTimer()
			i++
			writeFile(b, path, variants[i%2])
			p := fx.pipeline()
			b.StartTimer()
			if _, err := p.Run(ctx, RunOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("unchanged-rerun", func(b *testing.B) {
		fx := newFixture(b)
		fx.init(InitOptions{})
		fx.run(RunOptions{})
		b.ReportAllocs()
		for b.Loop() {
			if _, err := fx.pipeline().Run(ctx, RunOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
