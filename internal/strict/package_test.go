package strict_test

import (
	"testing"

	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/reftest"
)

// referencePackage writes the complete reference package (reftest) to a
// fresh directory named sample-request and returns its path.
func referencePackage(tb testing.TB, opts ...reftest.Option) string {
	tb.Helper()
	return reftest.Package(tb, opts...)
}

// withContract builds the package from a patched copy of the reference
// contract; its views, runtime and marker follow from the patch.
func withContract(ops ...contracttest.Op) reftest.Option { return reftest.Contract(ops...) }
