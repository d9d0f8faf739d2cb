package livecall

import (
	"testing"

	"github.com/code2skill/code2skill/internal/reftest"
)

// BenchmarkDeclaredVariables measures reading the variables a package's
// modules declare: two module parses, which the pipeline repeats only when
// the modules changed.
func BenchmarkDeclaredVariables(b *testing.B) {
	b.ReportAllocs()
	dir := reftest.StrictSamplePackage(b)
	for b.Loop() {
		if _, err := DeclaredVariables(dir, "LENDING_DESK_DRY_RUN"); err != nil {
			b.Fatal(err)
		}
	}
}
