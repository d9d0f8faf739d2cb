package scaffold

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/code2skill/code2skill/internal/atomicfile"
)

// ErrNotEmpty reports that the target directory already holds files.
var ErrNotEmpty = errors.New("directory is not empty")

// Write puts files into dir and never leaves it half-written.
//
// When dir does not exist, the package is built in a hidden sibling
// directory and renamed into place: dir appears complete or not at all. When
// dir exists and is empty, or is not empty and force is set, every file is
// staged next to its target before the first rename (see
// atomicfile.WriteAll); files init does not write are left as they are, and
// on failure the directories Write created are removed again. Without force,
// a non-empty dir is refused with ErrNotEmpty.
func Write(dir string, files []atomicfile.File, force bool) error {
	info, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return atomicfile.ReplaceDir(dir, files)
	case err != nil:
		return err
	case !info.IsDir():
		return fmt.Errorf("%s is not a directory", dir)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	if len(entries) > 0 && !force {
		return fmt.Errorf("%s: %w", dir, ErrNotEmpty)
	}
	return writeInto(dir, files)
}

// writeInto writes files into the existing directory dir, removing the
// directories it created if writing fails.
func writeInto(dir string, files []atomicfile.File) error {
	created := newDirs(dir, files)
	if err := atomicfile.WriteAll(dir, files); err != nil {
		for _, d := range created {
			os.RemoveAll(d)
		}
		return err
	}
	return nil
}

// newDirs returns the outermost directories under dir that writing files
// would create, in the order the files name them.
func newDirs(dir string, files []atomicfile.File) []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range files {
		parts := strings.Split(f.Path, "/")
		p := dir
		for _, part := range parts[:len(parts)-1] {
			p = filepath.Join(p, part)
			if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
				if !seen[p] {
					seen[p] = true
					out = append(out, p)
				}
				break
			}
		}
	}
	return out
}
