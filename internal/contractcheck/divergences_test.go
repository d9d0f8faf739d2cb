package contractcheck_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/contractcheck"
	"github.com/code2skill/code2skill/internal/diag"
)

// declaration is a rule a source file registers, with the variable that
// holds it.
type declaration struct {
	file, variable, id string
}

var registerRE = regexp.MustCompile(`(\w+)\s*=\s*diag\.Register\("([A-Z0-9_]+)"`)

// declarations returns the rules the non-test Go files of the packages in
// dirs (relative to internal/) register, each file named "pkg/file.go".
func declarations(t *testing.T, dirs ...string) []declaration {
	t.Helper()
	var out []declaration
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join("..", dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range registerRE.FindAllSubmatch(b, -1) {
				out = append(out, declaration{dir + "/" + filepath.Base(f), string(m[1]), string(m[2])})
			}
		}
	}
	return out
}

// whereJudged returns the rows of the table "Where each rule is judged" of
// docs/divergences.md: the code span that starts each row's first cell,
// and the rule IDs of its second cell, in order.
func whereJudged(t *testing.T) (keys []string, rules map[string][]string) {
	t.Helper()
	b, err := os.ReadFile("../../docs/divergences.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "\n## Where each rule is judged\n")
	if !ok {
		t.Fatal("docs/divergences.md has no section \"Where each rule is judged\"")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	key := regexp.MustCompile("^\\| `([^`]+)`")
	id := regexp.MustCompile("`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)`")
	rules = map[string][]string{}
	for _, line := range strings.Split(section, "\n") {
		m := key.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		cells := strings.Split(line, " | ")
		if len(cells) != 3 {
			t.Fatalf("row %q has %d cells, want 3", m[1], len(cells))
		}
		if _, dup := rules[m[1]]; dup {
			t.Errorf("row %q appears twice", m[1])
		}
		keys = append(keys, m[1])
		rules[m[1]] = nil
		for _, r := range id.FindAllStringSubmatch(cells[1], -1) {
			rules[m[1]] = append(rules[m[1]], r[1])
		}
	}
	return keys, rules
}

func ruleIDs(rules []*diag.Rule) []string {
	ids := make([]string, len(rules))
	for i, r := range rules {
		ids[i] = r.ID
	}
	return ids
}

// ruleReferences returns the rule variables the non-test files of
// this package matching match refer to, outside their declarations and the
// family table.
func ruleReferences(t *testing.T, match func(name string) bool) map[string]bool {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	ref := regexp.MustCompile(`\bRule[A-Z]\w*\b`)
	out := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || f == "families.go" || !match(f) {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		b = registerRE.ReplaceAll(b, nil)
		for _, m := range ref.FindAll(b, -1) {
			out[string(m)] = true
		}
	}
	return out
}

func isStructureFile(name string) bool { return strings.HasPrefix(name, "structure") }

// docs/divergences.md lists where each rule is judged: one row per file
// that registers rules (derive's, the decoder's and this package's), with
// exactly the rules that file registers; the rules Bundle reports; and the
// structural rules the semantic families report as well. A rule added to
// the registry without its row, or listed in another file's row, fails.
func TestDivergencesListWhereEachRuleIsJudged(t *testing.T) {
	keys, rows := whereJudged(t)
	decls := declarations(t, "derive", "contract", "contractcheck")

	byFile := map[string][]string{}
	variable := map[string]string{} // this package's rule variables by name
	for _, d := range decls {
		byFile[d.file] = append(byFile[d.file], d.id)
		if strings.HasPrefix(d.file, "contractcheck/") {
			variable[d.variable] = d.id
		}
		if strings.HasPrefix(d.file, "derive/") && !strings.HasPrefix(d.id, "DERIVE_") {
			t.Errorf("%s registers %s: a rule of the contract belongs to contractcheck, which derive calls", d.file, d.id)
		}
	}
	for file, ids := range byFile {
		got, ok := rows[file]
		switch {
		case !ok:
			t.Errorf("docs/divergences.md has no row `%s` for %s", file, strings.Join(ids, ", "))
		case !slices.Equal(got, ids):
			t.Errorf("row `%s` lists %v; %s registers %v", file, got, file, ids)
		}
	}
	listed := map[string]int{}
	for _, key := range keys {
		if !strings.HasSuffix(key, ".go") {
			continue
		}
		if _, ok := byFile[key]; !ok {
			t.Errorf("row `%s` names a file that registers no rule", key)
		}
		for _, id := range rows[key] {
			listed[id]++
		}
	}
	for _, f := range contractcheck.Families() {
		for _, r := range f.Rules {
			if listed[r.ID] != 1 {
				t.Errorf("rule %s of family %q is in %d file rows, want 1", r.ID, f.Name, listed[r.ID])
			}
		}
	}

	// Structure reports the rules structure.go declares, and its code
	// refers to no other rule.
	if got, want := ruleIDs(contractcheck.StructureRules()), byFile["contractcheck/structure.go"]; !slices.Equal(got, want) {
		t.Errorf("StructureRules() = %v; structure.go registers %v", got, want)
	}
	for name := range ruleReferences(t, isStructureFile) {
		if id, ok := variable[name]; !ok || !slices.Contains(byFile["contractcheck/structure.go"], id) {
			t.Errorf("the structural checks report %s, which is not a structural rule", name)
		}
	}

	if got, want := rows["contractcheck.Bundle"], ruleIDs(contractcheck.BundleRules()); !slices.Equal(got, want) {
		t.Errorf("row `contractcheck.Bundle` lists %v; BundleRules() = %v", got, want)
	}

	// The structural rules the semantic families report too.
	var shared []string
	for name := range ruleReferences(t, func(f string) bool { return !isStructureFile(f) }) {
		if id, ok := variable[name]; ok && slices.Contains(byFile["contractcheck/structure.go"], id) {
			shared = append(shared, id)
		}
	}
	got := slices.Clone(rows["contractcheck.Check"])
	slices.Sort(got)
	slices.Sort(shared)
	if !slices.Equal(got, shared) {
		t.Errorf("row `contractcheck.Check` lists %v; the semantic families report the structural rules %v", got, shared)
	}
}
