// Package atomicfile writes files so that readers see either the old content
// or the new, never a partial write: data goes to a temporary file in the
// same directory, is synced, and is renamed over the target.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// WriteFile writes data to path atomically, creating parent directories.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	tmp := f.Name()
	ok := false
	defer func() {
		if !ok {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if _, err := f.Write(data); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := f.Chmod(perm); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	ok = true
	return nil
}

// File is one file of a Batch: a slash-separated path relative to the
// batch root, its content and permissions.
type File struct {
	Path string
	Data []byte
	Perm fs.FileMode
}

// WriteAll writes every file under root. Each file is written atomically, and
// all temporary files are prepared before the first rename, so that a
// failure while preparing (disk full, permission denied) leaves every target
// as it was, and removes the directories it created. Renames themselves
// cannot fail half-way for ordinary reasons once the temporary files exist in
// the target directories.
func WriteAll(root string, files []File) error {
	type pending struct{ tmp, dst string }
	var staged []pending
	var created []string // directories this call created, parents first
	cleanup := func() {
		for _, p := range staged {
			os.Remove(p.tmp)
		}
		for i := len(created) - 1; i >= 0; i-- {
			os.Remove(created[i]) // only succeeds while empty
		}
	}
	for _, f := range files {
		dst := filepath.Join(root, filepath.FromSlash(f.Path))
		dirs, err := mkdirAll(filepath.Dir(dst))
		created = append(created, dirs...)
		if err != nil {
			cleanup()
			return fmt.Errorf("writing %s: %w", f.Path, err)
		}
		tf, err := os.CreateTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".tmp-*")
		if err != nil {
			cleanup()
			return fmt.Errorf("writing %s: %w", f.Path, err)
		}
		staged = append(staged, pending{tf.Name(), dst})
		perm := f.Perm
		if perm == 0 {
			perm = 0o644
		}
		_, werr := tf.Write(f.Data)
		cerr := tf.Chmod(perm)
		clerr := tf.Close()
		for _, err := range []error{werr, cerr, clerr} {
			if err != nil {
				cleanup()
				return fmt.Errorf("writing %s: %w", f.Path, err)
			}
		}
	}
	// Sync the temporary files concurrently, a bounded number at a time:
	// a file system commits concurrent syncs together, where one after the
	// other each waits for a commit of its own.
	errs := make([]error, len(staged))
	sem := make(chan struct{}, maxConcurrentSyncs)
	var wg sync.WaitGroup
	for i, p := range staged {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			errs[i] = syncFile(p.tmp)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			cleanup()
			return fmt.Errorf("writing %s: %w", files[i].Path, err)
		}
	}
	for i, p := range staged {
		if err := os.Rename(p.tmp, p.dst); err != nil {
			for _, q := range staged[i:] {
				os.Remove(q.tmp)
			}
			return fmt.Errorf("writing %s: %w", p.dst, err)
		}
	}
	return nil
}

// maxConcurrentSyncs bounds the files WriteAll syncs at once.
const maxConcurrentSyncs = 16

// syncFile flushes a written file to stable storage.
func syncFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	return errors.Join(f.Sync(), f.Close())
}

// mkdirAll is os.MkdirAll that also returns the directories it created,
// parents first, so that a failed batch can remove them again.
func mkdirAll(dir string) ([]string, error) {
	var missing []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); !errors.Is(err, fs.ErrNotExist) {
			break
		}
		missing = append(missing, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	err := os.MkdirAll(dir, 0o755)
	var created []string
	for i := len(missing) - 1; i >= 0; i-- {
		if fi, serr := os.Lstat(missing[i]); serr == nil && fi.IsDir() {
			created = append(created, missing[i])
		}
	}
	return created, err
}

// ReplaceDir makes dir hold exactly files. The new tree is written into a
// temporary sibling of dir and renamed into place once complete, so dir
// appears whole or not at all; an existing dir is moved aside only then, and
// removed after the swap.
func ReplaceDir(dir string, files []File) error {
	parent := filepath.Dir(filepath.Clean(dir))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("writing %s: %w", dir, err)
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".tmp-")
	if err != nil {
		return fmt.Errorf("writing %s: %w", dir, err)
	}
	defer os.RemoveAll(tmp) // a no-op once renamed into place
	if err := WriteAll(tmp, files); err != nil {
		return err
	}
	// MkdirTemp creates 0700; a package directory is shared like any other.
	if err := os.Chmod(tmp, 0o755); err != nil {
		return fmt.Errorf("writing %s: %w", dir, err)
	}
	old := ""
	if _, err := os.Lstat(dir); err == nil {
		old = tmp + ".old"
		if err := os.Rename(dir, old); err != nil {
			return fmt.Errorf("writing %s: %w", dir, err)
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		if old != "" {
			os.Rename(old, dir)
		}
		return fmt.Errorf("writing %s: %w", dir, err)
	}
	if old != "" {
		os.RemoveAll(old)
	}
	return nil
}
