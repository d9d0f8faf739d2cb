package owned

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/code2skill/code2skill/internal/atomicfile"
)

const manifest = ".code2skill-demo"

func files(content string, paths ...string) []atomicfile.File {
	var fs []atomicfile.File
	for _, p := range paths {
		fs = append(fs, atomicfile.File{Path: p, Data: []byte(content + " " + p)})
	}
	return fs
}

func content(t *testing.T, dir, p string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return string(b)
}

func TestWriteRefreshesOnlyItsOwnFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "demo")
	if err := Write(dir, manifest, files("v1", "package.json", "tests/a.test.mjs", "old.md"), false); err != nil {
		t.Fatal(err)
	}
	// The user adds a file of their own.
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644)

	if err := Write(dir, manifest, files("v2", "package.json", "tests/a.test.mjs"), false); !errors.Is(err, ErrNotEmpty) {
		t.Fatalf("unforced: %v, want ErrNotEmpty", err)
	}
	if err := Write(dir, manifest, files("v2", "package.json", "tests/a.test.mjs", "new.md"), true); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, p := range []string{"package.json", "tests/a.test.mjs", "new.md", "old.md", "notes.txt"} {
		got[p] = content(t, dir, p)
	}
	want := map[string]string{
		"package.json":     "v2 package.json",
		"tests/a.test.mjs": "v2 tests/a.test.mjs",
		"new.md":           "v2 new.md",
		"old.md":           "<open " + filepath.Join(dir, "old.md") + ": no such file or directory>",
		"notes.txt":        "mine",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestWriteRefusesWhatIsNotItsOwn(t *testing.T) {
	// A directory that was never written by code2skill: nothing in it is
	// replaced, even forced.
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "package.json"), []byte("the user's"), 0o644)
	err := Write(dir, manifest, files("v1", "package.json"), true)
	var c *ConflictError
	if !errors.As(err, &c) || !c.NoManifest {
		t.Fatalf("err = %v, want a ConflictError without manifest", err)
	}
	if content(t, dir, "package.json") != "the user's" {
		t.Error("the user's file was replaced")
	}

	// A previous write, then the user edits one of its files and puts a
	// file of their own where the next write wants one.
	dir = filepath.Join(t.TempDir(), "demo")
	if err := Write(dir, manifest, files("v1", "package.json", "README.md"), false); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "README.md"), []byte("edited"), 0o644)
	os.WriteFile(filepath.Join(dir, "extra.md"), []byte("the user's"), 0o644)
	err = Write(dir, manifest, files("v2", "package.json", "README.md", "extra.md"), true)
	if !errors.As(err, &c) || !cmp.Equal(c.Changed, []string{"README.md"}) || !cmp.Equal(c.Foreign, []string{"extra.md"}) {
		t.Fatalf("err = %v, want README.md changed and extra.md foreign", err)
	}
	for p, want := range map[string]string{"package.json": "v1 package.json", "README.md": "edited", "extra.md": "the user's"} {
		if got := content(t, dir, p); got != want {
			t.Errorf("%s = %q, want %q: a refused write changed it", p, got, want)
		}
	}
}
