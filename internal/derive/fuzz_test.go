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

// FuzzDeriveLegacy runs the bundle checks and the legacy derivation on
// arbitrary bundles. Neither may panic; every finding names a registered
// rule and a location in the bundle; and a bundle without errors derives a
// mirror JSON-equal to it and a well-formed draft.
func FuzzDeriveLegacy(f *testing.F) {
	small, _ := derive.DecodeBundle(contracttest.Reference(f, derive.BundleFile))
	small.Raw.Set("capabilities", canonjson.Array{canonjson.Clone(mustGet(f, small.Raw, "/capabilities/3"))})
	small.Raw.Set("handoffs", canonjson.Array{})
	f.Add(canonjson.Encode(small.Raw))
	for _, s := range []string{
		`{"schemaVersion": "v1", "capabilities": [{"capabilityId": "a"}], "handoffs": [{"fromCapabilityId": "b", "toCapabilityId": "a", "mappings": [{"targetInput": "x"}]}]}`,
		`{"capabilities": [{"implementation": {"kind": "http", "steps": [{"bindings": [{"source": {"kind": "input", "inputName": "y"}}]}]}}]}`,
		`{"capabilities": []}`, `[]`, `{"handoffs": {}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<18 {
			return
		}
		b, l := derive.DecodeBundle(data)
		l.Merge(derive.CheckBundle(b))
		root, jsonErr := canonjson.Decode(data)
		for _, d := range l.Sorted() {
			if _, ok := diag.Lookup(d.Rule); !ok {
				t.Fatalf("unregistered rule: %s", d)
			}
			if d.File != derive.BundleFile {
				t.Fatalf("finding about another file: %s", d)
			}
			if jsonErr != nil {
				continue // a syntax error, located by line and column
			}
			if _, ok := canonjson.Resolve(root, d.Pointer); !ok {
				t.Fatalf("pointer does not resolve: %s", d)
			}
		}
		if b == nil || l.HasErrors() {
			return
		}
		views := derive.LegacyViews(b)
		if !bytes.Equal(canonjson.DigestForm(root), canonjson.DigestForm(mustDecode(t, views[0].Data))) {
			t.Fatal("the mirror is not JSON-equal to the bundle")
		}
		mustDecode(t, views[1].Data)
	})
}

func mustGet(tb testing.TB, v canonjson.Value, pointer string) canonjson.Value {
	tb.Helper()
	got, ok := canonjson.Resolve(v, pointer)
	if !ok {
		tb.Fatalf("%s does not resolve", pointer)
	}
	return got
}
