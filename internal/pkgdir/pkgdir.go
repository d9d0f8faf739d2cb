// Package pkgdir reads a package directory safely. It inventories the
// package's files without following symbolic links, reports links that
// escape the package (they are never followed), bounds how much it reads,
// judges what the package's code may see of node_modules when it runs
// (ModuleView), and makes detached copies for commands that run a package
// away from where it was generated.
//
// Paths in a Package are slash-separated and relative to its root, ready to
// be used as the File of a diagnostic.
package pkgdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/diag"
)

// Limits that keep a hostile package from exhausting memory or time.
const (
	MaxFiles    = 20000        // files inventoried outside node_modules
	MaxFileSize = MaxInputSize // bytes read from one file
)

// Rules reported while opening a package.
var (
	RuleNotFound      = diag.Register("PKG_NOT_FOUND", diag.Error, "the package path does not exist")
	RuleNotDirectory  = diag.Register("PKG_NOT_DIRECTORY", diag.Error, "the package path is not a directory")
	RuleSymlinkEscape = diag.Register("PKG_SYMLINK_ESCAPES", diag.Error, "a symbolic link points outside the package; it is not followed")
	RuleSymlinkBroken = diag.Register("PKG_SYMLINK_BROKEN", diag.Warning, "a symbolic link points to nothing")
	RuleTooManyFiles  = diag.Register("PKG_TOO_MANY_FILES", diag.Error, "the package holds more files than code2skill inventories")
	RuleUnreadable    = diag.Register("PKG_UNREADABLE", diag.Error, "a file or directory of the package cannot be read")
)

// maxFiles is MaxFiles, variable so that tests can lower it.
var maxFiles = MaxFiles

// skipped directories are never inventoried: dependencies are checked
// through their manifests, and version-control metadata is not package
// content.
var skipped = []string{"node_modules", ".git"}

// File is one regular file of the package.
type File struct {
	Path string // slash-separated, relative to the package root
	Size int64
	Mode fs.FileMode
}

// Link is a symbolic link found in the package.
type Link struct {
	Path   string // slash-separated, relative to the package root
	Target string // as stored in the link
	Inside bool   // the link resolves to a path inside the package
}

// Package is the inventory of a package directory.
type Package struct {
	Root  string // the directory as given
	abs   string // its absolute, symlink-free form
	files []File
	links []Link
	dirs  map[string]bool
	// special lists the package's FIFOs, sockets and devices (outside
	// node_modules and .git): not content, but nothing of the package may
	// run while they are there (ModuleView reports them).
	special []special
}

// special is a file of the package that is neither a regular file, a
// directory nor a link.
type special struct {
	Path, Kind string
}

