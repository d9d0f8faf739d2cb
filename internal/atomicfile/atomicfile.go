// Package atomicfile writes files so that readers see either the old content
// or the new, never a partial write: data goes to a temporary file in the
// same directory, is synced, and is renamed over the target.
//
// It never writes through a symbolic link. Below the directory a caller
// names (the target), every directory is opened without following links
// and every file is created next to its target and renamed onto it, so
// that a symbolic link anywhere in the path (a references/ or mcp-tool/
// that points elsewhere, or the file itself) stops the write with a
// *SymlinkError naming it, before anything is written. The target
// directory itself is the caller's choice and may be reached through links.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// ErrSymlink is what errors.Is finds in a write refused because a
// component of its path is a symbolic link.
var ErrSymlink = errors.New("is a symbolic link; code2skill does not write through symbolic links")

// SymlinkError reports the symbolic link that stopped a write.
type SymlinkError struct {
	Path string // the link: relative to the target directory, or as the caller named it
}

func (e *SymlinkError) Error() string { return e.Path + " " + ErrSymlink.Error() }

// Is reports whether target is ErrSymlink.
func (e *SymlinkError) Is(target error) bool { return target == ErrSymlink }

// WriteFile writes data to path atomically, creating parent directories. It
// refuses to replace a symbolic link.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	err := WriteAll(dir, []File{{Path: filepath.Base(path), Data: data, Perm: perm}})
	var link *SymlinkError
	if errors.As(err, &link) {
		return fmt.Errorf("writing %s: %w", path, &SymlinkError{Path: path})
	}
	return err
}

// File is one file of WriteAll: a slash-separated path relative to the
// target directory, its content and permissions (0644 when zero).
type File struct {
	Path string
	Data []byte
	Perm fs.FileMode
}

// rename and link are the steps of the commit phase; tests replace them to
// make a commit fail half-way.
var (
	rename = func(olddir *dirHandle, oldname string, newdir *dirHandle, newname string) error {
		return olddir.rename(oldname, newdir, newname)
	}
	link = func(olddir *dirHandle, oldname string, newdir *dirHandle, newname string) error {
		return olddir.link(oldname, newdir, newname)
	}
)

// WriteAll writes every file under root, creating root and the directories
// the files need. Every file is staged in a temporary file next to its
// target before the first rename, so that a failure while preparing (disk
// full, permission denied, a symbolic link in the way) leaves every target
// as it was and removes the directories the call created. Should a rename
// itself fail half-way, the files already replaced are restored from hard
// links taken just before; a file that cannot be restored is named in the
// error together with where its previous content was kept.
func WriteAll(root string, files []File) error {
	if err := checkPaths(files); err != nil {
		return err
	}
	created, err := mkdirAll(root)
	if err != nil {
		return fmt.Errorf("writing %s: %w", root, err)
	}
	rd, err := openRoot(root)
	if err != nil {
		removeAll(created)
		return fmt.Errorf("writing %s: %w", root, err)
	}
	w := &writer{root: root, dirs: map[string]*dirHandle{".": rd}}
	defer w.close()
	for _, f := range files {
		if err := w.stage(f); err != nil {
			w.abort()
			removeAll(created)
			return fmt.Errorf("writing %s: %w", f.Path, err)
		}
	}
	if err := w.commit(); err != nil {
		return err
	}
	return nil
}

// checkPaths refuses paths that leave the target or name both a file and
// a directory.
func checkPaths(files []File) error {
	isFile := map[string]bool{}
	for _, f := range files {
		if !fs.ValidPath(f.Path) || f.Path == "." {
			return fmt.Errorf("writing %q: not a path inside the target directory", f.Path)
		}
		isFile[f.Path] = true
	}
	for _, f := range files {
		for d := path.Dir(f.Path); d != "."; d = path.Dir(d) {
			if isFile[d] {
				return fmt.Errorf("writing %s: %s is also written as a file", f.Path, d)
			}
		}
	}
	return nil
}

// mkdirAll creates dir like os.MkdirAll and returns the directories it
// created, outermost first.
func mkdirAll(dir string) ([]string, error) {
	var missing []string
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); !errors.Is(err, fs.ErrNotExist) {
			break
		}
		missing = append(missing, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	err := os.MkdirAll(dir, 0o755)
	var created []string
	for i := len(missing) - 1; i >= 0; i-- {
		if fi, serr := os.Lstat(missing[i]); serr == nil && fi.IsDir() {
			created = append(created, missing[i])
		}
	}
	return created, err
}

// removeAll removes directories created by mkdirAll, innermost first; each
// only while empty.
func removeAll(created []string) {
	for i := len(created) - 1; i >= 0; i-- {
		os.Remove(created[i])
	}
}

// writer is one WriteAll in progress.
type writer struct {
	root    string
	dirs    map[string]*dirHandle // opened directories by relative path
	created []createdDir          // directories this call created, outermost first
	staged  []staged
}

type createdDir struct {
	parent *dirHandle
	name   string
}

// staged is a file written to its temporary name.
type staged struct {
	dir       *dirHandle
	tmp, name string
	rel       string
	backup    string // the name of its previous version in the backup directory; "" when there was none
}

// dir returns the directory rel (slash-separated, relative to the root),
// opening each component without following links and creating those that
// are missing.
func (w *writer) dir(rel string) (*dirHandle, error) {
	if d, ok := w.dirs[rel]; ok {
		return d, nil
	}
	parent, err := w.dir(path.Dir(rel))
	if err != nil {
		return nil, err
	}
	name := path.Base(rel)
	d, created, err := parent.openDir(name)
	var link *SymlinkError
	if errors.As(err, &link) {
		return nil, &SymlinkError{Path: rel}
	}
	if err != nil {
		return nil, err
	}
	if created {
		w.created = append(w.created, createdDir{parent, name})
	}
	w.dirs[rel] = d
	return d, nil
}

