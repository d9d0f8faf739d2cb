//go:build !linux

package pkgdir

import (
	"io"
	"os"
)

// copyData copies in (size bytes) to the empty file out, holes included.
func copyData(out, in *os.File, size int64) error {
	_, err := io.Copy(out, io.LimitReader(in, size))
	return err
}
