package finalize_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/code2skill/code2skill/internal/finalize/finalizetest"
	"github.com/code2skill/code2skill/internal/golden"
)

// TestReferenceFixture keeps testdata/reference current: the verification
// evidence the command-line scripts finalize the compiled reference
// example with (the reads verified end to end, the writes not run for
// real). CODE2SKILL_UPDATE=1 rewrites it.
func TestReferenceFixture(t *testing.T) {
	fx := finalizetest.New(t)
	finalizetest.ReadsVerifiedOnly(t, fx.Green)
	fx.WriteEvidence(t)
	want := fx.Files()
	dir := filepath.Join("testdata", "reference")
	for p, data := range want {
		golden.Check(t, filepath.Join(dir, filepath.FromSlash(p)), data)
	}
	// No file the fixture no longer has may linger.
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if _, ok := want[filepath.ToSlash(rel)]; !ok && !slices.Contains([]string{"README.md"}, rel) {
			if golden.Update() {
				return os.Remove(p)
			}
			t.Errorf("%s is not part of the fixture; CODE2SKILL_UPDATE=1 removes it", p)
		}
		return nil
	})
}
