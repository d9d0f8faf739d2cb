//go:build unix

package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// dirHandle is an open directory; names are resolved relative to it and
// never through a symbolic link.
type dirHandle struct {
	fd   int
	path string // for error messages
}

func openRoot(root string) (*dirHandle, error) {
	fd, err := unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: root, Err: err}
	}
	return &dirHandle{fd: fd, path: root}, nil
}

func (d *dirHandle) close() { unix.Close(d.fd) }

func (d *dirHandle) join(name string) string { return d.path + "/" + name }

// openDir opens the directory name, creating it when missing. A symbolic
// link is a *SymlinkError.
func (d *dirHandle) openDir(name string) (*dirHandle, bool, error) {
	created := false
	if err := unix.Mkdirat(d.fd, name, 0o755); err == nil {
		created = true
	} else if !errors.Is(err, unix.EEXIST) {
		return nil, false, &os.PathError{Op: "mkdir", Path: d.join(name), Err: err}
	}
	fd, err := unix.Openat(d.fd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		if k, kerr := d.kind(name); kerr == nil && k == kindSymlink {
			return nil, false, &SymlinkError{Path: name}
		}
		return nil, false, &os.PathError{Op: "open", Path: d.join(name), Err: err}
	}
	return &dirHandle{fd: fd, path: d.join(name)}, created, nil
}

type kind uint8

const (
	kindNone kind = iota
	kindFile
	kindDir
	kindSymlink
	kindOther
)

// kind says what name is, without following a symbolic link.
func (d *dirHandle) kind(name string) (kind, error) {
	var st unix.Stat_t
	err := unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
	switch {
	case errors.Is(err, unix.ENOENT):
		return kindNone, nil
	case err != nil:
		return kindNone, &os.PathError{Op: "lstat", Path: d.join(name), Err: err}
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
		return kindFile, nil
	case unix.S_IFDIR:
		return kindDir, nil
	case unix.S_IFLNK:
		return kindSymlink, nil
	}
	return kindOther, nil
}

var tempSeq atomic.Uint64

// tempName returns a name unlikely to exist.
func tempName(prefix string) string {
	n := uint64(time.Now().UnixNano()) ^ uint64(os.Getpid())<<32 + tempSeq.Add(1)
	return prefix + strconv.FormatUint(n, 36)
}

// createTemp creates a new file whose name starts with prefix.
func (d *dirHandle) createTemp(prefix string) (*os.File, string, error) {
	for range 100 {
		name := tempName(prefix)
		fd, err := unix.Openat(d.fd, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
		if errors.Is(err, unix.EEXIST) {
			continue
		}
		if err != nil {
			return nil, "", &os.PathError{Op: "create", Path: d.join(name), Err: err}
		}
		return os.NewFile(uintptr(fd), d.join(name)), name, nil
	}
	return nil, "", fmt.Errorf("creating a temporary file in %s: too many attempts", d.path)
}

// createTempDir creates and opens a new directory whose name starts with
// prefix.
func (d *dirHandle) createTempDir(prefix string) (*dirHandle, string, error) {
	for range 100 {
		name := tempName(prefix)
		err := unix.Mkdirat(d.fd, name, 0o700)
		if errors.Is(err, unix.EEXIST) {
			continue
		}
		if err != nil {
			return nil, "", &os.PathError{Op: "mkdir", Path: d.join(name), Err: err}
		}
		sub, _, err := d.openDir(name)
		return sub, name, err
	}
	return nil, "", fmt.Errorf("creating a temporary directory in %s: too many attempts", d.path)
}

func (d *dirHandle) rename(oldname string, to *dirHandle, newname string) error {
	if err := unix.Renameat(d.fd, oldname, to.fd, newname); err != nil {
		return &os.LinkError{Op: "rename", Old: d.join(oldname), New: to.join(newname), Err: err}
	}
	return nil
}

// link makes newname in to a hard link to oldname, not following a link.
func (d *dirHandle) link(oldname string, to *dirHandle, newname string) error {
	if err := unix.Linkat(d.fd, oldname, to.fd, newname, 0); err != nil {
		return &os.LinkError{Op: "link", Old: d.join(oldname), New: to.join(newname), Err: err}
	}
	return nil
}

func (d *dirHandle) remove(name string) error {
	if err := unix.Unlinkat(d.fd, name, 0); err != nil {
		return &os.PathError{Op: "remove", Path: d.join(name), Err: err}
	}
	return nil
}

func (d *dirHandle) removeDir(name string) error {
	if err := unix.Unlinkat(d.fd, name, unix.AT_REMOVEDIR); err != nil {
		return &os.PathError{Op: "remove", Path: d.join(name), Err: err}
	}
	return nil
}
