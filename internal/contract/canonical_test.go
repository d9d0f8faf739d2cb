package contract_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contract/contracttest"
)

// fixtureContracts are the contracts the repository carries: the reference,
// the synthetic packages and the strict sample.
func fixtureContracts(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{"reference": contracttest.Reference(t, contract.ContractFile)}
	files, _ := filepath.Glob("../derive/testdata/synthetic/*/input/" + contract.ContractFile)
	files = append(files, "../../examples/equipment-lending/package/"+contract.ContractFile)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[f] = data
	}
	if len(out) < 6 {
		t.Fatalf("found %d contracts", len(out))
	}
	return out
}

func canonicalBytes(t *testing.T, data []byte) []byte {
	t.Helper()
	v, err := canonjson.Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := contract.CanonicalDocument(v)
	return canonjson.Encode(c)
}

// Every member of every record the fixtures hold is one the shape knows:
// the canonical order and the diff's identities cover the whole format.
func TestShapeCoversTheFixtures(t *testing.T) {
	for name, data := range fixtureContracts(t) {
		v, _ := canonjson.Decode(data)
		var walk func(v canonjson.Value, s *contract.Shape, at string)
		walk = func(v canonjson.Value, s *contract.Shape, at string) {
			switch s.Kind {
			case contract.KindRecord:
				o, ok := v.(*canonjson.Object)
				if !ok {
					return
				}
				for k, e := range o.All() {
					ms, ok := s.Member(k)
					if !ok {
						t.Errorf("%s: %s/%s is not in the shape of %s", name, at, k, s.Noun)
						continue
					}
					walk(e, ms, at+"/"+k)
				}
			case contract.KindList:
				a, _ := v.(canonjson.Array)
				for _, e := range a {
					if _, bare := e.(canonjson.String); bare && s.Elem.Kind == contract.KindRecord {
						continue // a bare check or capability ID
					}
					walk(e, s.Elem, at+"/*")
				}
			}
		}
		walk(v, contract.ContractShape, "")
	}
}

// Re-serialising a contract with its members and sets in another order
// does not change its canonical form, and the canonical form is its own.
func TestCanonicalFormIgnoresMeaninglessOrder(t *testing.T) {
	for name, data := range fixtureContracts(t) {
		want := canonicalBytes(t, data)
		if !bytes.Equal(canonicalBytes(t, want), want) {
			t.Errorf("%s: the canonical form is not canonical", name)
		}
		for seed := range uint64(6) {
			reordered := contracttest.Reorder(data, seed)
			if bytes.Equal(reordered, data) {
				t.Fatalf("%s: seed %d reordered nothing", name, seed)
			}
			if got := canonicalBytes(t, reordered); !bytes.Equal(got, want) {
				t.Errorf("%s: seed %d changes the canonical form:\n%s", name, seed, cmp.Diff(string(want), string(got)))
			}
		}
	}
}

// The canonical form keeps what carries meaning: the order of records,
// steps, paths, enums and properties; and sorts sets by declaration.
func TestCanonicalFormKeepsMeaningfulOrder(t *testing.T) {
	data := contracttest.Patch(t, contracttest.Reference(t, contract.ContractFile),
		// Records: capabilities, inputs, requirements.
		contracttest.Set("/capabilities", `[{"capabilityId": "b"}, {"capabilityId": "a", "hostRequirements": ["r2", "r1", "zz", "r0"], "evidenceRefs": ["e2", "e1", "x"]}]`),
		contracttest.Set("/evidenceCatalog", `[{"evidenceId": "e1"}, {"evidenceId": "e2"}]`),
		contracttest.Set("/consumerRequirements/requirements", `[{"requirementId": "r1"}, {"requirementId": "r2"}, {"requirementId": "r0"}]`),
		contracttest.Set("/goals", `[{"goalId": "g", "requiredCapabilityIds": ["a", "b"], "completionPredicate": {"informationIds": ["z", "y"]}, "informationNeeds": [{"informationId": "q", "schema": {"required": ["y", "x"], "properties": {"y": {"enum": ["2", "1"], "type": "string"}, "x": {}}, "type": "object"}}]}]`),
	)
	got := string(canonicalBytes(t, data))
	for _, want := range []string{
		`"capabilityId": "b"` + "\n" + `    },` + "\n" + `    {` + "\n" + `      "capabilityId": "a"`,                              // record order kept
		`"hostRequirements": [` + "\n" + `        "r1",` + "\n" + `        "r2",` + "\n" + `        "r0",` + "\n" + `        "zz"`, // declaration order, then undeclared
		`"evidenceRefs": [` + "\n" + `        "e1",` + "\n" + `        "e2",` + "\n" + `        "x"`,
		`"requiredCapabilityIds": [` + "\n" + `        "b",` + "\n" + `        "a"`,                                                                                   // capabilities order
		`"informationIds": [` + "\n" + `          "y",` + "\n" + `          "z"`,                                                                                      // plain words: value order
		`"y": {` + "\n" + `                "type": "string",` + "\n" + `                "enum": [` + "\n" + `                  "2",` + "\n" + `                  "1"`, // keywords ordered, enum kept
		`"required": [` + "\n" + `              "y",` + "\n" + `              "x"`,                                                                                    // properties order
	} {
		if !strings.Contains(got, want) {
			t.Errorf("canonical form lacks\n%s\nin\n%s", want, got)
		}
	}
}

