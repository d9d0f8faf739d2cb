//go:build linux

package pkgdir

import (
	"errors"
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// copyData copies in (size bytes) to the empty file out without filling
// its holes: the extents are shared where the file system can (a reflink),
// otherwise only the data ranges are copied and the size is set last.
func copyData(out, in *os.File, size int64) error {
	inFD, outFD := int(in.Fd()), int(out.Fd())
	if unix.IoctlFileClone(outFD, inFD) == nil {
		return nil
	}
	for off := int64(0); off < size; {
		data, err := unix.Seek(inFD, off, unix.SEEK_DATA)
		if errors.Is(err, unix.ENXIO) {
			break // nothing but a hole is left
		}
		if err != nil {
			// No SEEK_DATA on this file system: copy everything.
			return copyRange(out, in, 0, size)
		}
		hole, err := unix.Seek(inFD, data, unix.SEEK_HOLE)
		if err != nil {
			return err
		}
		hole = min(hole, size)
		if err := copyRange(out, in, data, hole-data); err != nil {
			return err
		}
		off = hole
	}
	return out.Truncate(size)
}

// copyRange copies n bytes at off from in to the same offset in out.
func copyRange(out, in *os.File, off, n int64) error {
	rpos, wpos := off, off
	for n > 0 {
		copied, err := unix.CopyFileRange(int(in.Fd()), &rpos, int(out.Fd()), &wpos, int(min(n, 1<<30)), 0)
		if err != nil || copied == 0 {
			// copy_file_range refused (another file system, an old kernel):
			// read and write.
			_, err := io.Copy(io.NewOffsetWriter(out, wpos), io.NewSectionReader(in, rpos, n))
			return err
		}
		n -= int64(copied)
	}
	return nil
}
