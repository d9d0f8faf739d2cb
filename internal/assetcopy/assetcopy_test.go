package assetcopy_test

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/code2skill/code2skill/assets"
	"github.com/code2skill/code2skill/internal/assetcopy"
	"github.com/code2skill/code2skill/internal/atomicfile"
)

const repo = "../.."

// Every committed copy is what go generate writes from its asset.
func TestCommittedCopiesAreGenerated(t *testing.T) {
	stale, err := assetcopy.Stale(repo)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range stale {
		t.Errorf("%s differs from assets/%s; run \"go generate .\" at the repository root", c.Path, c.Asset.Source())
	}
}

// Every file outside assets/ that is named like a runtime asset, or holds
// one's bytes, is a generated copy: no hand-kept copy goes unlisted.
func TestEveryCopyIsListed(t *testing.T) {
	var listed []string
	for _, c := range assetcopy.Copies() {
		listed = append(listed, c.Path)
	}
	for _, dir := range []string{"skills", "examples"} {
		err := filepath.WalkDir(filepath.Join(repo, dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			if !d.Type().IsRegular() {
				return nil
			}
			rel, err := filepath.Rel(repo, p)
			if err != nil {
				return err
			}
			rel = filepath.ToSlash(rel)
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			for _, a := range append(assets.Runtime(), assets.MCPRuntime) {
				if (d.Name() == filepath.Base(a.Name()) || a.Matches(data)) && !slices.Contains(listed, rel) {
					t.Errorf("%s is a copy of assets/%s that Copies does not list", rel, a.Source())
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// Generate writes every copy from its asset, then nothing while they are
// current, and rewrites exactly a copy that was edited.
func TestGenerate(t *testing.T) {
	root := t.TempDir()
	wrote, err := assetcopy.Generate(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(wrote) != len(assetcopy.Copies()) {
		t.Fatalf("wrote %d copies into an empty tree, want %d", len(wrote), len(assetcopy.Copies()))
	}
	for _, c := range assetcopy.Copies() {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(c.Path)))
		if err != nil {
			t.Fatal(err)
		}
		if !c.Asset.Matches(data) {
			t.Errorf("%s is not assets/%s", c.Path, c.Asset.Source())
		}
	}
	if wrote, err := assetcopy.Generate(root); err != nil || len(wrote) != 0 {
		t.Fatalf("second run wrote %d copies (%v), want none", len(wrote), err)
	}

	edited := assetcopy.Copies()[1]
	p := filepath.Join(root, filepath.FromSlash(edited.Path))
	if err := os.WriteFile(p, append(edited.Asset.Bytes(), "// edited\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if stale, err := assetcopy.Stale(root); err != nil || len(stale) != 1 || stale[0].Path != edited.Path {
		t.Fatalf("Stale = %v, %v; want only %s", stale, err, edited.Path)
	}
	wrote, err = assetcopy.Generate(root)
	if err != nil || len(wrote) != 1 || wrote[0].Path != edited.Path {
		t.Fatalf("Generate = %v, %v; want only %s", wrote, err, edited.Path)
	}
	if data, _ := os.ReadFile(p); !edited.Asset.Matches(data) {
		t.Errorf("%s was not restored", edited.Path)
	}
}

// A symbolic link in the way stops Generate before anything is written:
// neither the link's target nor any other copy is touched.
func TestGenerateRefusesSymbolicLinks(t *testing.T) {
	for _, tc := range []struct {
		name string
		link func(t *testing.T, root, elsewhere string)
	}{
		{"directory", func(t *testing.T, root, elsewhere string) {
			mkdir(t, filepath.Join(root, "skills", "code2skill-generate"))
			symlink(t, elsewhere, filepath.Join(root, "skills", "code2skill-generate", "assets"))
		}},
		{"file", func(t *testing.T, root, elsewhere string) {
			mkdir(t, filepath.Join(root, "examples", "seed-library"))
			symlink(t, filepath.Join(elsewhere, "target.mjs"), filepath.Join(root, "examples", "seed-library", assets.AgentResult.Name()))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, elsewhere := t.TempDir(), t.TempDir()
			target := filepath.Join(elsewhere, "target.mjs")
			if err := os.WriteFile(target, []byte("not an asset\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			tc.link(t, root, elsewhere)
			_, err := assetcopy.Generate(root)
			if !errors.Is(err, atomicfile.ErrSymlink) {
				t.Fatalf("Generate through a symbolic link: err = %v, want %v", err, atomicfile.ErrSymlink)
			}
			entries, _ := os.ReadDir(elsewhere)
			if data, _ := os.ReadFile(target); len(entries) != 1 || !bytes.Equal(data, []byte("not an asset\n")) {
				t.Errorf("the link's target directory changed: %d entries", len(entries))
			}
			for _, c := range assetcopy.Copies() {
				if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(c.Path))); err == nil && c.Path != "examples/seed-library/"+assets.AgentResult.Name() {
					t.Errorf("%s was written although the batch was refused", c.Path)
				}
			}
		})
	}
}

func mkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}
