package compile

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/jsmod"
)

// largeInputs returns the reference package grown to 40 capabilities, the
// most a package may declare: its five capabilities and two workflows
// repeated eight times under renamed identifiers, with tool docs for every
// Tool.
func largeInputs(tb testing.TB) *Inputs {
	tb.Helper()
	ref := contracttest.Reference(tb, contract.ContractFile)
	c, _ := contract.DecodeContract(contract.ContractFile, ref)
	base := load(tb, referencePackage)
	root, err := canonjson.Decode(ref)
	if err != nil {
		tb.Fatal(err)
	}
	var caps, workflows canonjson.Array
	docs := ToolDocs{}
	for k := range 8 {
		text := ref
		rename := func(id, renamed string) {
			text = bytes.ReplaceAll(text, []byte(`"`+id+`"`), []byte(`"`+renamed+`"`))
		}
		for _, cp := range c.Capabilities {
			rename(cp.ID, fmt.Sprintf("%s-%d", cp.ID, k))
			rename(cp.ToolName, fmt.Sprintf("%s_%d", cp.ToolName, k))
			rename(cp.FunctionExport, fmt.Sprintf("%sV%d", cp.FunctionExport, k))
			doc := base.ToolDocs[cp.ToolName]
			docs[fmt.Sprintf("%s_%d", cp.ToolName, k)] = doc
		}
		v, err := canonjson.Decode(text)
		if err != nil {
			tb.Fatal(err)
		}
		o := v.(*canonjson.Object)
		a, _ := o.Get("capabilities")
		caps = append(caps, a.(canonjson.Array)...)
		w, _ := o.Get("workflows")
		workflows = append(workflows, w.(canonjson.Array)...)
	}
	root.(*canonjson.Object).Set("capabilities", caps)
	root.(*canonjson.Object).Set("workflows", workflows)
	large, l := contract.DecodeContract(contract.ContractFile, canonjson.Encode(root))
	if l.HasErrors() || len(large.Capabilities) != 40 {
		tb.Fatalf("large contract: %d capabilities, %v", len(large.Capabilities), l.Sorted())
	}
	base.Core.Contract = large
	base.ToolDocs = docs
	return base
}

// BenchmarkCompile measures compiling a 40-capability contract in process:
// planning and writing both modules, the assets copied.
func BenchmarkCompile(b *testing.B) {
	in := largeInputs(b)
	b.ReportAllocs()
	for b.Loop() {
		jsmod.ForgetParses() // a cold parse, as in a process of its own
		res, _ := Compile(in)
		if !res.Compiled() {
			b.Fatal("the large contract did not compile")
		}
	}
}

// The benchmark's contract compiles, so the benchmark measures the path
// compile takes on real packages.
func TestLargeContractCompiles(t *testing.T) {
	res, list := Compile(largeInputs(t))
	if !res.Compiled() || list.Len() > 0 {
		t.Fatalf("the large contract did not compile cleanly: %v", list.Sorted())
	}
	if n := len(res.Capabilities); n != 40 {
		t.Fatalf("%d capabilities", n)
	}
}