// Canonical decodes the canonical document once; an already canonical
// contract is its own canonical form.
func TestCanonicalContract(t *testing.T) {
	data := contracttest.Reference(t, contract.ContractFile)
	c, l := contract.DecodeContract(contract.ContractFile, data)
	if l.HasErrors() {
		t.Fatal(l.Sorted())
	}
	canon := c.Canonical()
	if canon == c || c.Canonical() != canon || canon.Canonical() != canon {
		t.Fatalf("Canonical is not cached or not its own canonical form")
	}
	if !bytes.Equal(canonjson.Encode(canon.Raw), canonicalBytes(t, data)) {
		t.Errorf("the canonical contract is not decoded from the canonical document")
	}
	// Records keep their positions, so their pointers name the file.
	for i := range c.Capabilities {
		if canon.Capabilities[i].ID != c.Capabilities[i].ID || canon.Capabilities[i].At != c.Capabilities[i].At {
			t.Errorf("capability %d moved", i)
		}
	}
	up := c.Capabilities[1].HostRequirements
	if got := canon.Capabilities[1].HostRequirements; !slices.Equal(got, up) {
		t.Errorf("host requirements %v, want %v (already in declaration order)", got, up)
	}
	again, _ := contract.DecodeContract(contract.ContractFile, canonicalBytes(t, data))
	if again.Canonical() != again {
		t.Errorf("a canonical contract is not its own canonical form")
	}
}

func TestLocators(t *testing.T) {
	for _, tc := range []struct {
		in, stable, path, symbol string
		line                     int
	}{
		{"screen.go:28#Screen.Open", "screen.go#Screen.Open", "screen.go", "Screen.Open", 28},
		{"screen.go:28-35#Screen.Open", "screen.go#Screen.Open", "screen.go", "Screen.Open", 28},
		{"features/api#listKinds", "features/api#listKinds", "features/api", "listKinds", 0},
		{"src/a.ts:7", "src/a.ts", "src/a.ts", "", 7},
		{"src/a.ts", "src/a.ts", "src/a.ts", "", 0},
		{"src/a.ts:x#f", "src/a.ts:x#f", "", "f", 0},     // not a line hint: the path keeps it, and is not portable
		{"src/a.ts:07#f", "src/a.ts:07#f", "", "f", 0},   // a leading zero is no line
		{"src/a.ts:9-3#f", "src/a.ts:9-3#f", "", "f", 0}, // an empty range is no line
		{"file:///etc/passwd#x", "file:///etc/passwd#x", "", "x", 0},
		{"a.go:12#Type.Method:inner", "a.go#Type.Method:inner", "a.go", "Type.Method:inner", 12},
	} {
		if got := contract.StableLocator(tc.in); got != tc.stable {
			t.Errorf("StableLocator(%q) = %q, want %q", tc.in, got, tc.stable)
		}
		l := contract.ParseLocator(tc.in)
		if l.Path != tc.path || l.Symbol != tc.symbol || l.Line != tc.line || l.HasLine() != (tc.line > 0) {
			t.Errorf("ParseLocator(%q) = %+v", tc.in, l)
		}
	}
}
