// Package owned writes a tree of files into a directory and records what it
// wrote, so that writing again replaces only the files it wrote itself and
// that nobody has changed since. It is how "code2skill demo --force"
// refreshes a previous demo without touching anything else in it.
//
// The record is a manifest in the directory: the slash-separated path and
// SHA-256 of every file written. A non-empty directory without a manifest
// is not ours, and is refused even when forced.
package owned

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/atomicfile"
	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/pkgdir"
)

// maxManifest bounds the manifest code2skill reads.
const maxManifest = 1 << 20

// ErrNotEmpty reports a non-empty directory when writing was not forced.
var ErrNotEmpty = errors.New("directory is not empty")

// ConflictError lists why a forced write was refused: nothing was written.
type ConflictError struct {
	Dir string
	// NoManifest: the directory holds files and no manifest, so none of
	// them is known to be ours.
	NoManifest bool
	// Changed lists files written before and changed since.
	Changed []string
	// Foreign lists files the write would replace that were not written
	// before.
	Foreign []string
}

func (e *ConflictError) Error() string {
	if e.NoManifest {
		return fmt.Sprintf("%s is not empty and was not written by code2skill (it has no manifest); nothing in it is code2skill's to replace", e.Dir)
	}
	var parts []string
	if len(e.Changed) > 0 {
		parts = append(parts, "changed since code2skill wrote them: "+strings.Join(e.Changed, ", "))
	}
	if len(e.Foreign) > 0 {
		parts = append(parts, "not written by code2skill: "+strings.Join(e.Foreign, ", "))
	}
	return fmt.Sprintf("%s: refusing to replace files %s", e.Dir, strings.Join(parts, "; "))
}

// Write puts files into dir and records them in dir/manifest. A missing or
// empty dir receives them whole (it appears complete or not at all). A
// non-empty dir is refused with ErrNotEmpty unless force is set; forced, it
// must hold a manifest, and then the files it records that are unchanged
// are replaced (or removed when files no longer has them), while every
// other file is left alone. A recorded file that was changed, or a file in
// the way that was never recorded, refuses the whole write with a
// *ConflictError. Files are written through atomicfile: never through a
// symbolic link, and restored should a rename fail.
func Write(dir, manifest string, files []atomicfile.File, force bool) error {
	all := append(slices.Clone(files), atomicfile.File{Path: manifest, Data: encode(files), Perm: 0o644})
	empty, exists, err := pkgdir.IsEmptyDir(dir)
	switch {
	case err != nil:
		return err
	case !exists:
		return atomicfile.ReplaceDir(dir, all)
	case empty:
		return atomicfile.WriteAll(dir, all)
	case !force:
		return fmt.Errorf("%s: %w", dir, ErrNotEmpty)
	}
	before, err := read(filepath.Join(dir, manifest))
	if errors.Is(err, fs.ErrNotExist) {
		return &ConflictError{Dir: dir, NoManifest: true}
	}
	if err != nil {
		return fmt.Errorf("reading %s: %w", filepath.Join(dir, manifest), err)
	}
	conflict := &ConflictError{Dir: dir}
	unchanged := map[string]bool{}
	for _, p := range slices.Sorted(maps.Keys(before)) {
		switch sum, err := digest(dir, p); {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil || sum != before[p]:
			conflict.Changed = append(conflict.Changed, p)
		default:
			unchanged[p] = true
		}
	}
	for _, f := range files {
		if _, recorded := before[f.Path]; recorded {
			continue
		}
		if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(f.Path))); !errors.Is(err, fs.ErrNotExist) {
			conflict.Foreign = append(conflict.Foreign, f.Path)
		}
	}
	if len(conflict.Changed)+len(conflict.Foreign) > 0 {
		return conflict
	}
	if err := atomicfile.WriteAll(dir, all); err != nil {
		return err
	}
	// What the previous write had and this one does not.
	for p := range unchanged {
		if !slices.ContainsFunc(files, func(f atomicfile.File) bool { return f.Path == p }) {
			os.Remove(filepath.Join(dir, filepath.FromSlash(p)))
		}
	}
	return nil
}

// encode returns the manifest of files: {"files": {"<path>": "<sha256>"}},
// paths sorted.
func encode(files []atomicfile.File) []byte {
	sorted := slices.Clone(files)
	slices.SortFunc(sorted, func(a, b atomicfile.File) int { return strings.Compare(a.Path, b.Path) })
	sums := canonjson.NewObject()
	for _, f := range sorted {
		sums.Set(f.Path, canonjson.String(canonjson.SHA256(f.Data)))
	}
	return canonjson.Encode(canonjson.NewObject(canonjson.Member{Key: "files", Value: sums}))
}

// read returns the files a manifest records, by path.
func read(path string) (map[string]string, error) {
	b, err := pkgdir.ReadFile(path, maxManifest)
	if err != nil {
		return nil, err
	}
	v, err := canonjson.Decode(b)
	if err != nil {
		return nil, err
	}
	obj, _ := v.(*canonjson.Object)
	var sums *canonjson.Object
	if obj != nil {
		if fv, ok := obj.Get("files"); ok {
			sums, _ = fv.(*canonjson.Object)
		}
	}
	if sums == nil {
		return nil, errors.New(`not a manifest: want {"files": {...}}`)
	}
	out := map[string]string{}
	for p, sv := range sums.All() {
		s, ok := sv.(canonjson.String)
		if !ok || !fs.ValidPath(p) {
			return nil, fmt.Errorf("not a manifest: bad entry %q", p)
		}
		out[p] = string(s)
	}
	return out, nil
}

// digest returns the SHA-256 of dir/p, a regular file.
func digest(dir, p string) (string, error) {
	b, err := pkgdir.ReadFile(filepath.Join(dir, filepath.FromSlash(p)), 0)
	if err != nil {
		return "", err
	}
	return canonjson.SHA256(b), nil
}
