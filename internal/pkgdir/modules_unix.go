//go:build unix

package pkgdir

import (
	"os"
	"path"

	"golang.org/x/sys/unix"

	"github.com/code2skill/code2skill/internal/nofollow"
)

// run walks the node_modules directory by descriptors, never through a
// link: a directory swapped for one while the walk runs is not entered.
func (w *moduleWalk) run() {
	fd, err := nofollow.Open(w.root, unix.O_RDONLY|unix.O_DIRECTORY)
	if err != nil {
		w.unreadable(".", err)
		return
	}
	defer unix.Close(fd)
	w.dir(fd, ".", 0)
}

func (w *moduleWalk) dir(fd int, rel string, depth int) {
	if depth > maxModuleDepth {
		w.tooDeep(rel)
		return
	}
	entries, err := readDirents(fd)
	if err != nil {
		w.unreadable(rel, err)
		return
	}
	for _, e := range entries {
		name := e.name
		mode, ok := direntMode(e.typ)
		if !ok {
			var st unix.Stat_t
			if err := unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
				w.unreadable(path.Join(rel, name), err)
				continue
			}
			mode = statMode(uint32(st.Mode))
		}
		if mode.IsRegular() && w.entries < maxModuleEntries {
			w.entries++ // the common case, with nothing to judge
			continue
		}
		r := path.Join(rel, name)
		if !w.entry(r, mode) {
			return
		}
		if !mode.IsDir() {
			continue
		}
		// O_NOFOLLOW: a directory swapped for a link since the listing
		// is not entered.
		sub, err := unix.Openat(fd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			w.unreadable(r, err)
			continue
		}
		w.dir(sub, r, depth+1)
		unix.Close(sub)
		if w.stopped {
			return
		}
	}
}

// direntMode converts a directory entry's type to an os.FileMode; ok is
// false when the file system did not record it.
func direntMode(typ uint8) (mode os.FileMode, ok bool) {
	switch typ {
	case unix.DT_DIR:
		return os.ModeDir, true
	case unix.DT_REG:
		return 0, true
	case unix.DT_LNK:
		return os.ModeSymlink, true
	case unix.DT_FIFO:
		return os.ModeNamedPipe, true
	case unix.DT_SOCK:
		return os.ModeSocket, true
	case unix.DT_CHR:
		return os.ModeDevice | os.ModeCharDevice, true
	case unix.DT_BLK:
		return os.ModeDevice, true
	}
	return 0, false
}

// statMode converts a stat mode's type bits to an os.FileMode.
func statMode(mode uint32) os.FileMode {
	switch mode & unix.S_IFMT {
	case unix.S_IFDIR:
		return os.ModeDir
	case unix.S_IFREG:
		return 0
	case unix.S_IFLNK:
		return os.ModeSymlink
	}
	return fileMode(mode)
}
