//go:build linux

package nofollow

import (
	"errors"

	"golang.org/x/sys/unix"
)

// oSearch opens the directories on the way without needing read access to
// them, as a path lookup does.
const oSearch = unix.O_PATH

var errUnsupported = errors.New("openat2 is not available")

// useOpenat2 is false in tests of the walk.
var useOpenat2 = true

// openResolved lets the kernel refuse every symbolic link on the way in one
// call (openat2, Linux 5.6). Where it is missing or filtered, the caller
// walks the path itself.
func openResolved(path string, flags int) (int, error) {
	if !useOpenat2 {
		return -1, errUnsupported
	}
	fd, err := unix.Openat2(unix.AT_FDCWD, path, &unix.OpenHow{
		Flags:   uint64(flags | unix.O_CLOEXEC | unix.O_NOFOLLOW),
		Resolve: unix.RESOLVE_NO_SYMLINKS,
	})
	switch {
	case errors.Is(err, unix.ENOSYS), errors.Is(err, unix.EPERM):
		// Missing, or refused by a seccomp filter.
		return -1, errUnsupported
	case errors.Is(err, unix.EAGAIN):
		// A concurrent rename the kernel would not resolve safely: walk.
		return -1, errUnsupported
	}
	return fd, err
}