// Open inventories the package at root. Problems with the package itself are
// returned as diagnostics; the error is for I/O failures that make the
// inventory impossible. When the diagnostics include RuleNotFound or
// RuleNotDirectory the returned Package is nil.
func Open(root string) (*Package, []diag.Diagnostic, error) {
	fi, err := os.Stat(root)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, []diag.Diagnostic{RuleNotFound.New("", "%s: no such directory", root)}, nil
	case err != nil:
		return nil, nil, fmt.Errorf("opening package: %w", err)
	case !fi.IsDir():
		return nil, []diag.Diagnostic{RuleNotDirectory.New("", "%s is not a directory", root)}, nil
	}
	abs, err := filepath.Abs(root)
	if err == nil {
		abs, err = filepath.EvalSymlinks(abs)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("opening package: %w", err)
	}
	p := &Package{Root: root, abs: abs, dirs: map[string]bool{".": true}}
	var ds []diag.Diagnostic
	err = filepath.WalkDir(abs, func(full string, d fs.DirEntry, err error) error {
		rel := p.rel(full)
		if err != nil {
			ds = append(ds, RuleUnreadable.New(rel, "%v", unwrapPath(err)))
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if rel == "." {
			return nil
		}
		switch t := d.Type(); {
		case t.IsDir():
			if slices.Contains(skipped, d.Name()) {
				return fs.SkipDir
			}
			p.dirs[rel] = true
		case t&fs.ModeSymlink != 0:
			ds = append(ds, p.addLink(full, rel)...)
		case t.IsRegular():
			if len(p.files) == maxFiles {
				ds = append(ds, RuleTooManyFiles.New("", "more than %d files; the rest were not inspected", maxFiles))
				return fs.SkipAll
			}
			info, err := d.Info()
			if err != nil {
				ds = append(ds, RuleUnreadable.New(rel, "%v", unwrapPath(err)))
				return nil
			}
			p.files = append(p.files, File{Path: rel, Size: info.Size(), Mode: info.Mode()})
		default:
			// Sockets, devices and pipes are not package content, but a
			// node that opens one could block or reach outside.
			p.special = append(p.special, special{Path: rel, Kind: kindOf(t)})
		}
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("reading package: %w", err)
	}
	// WalkDir visits "a/" before "a.txt"; lookups need plain string order.
	slices.SortFunc(p.files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	slices.SortFunc(p.links, func(a, b Link) int { return strings.Compare(a.Path, b.Path) })
	return p, ds, nil
}

func (p *Package) rel(full string) string {
	r, err := filepath.Rel(p.abs, full)
	if err != nil {
		return filepath.ToSlash(full)
	}
	return filepath.ToSlash(r)
}

// addLink records a symbolic link and reports it when it escapes the package
// or points to nothing. Links are never followed, even when they stay inside.
func (p *Package) addLink(full, rel string) []diag.Diagnostic {
	target, err := os.Readlink(full)
	if err != nil {
		return []diag.Diagnostic{RuleUnreadable.New(rel, "%v", unwrapPath(err))}
	}
	l := Link{Path: rel, Target: target}
	resolved, err := filepath.EvalSymlinks(full)
	var ds []diag.Diagnostic
	switch {
	case err != nil && errors.Is(err, fs.ErrNotExist):
		// Judge a dangling link by where it would point.
		dest := target
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(full), dest)
		}
		l.Inside = within(p.abs, filepath.Clean(dest))
		if l.Inside {
			ds = append(ds, RuleSymlinkBroken.New(rel, "symbolic link to %q points to nothing", target))
		}
	case err != nil:
		ds = append(ds, RuleUnreadable.New(rel, "%v", unwrapPath(err)))
	default:
		l.Inside = within(p.abs, resolved)
	}
	if !l.Inside {
		ds = append(ds, RuleSymlinkEscape.New(rel, "symbolic link to %q leaves the package; it is not followed", target))
	}
	p.links = append(p.links, l)
	return ds
}

// within reports whether path is dir or inside it. Both must be clean and
// absolute.
func within(dir, p string) bool {
	return p == dir || strings.HasPrefix(p, dir+string(filepath.Separator))
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Dir returns the absolute, symlink-free path of the package root.
func (p *Package) Dir() string { return p.abs }

// Files returns the package's regular files outside node_modules and .git,
// sorted by path.
func (p *Package) Files() []File { return p.files }

// Links returns the symbolic links found in the package, sorted by path.
func (p *Package) Links() []Link { return p.links }

// Has reports whether rel is a regular file of the package.
func (p *Package) Has(rel string) bool {
	_, ok := slices.BinarySearchFunc(p.files, rel, func(f File, r string) int { return strings.Compare(f.Path, r) })
	return ok
}

// HasDir reports whether rel is a directory of the package.
func (p *Package) HasDir(rel string) bool { return p.dirs[rel] }

// Match returns the files whose path matches the slash-separated pattern.
// "**" matches any number of directories (including none); other elements
// follow path.Match.
func (p *Package) Match(pattern string) []File {
	var out []File
	for _, f := range p.files {
		if matchPath(strings.Split(pattern, "/"), strings.Split(f.Path, "/")) {
			out = append(out, f)
		}
	}
	return out
}

func matchPath(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for i := 0; i <= len(name); i++ {
				if matchPath(pat[1:], name[i:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], name[0]); !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}

// ReadFile reads a regular file of the package. It refuses paths outside the
// package, symbolic links, FIFOs and devices (without blocking on them), and
// files larger than MaxFileSize.
func (p *Package) ReadFile(rel string) ([]byte, error) {
	clean := path.Clean(rel)
	if !fs.ValidPath(clean) {
		return nil, fmt.Errorf("%s: not a path inside the package", rel)
	}
	b, err := ReadFile(filepath.Join(p.abs, filepath.FromSlash(clean)), MaxFileSize)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rel, err)
	}
	return b, nil
}
