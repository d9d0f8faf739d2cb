//go:build !unix

package pkgdir

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// beforeOpen, when set, runs before the copy opens an entry of the package.
var beforeOpen func(rel string)

// copyTree copies the package by path where the system has no directory
// descriptors to copy it by.
func (c *copier) copyTree(dst string) error {
	p := c.pkg
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
			if c.skipDir(d.Name()) {
				return fs.SkipDir
			}
			if beforeOpen != nil {
				beforeOpen(rel)
			}
			return os.Mkdir(target, 0o755)
		case t&fs.ModeSymlink != 0:
			link, err := os.Readlink(full)
			if err != nil {
				return fmt.Errorf("copying %s: %w", rel, err)
			}
			c.links = append(c.links, copiedLink{rel: rel, target: link})
			return os.Symlink(c.linkText(rel, link), target)
		case t.IsRegular():
			info, err := d.Info()
			if err != nil {
				return fmt.Errorf("copying %s: %w", rel, err)
			}
			if err := c.charge(rel, allocated(info)); err != nil {
				return err
			}
			return copyFile(full, target)
		}
		return fmt.Errorf("copying %s: %w (%s)", rel, ErrNotRegular, kindOf(d.Type()))
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
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("copying %s: %w (replaced while being copied)", src, ErrNotRegular)
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fi.Mode().Perm())
	if err != nil {
		return fmt.Errorf("copying to %s: %w", dst, err)
	}
	if err := copyData(out, in, fi.Size()); err != nil {
		out.Close()
		return fmt.Errorf("copying to %s: %w", dst, err)
	}
	return out.Close()
}
