package contractdiff_test

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/contractdiff"
)

// jsonAt returns the elements of the reference's array at pointer, each as
// JSON text.
func jsonAt(pointer string) []string {
	v, err := canonjson.Decode(contracttestReference())
	if err != nil {
		panic(err)
	}
	a, _ := canonjson.Resolve(v, pointer)
	var out []string
	for _, e := range a.(canonjson.Array) {
		out = append(out, string(canonjson.DigestForm(e)))
	}
	return out
}

func contracttestReference() []byte {
	data, err := os.ReadFile("../contract/testdata/reference/" + contract.ContractFile)
	if err != nil {
		panic(err)
	}
	return data
}

// The same contract re-serialised with its members and sets in another
// order is no change at all.
func TestPureReorder(t *testing.T) {
	for seed := range uint64(8) {
		reordered := contracttest.Reorder(reference(t), seed)
		if bytes.Equal(reordered, reference(t)) {
			t.Fatalf("seed %d reordered nothing", seed)
		}
		d, err := contractdiff.Compare(decodeContract(t, reference(t)), decodeContract(t, reordered))
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Changes) != 0 {
			t.Errorf("seed %d: a pure reorder gave changes:\n%s", seed, describe(d))
		}
	}
}

// A renamed capability's references in the old contract are read as the
// new ID: they are no change, though the old contract names the old ID.
func TestRenameFollowsReferences(t *testing.T) {
	d := compare(t, nil, renameSave("save-draft"))
	if len(d.Changes) != 1 {
		t.Fatalf("want only the rename:\n%s", describe(d))
	}
	c := d.Changes[0]
	if c.Before != canonjson.String("save-sample-draft") || c.After != canonjson.String("save-draft") || c.CapabilityID != "save-draft" || c.Pointer != "/capabilities/3" {
		t.Errorf("rename = %+v", c)
	}
	// Two candidates with the same identity are ambiguous: no rename.
	d = compare(t, []contracttest.Op{add("/capabilities", strings.Replace(jsonAt("/capabilities")[3], `"save-sample-draft"`, `"save-copy"`, 1))},
		renameSave("save-draft"))
	for _, c := range d.Changes {
		if c.Kind == contractdiff.Renamed {
			t.Errorf("an ambiguous rename was reported:\n%s", describe(d))
		}
	}
}

func TestDifferentContracts(t *testing.T) {
	_, err := contractdiff.Compare(decodeContract(t, reference(t)),
		decodeContract(t, contracttest.Patch(t, reference(t), set("/contractId", `"other-feature"`))))
	var m *contractdiff.MismatchError
	if !errors.As(err, &m) || m.Old != "synthetic-sample-request" || m.New != "other-feature" {
		t.Errorf("err = %v, want a mismatch", err)
	}
}

// The digest identifies the semantic changes, not their positions nor the
// cosmetic ones.
func TestDigest(t *testing.T) {
	a := compare(t, nil, []contracttest.Op{set("/capabilities/4/operationPolicy/confirmation", `"not-required"`)})
	b := compare(t, nil, []contracttest.Op{set("/capabilities/4/operationPolicy/confirmation", `"not-required"`), set("/capabilities/4/description", `"Submit."`)})
	c := compare(t, nil, []contracttest.Op{set("/capabilities/4/operationPolicy/confirmation", `"upload-confirmation-required"`)})
	if a.Digest() == "" || a.Digest() != b.Digest() {
		t.Errorf("a cosmetic change changed the digest: %q %q", a.Digest(), b.Digest())
	}
	if a.Digest() == c.Digest() {
		t.Errorf("two different changes have one digest")
	}
	// Nor does the order the new contract presents its capabilities in.
	d := compare(t, nil, append(swapCapabilities(), set("/capabilities/4/operationPolicy/confirmation", `"not-required"`)))
	if d.Digest() != a.Digest() {
		t.Errorf("the presentation order changed the digest")
	}
	if len(a.Digest()) != 64 {
		t.Errorf("digest %q", a.Digest())
	}
}

// Every row of the table is reachable: the corpus classifies changes with
// the rules it names, and the table has no two rows with one ID.
func TestRuleIDsAreUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range contractdiff.Rules {
		if seen[r.ID] {
			t.Errorf("rule %s appears twice", r.ID)
		}
		seen[r.ID] = true
		if r.Why == "" || r.Pattern == "" {
			t.Errorf("rule %s lacks a pattern or a reason", r.ID)
		}
	}
	last := contractdiff.Rules[len(contractdiff.Rules)-1]
	if last.Pattern != "**" || last.When != nil || len(last.Kinds) != 0 || last.Class != contractdiff.Breaking {
		t.Errorf("the last rule must classify everything else as breaking: %+v", last)
	}
}

// docs/contract-diff.md documents the classification table as it is.
func TestDocumentedRulesTable(t *testing.T) {
	doc, err := os.ReadFile("../../docs/contract-diff.md")
	if err != nil {
		t.Fatal(err)
	}
	if table := contractdiff.RulesTable(); !strings.HasSuffix(string(doc), "\n"+table) {
		t.Errorf("docs/contract-diff.md does not end with the current classification table; put this last:\n\n%s", table)
	}
}

// Every change is also a finding of its class's rule, at its pointer, for
// printers of findings.
func TestFindings(t *testing.T) {
	d := compare(t, nil, []contracttest.Op{
		set("/capabilities/4/operationPolicy/confirmation", `"not-required"`),
		add("/capabilities/0/hostRequirements", `"trusted-confirmation"`),
		remove("/capabilities/0/hostRequirements/0"),
		set("/server/description", `"Requests."`),
	})
	l := d.Findings("old.json", "new.json")
	want := map[string]string{ // rule -> file#pointer
		"DIFF_CHANGE_BREAKING":   "new.json#/capabilities/4/operationPolicy/confirmation",
		"DIFF_CHANGE_COMPATIBLE": "old.json#/capabilities/0/hostRequirements/0", // a removal: in the old file
		"DIFF_CHANGE_COSMETIC":   "new.json#/server/description",
	}
	for _, f := range l.Sorted() {
		if at, ok := want[f.Rule]; ok && f.File+"#"+f.Pointer == at {
			delete(want, f.Rule)
		}
	}
	if len(want) != 0 || l.Len() != len(d.Changes) {
		t.Errorf("missing %v in:\n%s", want, contracttest.Findings(l))
	}
}
