package derive_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/derive"
)

// copies is how many times largeContract repeats the reference's five
// capabilities: 8 x 5 = 40, the most a package may declare.
const copies = 8

// largeContract returns a valid synthetic contract with 40 capabilities: the
// reference contract's capabilities, handoffs, graph, goals and workflows
// repeated under renamed identifiers, sharing one evidence catalog and one
// set of consumer requirements.
func largeContract(tb testing.TB) []byte {
	tb.Helper()
	ref := contracttest.Reference(tb, contract.ContractFile)
	base, err := canonjson.Decode(ref)
	if err != nil {
		tb.Fatal(err)
	}
	ids := map[string]bool{} // capability, goal and workflow IDs, Tool names, Function exports
	c, _ := contract.DecodeContract(contract.ContractFile, ref)
	for _, cp := range c.Capabilities {
		ids[cp.ID], ids[cp.ToolName], ids[cp.FunctionExport] = true, true, true
	}
	for _, g := range c.Goals {
		ids[g.ID] = true
	}
	root := base.(*canonjson.Object)
	graph := &canonjson.Object{}
	merged := map[string]canonjson.Array{}
	lists := []string{"capabilities", "handoffs", "goals", "workflows", "nodes", "edges"}
	for k := range copies {
		// Renaming whole JSON strings keeps every reference consistent.
		text := ref
		for id := range ids {
			var suffix string
			switch {
			case strings.Contains(id, "_"): // a Tool name
				suffix = fmt.Sprintf("_%d", k)
			case strings.Contains(id, "-"): // a capability, goal or workflow ID
				suffix = fmt.Sprintf("-%d", k)
			default: // a Function export
				suffix = fmt.Sprintf("V%d", k)
			}
			text = bytes.ReplaceAll(text, []byte(`"`+id+`"`), []byte(`"`+id+suffix+`"`))
		}
		v, err := canonjson.Decode(text)
		if err != nil {
			tb.Fatal(err)
		}
		o := v.(*canonjson.Object)
		for _, key := range lists {
			src := o
			if key == "nodes" || key == "edges" {
				g, _ := o.Get("capabilityGraph")
				src = g.(*canonjson.Object)
			}
			a, _ := src.Get(key)
			merged[key] = append(merged[key], a.(canonjson.Array)...)
		}
	}
	for _, key := range lists {
		if key == "nodes" || key == "edges" {
			graph.Set(key, merged[key])
			continue
		}
		root.Set(key, merged[key])
	}
	root.Set("capabilityGraph", graph)
	root.Set("conflicts", canonjson.Array{})
	return canonjson.Encode(root)
}

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
