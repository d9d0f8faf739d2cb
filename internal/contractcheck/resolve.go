package contractcheck

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/diag"
)

// Evidence resolution: the topology's roots and the evidence locators,
// resolved to directories and files on this machine. This is the only part
// of the package that touches the file system: it stats and resolves
// symbolic links, and reads the files locators name to find their symbols
// (locators.go).
var (
	RuleNotChecked    = diag.Register("EVIDENCE_NOT_CHECKED", diag.Info, "evidence locators were not resolved to files because no source location was given (--source-root, --source-map)")
	RuleFileMissing   = diag.Register("EVIDENCE_FILE_MISSING", diag.Error, "an evidence locator does not resolve to a regular file under its source root")
	RuleEscapesRoot   = diag.Register("EVIDENCE_ESCAPES_ROOT", diag.Error, "an evidence locator resolves, through a symbolic link, to a file outside its source root")
	RuleSourceMap     = diag.Register("TOPOLOGY_SOURCE_MAP_UNKNOWN", diag.Error, "a --source-map ID names no source of the topology")
	RuleSourceUnmaped = diag.Register("TOPOLOGY_SOURCE_UNMAPPED", diag.Error, "an available source has no location on this machine: --source-map lists other sources but not it")
	RuleRootMissing   = diag.Register("TOPOLOGY_ROOT_MISSING", diag.Error, "the root of an available source is not a directory on this machine")
	RuleRootShared    = diag.Register("TOPOLOGY_ROOT_SHARED", diag.Error, "two sources resolve to the same directory on this machine")
)

// resolveEvidence resolves every available source's root and every
// evidence locator, when source locations were given.
func (k *checker) resolveEvidence() {
	src := k.opts.Sources
	if !src.Given() {
		k.contractf(RuleNotChecked, "/evidenceCatalog",
			"evidence locators were not resolved to files: give --source-root or --source-map ID=PATH to check that each names a file inside its source")
		return
	}
	if k.topo == nil {
		return
	}
	for _, id := range src.IDs() {
		if _, ok := k.topo.Source(id); !ok {
			k.report(RuleSourceMap, contract.TopologyFile, "/sources", "--source-map names %q, which the topology does not declare", id)
		}
	}
	roots := map[string]string{}  // source ID -> real root directory
	owners := map[string]string{} // real root directory -> first source ID
	for _, s := range k.topo.Sources {
		if s.Availability != "available" && s.Availability != "partially-available" {
			continue
		}
		at := child(s.At, "root")
		_, mapped := src.Map[s.ID]
		dir, ok := src.Dir(&s)
		if !ok || (len(src.Map) > 0 && !mapped) {
			k.report(RuleSourceUnmaped, contract.TopologyFile, child(s.At, "sourceId"),
				"source %q is %s but --source-map gives no location for it; add --source-map %s=PATH", s.ID, s.Availability, s.ID)
			continue
		}
		real, err := filepath.EvalSymlinks(dir)
		if err == nil {
			var fi os.FileInfo
			if fi, err = os.Stat(real); err == nil && !fi.IsDir() {
				err = errors.New("not a directory")
			}
		}
		if err != nil {
			k.report(RuleRootMissing, contract.TopologyFile, at, "the root of source %q is not a directory here (%s)", s.ID, describe(err))
			continue
		}
		if other, dup := owners[real]; dup {
			k.report(RuleRootShared, contract.TopologyFile, at,
				"sources %q and %q resolve to the same directory; each source is one distinct authorised root", other, s.ID)
			continue
		}
		owners[real] = s.ID
		roots[s.ID] = real
	}
	files := sourceFiles{}
	for i := range k.c.EvidenceCatalog {
		e := &k.c.EvidenceCatalog[i]
		root, ok := roots[e.SourceID]
		rel := contract.LocatorPath(e.Locator)
		if !ok || !contract.PortablePath(rel) {
			continue // an unresolvable root or a non-portable locator is reported already
		}
		at := child(e.At, "locator")
		real, err := filepath.EvalSymlinks(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			k.contractf(RuleFileMissing, at, "locator %q names %s, which does not exist in source %q (%s)", e.Locator, rel, e.SourceID, describe(err))
			continue
		}
		if !within(root, real) {
			k.contractf(RuleEscapesRoot, at, "locator %q resolves outside the root of source %q through a symbolic link", e.Locator, e.SourceID)
			continue
		}
		if fi, err := os.Stat(real); err != nil || !fi.Mode().IsRegular() {
			k.contractf(RuleFileMissing, at, "locator %q names %s in source %q, which is not a regular file", e.Locator, rel, e.SourceID)
			continue
		}
		files.symbol(k, e, at, rel, real)
	}
}

// within reports whether path is root or lies below it. Both are real
// (symbolic-link-free, clean) paths.
func within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// describe renders a file-system error without the path it carries: the
// finding names the locator and source instead of a machine path.
func describe(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	if errors.Is(err, fs.ErrNotExist) {
		return "no such file or directory"
	}
	return err.Error()
}
