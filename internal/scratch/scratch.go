// Package scratch makes the temporary directories commands work in (a
// sandboxed child's HOME, a detached copy of a package) and removes them:
// each by its owner once done with it, and every one still there when the
// command is interrupted, so that a signal leaves nothing behind.
package scratch

import (
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

var (
	mu   sync.Mutex
	dirs = map[string]bool{}
)

// Dir makes a new directory in parent (the system's temporary directory
// when "") named after pattern, as os.MkdirTemp does, and remembers it
// until Remove.
func Dir(parent, pattern string) (string, error) {
	dir, err := os.MkdirTemp(parent, pattern)
	if err != nil {
		return "", err
	}
	mu.Lock()
	dirs[dir] = true
	mu.Unlock()
	return dir, nil
}

// Remove removes dir and everything in it and forgets it. What a child
// made read-only is made writable first, so that nothing is left behind.
func Remove(dir string) {
	mu.Lock()
	delete(dirs, dir)
	mu.Unlock()
	removeTree(dir)
}

// RemoveAll removes every directory Dir made that is still there: for a
// command that is stopping before its owners could.
func RemoveAll() {
	mu.Lock()
	all := make([]string, 0, len(dirs))
	for d := range dirs {
		all = append(all, d)
	}
	clear(dirs)
	mu.Unlock()
	for _, d := range all {
		removeTree(d)
	}
}

// Left lists the directories Dir made that are still there.
func Left() []string {
	mu.Lock()
	defer mu.Unlock()
	out := make([]string, 0, len(dirs))
	for d := range dirs {
		out = append(out, d)
	}
	return out
}

func removeTree(dir string) {
	// WalkDir does not follow links: only the tree's own directories are
	// made writable.
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(p, 0o700)
		}
		return nil
	})
	os.RemoveAll(dir)
}
