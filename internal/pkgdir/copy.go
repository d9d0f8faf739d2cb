package pkgdir

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// CopyOptions control CopyTo.
type CopyOptions struct {
	// NodeModules copies the package's own node_modules too.
	NodeModules bool
}

// CopyTo copies the package into dst, which must not exist yet or be empty,
// so that it can run detached from where it was generated. Regular files
// keep their permission bits; symbolic links that stay inside the package
// are recreated as they are; a link that escapes the package (including one
// inside node_modules) stops the copy with an error, because the copy would
// otherwise reach outside itself.
func (p *Package) CopyTo(dst string, opts CopyOptions) error {
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return fmt.Errorf("copying package: %w", err)
	}
	return filepath.WalkDir(p.abs, func(full string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("copying package: %w", err)
		}
		rel := p.rel(full)
		if rel == "." {
			return nil
		}
		target := filepath.Join(dst, filepath.FromSlash(rel))
		switch t := d.Type(); {
		case t.IsDir():
			if d.Name() == ".git" || (d.Name() == "node_modules" && !opts.NodeModules) {
				return fs.SkipDir
			}
			return os.Mkdir(target, 0o755)
		case t&fs.ModeSymlink != 0:
			link, err := os.Readlink(full)
			if err != nil {
				return fmt.Errorf("copying %s: %w", rel, err)
			}
			dest := link
			if !filepath.IsAbs(dest) {
				dest = filepath.Join(filepath.Dir(full), dest)
			}
			if resolved, err := filepath.EvalSymlinks(dest); err == nil {
				dest = resolved
			}
			if !within(p.abs, filepath.Clean(dest)) {
				return fmt.Errorf("copying %s: symbolic link to %q leaves the package", rel, link)
			}
			if filepath.IsAbs(link) {
				// Re-point an absolute in-package link at the copy.
				r, err := filepath.Rel(filepath.Dir(full), dest)
				if err != nil {
					return fmt.Errorf("copying %s: %w", rel, err)
				}
				link = r
			}
			return os.Symlink(link, target)
		case t.IsRegular():
			return copyFile(full, target)
		}
		return nil
	})
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return fmt.Errorf("copying %s: %w", src, err)
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return fmt.Errorf("copying %s: %w", src, err)
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fi.Mode().Perm())
	if err != nil {
		return fmt.Errorf("copying to %s: %w", dst, err)
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("copying to %s: %w", dst, err)
	}
	return out.Close()
}

// IsEmptyDir reports whether dir exists and holds no entries. A missing
// directory is reported as empty with exists false.
func IsEmptyDir(dir string) (empty, exists bool, err error) {
	entries, err := os.ReadDir(dir)
	switch {
	case os.IsNotExist(err):
		return true, false, nil
	case err != nil:
		return false, true, err
	}
	return len(entries) == 0, true, nil
}
