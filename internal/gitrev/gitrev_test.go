package gitrev

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestParse(t *testing.T) {
	for arg, want := range map[string]Spec{
		"HEAD:pkg":                    {"HEAD", "pkg"},
		"main~2:a/b.json":             {"main~2", "a/b.json"},
		"v1.0:./pkg":                  {"v1.0", "./pkg"},
		"abc123:pkg:with:colons.json": {"abc123", "pkg:with:colons.json"},
	} {
		if got, ok := Parse(arg); !ok || got != want {
			t.Errorf("Parse(%q) = %v %v, want %v", arg, got, ok, want)
		}
	}
	for _, arg := range []string{"pkg", ":pkg", "HEAD:", ""} {
		if _, ok := Parse(arg); ok {
			t.Errorf("Parse(%q) accepted", arg)
		}
	}
}

// Find follows a linked worktree's .git file to its git directory, and
// that to the common directory and the alternates git reads objects from.
func TestFindLinkedWorktree(t *testing.T) {
	base := t.TempDir()
	base, _ = filepath.EvalSymlinks(base)
	common := filepath.Join(base, "main", ".git")
	gitDir := filepath.Join(common, "worktrees", "wt")
	for _, d := range []string{gitDir, filepath.Join(common, "objects", "info"), filepath.Join(base, "wt", "sub", "dir"), filepath.Join(base, "alt")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(base, "wt", ".git"), "gitdir: "+gitDir+"\n")
	write(filepath.Join(gitDir, "commondir"), "../..\n")
	write(filepath.Join(common, "objects", "info", "alternates"), "# borrowed\n"+filepath.Join(base, "alt")+"\n")
	r, err := Find(filepath.Join(base, "wt", "sub", "dir"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Top != filepath.Join(base, "wt") || r.GitDir != gitDir || !slices.Equal(r.shared, []string{common, filepath.Join(base, "alt")}) {
		t.Errorf("Find = %+v", r)
	}
	for p, want := range map[string]string{
		"pkg":       "pkg",
		"./pkg":     "sub/dir/pkg",
		"../x.json": "sub/x.json",
		".":         "sub/dir",
		"../../..":  "..",
		"/pkg":      "pkg",
		"a/../b":    "b",
	} {
		if got := r.Path(Spec{"HEAD", p}); got != want {
			t.Errorf("Path(%q) = %q, want %q", p, got, want)
		}
	}
	if _, err := Find(t.TempDir()); err == nil {
		// A temporary directory may lie inside a repository on some
		// machines; only a clear error matters when it does not.
		t.Log("the temporary directory is inside a repository")
	}
}

func TestNotARepository(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".git"), []byte("not a link\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Find(dir); err == nil {
		t.Errorf("a .git file that is no link was accepted")
	}
}
