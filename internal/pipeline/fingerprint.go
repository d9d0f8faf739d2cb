package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/derive"
)

// A fingerprint input is one labelled digest: what a stage read and the
// SHA-256 of it. A stage's fingerprint is the SHA-256 of its inputs sorted
// by label, as compact JSON ([["label","digest"],...]): the stage runs
// again exactly when one of them changed.
type input struct {
	label, digest string
}

// Digests of things that are not file content.
const (
	digestMissing = "missing"
)

// fingerprint returns the fingerprint of a stage's inputs and the inputs in
// the form the state records.
func fingerprint(inputs []input) (string, [][]string) {
	slices.SortFunc(inputs, func(a, b input) int { return strings.Compare(a.label, b.label) })
	pairs := make([][]string, len(inputs))
	arr := make(canonjson.Array, len(inputs))
	for i, in := range inputs {
		pairs[i] = []string{in.label, in.digest}
		arr[i] = canonjson.Array{canonjson.String(in.label), canonjson.String(in.digest)}
	}
	return canonjson.Digest(arr), pairs
}

// stringDigest is the SHA-256 of a string.
func stringDigest(s string) string { return canonjson.SHA256([]byte(s)) }

// fileDigest is the SHA-256 of the regular file at path, "missing" when
// there is none, or what stands in its place ("symlink:<target>", "not a
// regular file"): the pipeline never follows a link or opens a FIFO to
// fingerprint it.
func fileDigest(path string) (string, error) {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return digestMissing, nil
	case err != nil:
		return "", err
	case fi.Mode()&fs.ModeSymlink != 0:
		target, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		return "symlink:" + stringDigest(target), nil
	case !fi.Mode().IsRegular():
		return "not-a-regular-file", nil
	}
	return hashRegular(path, fi)
}

// hashRegular hashes a regular file, streaming it. It refuses a file that
// was replaced by something else between Lstat and open.
func hashRegular(path string, fi fs.FileInfo) (string, error) {
	f, err := openNoFollow(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	fi2, err := f.Stat()
	if err != nil {
		return "", err
	}
	if !fi2.Mode().IsRegular() || !os.SameFile(fi, fi2) {
		return "", fmt.Errorf("%s was replaced while being read", path)
	}
	h := sha256.New()
	buf := copyBuffers.Get().(*[]byte)
	defer copyBuffers.Put(buf)
	// The reader alone: *os.File's WriteTo would allocate a buffer of its
	// own for every file.
	if _, err := io.CopyBuffer(h, struct{ io.Reader }{f}, *buf); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// copyBuffers are the buffers files are hashed through.
var copyBuffers = sync.Pool{New: func() any { b := make([]byte, 32*1024); return &b }}

// skippedDirs are never part of a tree digest: dependencies, version
// control and caches are not what a stage reads.
var skippedDirs = []string{".git", "node_modules", "__pycache__"}

// skippedFiles are never part of a tree digest.
var skippedFiles = []string{".DS_Store"}

// maxTreeFiles bounds how many files one tree digest hashes, so that a
// source map pointing at a disk root fails instead of hashing the disk.
var maxTreeFiles = 200000

// treeDigest returns the digest of the files under root: for each regular
// file, by sorted slash path, "path\x00sha256" on a line of its own; links
// contribute their target, not what they point to; directories that are
// links are not followed. exclude lists absolute directories (the package,
// the state directory) and skip relative paths whose content is left out.
// A root that does not exist digests to "missing".
func treeDigest(root string, exclude []string, skip func(rel string) bool) (string, error) {
	fi, err := os.Lstat(root)
	if errors.Is(err, fs.ErrNotExist) {
		return digestMissing, nil
	}
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		return "not-a-directory", nil
	}
	var lines []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := relPath(root, p)
		if d.IsDir() {
			if p != root && (slices.Contains(skippedDirs, d.Name()) || slices.ContainsFunc(exclude, func(x string) bool { return within(p, x) })) {
				return fs.SkipDir
			}
			return nil
		}
		if slices.Contains(skippedFiles, d.Name()) || (skip != nil && skip(rel)) {
			return nil
		}
		if len(lines) == maxTreeFiles {
			return fmt.Errorf("%s holds more than %d files; map the source's own root", root, maxTreeFiles)
		}
		var digest string
		switch t := d.Type(); {
		case t&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			digest = "symlink:" + stringDigest(target)
		case t.IsRegular():
			info, err := d.Info()
			if err != nil {
				return err
			}
			if digest, err = hashRegular(p, info); err != nil {
				return err
			}
		default:
			return nil // sockets, devices and pipes are not content
		}
		lines = append(lines, rel+"\x00"+digest)
		return nil
	})
	if err != nil {
		return "", err
	}
	slices.Sort(lines)
	return stringDigest(strings.Join(lines, "\n")), nil
}

// markerPattern matches the documentation marker with any hash.
var markerPattern = regexp.MustCompile(regexp.QuoteMeta(derive.MarkerPrefix) + `[0-9a-f]{64}` + regexp.QuoteMeta(derive.MarkerSuffix))

// normalizedMarker stands in for every marker in a document digest.
const normalizedMarker = derive.MarkerPrefix + "normalized" + derive.MarkerSuffix

// documentDigest is the digest of a document with every marker normalized:
// generate refreshes markers itself, so a marker that changed because the
// contract did is not a change of the document.
func documentDigest(path string) (string, error) {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return digestMissing, nil
	case err != nil:
		return "", err
	case !fi.Mode().IsRegular():
		return fileDigest(path)
	}
	data, err := readRegular(path)
	if err != nil {
		return "", err
	}
	return canonjson.SHA256(markerPattern.ReplaceAll(data, []byte(normalizedMarker))), nil
}
