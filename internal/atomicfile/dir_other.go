//go:build !unix

package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// dirHandle is a directory named by its path. Without openat, each name is
// checked with Lstat before it is used: the same refusals, without the
// guarantee against a link swapped in between.
type dirHandle struct{ path string }

func openRoot(root string) (*dirHandle, error) {
	fi, err := os.Stat(root)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, &os.PathError{Op: "open", Path: root, Err: errors.New("not a directory")}
	}
	return &dirHandle{path: root}, nil
}

func (d *dirHandle) close() {}

func (d *dirHandle) join(name string) string { return filepath.Join(d.path, name) }

func (d *dirHandle) openDir(name string) (*dirHandle, bool, error) {
	created := false
	if err := os.Mkdir(d.join(name), 0o755); err == nil {
		created = true
	} else if !errors.Is(err, fs.ErrExist) {
		return nil, false, err
	}
	switch k, err := d.kind(name); {
	case err != nil:
		return nil, false, err
	case k == kindSymlink:
		return nil, false, &SymlinkError{Path: name}
	case k != kindDir:
		return nil, false, &os.PathError{Op: "open", Path: d.join(name), Err: errors.New("not a directory")}
	}
	return &dirHandle{path: d.join(name)}, created, nil
}

type kind uint8

const (
	kindNone kind = iota
	kindFile
	kindDir
	kindSymlink
	kindOther
)

func (d *dirHandle) kind(name string) (kind, error) {
	fi, err := os.Lstat(d.join(name))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return kindNone, nil
	case err != nil:
		return kindNone, err
	case fi.Mode()&fs.ModeSymlink != 0:
		return kindSymlink, nil
	case fi.IsDir():
		return kindDir, nil
	case fi.Mode().IsRegular():
		return kindFile, nil
	}
	return kindOther, nil
}

func (d *dirHandle) createTemp(prefix string) (*os.File, string, error) {
	f, err := os.CreateTemp(d.path, prefix+"*")
	if err != nil {
		return nil, "", err
	}
	return f, filepath.Base(f.Name()), nil
}

func (d *dirHandle) createTempDir(prefix string) (*dirHandle, string, error) {
	p, err := os.MkdirTemp(d.path, prefix+"*")
	if err != nil {
		return nil, "", err
	}
	return &dirHandle{path: p}, filepath.Base(p), nil
}

func (d *dirHandle) rename(oldname string, to *dirHandle, newname string) error {
	return os.Rename(d.join(oldname), to.join(newname))
}

func (d *dirHandle) link(oldname string, to *dirHandle, newname string) error {
	return os.Link(d.join(oldname), to.join(newname))
}

func (d *dirHandle) remove(name string) error    { return os.Remove(d.join(name)) }
func (d *dirHandle) removeDir(name string) error { return os.Remove(d.join(name)) }
