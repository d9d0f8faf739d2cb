package strict_test

import (
	"context"
	"testing"

	"github.com/code2skill/code2skill/internal/jsmod"
	"github.com/code2skill/code2skill/internal/strict"
)

// BenchmarkValidateReference validates the reference example before
// finalization: inventory, reading and decoding the inputs, deriving and
// comparing every view, and every document rule. Nothing starts a process.
func BenchmarkValidateReference(b *testing.B) {
	dir := referencePackage(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		jsmod.ForgetParses() // a cold parse, as in a process of its own
		res := strict.Validate(ctx, dir, strict.Options{PreFinalize: true})
		if res.Err != nil || res.Diagnostics.HasErrors() {
			b.Fatalf("the reference example does not pass: %v %v", res.Err, res.Diagnostics.Sorted())
		}
	}
}
