package compile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/code2skill/code2skill/internal/atomicfile"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/pkgdir"
)

// Write writes the runtime into the package at dir, all files or none
// (internal/atomicfile). It writes nothing when a file it would replace, or
// a directory on the way to one, is a symbolic link: writing through a link
// could change a file outside the package, and replacing one would delete
// what its owner made. Those are findings; err is for failures of the tool.
func Write(dir string, files []File) ([]diag.Diagnostic, error) {
	var ds []diag.Diagnostic
	seen := map[string]bool{}
	for _, f := range files {
		for p := f.Path; p != "." && !seen[p]; p = path.Dir(p) {
			seen[p] = true
			fi, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(p)))
			switch {
			case errors.Is(err, fs.ErrNotExist):
				continue
			case err != nil:
				return ds, fmt.Errorf("writing %s: %w", f.Path, err)
			case fi.Mode()&fs.ModeSymlink != 0:
				ds = append(ds, RuleLinkInTheWay.New(p, "is a symbolic link; compile writes %s only as a plain file in plain directories of the package", f.Path))
			}
		}
	}
	if len(ds) > 0 {
		return ds, nil
	}
	out := make([]atomicfile.File, len(files))
	for i, f := range files {
		if err := pkgdir.CheckWrite(f.Path, f.Data); err != nil {
			return nil, err
		}
		out[i] = atomicfile.File{Path: f.Path, Data: f.Data, Perm: 0o644}
	}
	return nil, atomicfile.WriteAll(dir, out)
}
