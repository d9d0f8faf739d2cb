package contractcheck_test

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/contractcheck"
	"github.com/code2skill/code2skill/internal/derive"
)

// registered returns the rule IDs this package's source files register.
func registered(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`diag\.Register\("([A-Z0-9_]+)"`)
	var ids []string
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		b, err := os.ReadFile(e.Name())
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllSubmatch(b, -1) {
			ids = append(ids, string(m[1]))
		}
	}
	return ids
}

// Every rule check-contract reports belongs to exactly one family: the
// rules this package registers and derive's structural rules.
func TestEveryRuleIsInOneFamily(t *testing.T) {
	count := map[string]int{}
	for _, f := range contractcheck.Families() {
		for _, r := range f.Rules {
			count[r.ID]++
		}
	}
	want := registered(t)
	for _, r := range derive.Rules() {
		if r != derive.RuleIOFailure { // a failure of the tool, not a rule of the contract
			want = append(want, r.ID)
		}
	}
	for _, id := range want {
		if count[id] != 1 {
			t.Errorf("rule %s is in %d families, want 1", id, count[id])
		}
	}
	for id, n := range count {
		if n > 1 {
			t.Errorf("rule %s is in %d families", id, n)
		}
	}
}

// Every rule this package registers has a fixture where it fires.
func TestEveryRuleHasAFixture(t *testing.T) {
	covered := slices.Clone(resolutionRules)
	covered = append(covered, "CONTRACT_CAPABILITY_COUNT", "DERIVE_INPUT_MISSING")
	for _, rc := range ruleCases {
		covered = append(covered, rc.rule)
	}
	for _, want := range viewNeutral {
		covered = append(covered, want[0])
	}
	for _, sc := range contracttest.StructureCases {
		covered = append(covered, sc.Rule)
	}
	for _, id := range registered(t) {
		if !slices.Contains(covered, id) {
			t.Errorf("rule %s has no fixture where it fires", id)
		}
	}
}

// docs/check-contract.md carries the family table as Families makes it,
// so that it cannot drift from the registry.
func TestDocumentedFamilyTable(t *testing.T) {
	page, err := os.ReadFile("../../docs/check-contract.md")
	if err != nil {
		t.Fatal(err)
	}
	if table := contractcheck.FamilyTable(); !strings.Contains(string(page), table) {
		t.Errorf("docs/check-contract.md lacks the current family table; put this in it:\n\n%s", table)
	}
}
