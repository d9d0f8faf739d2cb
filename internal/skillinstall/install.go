package skillinstall

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/code2skill/code2skill/internal/atomicfile"
)

// Install writes each Skill into skillsDir/<name>, creating skillsDir if
// needed. A Skill already there, whatever its version, is replaced as a
// whole: the new version is built in a hidden sibling directory and swapped
// in, so that readers see one version or the other. Other Skills in
// skillsDir are left alone.
func Install(skillsDir string, skills []Skill) error {
	if err := os.MkdirAll(skillsDir, 0o755); err != nil {
		return err
	}
	for _, s := range skills {
		if err := replaceDir(filepath.Join(skillsDir, s.Name), s.Files); err != nil {
			return fmt.Errorf("installing %s: %w", s.Name, err)
		}
	}
	return nil
}

// replaceDir makes dst a directory holding exactly files.
func replaceDir(dst string, files []atomicfile.File) error {
	tmp, err := os.MkdirTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".new-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp) // after a swap it holds the previous version
	if err := atomicfile.WriteAll(tmp, files); err != nil {
		return err
	}
	// MkdirTemp creates 0700; agents may run as other users.
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	if _, err := os.Lstat(dst); os.IsNotExist(err) {
		return os.Rename(tmp, dst)
	}
	return swap(tmp, dst)
}

// swapByRenames exchanges the directory entries a and b with two renames
// through a third name. Between them b is briefly absent; swap uses it only
// where the file system cannot exchange atomically. If the second rename
// fails, b is put back.
func swapByRenames(a, b string) error {
	aside := a + ".old"
	if err := os.Rename(b, aside); err != nil {
		return err
	}
	if err := os.Rename(a, b); err != nil {
		if rerr := os.Rename(aside, b); rerr != nil {
			return fmt.Errorf("%w (and restoring %s failed: %v)", err, b, rerr)
		}
		return err
	}
	return os.Rename(aside, a)
}
