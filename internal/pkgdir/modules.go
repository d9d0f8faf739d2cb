package pkgdir

import (
	"os"
	"path/filepath"
	"strings"
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

// LinkedModules returns where the packages of the node_modules directory
// nm that are symbolic links to directories outside it (npm link, a
// workspace) lead, resolved: node follows those links, so a child that sees
// nm must see them too. Packages and scoped packages (@scope/name) are
// looked at; nothing deeper.
func LinkedModules(nm string) []string {
	real, err := filepath.EvalSymlinks(nm)
	if err != nil {
		return nil
	}
	var out []string
	var visit func(dir string, scoped bool)
	visit = func(dir string, scoped bool) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range entries {
			p := filepath.Join(dir, e.Name())
			switch {
			case e.Type()&os.ModeSymlink != 0:
				target, err := filepath.EvalSymlinks(p)
				if err != nil || within(real, target) {
					continue
				}
				if fi, err := os.Stat(target); err == nil && fi.IsDir() {
					out = append(out, target)
				}
			case e.IsDir() && !scoped && strings.HasPrefix(e.Name(), "@"):
				visit(p, true)
			}
		}
	}
	visit(nm, false)
	return out
}
