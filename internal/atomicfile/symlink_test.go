package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Each case puts a symbolic link somewhere in the path of a write; the
// write must be refused, name the link, and leave both the target and the
// link's destination as they were.
func TestWriteAllRefusesSymlinks(t *testing.T) {
	for _, tc := range []struct {
		name, link, write string
	}{
		{"directory", "references", "references/capability-contracts.json"},
		{"nested directory", "mcp-tool/sub", "mcp-tool/sub/schema.json"},
		{"file", "mcp-tool/index.mjs", "mcp-tool/index.mjs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, elsewhere := t.TempDir(), t.TempDir()
			os.MkdirAll(filepath.Join(root, "mcp-tool"), 0o755)
			dest := elsewhere
			if !strings.HasSuffix(tc.link, "sub") && tc.link != "references" {
				dest = filepath.Join(elsewhere, "victim")
				os.WriteFile(dest, []byte("precious"), 0o644)
			}
			if err := os.Symlink(dest, filepath.Join(root, filepath.FromSlash(tc.link))); err != nil {
				t.Fatal(err)
			}
			err := WriteAll(root, []File{
				{Path: "first.json", Data: []byte("new")},
				{Path: tc.write, Data: []byte("new")},
			})
			var link *SymlinkError
			if !errors.As(err, &link) || link.Path != tc.link || !errors.Is(err, ErrSymlink) {
				t.Fatalf("err = %v, want a SymlinkError naming %s", err, tc.link)
			}
			if !strings.Contains(err.Error(), tc.link+" is a symbolic link") {
				t.Errorf("message %q does not name the link", err)
			}
			entries, _ := os.ReadDir(elsewhere)
			if b, _ := os.ReadFile(filepath.Join(elsewhere, "victim")); len(entries) > 1 || (len(entries) == 1 && string(b) != "precious") {
				t.Errorf("written through the link: %v", entries)
			}
			if _, err := os.Stat(filepath.Join(root, "first.json")); !os.IsNotExist(err) {
				t.Error("a refused batch wrote its first file")
			}
			assertClean(t, root)
		})
	}
}

// The target directory itself is the caller's choice, link or not.
func TestWriteAllRootMayBeALink(t *testing.T) {
	real := t.TempDir()
	root := filepath.Join(t.TempDir(), "pkg")
	os.Symlink(real, root)
	if err := WriteAll(root, []File{{Path: "a/b.json", Data: []byte("x")}}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(real, "a", "b.json")); string(b) != "x" {
		t.Errorf("got %q", b)
	}
}

func TestWriteFileRefusesALink(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(t.TempDir(), "victim")
	os.WriteFile(victim, []byte("precious"), 0o644)
	p := filepath.Join(dir, "transcript.ndjson")
	os.Symlink(victim, p)
	err := WriteFile(p, []byte("new"), 0o644)
	if !errors.Is(err, ErrSymlink) || !strings.Contains(err.Error(), p+" is a symbolic link") {
		t.Fatalf("err = %v", err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "precious" {
		t.Errorf("victim = %q", b)
	}
}

func TestReplaceDirRefusesALink(t *testing.T) {
	real := t.TempDir()
	os.WriteFile(filepath.Join(real, "mine.txt"), []byte("mine"), 0o644)
	dir := filepath.Join(t.TempDir(), "demo")
	os.Symlink(real, dir)
	if err := ReplaceDir(dir, []File{{Path: "a", Data: nil}}); !errors.Is(err, ErrSymlink) {
		t.Fatalf("err = %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(real, "mine.txt")); string(b) != "mine" {
		t.Error("the link's destination was changed")
	}
}

// failRenames makes the commit's nth rename fail (1-based), and, when
// restore is set, every rename out of the backup directory too.
func failRenames(t *testing.T, nth int, restore bool) {
	saved := rename
	t.Cleanup(func() { rename = saved })
	n := 0
	rename = func(olddir *dirHandle, oldname string, newdir *dirHandle, newname string) error {
		if strings.Contains(olddir.path, ".code2skill-backup-") {
			if restore {
				return errors.New("injected restore failure")
			}
			return saved(olddir, oldname, newdir, newname)
		}
		if n++; n == nth {
			return errors.New("injected rename failure")
		}
		return saved(olddir, oldname, newdir, newname)
	}
}

func TestWriteAllRestoresWhatItReplaced(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("old a"), 0o644)
	os.WriteFile(filepath.Join(root, "c.txt"), []byte("old c"), 0o644)
	failRenames(t, 3, false)
	err := WriteAll(root, []File{
		{Path: "a.txt", Data: []byte("new a")},
		{Path: "sub/b.txt", Data: []byte("new b")},
		{Path: "c.txt", Data: []byte("new c")},
	})
	if err == nil || !strings.Contains(err.Error(), "injected rename failure") {
		t.Fatalf("err = %v", err)
	}
	for name, want := range map[string]string{"a.txt": "old a", "c.txt": "old c"} {
		if b, _ := os.ReadFile(filepath.Join(root, name)); string(b) != want {
			t.Errorf("%s = %q, want %q restored", name, b, want)
		}
	}
	assertClean(t, root, "a.txt", "c.txt")
}

func TestWriteAllReportsWhatItCouldNotRestore(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("old a"), 0o644)
	failRenames(t, 2, true)
	err := WriteAll(root, []File{
		{Path: "a.txt", Data: []byte("new a")},
		{Path: "b.txt", Data: []byte("new b")},
	})
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	i := strings.Index(msg, "its previous content is in ")
	if !strings.Contains(msg, "a.txt could not be restored") || i < 0 {
		t.Fatalf("err = %v, want the backup's location", err)
	}
	backup := msg[i+len("its previous content is in "):]
	if b, err := os.ReadFile(backup); err != nil || string(b) != "old a" {
		t.Errorf("backup %s: %q, %v", backup, b, err)
	}
}

// assertClean checks that root holds only the given names besides what
// the writes made: no temporary file, no backup directory.
func assertClean(t *testing.T, root string, keep ...string) {
	t.Helper()
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("left behind: %s", e.Name())
		}
	}
	if len(keep) > 0 && len(entries) != len(keep) {
		t.Errorf("root holds %v, want only %v", entries, keep)
	}
}
