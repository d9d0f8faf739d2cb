package skillinstall

import (
	"errors"

	"golang.org/x/sys/unix"
)

// swap exchanges the directory entries a and b in one step
// (renameat2 RENAME_EXCHANGE), falling back to two renames on file systems
// that cannot exchange.
func swap(a, b string) error {
	err := unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EOPNOTSUPP) {
		return swapByRenames(a, b)
	}
	return err
}
