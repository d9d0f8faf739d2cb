package contractcheck_test

import (
	"maps"
	"os"
	"path/filepath"
	"testing"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/contractcheck"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
)

// inputFiles are the four Portable Core inputs.
var inputFiles = []string{contract.ContractFile, contract.TopologyFile, contract.HostProfileFile, contract.ExportProfileFile}

// check decodes the reference inputs, with ops applied to file, and
// returns every finding check-contract reports for them.
func check(t testing.TB, file string, opts contractcheck.Options, ops ...contracttest.Op) *diag.List {
	t.Helper()
	files := map[string][]byte{}
	for _, name := range inputFiles {
		data := contracttest.Reference(t, name)
		if name == file {
			data = contracttest.Patch(t, data, ops...)
		}
		files[name] = data
	}
	in, l := derive.Decode(files)
	l.Merge(contractcheck.Check(in, opts))
	return l
}

func TestReferenceHasNoFindings(t *testing.T) {
	l := check(t, "", contractcheck.Options{})
	for _, d := range l.Sorted() {
		if d.Rule != contractcheck.RuleNotChecked.ID {
			t.Errorf("%s", d)
		}
	}
}

// A package holds at most 40 capabilities; the 41st is reported.
func TestCapabilityCount(t *testing.T) {
	ref, err := canonjson.Decode(contracttest.Reference(t, contract.ContractFile))
	if err != nil {
		t.Fatal(err)
	}
	first, _ := canonjson.Resolve(ref, "/capabilities/0")
	var adds []contracttest.Op
	for range contractcheck.MaxCapabilities - 5 + 1 {
		adds = append(adds, contracttest.Append("/capabilities", string(canonjson.Encode(first))))
	}
	l := check(t, cc, contractcheck.Options{}, adds...)
	if !has(l, "CONTRACT_CAPABILITY_COUNT", cc, "/capabilities/40") {
		t.Errorf("want CONTRACT_CAPABILITY_COUNT:\n%s", contracttest.Findings(l))
	}
	l = check(t, cc, contractcheck.Options{}, adds[1:]...)
	if l.Has(contractcheck.RuleCapabilityCount) {
		t.Errorf("40 capabilities are allowed")
	}
}

// The synthetic packages check-contract accepts: passing fixtures for the
// attachment chain and the workflow rules beyond the reference. (The other
// synthetic packages exercise derive on contracts check-contract rejects.)
func TestCleanSyntheticPackages(t *testing.T) {
	for _, pkg := range []string{"attachment", "workflow-write"} {
		t.Run(pkg, func(t *testing.T) {
			files := map[string][]byte{}
			for _, name := range inputFiles {
				b, err := os.ReadFile(filepath.Join("..", "derive", "testdata", "synthetic", pkg, "input", name))
				if err != nil {
					t.Fatal(err)
				}
				files[name] = b
			}
			in, l := derive.Decode(files)
			l.Merge(contractcheck.Check(in, contractcheck.Options{}))
			for _, d := range l.Sorted() {
				if d.Rule != contractcheck.RuleNotChecked.ID {
					t.Errorf("%s", d)
				}
			}
		})
	}
}

// The order of what carries no meaning does not change a verdict: the
// clean contracts re-serialised with their members and sets in another
// order are still clean (freshness, schemas and mappings compared as the
// sets they hold).
func TestReorderedContractsStayClean(t *testing.T) {
	packages := map[string]map[string][]byte{"reference": {}}
	for _, name := range inputFiles {
		packages["reference"][name] = contracttest.Reference(t, name)
	}
	for _, pkg := range []string{"attachment", "workflow-write"} {
		packages[pkg] = map[string][]byte{}
		for _, name := range inputFiles {
			b, err := os.ReadFile(filepath.Join("..", "derive", "testdata", "synthetic", pkg, "input", name))
			if err != nil {
				t.Fatal(err)
			}
			packages[pkg][name] = b
		}
	}
	for name, files := range packages {
		for seed := range uint64(5) {
			reordered := maps.Clone(files)
			reordered[contract.ContractFile] = contracttest.Reorder(files[contract.ContractFile], seed)
			in, l := derive.Decode(reordered)
			l.Merge(contractcheck.Check(in, contractcheck.Options{}))
			for _, d := range l.Sorted() {
				if d.Rule != contractcheck.RuleNotChecked.ID {
					t.Errorf("%s, seed %d: %s", name, seed, d)
				}
			}
		}
	}
}
