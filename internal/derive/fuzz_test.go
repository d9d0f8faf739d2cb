package derive_test

import (
	"bytes"
	"testing"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
)

// FuzzDerive runs the structural checks and the derivation on arbitrary
// contracts next to the reference topology and profiles. Neither may panic,
// whatever the contract holds; every finding names a registered rule and a
// pointer that resolves in its file; and the views are always well-formed
// and the same on a second run.
func FuzzDerive(f *testing.F) {
	// Reference-sized seeds leave the engine without progress: start from
	// the reference cut down to one write, and small odd contracts.
	f.Add(contracttest.Small(f))
	for _, s := range []string{
		`{"capabilities": [{"capabilityId": "a", "inputs": [{"name": "x", "valueDomain": {"kind": "static", "values": [1]}}], "outputs": [{"path": ["*", "*"]}]}]}`,
		`{"capabilities": [{"outputs": [{"path": ["a", "*", "b"], "schema": {"type": "array"}}, {"path": ["a"], "schema": true}]}]}`,
		`{"goals": [{"informationNeeds": [{"satisfiedBy": []}], "completionPredicate": {"operator": "any-satisfied", "informationIds": []}}]}`,
		`{"workflows": [{"entryCapabilityId": "missing"}], "capabilities": [{"runtimeProtection": {"mode": "deterministic-workflow"}}]}`,
	} {
		f.Add([]byte(s))
	}
	others := map[string][]byte{}
	for _, name := range []string{contract.TopologyFile, contract.HostProfileFile, contract.ExportProfileFile} {
		others[name] = contracttest.Reference(f, name)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<18 {
			return
		}
		in, l := decodeInputs(t, func(name string) []byte {
			if name == contract.ContractFile {
				return data
			}
			return others[name]
		})
		roots := map[string]canonjson.Value{}
		for name, b := range others {
			roots[name], _ = canonjson.Decode(b)
		}
		roots[contract.ContractFile], _ = canonjson.Decode(data)
		for _, d := range l.Sorted() {
			if _, ok := diag.Lookup(d.Rule); !ok {
				t.Fatalf("unregistered rule: %s", d)
			}
			if d.Line > 0 {
				continue // a syntax error: no document to point into
			}
			if _, ok := canonjson.Resolve(roots[d.File], d.Pointer); !ok {
				t.Fatalf("pointer does not resolve: %s", d)
			}
		}
		if in.Contract == nil {
			return
		}
		first := derive.Views(in)
		second := derive.Views(in)
		for i, v := range first {
			if _, err := canonjson.Decode(v.Data); err != nil {
				t.Fatalf("%s is not JSON: %v", v.Path, err)
			}
			if !bytes.Equal(v.Data, second[i].Data) {
				t.Fatalf("%s differs between two runs", v.Path)
			}
		}
		if derive.Marker(first) == "" {
			t.Fatal("no marker")
		}
	})
}
