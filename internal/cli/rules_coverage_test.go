package cli

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/diag"
)

// TestEveryRuleHasATest guards "every rule has a fixture where it fires": a
// registered rule must be named in some test, by its ID (testscripts,
// goldens) or by the Go identifier it is registered under (unit tests and
// the fixtures of test-support packages). It
// cannot prove that the test makes the rule fire, but it catches a rule
// nobody tests at all.
func TestEveryRuleHasATest(t *testing.T) {
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	register := regexp.MustCompile(`(\w+)\s*=\s*diag\.Register\(\s*"([A-Z0-9_]+)"`)
	ident := map[string]string{} // rule ID -> Go identifier
	var tests strings.Builder
	err = filepath.WalkDir(repo, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == ".git") {
			return fs.SkipDir
		}
		if d.IsDir() {
			return nil
		}
		// A package's test-support package (contract/contracttest,
		// verdict/verdicttest, ...) holds fixtures several packages' tests
		// share.
		dir := filepath.Dir(p)
		helper := filepath.Base(dir) == filepath.Base(filepath.Dir(dir))+"test"
		isTest := strings.HasSuffix(p, "_test.go") || strings.Contains(filepath.ToSlash(p), "/testdata/") || helper
		isSource := strings.HasSuffix(p, ".go") && !isTest
		if !isTest && !isSource {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if isTest {
			tests.Write(b)
			tests.WriteByte('\n')
			return nil
		}
		for _, m := range register.FindAllSubmatch(b, -1) {
			ident[string(m[2])] = string(m[1])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Every word of the tests, once: a rule's ID and its identifier are
	// words.
	words := map[string]bool{}
	for _, w := range regexp.MustCompile(`\w+`).FindAllString(tests.String(), -1) {
		words[w] = true
	}
	for _, r := range diag.Rules() {
		name, ok := ident[r.ID]
		if !ok {
			continue // registered by a test itself
		}
		if words[r.ID] || words[name] {
			continue
		}
		t.Errorf("rule %s (%s) is not named in any test: add a fixture where it fires", r.ID, name)
	}
}
