package pkgdir

import (
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
)

// Rules about what a package's code would see when it runs.
var (
	RuleSpecialFile = diag.Register("PKG_SPECIAL_FILE", diag.Error,
		"a file of the package (node_modules included) is a FIFO, socket or device: node could block on it or reach outside the package through it, so the package's code is not run")
	RuleModuleLinkOutside = diag.Register("PKG_MODULE_LINK_OUTSIDE", diag.Error,
		"a symbolic link in the package's node_modules leads outside what the package's code may see: the code is not run, so that a package never widens its own view")
	RuleModuleLinkHidden = diag.Register("PKG_MODULE_LINK_HIDDEN", diag.Warning,
		"a node_modules directory above the package, or a link in one, does not lead to an npm package of its own project: the package's code does not see it")
)

// Limits of the walk of a package's node_modules.
const (
	maxModuleEntries = 1 << 20
	maxModuleDepth   = 64
)

// ModuleView is what a package's code resolves its imports from besides
// the package itself: its own node_modules and, when asked for, the
// node_modules directories above it and the npm packages their links lead
// to. It is what a confined child is shown of the host, and so it never
// holds a path the package chose: a link in the package's own node_modules
// must stay inside what the child sees anyway (the package, and the
// directories above), and a link above the package is followed only to an
// npm package of the project holding that node_modules.
type ModuleView struct {
	// Own is the package's node_modules directory, absolute and free of
	// links; "" when there is none.
	Own string
	// Above lists the node_modules directories above the package that are
	// real directories, nearest first (only when asked for).
	Above []string
	// Linked lists the npm packages outside the package and Above that
	// links at a package's place in Above lead to, resolved.
	Linked []string
	// Findings say what was refused or hidden: files that are not regular
	// files (PKG_SPECIAL_FILE), links leaving what the child may see
	// (PKG_MODULE_LINK_OUTSIDE), links above the package not followed
	// (PKG_MODULE_LINK_HIDDEN).
	Findings []diag.Diagnostic
}

// Runnable reports whether the package's code may run: no file of the
// package is a FIFO, socket or device and no link in its node_modules
// leaves what the code may see.
func (v *ModuleView) Runnable() bool {
	for _, d := range v.Findings {
		if d.Severity == diag.Error {
			return false
		}
	}
	return true
}

// ModuleView walks the package's own node_modules (every entry, without
// following a link) and, with above, the node_modules directories above the
// package, and returns what the package's code may see of them. The
// package's other special files, found by Open, are reported here too.
func (p *Package) ModuleView(above bool) *ModuleView {
	v := &ModuleView{Findings: p.SpecialFiles()}
	if above {
		v.Above, v.Findings = p.above(v.Findings)
	}
	visible := append([]string{p.abs}, v.Above...)
	nm := filepath.Join(p.abs, "node_modules")
	fi, err := os.Lstat(nm)
	switch {
	case err != nil:
	case fi.IsDir():
		v.Own = nm
	case fi.Mode()&os.ModeSymlink != 0:
		// node_modules itself a link: followed only inside what the
		// child sees (a pnpm-style store in the package, say).
		if dest, ok := judgeLink(nm, visible); ok && dest != "" {
			if st, err := os.Stat(dest); err == nil && st.IsDir() && within(p.abs, dest) {
				v.Own = dest
			}
		} else {
			v.Findings = append(v.Findings, linkOutside("node_modules", nm))
		}
	}
	if v.Own != "" {
		w := &moduleWalk{visible: visible, root: v.Own, base: p.rel(v.Own)}
		w.run()
		v.Findings = append(v.Findings, w.findings...)
	}
	for _, nm := range v.Above {
		v.Linked, v.Findings = linkedAbove(nm, visible, p.abs, v.Linked, v.Findings)
	}
	return v
}

// SpecialFiles reports the package's FIFOs, sockets and devices outside
// node_modules and .git (RuleSpecialFile): nothing of the package may run
// while they are there.
func (p *Package) SpecialFiles() []diag.Diagnostic {
	var ds []diag.Diagnostic
	for _, s := range p.special {
		ds = append(ds, RuleSpecialFile.New(s.Path, "%s, not a regular file: nothing of the package runs while it is there", s.Kind))
	}
	return ds
}

// moduleWalk is one walk of the package's own node_modules.
type moduleWalk struct {
	visible  []string // directories the child sees anyway
	root     string   // the node_modules directory walked
	base     string   // its path relative to the package
	entries  int
	findings []diag.Diagnostic
	stopped  bool
}

// entry judges one entry of the walk; rel is relative to the walk's root.
// It returns false once the walk must stop.
func (w *moduleWalk) entry(rel string, mode os.FileMode) bool {
	if w.entries++; w.entries > maxModuleEntries {
		w.findings = append(w.findings, RuleTooManyFiles.New(w.base, "more than %d entries; the rest were not checked, so the package's code is not run", maxModuleEntries))
		w.stopped = true
		return false
	}
	file := path.Join(w.base, rel)
	switch {
	case mode&os.ModeSymlink != 0:
		full := filepath.Join(w.root, filepath.FromSlash(rel))
		if _, ok := judgeLink(full, w.visible); !ok {
			w.findings = append(w.findings, linkOutside(file, full))
		}
	case mode.IsDir(), mode.IsRegular():
	default:
		w.findings = append(w.findings, RuleSpecialFile.New(file, "%s, not a regular file: nothing of the package runs while it is there", kindOf(mode)))
	}
	return true
}

