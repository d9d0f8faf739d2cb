package strictjs

import (
	"testing"

	"github.com/code2skill/code2skill/internal/jsmod"
	"github.com/code2skill/code2skill/internal/pkgdir"
)

// BenchmarkCheck measures the runtime rules on the compiled reference
// package: reading and parsing the Function core and the adapter, the
// asset comparisons, and every rule. The shipped runtime is recognised by
// its bytes and not parsed.
func BenchmarkCheck(b *testing.B) {
	dir, in := build(b, reference, nil)
	pkg, _, err := pkgdir.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		jsmod.ForgetParses() // a cold parse, as in a process of its own
		if l := Check(pkg, in); l.Len() > 0 {
			b.Fatal(l.Sorted())
		}
	}
}
