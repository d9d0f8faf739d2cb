package pkgdir

import (
	"errors"
	"fmt"
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
// are recreated as they are (an absolute one into the package re-pointed at
// the copy). The copy never follows a link of the package: where the system
// allows (every Unix), each directory and file is opened relative to its
// parent's descriptor without following links, so that a directory swapped
// for a link while the copy runs stops it rather than redirecting it. Once
// made, the copy's links are judged where they lead in the copy: one that
// leaves it (including one inside node_modules) stops the copy with an
// error, because the copy would otherwise reach outside itself. A FIFO, a
// socket or a device stops it too (ErrNotRegular), and so does a package
// that would take more than the limit (ErrCopyTooLarge).
func (p *Package) CopyTo(dst string, opts CopyOptions) error {
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return fmt.Errorf("copying package: %w", err)
	}
	limit := opts.MaxBytes
	if limit <= 0 {
		limit = MaxCopyBytes
	}
	c := &copier{pkg: p, opts: opts, limit: limit, budget: limit}
	if err := c.copyTree(dst); err != nil {
		return err
	}
	return c.checkLinks(dst)
}

// copier is one CopyTo.
type copier struct {
	pkg           *Package
	opts          CopyOptions
	limit, budget int64
	links         []copiedLink
}

// copiedLink is a symbolic link recreated in the copy.
type copiedLink struct {
	rel, target string // slash-separated path in the package; the link's text
}

// skipDir reports whether a directory of the package stays out of the copy.
func (c *copier) skipDir(name string) bool {
	return name == ".git" || (name == "node_modules" && !c.opts.NodeModules)
}

// charge counts a file's disk space against the limit.
func (c *copier) charge(rel string, allocated int64) error {
	if c.budget -= allocated; c.budget < 0 {
		return fmt.Errorf("copying %s: %w (%d bytes)", rel, ErrCopyTooLarge, c.limit)
	}
	return nil
}

// linkText returns the text of a link recreated at rel in the copy: an
// absolute link into the package is made relative, so that it leads into
// the copy.
func (c *copier) linkText(rel, link string) string {
	if !filepath.IsAbs(link) || !within(c.pkg.abs, filepath.Clean(link)) {
		return link
	}
	r, err := filepath.Rel(filepath.Dir(filepath.Join(c.pkg.abs, filepath.FromSlash(rel))), filepath.Clean(link))
	if err != nil {
		return link
	}
	return r
}

// checkLinks judges every link of the finished copy by where it leads
// there: the copy is private, so that what is judged is what a child
// finds. A link that leads nowhere is judged by where it would lead.
func (c *copier) checkLinks(dst string) error {
	if len(c.links) == 0 {
		return nil
	}
	root, err := filepath.EvalSymlinks(dst)
	if err != nil {
		return fmt.Errorf("copying package: %w", err)
	}
	for _, l := range c.links {
		full := filepath.Join(root, filepath.FromSlash(l.rel))
		dest, err := filepath.EvalSymlinks(full)
		if err != nil {
			dest = l.target
			if !filepath.IsAbs(dest) {
				dest = filepath.Join(filepath.Dir(full), dest)
			}
			dest = filepath.Clean(dest)
		}
		if !within(root, dest) {
			return fmt.Errorf("copying %s: symbolic link to %q leaves the package", l.rel, l.target)
		}
	}
	return nil
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
