package pkgdir

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// MaxCopyBytes bounds the disk space a detached copy may take unless
// CopyOptions say otherwise.
const MaxCopyBytes = 1 << 30

// ErrCopyTooLarge reports a package whose copy would take more than the
// limit.
var ErrCopyTooLarge = errors.New("the package is larger than a detached copy may be")

// CopyOptions control CopyTo.
type CopyOptions struct {
	// NodeModules copies the package's own node_modules too.
	NodeModules bool
	// MaxBytes bounds the disk space the copy takes: the bytes its files
	// occupy, so that a sparse file counts only its data. 0 means
	// MaxCopyBytes.
	MaxBytes int64
}

// CopyTo copies the package into dst, which must not exist yet or be empty,
// so that it can run detached from where it was generated. Regular files
// keep their permission bits and their holes (a sparse file stays sparse;
// where the file system can share extents, they are shared); symbolic links
// that stay inside the package are recreated as they are; a link that
// escapes the package (including one inside node_modules) stops the copy
// with an error, because the copy would otherwise reach outside itself. A
// package that would take more than the limit stops the copy with
// ErrCopyTooLarge.
func (p *Package) CopyTo(dst string, opts CopyOptions) error {
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return fmt.Errorf("copying package: %w", err)
	}
	limit := opts.MaxBytes
	if limit <= 0 {
		limit = MaxCopyBytes
	}
	budget := limit
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
			info, err := d.Info()
			if err != nil {
				return fmt.Errorf("copying %s: %w", rel, err)
			}
			if budget -= allocated(info); budget < 0 {
				return fmt.Errorf("copying %s: %w (%d bytes)", rel, ErrCopyTooLarge, limit)
			}
			return copyFile(full, target)
		}
		return nil
	})
}

func copyFile(src, dst string) error {
	in, err := os.OpenFile(src, os.O_RDONLY|oNoFollow, 0)
	if err != nil {
		return fmt.Errorf("copying %s: %w", src, err)
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return fmt.Errorf("copying %s: %w", src, err)
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("copying %s: %w (replaced while being copied)", src, ErrNotRegular)
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL|oNoFollow, fi.Mode().Perm())
	if err != nil {
		return fmt.Errorf("copying to %s: %w", dst, err)
	}
	if err := copyData(out, in, fi.Size()); err != nil {
		out.Close()
		return fmt.Errorf("copying to %s: %w", dst, err)
	}
	return out.Close()
}

// copyPlain copies size bytes of in to out, holes included.
func copyPlain(out, in *os.File, size int64) error {
	_, err := io.Copy(out, io.LimitReader(in, size))
	return err
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
