//go:build unix

package pkgdir

import (
	"io/fs"
	"syscall"
)

// allocated returns the disk space a file occupies: less than its size
// when it is sparse.
func allocated(fi fs.FileInfo) int64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return min(int64(st.Blocks)*512, fi.Size())
	}
	return fi.Size()
}
