package contract_test

import (
	"testing"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/diag"
)

// FuzzDecode decodes arbitrary bytes as each of the four inputs. Decoding
// must never panic, and every finding must name a registered rule and a
// location that exists: a line and column inside the input for unreadable
// JSON, otherwise a JSON Pointer that resolves in the document.
func FuzzDecode(f *testing.F) {
	for _, name := range inputs {
		f.Add(contracttest.Reference(f, name))
	}
	small := []string{
		`{}`, `[]`, `null`, `{"capabilities": [{}]}`,
		`{"capabilities": [{"inputs": [{"sourceStrategies": ["user", {"kind": "upstream-tool"}], "valueDomain": {"kind": "static"}}]}]}`,
		`{"capabilities": [{"implementation": {"kind": "http", "steps": [{"bindings": [{"source": {"kind": "prior_response"}}]}]}}]}`,
		`{"goals": [{"informationNeeds": [{"satisfiedBy": [{"kind": "capability"}], "condition": {"operator": "not"}}], "conditionalCapabilityIds": ["a", {"capabilityId": 1}]}]}`,
		`{"workflows": [{"bindings": [{"actualSource": {"kind": "constant"}, "expectedSource": {"kind": "protected-runtime-state", "path": []}}]}]}`,
		`{"capabilities": {"a~b/c": {"status": "supported"}}}`,
	}
	for _, s := range small {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 1<<18 {
			return
		}
		root, jsonErr := canonjson.Decode(data)
		for _, name := range inputs {
			_, l := decode(name, data)
			for _, d := range l.Sorted() {
				if _, ok := diag.Lookup(d.Rule); !ok {
					t.Fatalf("%s: unregistered rule in %s", name, d)
				}
				if d.File != name {
					t.Fatalf("%s: finding about another file: %s", name, d)
				}
				if jsonErr != nil {
					if d.Line < 1 || d.Column < 1 || d.Pointer != "" {
						t.Fatalf("%s: syntax finding without a position: %s", name, d)
					}
					continue
				}
				if _, ok := canonjson.Resolve(root, d.Pointer); !ok || d.Line != 0 {
					t.Fatalf("%s: pointer %q does not resolve: %s", name, d.Pointer, d)
				}
			}
		}
	})
}

// The decoders accept what they are given in any order: the reference inputs
// with every object's members reversed decode without a finding.
func TestDecodingIgnoresMemberOrder(t *testing.T) {
	for _, name := range inputs {
		v, err := canonjson.Decode(contracttest.Reference(t, name))
		if err != nil {
			t.Fatal(err)
		}
		_, l := decode(name, canonjson.Encode(reversed(v)))
		for _, d := range l.Sorted() {
			t.Errorf("%s", d)
		}
	}
}

func reversed(v canonjson.Value) canonjson.Value {
	switch v := v.(type) {
	case *canonjson.Object:
		keys := v.Keys()
		out := &canonjson.Object{}
		for i := len(keys) - 1; i >= 0; i-- {
			mv, _ := v.Get(keys[i])
			out.Set(keys[i], reversed(mv))
		}
		return out
	case canonjson.Array:
		out := make(canonjson.Array, len(v))
		for i, e := range v {
			out[i] = reversed(e)
		}
		return out
	}
	return v
}

// Decoding is a pure function of the bytes: two decodes report the same
// findings.
func TestDecodingIsDeterministic(t *testing.T) {
	data := contracttest.Patch(t, contracttest.Reference(t, contract.ContractFile),
		contracttest.Set("/capabilities/0/extra", `1`), contracttest.Set("/goals/0/x", `2`))
	_, a := decode(contract.ContractFile, data)
	_, b := decode(contract.ContractFile, data)
	if contracttest.Findings(a) != contracttest.Findings(b) || a.Len() == 0 {
		t.Errorf("findings differ or are missing:\n%s\n%s", contracttest.Findings(a), contracttest.Findings(b))
	}
}
