//go:build linux

package pkgdir

import (
	"slices"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// dirent is one entry of a directory read by descriptor.
type dirent struct {
	name string
	typ  uint8 // unix.DT_*; DT_UNKNOWN when the file system does not say
}

// direntBufSize is the buffer one getdents call fills.
const direntBufSize = 16 << 10

// readDirents lists the directory dir, sorted by name, with the types the
// file system records in the directory itself: no stat per entry. It reads
// the descriptor to its end: each directory is listed once.
// A directory of more than maxDirEntries is errTooManyEntries.
func readDirents(fd int) ([]dirent, error) {
	buf := make([]byte, direntBufSize)
	var out []dirent
	for {
		n, err := unix.Getdents(fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		if n <= 0 {
			break
		}
		for off := 0; off < n; {
			// struct linux_dirent64: ino u64, off s64, reclen u16, type u8, name.
			rec := buf[off:n]
			if len(rec) < 19 {
				break
			}
			reclen := int(*(*uint16)(unsafe.Pointer(&rec[16])))
			if reclen < 19 || reclen > len(rec) {
				break
			}
			name := rec[19:reclen]
			if i := slices.Index(name, 0); i >= 0 {
				name = name[:i]
			}
			off += reclen
			if s := string(name); s != "." && s != ".." {
				if len(out) == maxDirEntries {
					return nil, errTooManyEntries
				}
				out = append(out, dirent{name: s, typ: rec[18]})
			}
		}
	}
	slices.SortFunc(out, func(a, b dirent) int { return strings.Compare(a.name, b.name) })
	return out, nil
}
