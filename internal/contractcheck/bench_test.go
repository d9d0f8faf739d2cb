package contractcheck_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/contractcheck"
	"github.com/code2skill/code2skill/internal/derive"
)

// largeContract returns a valid contract of 40 capabilities: the reference
// contract's capabilities, handoffs, graph, goals and workflows repeated
// eight times under renamed identifiers, sharing one evidence catalog and
// one set of consumer requirements.
func largeContract(tb testing.TB) []byte {
	tb.Helper()
	ref := contracttest.Reference(tb, contract.ContractFile)
	c, _ := contract.DecodeContract(contract.ContractFile, ref)
	var ids []string // capability, goal and workflow IDs, Tool names, Function exports
	for _, cp := range c.Capabilities {
		ids = append(ids, cp.ID, cp.ToolName, cp.FunctionExport)
	}
	for _, g := range c.Goals {
		ids = append(ids, g.ID)
	}
	base, _ := canonjson.Decode(ref)
	root := base.(*canonjson.Object)
	lists := []string{"capabilities", "handoffs", "goals", "workflows", "nodes", "edges"}
	merged := map[string]canonjson.Array{}
	for k := range 8 {
		text := ref
		for _, id := range ids {
			suffix := fmt.Sprintf("V%d", k)
			switch {
			case strings.Contains(id, "_"):
				suffix = fmt.Sprintf("_%d", k)
			case strings.Contains(id, "-"):
				suffix = fmt.Sprintf("-%d", k)
			}
			text = bytes.ReplaceAll(text, []byte(`"`+id+`"`), []byte(`"`+id+suffix+`"`))
		}
		v, _ := canonjson.Decode(text)
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
	graph := &canonjson.Object{}
	for _, key := range lists {
		if key == "nodes" || key == "edges" {
			graph.Set(key, merged[key])
		} else {
			root.Set(key, merged[key])
		}
	}
	root.Set("capabilityGraph", graph)
	root.Set("conflicts", canonjson.Array{})
	return canonjson.Encode(root)
}

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
