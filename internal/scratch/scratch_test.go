package scratch

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestDirRemoveAll(t *testing.T) {
	parent := t.TempDir()
	a, err := Dir(parent, "a-")
	if err != nil {
		t.Fatal(err)
	}
	b, err := Dir(parent, "b-")
	if err != nil {
		t.Fatal(err)
	}
	// What a child made read-only goes too.
	os.MkdirAll(filepath.Join(b, "ro", "deep"), 0o755)
	os.WriteFile(filepath.Join(b, "ro", "deep", "f"), []byte("x"), 0o444)
	os.Chmod(filepath.Join(b, "ro", "deep"), 0o555)
	os.Chmod(filepath.Join(b, "ro"), 0o555)
	Remove(a)
	if _, err := os.Stat(a); !os.IsNotExist(err) || slices.Contains(Left(), a) {
		t.Errorf("Remove left %s: %v %v", a, err, Left())
	}
	if !slices.Contains(Left(), b) {
		t.Fatalf("Left() = %v, want %s", Left(), b)
	}
	RemoveAll()
	if _, err := os.Stat(b); !os.IsNotExist(err) || len(Left()) != 0 {
		t.Errorf("RemoveAll left %s: %v %v", b, err, Left())
	}
}
