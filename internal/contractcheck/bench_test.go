package contractcheck_test

import (
	"testing"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/contractcheck"
	"github.com/code2skill/code2skill/internal/derive"
)

// largeContract returns a valid contract of 40 capabilities.
func largeContract(tb testing.TB) []byte { return contracttest.Large(tb) }

// inputsOf returns the reference inputs with the given contract.
func inputsOf(tb testing.TB, data []byte) map[string][]byte {
	files := map[string][]byte{}
	for _, name := range inputFiles {
		files[name] = contracttest.Reference(tb, name)
	}
	files[contract.ContractFile] = data
	return files
}

// The benchmark's large contract keeps every rule, so that the benchmark
// measures the path check-contract takes on a real package.
func TestLargeContractIsValid(t *testing.T) {
	in, l := derive.Decode(inputsOf(t, largeContract(t)))
	l.Merge(contractcheck.Check(in, contractcheck.Options{}))
	if n := len(in.Contract.Capabilities); n != 40 {
		t.Fatalf("%d capabilities", n)
	}
	for _, d := range l.Sorted() {
		if d.Rule != contractcheck.RuleNotChecked.ID {
			t.Errorf("%s", d)
		}
	}
}

// BenchmarkCheckContract measures check-contract in process: decoding the
// four inputs and every rule, on the reference example and on a
// 40-capability contract.
func BenchmarkCheckContract(b *testing.B) {
	for _, bc := range []struct {
		name string
		data []byte
	}{
		{"example", contracttest.Reference(b, contract.ContractFile)},
		{"40-capabilities", largeContract(b)},
	} {
		files := inputsOf(b, bc.data)
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(bc.data)))
			for b.Loop() {
				in, _ := derive.Decode(files)
				contractcheck.Check(in, contractcheck.Options{})
			}
		})
		in, _ := derive.Decode(files)
		b.Run(bc.name+"-rules-only", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				contractcheck.Check(in, contractcheck.Options{})
			}
		})
	}
}
