//go:build unix

package pkgdir

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/code2skill/code2skill/internal/testtier"
)

// swapFixture is a package with a directory lib/ and a package.json, and a
// directory outside it holding a secret the copy must never take.
func swapFixture(t *testing.T) (pkg *Package, root, outside string) {
	t.Helper()
	root, outside = t.TempDir(), t.TempDir()
	write(t, root, map[string]string{"package.json": "{}", "lib/a.mjs": "export {}", "lib/deep/b.mjs": "export {}"})
	write(t, outside, map[string]string{"id_rsa": "canary-secret", "deep/id_rsa": "canary-secret"})
	p, ds, err := Open(root)
	if err != nil || len(ds) > 0 {
		t.Fatalf("Open: %v %v", err, ds)
	}
	return p, root, outside
}

// holdsSecret reports whether any file of the tree dir holds the canary.
func holdsSecret(t *testing.T, dir string) bool {
	t.Helper()
	found := false
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if b, _ := os.ReadFile(p); bytes.Contains(b, []byte("canary-secret")) {
				found = true
			}
		}
		return nil
	})
	return found
}

// A directory swapped for a link to elsewhere between the listing and the
// copy's descent into it stops the copy: nothing from where the link leads
// is copied. So does a file swapped for a link or a FIFO (which must not
// block the copy).
func TestCopyToRefusesSwaps(t *testing.T) {
	for _, tc := range []struct {
		name, entry string
		swap        func(t *testing.T, path, outside string)
	}{
		{"directory for a link", "lib", func(t *testing.T, path, outside string) {
			must(t, os.Rename(path, path+".moved"))
			must(t, os.Symlink(outside, path))
		}},
		{"nested directory for a link", "lib/deep", func(t *testing.T, path, outside string) {
			must(t, os.Rename(path, path+".moved"))
			must(t, os.Symlink(filepath.Join(outside, "deep"), path))
		}},
		{"file for a link", "package.json", func(t *testing.T, path, outside string) {
			must(t, os.Remove(path))
			must(t, os.Symlink(filepath.Join(outside, "id_rsa"), path))
		}},
		{"file for a FIFO", "package.json", func(t *testing.T, path, outside string) {
			must(t, os.Remove(path))
			must(t, syscall.Mkfifo(path, 0o644))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, root, outside := swapFixture(t)
			swapped := false
			beforeOpen = func(rel string) {
				if rel == tc.entry && !swapped {
					swapped = true
					tc.swap(t, filepath.Join(root, filepath.FromSlash(rel)), outside)
				}
			}
			defer func() { beforeOpen = nil }()
			dst := filepath.Join(t.TempDir(), "copy")
			done := make(chan error, 1)
			go func() { done <- p.CopyTo(dst, CopyOptions{}) }()
			var err error
			select {
			case err = <-done:
			case <-time.After(testtier.Budget(t)):
				t.Fatal("the copy blocked on the swapped entry")
			}
			if !swapped {
				t.Fatalf("the copy never opened %s", tc.entry)
			}
			if holdsSecret(t, dst) {
				t.Errorf("the copy followed the swapped %s and took the secret from outside the package", tc.entry)
			}
			if err == nil {
				t.Errorf("CopyTo copied a package whose %s was swapped while being copied", tc.entry)
			}
		})
	}
}

// The same, raced for real: while one goroutine keeps swapping lib/ for a
// link to elsewhere and back, no copy made meanwhile holds the secret.
func TestCopyToRacingSwap(t *testing.T) {
	p, root, outside := swapFixture(t)
	lib := filepath.Join(root, "lib")
	var stop atomic.Bool
	var wg sync.WaitGroup
	var swaps atomic.Int64
	wg.Go(func() {
		for !stop.Load() {
			if os.Rename(lib, lib+".moved") == nil && os.Symlink(outside, lib) == nil {
				swaps.Add(1)
				os.Remove(lib)
				os.Rename(lib+".moved", lib)
			}
		}
	})
	copies, refused := 0, 0
	for deadline := time.Now().Add(500 * time.Millisecond); time.Now().Before(deadline) || swaps.Load() < 10; copies++ {
		dst := filepath.Join(t.TempDir(), "copy")
		err := p.CopyTo(dst, CopyOptions{})
		if holdsSecret(t, dst) {
			stop.Store(true)
			wg.Wait()
			t.Fatalf("copy %d took the secret through lib/ swapped for a link (err %v)", copies, err)
		}
		if err != nil {
			refused++
		}
	}
	stop.Store(true)
	wg.Wait()
	t.Logf("%d copies, %d refused, %d swaps", copies, refused, swaps.Load())
}

// A FIFO, socket or device in the package stops the copy at once.
func TestCopyToRefusesSpecialFiles(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{"package.json": "{}"})
	must(t, syscall.Mkfifo(filepath.Join(root, "pipe"), 0o644))
	p, _, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	err = p.CopyTo(filepath.Join(t.TempDir(), "copy"), CopyOptions{})
	if !errors.Is(err, ErrNotRegular) {
		t.Errorf("CopyTo with a FIFO: %v, want ErrNotRegular", err)
	}
}

// A directory above the package swapped for a link after the package was
// opened stops the copy too: the root is opened with no link on its path.
func TestCopyToRefusesSwappedParent(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	write(t, base, map[string]string{"a/pkg/package.json": "{}", "evil/pkg/id_rsa": "canary-secret"})
	p, _, err := Open(filepath.Join(base, "a", "pkg"))
	if err != nil {
		t.Fatal(err)
	}
	must(t, os.Rename(filepath.Join(base, "a"), filepath.Join(base, "a.moved")))
	must(t, os.Symlink(filepath.Join(base, "evil"), filepath.Join(base, "a")))
	dst := filepath.Join(t.TempDir(), "copy")
	if err := p.CopyTo(dst, CopyOptions{}); err == nil || holdsSecret(t, dst) {
		t.Errorf("CopyTo through a parent swapped for a link: %v, secret copied: %v", err, holdsSecret(t, dst))
	}
}
