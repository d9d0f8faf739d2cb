package finalize_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/code2skill/code2skill/assets"
	"github.com/code2skill/code2skill/internal/finalize"
	"github.com/code2skill/code2skill/internal/finalize/finalizetest"
	"github.com/code2skill/code2skill/internal/jsmod"
	"github.com/code2skill/code2skill/internal/verdict/verdicttest"
)

// BenchmarkFinalize finalizes the reference example (no node runs): report
// and evidence checks, live evidence, the contamination gate, the verdict,
// the six files written atomically, and the final-files cross-check as the
// validator. "bundled-runtime" adds the 1.3 MB mcp-tool/runtime.mjs a real
// strict package carries, which the gate scans and every manifest hashes.
// cpu-ns/op is the CPU time of the whole process per finalization (GC
// included): what code2skill itself costs, on a machine whose wall-clock
// time other work may share.
func BenchmarkFinalize(b *testing.B) {
	for _, tc := range []struct {
		name    string
		runtime bool
	}{{"reference", false}, {"bundled-runtime", true}} {
		b.Run(tc.name, func(b *testing.B) {
			fx := finalizetest.New(b, verdicttest.FullHost...)
			if tc.runtime {
				finalizetest.Write(b, filepath.Join(fx.Dir, "mcp-tool", "runtime.mjs"), assets.MCPRuntime.Bytes())
			}
			opts := fx.Options()
			b.ReportAllocs()
			start, n := cpuTime(), 0
			for b.Loop() {
				jsmod.ForgetParses() // a cold parse, as in a process of its own
				res := finalize.Run(context.Background(), fx.Dir, opts)
				if res.List.HasErrors() || res.Matrix == nil {
					b.Fatal(findings(&res.List))
				}
				n++
			}
			if used := cpuTime() - start; used > 0 {
				b.ReportMetric(float64(used.Nanoseconds())/float64(n), "cpu-ns/op")
			}
		})
	}
}