// tooDeep reports a directory nested deeper than the walk goes.
func (w *moduleWalk) tooDeep(rel string) {
	w.findings = append(w.findings, RuleTooManyFiles.New(path.Join(w.base, rel), "nested more than %d directories deep; not checked, so the package's code is not run", maxModuleDepth))
	w.stopped = true
}

// unreadable reports a directory of node_modules the walk cannot read.
func (w *moduleWalk) unreadable(rel string, err error) {
	w.findings = append(w.findings, RuleUnreadable.New(path.Join(w.base, rel), "%v; not checked, so the package's code is not run", unwrapPath(err)))
}

// judgeLink says where the link at full leads and whether that lies inside
// one of the visible directories. A link that leads nowhere is judged by
// where it would lead; dest is then "".
func judgeLink(full string, visible []string) (dest string, ok bool) {
	target, err := os.Readlink(full)
	if err != nil {
		return "", false
	}
	resolved, err := filepath.EvalSymlinks(full)
	if err != nil {
		// Judge a dangling (or looping) link by where it points.
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(full), target)
		}
		return "", inAny(visible, filepath.Clean(target))
	}
	return resolved, inAny(visible, resolved)
}

func linkOutside(file, full string) diag.Diagnostic {
	target, _ := os.Readlink(full)
	return RuleModuleLinkOutside.New(file, "symbolic link to %q leads outside the package; its code may see only the package, so nothing of it runs", target)
}

// above returns the node_modules directories above the package that are
// real directories, nearest first; one that is a link is hidden (a warning
// says so): it could lead anywhere.
func (p *Package) above(ds []diag.Diagnostic) ([]string, []diag.Diagnostic) {
	var out []string
	for d := filepath.Dir(p.abs); ; d = filepath.Dir(d) {
		nm := filepath.Join(d, "node_modules")
		if fi, err := os.Lstat(nm); err == nil {
			switch {
			case fi.IsDir():
				out = append(out, nm)
			case fi.Mode()&os.ModeSymlink != 0:
				target, _ := os.Readlink(nm)
				ds = append(ds, RuleModuleLinkHidden.New("", "%s is a symbolic link (to %q): the package's code does not see it", nm, target))
			}
		}
		if filepath.Dir(d) == d {
			return out, ds
		}
	}
}

// linkedAbove looks at the packages (node_modules/<name>,
// node_modules/@scope/<name>) of the node_modules directory nm above the
// package that are symbolic links, as npm link and workspaces make them.
// One that leads inside a visible directory needs nothing more. One that
// leads to an npm package of the project holding nm (a directory strictly
// inside that project, not holding the package being run, whose
// package.json names the package the link stands for) is added to linked.
// Any other is hidden, with a warning.
func linkedAbove(nm string, visible []string, pkg string, linked []string, ds []diag.Diagnostic) ([]string, []diag.Diagnostic) {
	project := filepath.Dir(nm)
	var visit func(dir, scope string)
	visit = func(dir, scope string) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range entries {
			name := e.Name()
			full := filepath.Join(dir, name)
			switch {
			case strings.HasPrefix(name, "."):
			case e.IsDir() && scope == "" && strings.HasPrefix(name, "@"):
				visit(full, name)
			case e.Type()&os.ModeSymlink != 0:
				pkgName := name
				if scope != "" {
					pkgName = scope + "/" + name
				}
				dest, err := filepath.EvalSymlinks(full)
				switch {
				case err != nil:
					// Leads nowhere: nothing to see.
				case inAny(visible, dest):
				case isProjectPackage(dest, project, pkg, pkgName):
					linked = append(linked, dest)
				default:
					target, _ := os.Readlink(full)
					ds = append(ds, RuleModuleLinkHidden.New("", "%s is a symbolic link to %q, not an npm package %q of %s: the package's code does not see it", full, target, pkgName, project))
				}
			}
		}
	}
	visit(nm, "")
	return linked, ds
}

// isProjectPackage reports whether dir is the npm package name of the
// project: a directory strictly inside project, not holding the package
// being run, with a package.json naming it.
func isProjectPackage(dir, project, pkg, name string) bool {
	if dir == project || !within(project, dir) || within(dir, pkg) {
		return false
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return false
	}
	b, err := ReadFile(filepath.Join(dir, "package.json"), MaxFileSize)
	if err != nil {
		return false
	}
	var pj struct {
		Name string `json:"name"`
	}
	return canonjson.Unmarshal(b, &pj) == nil && pj.Name == name
}

// inAny reports whether p lies inside one of dirs.
func inAny(dirs []string, p string) bool {
	for _, d := range dirs {
		if within(d, p) {
			return true
		}
	}
	return false
}
