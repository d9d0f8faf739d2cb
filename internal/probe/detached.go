package probe

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/code2skill/code2skill/assets"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/jsmod"
	"github.com/code2skill/code2skill/internal/pkgdir"
	"github.com/code2skill/code2skill/internal/sandbox"
	"github.com/code2skill/code2skill/internal/scratch"
)

// RuleImportOutside: a module that imports a file outside its package works
// only where it was generated.
var RuleImportOutside = diag.Register("PROBE_IMPORT_OUTSIDE", diag.Error,
	"a module imports a file outside the package (an absolute path, a file: URL or a relative path leaving it); the package cannot run detached")

// detachedCopy is the package copied to a temporary directory.
type detachedCopy struct {
	tmp   string         // removed afterwards
	dir   string         // the copy
	binds []sandbox.Bind // what the server sees besides the copy
	// linked: the copy's node_modules is a symbolic link to the package's
	// (where the sandbox cannot confine the file system).
	linked bool
}

// detach copies the package to a fresh temporary directory. A core
// package's own node_modules (view.Own; view is nil for a strict package,
// which must be self-contained) come along without being copied: where a
// mount namespace exists, confined or not, the server sees them read-only
// at the copy's node_modules through an overlay that names no path of the
// original package, not even in its mount table; where none exists, the
// copy's node_modules is a symbolic link to them (the server could read
// them there anyway). The view has been judged runnable: no link in them
// leads outside the package.
func detach(pkg *pkgdir.Package, tempDir string, view *pkgdir.ModuleView) (*detachedCopy, error) {
	tmp, err := scratch.Dir(tempDir, "code2skill-probe-")
	if err != nil {
		return nil, fmt.Errorf("making the detached copy: %w", err)
	}
	d := &detachedCopy{tmp: tmp, dir: filepath.Join(tmp, filepath.Base(pkg.Dir()))}
	if err := pkg.CopyTo(d.dir, pkgdir.CopyOptions{}); err != nil {
		d.remove()
		if errors.Is(err, pkgdir.ErrCopyTooLarge) {
			return nil, usagef("making the detached copy: %v", err)
		}
		return nil, fmt.Errorf("making the detached copy: %w", err)
	}
	if view == nil || view.Own == "" {
		return d, nil
	}
	dst := filepath.Join(d.dir, "node_modules")
	if sandbox.Mounts(sandbox.DenyNetwork) {
		err = os.Mkdir(dst, 0o755)
		d.binds = []sandbox.Bind{{Source: view.Own, Target: dst, Anonymous: true}}
	} else {
		err = os.Symlink(view.Own, dst)
		d.linked = true
	}
	if err != nil {
		d.remove()
		return nil, fmt.Errorf("making the detached copy: %w", err)
	}
	return d, nil
}

func (d *detachedCopy) remove() { scratch.Remove(d.tmp) }

// importsOutside reports every import of the package's modules that names a
// file outside the package. Where the server runs confined, such an import
// fails at start; this says why, and says it where it would not fail.
func importsOutside(pkg *pkgdir.Package) []diag.Diagnostic {
	var ds []diag.Diagnostic
	for _, f := range pkg.Files() {
		if ext := path.Ext(f.Path); ext != ".mjs" && ext != ".js" {
			continue
		}
		src, err := pkg.ReadFile(f.Path)
		if err != nil {
			continue // the server's own start reports what it cannot read
		}
		if f.Path == assets.MCPRuntime.Name() && assets.MCPRuntime.Matches(src) {
			// The reviewed runtime bundle imports node: built-ins only,
			// and is the largest module by far: not worth a parse.
			continue
		}
		m, _ := jsmod.Parse(f.Path, src)
		if m == nil {
			continue
		}
		for _, imp := range m.Imports() {
			if why := outside(f.Path, imp.Specifier); why != "" {
				ds = append(ds, RuleImportOutside.New(f.Path, "%s %q %s", imp.Kind, imp.Specifier, why).At(imp.Pos.Line, imp.Pos.Column))
			}
		}
	}
	return ds
}

// outside says why a specifier names a file outside the package, or "".
func outside(file, spec string) string {
	switch {
	case strings.HasPrefix(spec, "file:"):
		return "is a file: URL, an absolute location"
	case strings.HasPrefix(spec, "/") || filepath.IsAbs(spec):
		return "is an absolute path"
	case strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../"):
		if p := path.Join(path.Dir(file), spec); p == ".." || strings.HasPrefix(p, "../") {
			return "leaves the package"
		}
	}
	return ""
}
