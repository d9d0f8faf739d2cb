package pkgdir

import (
	"os"
	"path/filepath"
)

// AncestorModules returns the node_modules directories in the directories
// above dir, nearest first: node resolves a bare import that dir's own
// node_modules lacks from each of them in turn. dir should be absolute and
// free of symbolic links, as node walks up from a module's real path.
func AncestorModules(dir string) []string {
	var out []string
	for d := filepath.Dir(dir); ; d = filepath.Dir(d) {
		nm := filepath.Join(d, "node_modules")
		if fi, err := os.Stat(nm); err == nil && fi.IsDir() {
			out = append(out, nm)
		}
		if filepath.Dir(d) == d {
			return out
		}
	}
}