func (w *writer) stage(f File) error {
	d, err := w.dir(path.Dir(f.Path))
	if err != nil {
		return err
	}
	name := path.Base(f.Path)
	switch k, err := d.kind(name); {
	case err != nil:
		return err
	case k == kindSymlink:
		return &SymlinkError{Path: f.Path}
	case k == kindDir:
		return fmt.Errorf("%s is a directory", f.Path)
	}
	perm := f.Perm
	if perm == 0 {
		perm = 0o644
	}
	tf, tmp, err := d.createTemp("." + name + ".tmp-")
	if err != nil {
		return err
	}
	w.staged = append(w.staged, staged{dir: d, tmp: tmp, name: name, rel: f.Path})
	_, werr := tf.Write(f.Data)
	cerr := tf.Chmod(perm)
	serr := tf.Sync()
	clerr := tf.Close()
	return errors.Join(werr, cerr, serr, clerr)
}

// abort removes the staged files and the directories this call created.
func (w *writer) abort() {
	for _, s := range w.staged {
		s.dir.remove(s.tmp)
	}
	for i := len(w.created) - 1; i >= 0; i-- {
		c := w.created[i]
		c.parent.removeDir(c.name) // only succeeds while empty
	}
}

// commit renames every staged file onto its target. With more than one
// file, each target that exists is first linked into a backup directory
// in the root, so that a failed rename can put back what the earlier ones
// replaced.
func (w *writer) commit() error {
	var backups *dirHandle
	var backupName string
	if len(w.staged) > 1 {
		defer func() {
			if backups != nil {
				backups.close()
			}
		}()
	}
	for i := range w.staged {
		s := &w.staged[i]
		var err error
		if len(w.staged) > 1 {
			if k, kerr := s.dir.kind(s.name); kerr != nil {
				err = kerr
			} else if k == kindFile {
				if backups == nil {
					backups, backupName, err = w.dirs["."].createTempDir(".code2skill-backup-")
				}
				if err == nil {
					s.backup = fmt.Sprintf("%04d", i)
					err = link(s.dir, s.name, backups, s.backup)
				}
			}
		}
		if err == nil {
			err = rename(s.dir, s.tmp, s.dir, s.name)
		}
		if err != nil {
			return w.rollback(i, fmt.Errorf("writing %s: %w", s.rel, err), backups, backupName)
		}
	}
	if backups != nil {
		w.removeBackups(backups, backupName)
	}
	return nil
}

// rollback undoes the renames before failed, after the rename of file
// failed failed with err.
func (w *writer) rollback(failed int, err error, backups *dirHandle, backupName string) error {
	for _, s := range w.staged[failed:] {
		s.dir.remove(s.tmp)
	}
	var lost []string
	for i := failed - 1; i >= 0; i-- {
		s := w.staged[i]
		var rerr error
		if s.backup != "" {
			rerr = rename(backups, s.backup, s.dir, s.name)
		} else {
			rerr = s.dir.remove(s.name)
		}
		if rerr != nil {
			where := "it did not exist before"
			if s.backup != "" {
				where = "its previous content is in " + filepath.Join(w.root, backupName, s.backup)
			}
			lost = append(lost, fmt.Sprintf("%s could not be restored (%v); %s", s.rel, rerr, where))
		}
	}
	// A failed rename left the staged and created names; remove what can go.
	if len(lost) == 0 {
		if backups != nil {
			w.removeBackups(backups, backupName)
		}
		for i := len(w.created) - 1; i >= 0; i-- {
			c := w.created[i]
			c.parent.removeDir(c.name)
		}
		return err
	}
	return fmt.Errorf("%w; rolling back: %s", err, strings.Join(lost, "; "))
}

func (w *writer) removeBackups(backups *dirHandle, name string) {
	for i, s := range w.staged {
		if s.backup != "" {
			backups.remove(fmt.Sprintf("%04d", i))
		}
	}
	w.dirs["."].removeDir(name)
}

func (w *writer) close() {
	for _, d := range w.dirs {
		d.close()
	}
}

// ReplaceDir makes dir hold exactly files. The new tree is written into a
// temporary sibling of dir and renamed into place once complete, so dir
// appears whole or not at all; an existing dir is moved aside only then, and
// removed after the swap. A dir that is a symbolic link is refused: the
// directory it leads to is not code2skill's to replace.
func ReplaceDir(dir string, files []File) error {
	parent := filepath.Dir(filepath.Clean(dir))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("writing %s: %w", dir, err)
	}
	fi, err := os.Lstat(dir)
	exists := err == nil
	if exists && fi.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("writing %s: %w", dir, &SymlinkError{Path: dir})
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".tmp-")
	if err != nil {
		return fmt.Errorf("writing %s: %w", dir, err)
	}
	defer os.RemoveAll(tmp) // a no-op once renamed into place
	if err := WriteAll(tmp, files); err != nil {
		return err
	}
	// MkdirTemp creates 0700; a package directory is shared like any other.
	if err := os.Chmod(tmp, 0o755); err != nil {
		return fmt.Errorf("writing %s: %w", dir, err)
	}
	old := ""
	if exists {
		old = tmp + ".old"
		if err := os.Rename(dir, old); err != nil {
			return fmt.Errorf("writing %s: %w", dir, err)
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		err = fmt.Errorf("writing %s: %w", dir, err)
		if old != "" {
			if rerr := os.Rename(old, dir); rerr != nil {
				return fmt.Errorf("%w; restoring it failed (%v): its previous content is in %s", err, rerr, old)
			}
		}
		return err
	}
	if old != "" {
		os.RemoveAll(old)
	}
	return nil
}
