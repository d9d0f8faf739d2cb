package examples

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/strict"
)

// BenchmarkStrictSampleWrite measures what a demo does before anything
// runs: writing the sample's package inputs and sources, reading the
// Portable Core back and deriving its views.
func BenchmarkStrictSampleWrite(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		dir := b.TempDir()
		writeFS(b, StrictSampleSource(), dir)
		pkg := filepath.Join(dir, StrictSampleName)
		writeFS(b, StrictSample(), pkg)
		loaded, err := derive.Load(pkg)
		in, findings := loaded.Inputs, loaded.Read()
		if err != nil {
			b.Fatal(err)
		}
		if findings.Merge(derive.Check(in)); findings.HasErrors() {
			b.Fatal(findings.Sorted())
		}
		if len(derive.Views(in)) == 0 {
			b.Fatal("no views")
		}
	}
}

// BenchmarkStrictSampleValidate measures the strict validator on the
// sample before finalization, evidence resolved against its sources.
func BenchmarkStrictSampleValidate(b *testing.B) {
	pkg, src := strictSample(b)
	opts := strict.Options{PreFinalize: true, Sources: contract.Sources{Base: src}}
	b.ReportAllocs()
	for b.Loop() {
		if res := strict.Validate(context.Background(), pkg, opts); res.Err != nil || res.Diagnostics.HasErrors() {
			b.Fatal(res.Err, res.Diagnostics.Sorted())
		}
	}
}
