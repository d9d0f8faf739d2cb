package pkgdir

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// A sparse file in the package stays sparse in the copy: a hostile package
// cannot make the probe write gigabytes out of a few bytes of data.
func TestCopyToKeepsHoles(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{"package.json": "{}"})
	const size = 256 << 20
	f, err := os.Create(filepath.Join(root, "huge.bin"))
	if err != nil {
		t.Fatal(err)
	}
	f.WriteAt([]byte("head"), 0)
	f.WriteAt([]byte("tail"), size-4)
	f.Close()
	fi, _ := os.Stat(filepath.Join(root, "huge.bin"))
	if allocated(fi) > 1<<20 {
		t.Skipf("this file system does not keep holes (%d bytes allocated)", allocated(fi))
	}
	p, _, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "copy")
	// The limit counts what files occupy, not their size.
	if err := p.CopyTo(dst, CopyOptions{MaxBytes: 4 << 20}); err != nil {
		t.Fatal(err)
	}
	copied := filepath.Join(dst, "huge.bin")
	cfi, err := os.Stat(copied)
	if err != nil || cfi.Size() != size {
		t.Fatalf("copy: %v, size %d", err, cfi.Size())
	}
	if a := allocated(cfi); a > 1<<20 {
		t.Errorf("the copy of a sparse file occupies %d bytes", a)
	}
	b, _ := os.ReadFile(copied)
	if !bytes.HasPrefix(b, []byte("head")) || !bytes.HasSuffix(b, []byte("tail")) || bytes.Count(b, []byte{0}) != size-8 {
		t.Error("the copy's content differs")
	}
}

func TestCopyToLimit(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{"a.bin": string(make([]byte, 64<<10)), "b.bin": string(make([]byte, 64<<10))})
	p, _, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.CopyTo(filepath.Join(t.TempDir(), "ok"), CopyOptions{MaxBytes: 1 << 20}); err != nil {
		t.Fatalf("under the limit: %v", err)
	}
	err = p.CopyTo(filepath.Join(t.TempDir(), "big"), CopyOptions{MaxBytes: 100 << 10})
	if !errors.Is(err, ErrCopyTooLarge) {
		t.Fatalf("over the limit: %v, want ErrCopyTooLarge", err)
	}
}
