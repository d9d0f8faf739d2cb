package contractcheck_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/contractcheck"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
)

// structure decodes the reference inputs, with ops applied to file, and
// returns the findings of decoding and of Structure alone.
func structure(t testing.TB, file string, ops ...contracttest.Op) *diag.List {
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
	l.Merge(contractcheck.Structure(in))
	return l
}

// Each structural rule fires on its fixtures, in Structure itself.
func TestStructureRulesFireOnTheirFixtures(t *testing.T) {
	for i, rc := range contracttest.StructureCases {
		t.Run(fmt.Sprintf("%02d_%s", i, rc.Rule), func(t *testing.T) {
			if l := structure(t, rc.File, rc.Ops...); !has(l, rc.Rule, rc.File, rc.At) {
				t.Errorf("want %s at %s#%s; got:\n%s", rc.Rule, rc.File, rc.At, contracttest.Findings(l))
			}
		})
	}
}

// Structure reports only the rules StructureRules lists, and the unedited
// reference inputs break none of them: run over every fixture of this
// package, it never reports another rule.
func TestStructureReportsOnlyItsRules(t *testing.T) {
	own := map[string]bool{}
	for _, r := range contractcheck.StructureRules() {
		own[r.ID] = true
	}
	format := map[string]bool{}
	for _, r := range []*diag.Rule{contract.RuleType, contract.RuleFieldMissing, contract.RuleFieldUnknown,
		contract.RuleFieldUnrecognized, contract.RuleEmpty, contract.RuleVocabulary} {
		format[r.ID] = true
	}
	type edit struct {
		file string
		ops  []contracttest.Op
	}
	edits := []edit{{}}
	for _, rc := range contracttest.StructureCases {
		edits = append(edits, edit{rc.File, rc.Ops})
	}
	for _, rc := range ruleCases {
		edits = append(edits, edit{rc.edit, rc.ops})
	}
	for _, tc := range contracttest.ViewNeutral {
		edits = append(edits, edit{tc.File, tc.Ops})
	}
	for _, e := range edits {
		for _, d := range structure(t, e.file, e.ops...).Sorted() {
			if !own[d.Rule] && !format[d.Rule] {
				t.Errorf("Structure reported %s, which StructureRules does not list: %s", d.Rule, d)
			}
		}
	}
	if l := structure(t, ""); l.Len() > 0 {
		t.Errorf("the reference inputs break a structural rule:\n%s", contracttest.Findings(l))
	}
}

// Bundle reports only the rules BundleRules lists, each of which
// Structure reports too.
func TestBundleRulesAreStructureRules(t *testing.T) {
	for _, r := range contractcheck.BundleRules() {
		if !slices.Contains(contractcheck.StructureRules(), r) {
			t.Errorf("%s is a bundle rule but not a structural rule", r.ID)
		}
	}
}

// Reading reports each required input that is absent, and only those.
func TestInputMissing(t *testing.T) {
	for _, missing := range inputFiles {
		files := map[string][]byte{}
		for _, name := range inputFiles {
			if name != missing {
				files[name] = contracttest.Reference(t, name)
			}
		}
		_, l := derive.Decode(files)
		got := has(l, contractcheck.RuleInputMissing.ID, missing, "")
		if want := missing != contract.ExportProfileFile; got != want {
			t.Errorf("without %s: %s reported: %v, want %v:\n%s", missing, contractcheck.RuleInputMissing.ID, got, want, contracttest.Findings(l))
		}
	}
}
