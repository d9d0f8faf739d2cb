package contractcheck_test

import (
	"testing"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/contractcheck"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
)

// compact returns a JSON document without insignificant white space, so
// that seeds stay small enough for the fuzzing engine to mutate usefully.
func compact(tb testing.TB, data []byte) []byte {
	v, err := canonjson.Decode(data)
	if err != nil {
		tb.Fatal(err)
	}
	return canonjson.DigestForm(v)
}

// FuzzCheck runs every rule on arbitrary contracts next to the reference
// topology and profiles. Check may not panic, whatever the contract holds;
// every finding names a registered rule and a pointer that resolves in its
// file; and two runs report the same findings.
func FuzzCheck(f *testing.F) {
	// Whole reference-sized seeds leave the engine stuck: start from a
	// small valid contract and small odd ones.
	f.Add(compact(f, contracttest.Small(f)))
	for _, s := range []string{
		`{"capabilities": [{"capabilityId": "a", "inputs": [{"name": "x", "schema": {"type": ["string", "null"], "enum": []}, "valueDomain": {"kind": "static", "values": [1]}, "requiredWhen": [{"operator": "and", "conditions": [{"path": ["x", "*"], "operator": "in", "value": []}]}]}]}]}`,
		`{"capabilities": [{"outputs": [{"path": ["a", "*", "b"], "schema": {"type": "array"}}, {"path": ["a"], "schema": true}], "attachments": {"mode": "host-approved-reference", "contentBindings": [{}]}}]}`,
		`{"goals": [{"informationNeeds": [{"informationId": "n", "classification": "requiredWhen", "condition": {"path": ["n"], "operator": "gt", "value": "x"}, "supplies": [{"capabilityId": "c"}]}], "completionPredicate": {"operator": "any-satisfied", "informationIds": []}}]}`,
		`{"workflows": [{"entryCapabilityId": "c", "bindings": [{"name": "b", "actualSource": {"kind": "runtime-context", "claim": "subject"}, "expectedSource": {"kind": "constant"}}]}], "capabilities": [{"capabilityId": "c", "runtimeProtection": {"mode": "deterministic-workflow", "hardWorkflowEvidence": {}}}]}`,
		`{"capabilityGraph": {"nodes": [{"capabilityId": "a"}, {"capabilityId": "a"}], "edges": [{"fromCapabilityId": "a", "toCapabilityId": "a", "kind": "hard-precondition", "composition": "derived"}]}}`,
	} {
		f.Add([]byte(s))
	}
	others := map[string][]byte{}
	for _, name := range []string{contract.TopologyFile, contract.HostProfileFile, contract.ExportProfileFile} {
		others[name] = contracttest.Reference(f, name)
	}
	roots := map[string]canonjson.Value{}
	for name, b := range others {
		roots[name], _ = canonjson.Decode(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<18 {
			return
		}
		files := map[string][]byte{contract.ContractFile: data}
		for name, b := range others {
			files[name] = b
		}
		in, l := derive.Decode(files)
		first := contractcheck.Check(in, contractcheck.Options{})
		second := contractcheck.Check(in, contractcheck.Options{})
		if contracttest.Findings(first) != contracttest.Findings(second) {
			t.Fatalf("two runs differ:\n%s\n%s", contracttest.Findings(first), contracttest.Findings(second))
		}
		l.Merge(first)
		root, _ := canonjson.Decode(data)
		for _, d := range l.Sorted() {
			if _, ok := diag.Lookup(d.Rule); !ok {
				t.Fatalf("unregistered rule: %s", d)
			}
			if d.Line > 0 || d.File == "" {
				continue // a syntax error: no document to point into
			}
			doc := roots[d.File]
			if d.File == contract.ContractFile {
				doc = root
			}
			if _, ok := canonjson.Resolve(doc, d.Pointer); !ok {
				t.Fatalf("pointer does not resolve: %s", d)
			}
		}
	})
}

// The cut-down seed is a valid contract: the fuzzer starts from a package
// every rule accepts.
func TestSmallSeedIsValid(t *testing.T) {
	data := contracttest.Small(t)
	in, l := derive.Decode(inputsOf(t, data))
	l.Merge(contractcheck.Check(in, contractcheck.Options{}))
	for _, d := range l.Sorted() {
		if d.Rule != contractcheck.RuleNotChecked.ID {
			t.Errorf("%s", d)
		}
	}
	t.Logf("seed: %d bytes compact", len(compact(t, data)))
}
