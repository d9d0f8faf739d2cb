package finalcheck_test

import (
	"context"
	"testing"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/finalcheck"
	"github.com/code2skill/code2skill/internal/finalize"
	"github.com/code2skill/code2skill/internal/finalize/finalizetest"
	"github.com/code2skill/code2skill/internal/jsmod"
	"github.com/code2skill/code2skill/internal/verdict/verdicttest"
)

// BenchmarkCheckDir cross-checks the final files of the finalized
// reference example: read the package and its Portable Core, rebuild the
// evidence, recompute the matrix and every hash.
func BenchmarkCheckDir(b *testing.B) {
	fx := finalizetest.New(b, verdicttest.FullHost...)
	if res := finalize.Run(context.Background(), fx.Dir, fx.Options()); res.List.HasErrors() {
		b.Fatal(contracttest.Findings(&res.List))
	}
	b.ReportAllocs()
	for b.Loop() {
		jsmod.ForgetParses() // a cold parse, as in a process of its own
		l, err := finalcheck.CheckDir(context.Background(), fx.Dir, nil, contract.Sources{})
		if err != nil || l.Len() > 0 {
			b.Fatal(err, contracttest.Findings(l))
		}
	}
}
