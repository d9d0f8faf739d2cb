package contractcheck_test

import (
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/contract/contracttest"
	"github.com/code2skill/code2skill/internal/contractcheck"
)

// A body that really is {data, pagination} declares the output ["data"],
// and its success rule may require it: the path is relative to the
// result's data like any other.
func TestSuccessRuleRequiresADataMember(t *testing.T) {
	l := check(t, cc, contractcheck.Options{},
		set("/capabilities/3/outputs/0/path", `["data"]`),
		set("/capabilities/3/successRule/requiredOutputPaths", `[["data"]]`))
	for _, d := range l.Sorted() {
		if d.Rule == contractcheck.RuleSuccessRule.ID {
			t.Errorf("a declared data member is refused: %s", d)
		}
	}
}

// A path that starts with data but names no member called data is the real
// mistake: the rule fires, and its fix is the path without data when that
// names an output, never an empty path.
func TestSuccessRuleDataPrefix(t *testing.T) {
	for _, tc := range []struct {
		paths, want, notWant string
	}{
		{`[["data", "draftId"]]`, `write ["draftId"]`, ""},
		{`[["data"]]`, "outputRequired", "write []"},
	} {
		t.Run(tc.paths, func(t *testing.T) {
			l := check(t, cc, contractcheck.Options{}, set("/capabilities/3/successRule/requiredOutputPaths", tc.paths))
			var msg string
			for _, d := range l.Sorted() {
				if d.Rule == contractcheck.RuleSuccessRule.ID && d.Pointer == "/capabilities/3/successRule/requiredOutputPaths/0" {
					msg = d.Message
				}
			}
			if msg == "" {
				t.Fatalf("no %s; got:\n%s", contractcheck.RuleSuccessRule.ID, contracttest.Findings(l))
			}
			if !strings.Contains(msg, tc.want) || (tc.notWant != "" && strings.Contains(msg, tc.notWant)) {
				t.Errorf("message %q: want %q, not %q", msg, tc.want, tc.notWant)
			}
		})
	}
}

// A nullable output that is not required is no finding: only a required
// path must hold a value in every success.
func TestNullableOutputNotRequired(t *testing.T) {
	l := check(t, cc, contractcheck.Options{},
		set("/capabilities/2/outputs/0/schema/properties/grantId/type", `["string", "null"]`))
	for _, d := range l.Sorted() {
		if d.Rule == contractcheck.RuleSuccessNullable.ID {
			t.Errorf("an optional nullable field warns: %s", d)
		}
	}
}
