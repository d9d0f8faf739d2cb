//go:build unix && !linux

package pkgdir

import (
	"os"
	"slices"

	"golang.org/x/sys/unix"
)

// dirent is one entry of a directory read by descriptor.
type dirent struct {
	name string
	typ  uint8 // unix.DT_*; DT_UNKNOWN when the file system does not say
}

// readDirents lists the directory dir, sorted by name. Outside Linux the
// types are left to the caller's stat (DT_UNKNOWN). The caller's
// descriptor stays open (a duplicate is read).
func readDirents(dir int) ([]dirent, error) {
	fd, err := unix.Dup(dir)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), "")
	defer f.Close()
	names, err := f.Readdirnames(maxDirEntries + 1)
	if err != nil {
		return nil, err
	}
	if len(names) > maxDirEntries {
		return nil, errTooManyEntries
	}
	slices.Sort(names)
	out := make([]dirent, len(names))
	for i, n := range names {
		out[i] = dirent{name: n, typ: unix.DT_UNKNOWN}
	}
	return out, nil
}
