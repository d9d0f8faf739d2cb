package cli

import (
	"fmt"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/golden"
	"github.com/code2skill/code2skill/internal/sarif"
)

// TestRulesReference keeps docs/rules.md, the page every SARIF rule's help
// links to, equal to the registry: one heading per rule ID, whose anchor is
// sarif.Anchor of the ID. After adding a rule, rewrite the page with
// CODE2SKILL_UPDATE=1 go test ./internal/cli -run TestRulesReference.
func TestRulesReference(t *testing.T) {
	golden.Check(t, "../../docs/rules.md", rulesReference(diag.Rules()))
}

// rulesReference renders the rules page: the rules by family (the ID's
// prefix), each under a heading of its own.
func rulesReference(rules []*diag.Rule) []byte {
	type family struct {
		name  string
		rules []*diag.Rule
	}
	var families []*family
	for _, r := range rules {
		name, _, _ := strings.Cut(r.ID, "_")
		if len(families) == 0 || families[len(families)-1].name != name {
			families = append(families, &family{name: name})
		}
		f := families[len(families)-1]
		f.rules = append(f.rules, r)
	}
	var b strings.Builder
	b.WriteString("# code2skill rules\n\n")
	b.WriteString("Every rule code2skill checks: its stable ID, the severity of its findings and its purpose,\n")
	b.WriteString("as `code2skill rules` prints them. Each rule has a heading of its own, which the help of\n")
	b.WriteString("a SARIF log's rules links to (`--format sarif`). IDs are never renamed or reused.\n\n")
	b.WriteString("This page is generated from the rule registry; `CODE2SKILL_UPDATE=1 go test ./internal/cli\n")
	b.WriteString("-run TestRulesReference` rewrites it.\n\n")
	for _, f := range families {
		fmt.Fprintf(&b, "- [%s](#%s) (%d)\n", f.name, strings.ToLower(f.name), len(f.rules))
	}
	for _, f := range families {
		fmt.Fprintf(&b, "\n## %s\n", f.name)
		for _, r := range f.rules {
			if sarif.Anchor(r.ID) != strings.ToLower(r.ID) {
				panic("the rules page's headings no longer match sarif.Anchor")
			}
			fmt.Fprintf(&b, "\n### %s\n\n%s: %s\n", r.ID, r.Severity, r.Purpose)
		}
	}
	return []byte(b.String())
}
