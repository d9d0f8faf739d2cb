package core

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/pkgdir"
)

// testChecker returns a checker over a temporary package holding files.
func testChecker(t *testing.T, files map[string]string) *checker {
	t.Helper()
	return newCheckerIn(t, "pkg", files)
}

// newCheckerIn is testChecker for a package directory with the given name.
func newCheckerIn(t *testing.T, name string, files map[string]string) *checker {
	t.Helper()
	root := filepath.Join(t.TempDir(), name)
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pkg, ds, err := pkgdir.Open(root)
	if err != nil || len(ds) > 0 {
		t.Fatalf("opening fixture: %v %v", err, ds)
	}
	return newChecker(pkg, Options{}, &Result{})
}

// findings renders the checker's findings as "RULE file#pointer: message"
// lines, sorted.
func findings(c *checker) []string {
	var out []string
	for _, d := range c.result.Diagnostics.Sorted() {
		out = append(out, d.Rule+" "+d.Location()+": "+d.Message)
	}
	return out
}

// ruleIDs returns the sorted, de-duplicated rule IDs of the findings.
func ruleIDs(c *checker) []string {
	var out []string
	for _, d := range c.result.Diagnostics.Sorted() {
		out = append(out, d.Rule)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func wantRules(t *testing.T, c *checker, want ...*diag.Rule) {
	t.Helper()
	var ids []string
	for _, r := range want {
		ids = append(ids, r.ID)
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	if got := ruleIDs(c); !slices.Equal(got, ids) {
		t.Errorf("rules = %v, want %v\n%s", got, ids, strings.Join(findings(c), "\n"))
	}
}
