package contractdiff_test

import (
	"testing"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/contractdiff"
)

// largePair returns two 40-capability contracts: the large contract and
// the same after a dozen edits spread over it, one of each kind a
// re-generation makes (a new required input, a narrowed domain, a write
// without its confirmation, a moved locator, new prose, reordered sets).
func largePair(tb testing.TB) (old, new *contract.Contract) {
	data := contracttest.Large(tb)
	edited := contracttest.Patch(tb, contracttest.Reorder(data, 7),
		add("/capabilities/3/inputs", inputNote(true)),
		set("/capabilities/10/inputs/0/valueDomain/values", `["compact"]`),
		set("/capabilities/24/operationPolicy/confirmation", `"not-required"`),
		set("/capabilities/31/description", `"Changed."`),
		set("/evidenceCatalog/1/locator", `"features/sample-request/client#listKinds"`),
		remove("/capabilities/38/hostRequirements/0"),
	)
	return decodeContract(tb, data), decodeContract(tb, edited)
}

func TestLargePair(t *testing.T) {
	old, new := largePair(t)
	if len(old.Capabilities) != contracttest.LargeCapabilities {
		t.Fatalf("%d capabilities", len(old.Capabilities))
	}
	d, err := contractdiff.Compare(old, new)
	if err != nil {
		t.Fatal(err)
	}
	b, c, k := d.Counts()
	if b != 3 || c != 1 || k != 2 {
		t.Errorf("counts %d/%d/%d:\n%s", b, c, k, describe(d))
	}
}

// BenchmarkCompare measures the diff of two 40-capability contracts,
// decoded; and end to end, decoding both.
func BenchmarkCompare(b *testing.B) {
	old, new := largePair(b)
	b.Run("compare", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := contractdiff.Compare(old, new); err != nil {
				b.Fatal(err)
			}
		}
	})
	oldData, newData := contracttest.Large(b), contracttest.Patch(b, contracttest.Large(b), set("/capabilities/3/inputs/0/required", `true`))
	b.Run("decode-and-compare", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			o, _ := contract.DecodeContract(contract.ContractFile, oldData)
			n, _ := contract.DecodeContract(contract.ContractFile, newData)
			if _, err := contractdiff.Compare(o, n); err != nil {
				b.Fatal(err)
			}
		}
	})
}
