package examples

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/code2skill/code2skill/assets"
)

// TestEmbeddedMatchesDirectory keeps the embedded examples and the
// directories readers see identical: every file of a directory (outside
// node_modules) is embedded, byte for byte.
func TestEmbeddedMatchesDirectory(t *testing.T) {
	for dir, fsys := range map[string]fs.FS{
		SeedLibraryName:                  SeedLibrary(),
		StrictSampleName + "/package":    StrictSample(),
		StrictSampleName:                 StrictSampleSource(),
		StrictSampleName + "/live-cases": StrictSampleLiveCases(),
	} {
		t.Run(dir, func(t *testing.T) { sameTree(t, dir, fsys) })
	}
}

// sameTree checks that fsys holds exactly the files of dir. The strict
// sample's source tree is the directory's app/ only.
func sameTree(t *testing.T, dir string, fsys fs.FS) {
	t.Helper()
	var onDisk []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		if d.IsDir() && d.Name() == "node_modules" {
			return fs.SkipDir
		}
		if d.Type().IsRegular() {
			rel, _ := filepath.Rel(dir, p)
			onDisk = append(onDisk, filepath.ToSlash(rel))
		}
		return nil
	})
	if dir == StrictSampleName {
		onDisk = slices.DeleteFunc(onDisk, func(p string) bool { return !strings.HasPrefix(p, "app/") })
	}
	var embedded []string
	fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			embedded = append(embedded, p)
		}
		return nil
	})
	slices.Sort(onDisk)
	slices.Sort(embedded)
	if len(embedded) == 0 || !slices.Equal(onDisk, embedded) {
		t.Fatalf("embedded files differ from the directory:\n on disk  %v\n embedded %v", onDisk, embedded)
	}
	for _, p := range embedded {
		a, _ := fs.ReadFile(fsys, p)
		b, _ := os.ReadFile(filepath.Join(dir, p))
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
		t.Errorf("%s differs from the reviewed asset; run \"go generate .\" at the repository root", assets.AgentResult.Name())
	}
}
