//go:build !unix

package pkgdir

import (
	"io/fs"
	"path/filepath"
	"strings"
)

// run walks the node_modules directory by path where the system has no
// directory descriptors to walk it by.
func (w *moduleWalk) run() {
	filepath.WalkDir(w.root, func(full string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(w.root, full)
		rel = filepath.ToSlash(rel)
		if err != nil {
			w.unreadable(rel, err)
			return nil
		}
		if rel == "." {
			return nil
		}
		if strings.Count(rel, "/") > maxModuleDepth {
			w.tooDeep(rel)
			return fs.SkipAll
		}
		if !w.entry(rel, d.Type()) {
			return fs.SkipAll
		}
		return nil
	})
}
