package derive_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/derive"
	"github.com/code2skill/code2skill/internal/diag"
)

var (
	set    = contracttest.Set
	remove = contracttest.Remove
)

func ops(o ...contracttest.Op) []contracttest.Op { return o }

// derive refuses every input that breaks a structural rule, with the
// finding contractcheck.Structure reports for it. The unedited reference
// inputs, and every synthetic package, produce no finding at all (see
// derive_test.go).
func TestRulesFireOnTheirFixtures(t *testing.T) {
	for i, rc := range contracttest.StructureCases {
		t.Run(fmt.Sprintf("%02d_%s", i, rc.Rule), func(t *testing.T) {
			_, l := decodeInputs(t, func(name string) []byte {
				data := contracttest.Reference(t, name)
				if name == rc.File {
					data = contracttest.Patch(t, data, rc.Ops...)
				}
				return data
			})
			if !slices.ContainsFunc(l.Sorted(), func(d diag.Diagnostic) bool {
				return d.Rule == rc.Rule && d.File == rc.File && d.Pointer == rc.At
			}) {
				t.Errorf("want %s at %s#%s; got:\n%s", rc.Rule, rc.File, rc.At, contracttest.Findings(l))
			}
		})
	}
}

// Every structural rule derive reports has a fixture. (The DERIVE_ rules
// concern files on disk and are covered by the CLI tests.)
func TestEveryRuleHasAFixture(t *testing.T) {
	for _, r := range derive.Rules() {
		if strings.HasPrefix(r.ID, "DERIVE_") {
			continue
		}
		if !slices.ContainsFunc(contracttest.StructureCases, func(rc contracttest.RuleCase) bool { return rc.Rule == r.ID }) {
			t.Errorf("rule %s has no failing fixture", r.ID)
		}
	}
}

// derive accepts what the established derive accepts: contracts whose
// problems do not keep views from being derived. check-contract reports
// them (see internal/contractcheck).
func TestViewNeutralProblemsDoNotStopDerive(t *testing.T) {
	for _, tc := range contracttest.ViewNeutral {
		t.Run(tc.Name, func(t *testing.T) {
			in, l := decodeInputs(t, func(name string) []byte {
				data := contracttest.Reference(t, name)
				if name == tc.File {
					data = contracttest.Patch(t, data, tc.Ops...)
				}
				return data
			})
			requireNoFindings(t, l)
			if views := derive.Views(in); len(views) != 10 {
				t.Errorf("derived %d views", len(views))
			}
		})
	}
}
