//go:build unix

package nofollow

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// Open opens the absolute path with flags (O_CLOEXEC and O_NOFOLLOW are
// added) and returns the descriptor. No component of the path, the last
// one included, may be a symbolic link: that is ErrLink. Other errors are
// the system's.
func Open(path string, flags int) (int, error) {
	if !filepath.IsAbs(path) {
		return -1, fmt.Errorf("open %s: not an absolute path", path)
	}
	path = filepath.Clean(path)
	fd, err := openResolved(path, flags)
	if errors.Is(err, errUnsupported) || errors.Is(err, unix.ENOTDIR) {
		// ENOTDIR: a link where a directory was asked for, or a file on
		// the way; the walk tells which.
		fd, err = walk(path, flags)
	}
	if err != nil {
		return -1, wrap(path, err)
	}
	// O_PATH|O_NOFOLLOW opens a final link itself rather than failing.
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil || st.Mode&unix.S_IFMT == unix.S_IFLNK {
		unix.Close(fd)
		if err == nil {
			err = ErrLink
		}
		return -1, wrap(path, err)
	}
	return fd, nil
}

// walk opens path one component at a time, each relative to its parent's
// descriptor and without following a link.
func walk(path string, flags int) (int, error) {
	dir, err := unix.Open("/", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC|oSearch, 0)
	if err != nil {
		return -1, err
	}
	parts := strings.Split(strings.TrimPrefix(path, "/"), "/")
	if path == "/" {
		parts = nil
	}
	for i, name := range parts {
		f := unix.O_RDONLY | unix.O_DIRECTORY | oSearch
		if i == len(parts)-1 {
			f = flags
		}
		next, err := unix.Openat(dir, name, f|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil && isLink(dir, name) {
			err = ErrLink
		}
		unix.Close(dir)
		if err != nil {
			return -1, err
		}
		dir = next
	}
	if len(parts) == 0 {
		unix.Close(dir)
		return unix.Open("/", flags|unix.O_CLOEXEC, 0)
	}
	return dir, nil
}

// isLink reports whether name in the directory dir is a symbolic link.
func isLink(dir int, name string) bool {
	var st unix.Stat_t
	return unix.Fstatat(dir, name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK
}

func wrap(path string, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, unix.ELOOP) {
		err = ErrLink
	}
	return fmt.Errorf("open %s: %w", path, err)
}
