package derive_test

import (
	"testing"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/derive"
)

// largeContract returns a valid contract of 40 capabilities.
func largeContract(tb testing.TB) []byte { return contracttest.Large(tb) }

func largeInputs(tb testing.TB) ([]byte, *derive.Inputs) {
	data := largeContract(tb)
	in, l := decodeInputs(tb, func(name string) []byte {
		if name == contract.ContractFile {
			return data
		}
		return contracttest.Reference(tb, name)
	})
	requireNoFindings(tb, l)
	if n := len(in.Contract.Capabilities); n != 40 {
		tb.Fatalf("large contract has %d capabilities, want 40", n)
	}
	return data, in
}

// BenchmarkDerive measures derive on a 40-capability contract: decoding the
// four inputs, the structural checks, and computing and encoding the ten
// views, separately and end to end.
func BenchmarkDerive(b *testing.B) {
	data, in := largeInputs(b)
	others := map[string][]byte{}
	for _, name := range []string{contract.TopologyFile, contract.HostProfileFile, contract.ExportProfileFile} {
		others[name] = contracttest.Reference(b, name)
	}
	b.Run("decode", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			contract.DecodeContract(contract.ContractFile, data)
		}
	})
	b.Run("check", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			derive.Check(in)
		}
	})
	b.Run("views", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			derive.Views(in)
		}
	})
	b.Run("all", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			c, _ := contract.DecodeContract(contract.ContractFile, data)
			t, _ := contract.DecodeTopology(contract.TopologyFile, others[contract.TopologyFile])
			h, _ := contract.DecodeHostProfile(contract.HostProfileFile, others[contract.HostProfileFile])
			e, _ := contract.DecodeExportProfile(contract.ExportProfileFile, others[contract.ExportProfileFile])
			in := &derive.Inputs{Contract: c, Topology: t, Host: h, Export: e}
			derive.Check(in)
			views := derive.Views(in)
			derive.Marker(views)
		}
	})
}

// The benchmark's contract is valid, so the benchmark measures the path
// derive takes on real packages.
func TestLargeContractIsValid(t *testing.T) {
	_, in := largeInputs(t)
	views := derive.Views(in)
	if len(views) != 10 {
		t.Fatalf("got %d views", len(views))
	}
}

// BenchmarkDeriveLegacy measures derive on the legacy package of 40
// capabilities: the bundle the 40-capability contract derives, decoded,
// checked and derived into its mirror and draft.
func BenchmarkDeriveLegacy(b *testing.B) {
	_, in := largeInputs(b)
	data := viewData(b, derive.Views(in), derive.BundleFile)
	bundle, l := derive.DecodeBundle(data)
	l.Merge(derive.CheckBundle(bundle))
	requireNoFindings(b, l)
	b.Run("decode", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			derive.DecodeBundle(data)
		}
	})
	b.Run("check", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			derive.CheckBundle(bundle)
		}
	})
	b.Run("views", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			derive.LegacyViews(bundle)
		}
	})
	b.Run("all", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			bd, _ := derive.DecodeBundle(data)
			derive.CheckBundle(bd)
			derive.LegacyViews(bd)
		}
	})
}
