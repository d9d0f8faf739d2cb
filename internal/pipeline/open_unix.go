//go:build unix

package pipeline

import (
	"os"
	"syscall"
)

// openNoFollow opens a file for reading without following a final symbolic
// link and without blocking on a FIFO that took a file's place.
func openNoFollow(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
}
