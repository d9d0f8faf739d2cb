package pipeline

import (
	"bytes"
	"errors"
	"io/fs"
	"os"

	"github.com/code2skill/code2skill/internal/atomicfile"
)

// A run is all or nothing for the package: when its finalize fails, every
// package file the run wrote (compile's runtime, the derived views, the
// documents' markers, the final files) is put back as it was before the
// run, so that the package is never left half-updated — new code next to
// final files that vouch for the old. Each stage keeps a file's previous
// content before it first writes it; the run restores them when finalize
// fails.

// keep remembers the content the package files at paths have now, before
// the run first writes them; a path kept earlier in the run keeps its
// first content.
func (r *runner) keep(paths ...string) {
	if r.kept == nil {
		r.kept = map[string][]byte{}
	}
	for _, p := range paths {
		if _, done := r.kept[p]; done {
			continue
		}
		data, err := readRegular(r.p.pkgPath(p))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			r.kept[p] = nil
		case err != nil:
			// Not a regular file: the stage refuses to replace it, so
			// there is nothing to put back.
			continue
		default:
			r.kept[p] = data
		}
	}
}

// restore puts back every kept file that changed since it was kept, and
// removes the kept files that did not exist. It reports whether it
// changed anything.
func (r *runner) restore() (bool, error) {
	var batch []atomicfile.File
	var errs []error
	changed := false
	for _, p := range sortedKeys(r.kept) {
		was := r.kept[p]
		now, err := readRegular(r.p.pkgPath(p))
		exists := err == nil
		switch {
		case was == nil && !exists:
		case was == nil:
			if err := os.Remove(r.p.pkgPath(p)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
			}
			changed = true
		case !exists || !bytes.Equal(now, was):
			batch = append(batch, atomicfile.File{Path: p, Data: was, Perm: 0o644})
			changed = true
		}
	}
	if len(batch) > 0 {
		errs = append(errs, atomicfile.WriteAll(r.p.abs, batch))
	}
	return changed, errors.Join(errs...)
}

// restoredReason says why a stage whose writes a failed finalize undid is
// invalidated.
const restoredReason = "finalize failed, and the package files this run wrote were put back as they were before it"

// restoreAfterFailedFinalize puts the package back as it was before the
// run and invalidates the stages whose outputs that removed.
func (r *runner) restoreAfterFailedFinalize() error {
	changed, err := r.restore()
	if err != nil {
		return err
	}
	if !changed {
		return nil
	}
	for _, name := range []string{StageGenerate, StageVerify} {
		if s := r.st.Stages[name]; s.Status == StatusCompleted && s.LastAction == ActionExecuted {
			s.Status, s.InvalidatedReason = StatusInvalidated, restoredReason
			// The files are what the pipeline had written before this
			// run, and the state says so: the next run's generate must
			// not take what it put back for an edit of the user's.
			s.OutputHashes = r.outputsBefore[name]
		}
	}
	r.p.progress("pipeline: finalize failed; the package files this run wrote were put back as they were before it")
	return nil
}
