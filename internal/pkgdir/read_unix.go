//go:build unix

package pkgdir

import (
	"os"
	"syscall"
)

// openNoBlock opens name for reading without following a final symbolic
// link and without blocking on a FIFO that has no writer.
func openNoBlock(name string) (*os.File, error) {
	return os.OpenFile(name, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
}
