package contamination_test

import (
	"testing"

	"github.com/code2skill/code2skill/assets"
	"github.com/code2skill/code2skill/internal/contamination"
	"github.com/code2skill/code2skill/internal/verdict/verdicttest"
)

// BenchmarkScan scans the largest file a strict package carries, its
// bundled MCP runtime (the SDK and zod, about 1.3 MB), as the gate does in
// every finalization.
func BenchmarkScan(b *testing.B) {
	js := assets.MCPRuntime.Bytes()
	in := verdicttest.Inputs(b)
	s, _ := contamination.NewScanner(contamination.Options{Contract: in.Contract, Export: in.Export,
		MachinePaths: []string{"/srv/build/sample-request"}})
	b.SetBytes(int64(len(js)))
	b.ReportAllocs()
	for b.Loop() {
		if ds := s.ScanFile(contamination.RuntimeBundle, js); len(ds) > 0 {
			b.Fatal(ds)
		}
	}
}
