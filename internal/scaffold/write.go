package scaffold

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

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
// on failure the directories Write created are removed again. A symbolic
// link among the paths init writes (a linked mcp-tool/, say) stops the
// write before anything is written: what it leads to is not init's. Without
// force, a non-empty dir is refused with ErrNotEmpty.
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

// writeInto writes files into the existing directory dir. atomicfile
// stages every file first, never writes through a symbolic link, and
// removes the directories it created if writing fails.
func writeInto(dir string, files []atomicfile.File) error {
	return atomicfile.WriteAll(dir, files)
}
