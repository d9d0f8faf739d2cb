package examples

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/code2skill/code2skill/assets"
)

// TestEmbeddedMatchesDirectory keeps the embedded example and the directory
// readers see identical: every file of the directory (outside node_modules)
// is embedded, byte for byte.
func TestEmbeddedMatchesDirectory(t *testing.T) {
	var onDisk []string
	filepath.WalkDir(SeedLibraryName, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		if d.IsDir() && d.Name() == "node_modules" {
			return fs.SkipDir
		}
		if d.Type().IsRegular() {
			rel, _ := filepath.Rel(SeedLibraryName, p)
			onDisk = append(onDisk, filepath.ToSlash(rel))
		}
		return nil
	})
	var embedded []string
	fs.WalkDir(SeedLibrary(), ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			embedded = append(embedded, p)
		}
		return nil
	})
	slices.Sort(onDisk)
	slices.Sort(embedded)
	if !slices.Equal(onDisk, embedded) {
		t.Fatalf("embedded files differ from the directory:\n on disk  %v\n embedded %v", onDisk, embedded)
	}
	for _, p := range embedded {
		a, _ := fs.ReadFile(SeedLibrary(), p)
		b, _ := os.ReadFile(filepath.Join(SeedLibraryName, p))
		if string(a) != string(b) {
			t.Errorf("%s: embedded copy differs", p)
		}
	}
}

// TestRuntimeAssetIsTheReviewedOne: the example carries the reviewed runtime
// asset byte for byte, never an edited copy.
func TestRuntimeAssetIsTheReviewedOne(t *testing.T) {
	b, err := fs.ReadFile(SeedLibrary(), assets.AgentResult.Name())
	if err != nil {
		t.Fatal(err)
	}
	if !assets.AgentResult.Matches(b) {
		t.Errorf("%s differs from the reviewed asset; copy it again from assets/", assets.AgentResult.Name())
	}
}
