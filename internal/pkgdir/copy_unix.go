//go:build unix

package pkgdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"

	"golang.org/x/sys/unix"

	"github.com/code2skill/code2skill/internal/nofollow"
)

// beforeOpen, when set, runs before the copy opens an entry of the package
// (rel, slash-separated): tests swap the entry there.
var beforeOpen func(rel string)

// copyTree copies the package into the directory dst by descriptors: the
// package root is opened with no link on its path, and every entry below
// it relative to its directory's descriptor without following a link. An
// entry that is no longer what it was listed as (a directory swapped for a
// link, a file for a FIFO) stops the copy.
func (c *copier) copyTree(dst string) error {
	src, err := nofollow.Open(c.pkg.abs, unix.O_RDONLY|unix.O_DIRECTORY)
	if err != nil {
		return fmt.Errorf("copying package: %w", err)
	}
	defer unix.Close(src)
	out, err := unix.Open(dst, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("copying package: %w", err)
	}
	defer unix.Close(out)
	return c.copyDir(src, out, ".")
}

// copyDir copies the entries of the package directory src (at rel) into the
// directory out, in name order.
func (c *copier) copyDir(src, out int, rel string) error {
	entries, err := readDirents(src)
	if err != nil {
		return fmt.Errorf("copying %s: %w", rel, err)
	}
	for _, e := range entries {
		name := e.name
		r := path.Join(rel, name)
		var st unix.Stat_t
		if err := unix.Fstatat(src, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
			return fmt.Errorf("copying %s: %w", r, err)
		}
		switch st.Mode & unix.S_IFMT {
		case unix.S_IFDIR:
			if c.skipDir(name) {
				continue
			}
			err = c.copySubdir(src, out, name, r, &st)
		case unix.S_IFREG:
			err = c.copyRegular(src, out, name, r, &st)
		case unix.S_IFLNK:
			err = c.copyLink(src, out, name, r)
		default:
			err = fmt.Errorf("copying %s: %w (%s)", r, ErrNotRegular, kindOf(statMode(uint32(st.Mode))))
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (c *copier) copySubdir(src, out int, name, rel string, listed *unix.Stat_t) error {
	if beforeOpen != nil {
		beforeOpen(rel)
	}
	sub, err := openSame(src, name, unix.O_RDONLY|unix.O_DIRECTORY, listed)
	if err != nil {
		return fmt.Errorf("copying %s: %w", rel, err)
	}
	defer unix.Close(sub)
	if err := unix.Mkdirat(out, name, 0o755); err != nil {
		return fmt.Errorf("copying %s: %w", rel, err)
	}
	subOut, err := unix.Openat(out, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("copying %s: %w", rel, err)
	}
	defer unix.Close(subOut)
	return c.copyDir(sub, subOut, rel)
}

func (c *copier) copyRegular(src, out int, name, rel string, listed *unix.Stat_t) error {
	if err := c.charge(rel, min(int64(listed.Blocks)*512, listed.Size)); err != nil {
		return err
	}
	if beforeOpen != nil {
		beforeOpen(rel)
	}
	// O_NONBLOCK: a FIFO swapped in after the listing must not block the
	// open; openSame then refuses it.
	in, err := openSame(src, name, unix.O_RDONLY|unix.O_NONBLOCK, listed)
	if err != nil {
		return fmt.Errorf("copying %s: %w", rel, err)
	}
	inFile := os.NewFile(uintptr(in), rel)
	defer inFile.Close()
	fd, err := unix.Openat(out, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(listed.Mode&0o777))
	if err != nil {
		return fmt.Errorf("copying %s: %w", rel, err)
	}
	outFile := os.NewFile(uintptr(fd), rel)
	if err := copyData(outFile, inFile, listed.Size); err != nil {
		outFile.Close()
		return fmt.Errorf("copying %s: %w", rel, err)
	}
	// The permission bits are the file's, whatever the umask.
	if err := outFile.Chmod(fs.FileMode(listed.Mode & 0o777)); err != nil {
		outFile.Close()
		return fmt.Errorf("copying %s: %w", rel, err)
	}
	return outFile.Close()
}

func (c *copier) copyLink(src, out int, name, rel string) error {
	buf := make([]byte, maxLink)
	n, err := unix.Readlinkat(src, name, buf)
	if err == nil && n == len(buf) {
		err = unix.ENAMETOOLONG
	}
	if err != nil {
		return fmt.Errorf("copying %s: %w", rel, err)
	}
	link := string(buf[:n])
	c.links = append(c.links, copiedLink{rel: rel, target: link})
	if err := unix.Symlinkat(c.linkText(rel, link), out, name); err != nil {
		return fmt.Errorf("copying %s: %w", rel, err)
	}
	return nil
}

// maxDirEntries bounds the entries of one directory read by descriptor.
const maxDirEntries = 1 << 20

// errTooManyEntries reports a directory with more entries than that.
var errTooManyEntries = fmt.Errorf("more than %d entries in one directory", maxDirEntries)

// maxLink bounds the text of a symbolic link (PATH_MAX on Linux).
const maxLink = 4096

// errChanged reports an entry that is not what the listing found.
var errChanged = errors.New("changed while being copied")

// openSame opens name in the directory dir without following a link and
// makes sure it is still the file the listing found.
func openSame(dir int, name string, flags int, listed *unix.Stat_t) (int, error) {
	fd, err := unix.Openat(dir, name, flags|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	switch {
	case errors.Is(err, unix.ELOOP), errors.Is(err, unix.ENOTDIR):
		return -1, fmt.Errorf("%w: now a symbolic link", errChanged)
	case err != nil:
		return -1, err
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return -1, err
	}
	if st.Dev != listed.Dev || st.Ino != listed.Ino || st.Mode&unix.S_IFMT != listed.Mode&unix.S_IFMT {
		unix.Close(fd)
		return -1, errChanged
	}
	return fd, nil
}

// fileMode converts a stat mode's type bits to an fs.FileMode for kindOf.
func fileMode(mode uint32) fs.FileMode {
	switch mode & unix.S_IFMT {
	case unix.S_IFIFO:
		return fs.ModeNamedPipe
	case unix.S_IFSOCK:
		return fs.ModeSocket
	case unix.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		return fs.ModeDevice
	}
	return fs.ModeIrregular
}
