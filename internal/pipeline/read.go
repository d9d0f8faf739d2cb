package pipeline

import "github.com/code2skill/code2skill/internal/pkgdir"

// readRegular reads a regular file of the package or the state directory,
// bounded, never following a link or blocking on a FIFO.
func readRegular(path string) ([]byte, error) {
	return pkgdir.ReadFile(path, 0)
}
