package contracttest

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
)

// LargeCapabilities is how many capabilities Large declares: the most a
// package may.
const LargeCapabilities = 40

// Large returns a valid contract of 40 capabilities: the reference
// contract's capabilities, handoffs, graph, goals and workflows repeated
// eight times under renamed identifiers (capability, goal and workflow IDs
// get "-k", Tool names "_k", Function exports "Vk"), sharing one evidence
// catalog and one set of consumer requirements.
func Large(tb testing.TB) []byte {
	tb.Helper()
	ref := Reference(tb, contract.ContractFile)
	c, _ := contract.DecodeContract(contract.ContractFile, ref)
	var ids []string
	for _, cp := range c.Capabilities {
		ids = append(ids, cp.ID, cp.ToolName, cp.FunctionExport)
	}
	for _, g := range c.Goals {
		ids = append(ids, g.ID)
	}
	base, err := canonjson.Decode(ref)
	if err != nil {
		tb.Fatal(err)
	}
	root := base.(*canonjson.Object)
	lists := []string{"capabilities", "handoffs", "goals", "workflows", "nodes", "edges"}
	merged := map[string]canonjson.Array{}
	for k := range LargeCapabilities / len(c.Capabilities) {
		// Renaming whole JSON strings keeps every reference consistent.
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
		v, err := canonjson.Decode(text)
		if err != nil {
			tb.Fatal(err)
		}
		o := v.(*canonjson.Object)
		for _, key := range lists {
			src := o
			if key == "nodes" || key == "edges" {
				src = o.At("capabilityGraph").(*canonjson.Object)
			}
			merged[key] = append(merged[key], src.At(key).(canonjson.Array)...)
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
