package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWriteFileReplaces(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "sub", "a.json")
	if err := WriteFile(p, []byte("one"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(p, []byte("two"), 0o600); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	fi, _ := os.Stat(p)
	if string(b) != "two" || fi.Mode().Perm() != 0o600 {
		t.Errorf("content %q mode %v", b, fi.Mode().Perm())
	}
	entries, _ := os.ReadDir(filepath.Dir(p))
	if len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
}

func TestWriteAllLeavesTargetsOnFailure(t *testing.T) {
	dir := t.TempDir()
	keep := filepath.Join(dir, "keep.txt")
	os.WriteFile(keep, []byte("old"), 0o644)
	// A regular file where a directory is needed makes the second file fail.
	os.WriteFile(filepath.Join(dir, "blocker"), nil, 0o644)
	err := WriteAll(dir, []File{{Path: "keep.txt", Data: []byte("new")}, {Path: "blocker/x.txt", Data: []byte("x")}})
	if err == nil {
		t.Fatal("WriteAll succeeded with an impossible path")
	}
	if b, _ := os.ReadFile(keep); string(b) != "old" {
		t.Errorf("keep.txt = %q, want it untouched", b)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("temporary files left: %v", entries)
	}
}

func TestWriteAllRemovesDirectoriesItCreatedOnFailure(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "blocker"), nil, 0o644)
	err := WriteAll(dir, []File{
		{Path: "a/b/one.txt", Data: []byte("1")},
		{Path: "blocker/two.txt", Data: []byte("2")},
	})
	if err == nil {
		t.Fatal("WriteAll succeeded with an impossible path")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != "blocker" {
		t.Errorf("left behind: %v, want only blocker", entries)
	}
}

func TestReplaceDir(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "pkg")
	if err := ReplaceDir(dir, []File{{Path: "a/b.txt", Data: []byte("one")}}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "stale.txt"), []byte("x"), 0o644)
	if err := ReplaceDir(dir, []File{{Path: "c.txt", Data: []byte("two")}}); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "c.txt")); err != nil || string(b) != "two" {
		t.Errorf("c.txt = %q, %v", b, err)
	}
	for _, gone := range []string{"a/b.txt", "stale.txt"} {
		if _, err := os.Stat(filepath.Join(dir, gone)); !os.IsNotExist(err) {
			t.Errorf("%s survived the replacement", gone)
		}
	}
	if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o755 {
		t.Errorf("mode %v", fi.Mode().Perm())
	}
	if entries, _ := os.ReadDir(parent); len(entries) != 1 {
		t.Errorf("temporary directories left: %v", entries)
	}

	// A failure while writing leaves the old tree untouched.
	err := ReplaceDir(dir, []File{{Path: "x", Data: nil}, {Path: "x/y", Data: nil}})
	if err == nil {
		t.Fatal("impossible tree written")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "c.txt")); string(b) != "two" {
		t.Error("the old tree was damaged")
	}
	if entries, _ := os.ReadDir(parent); len(entries) != 1 {
		t.Errorf("temporary directories left after a failure: %v", entries)
	}
}
