package contamination

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/anchored"
	"github.com/code2skill/code2skill/internal/contract"
	"github.com/code2skill/code2skill/internal/diag"
)

// Limits of the source scan: it reads authorised sources the user named,
// which may be large; what lies beyond the limits is not scanned, and the
// scan says so.
const (
	maxSourceFiles    = 20000
	maxSourceFileSize = 1 << 20
	maxSourceBytes    = 64 << 20
)

// skippedSourceDirs hold dependencies, build output and tool state rather
// than the application's own code.
var skippedSourceDirs = []string{
	"node_modules", ".git", "vendor", "dist", "build", "target", ".venv", "venv", "__pycache__", ".next", "coverage", ".cache",
}

// sourceFacts is what the authorised sources contain that a package must
// not repeat unless the contract declares it.
type sourceFacts struct {
	hosts map[string]bool // host names of URLs in the sources
	paths map[string]bool // file paths relative to a source root (two or more components)
	names map[string]bool // compound names the sources use as their own (see addText)
	// secrets are the literals the sources keep secret, by value.
	secrets map[string]sourceSecret
	roots   []string // absolute source directories, as given and resolved
	// scanned lists the IDs of the sources that were read.
	scanned []string
}

// readSources scans the available sources of the topology that src locates.
func readSources(topo *contract.Topology, src contract.Sources) (*sourceFacts, []diag.Diagnostic) {
	f := &sourceFacts{hosts: map[string]bool{}, paths: map[string]bool{}, names: map[string]bool{}, secrets: map[string]sourceSecret{}}
	var ds []diag.Diagnostic
	files, total := 0, 0
	truncated := false
	for i := range topo.Sources {
		s := &topo.Sources[i]
		if s.Availability != "available" && s.Availability != "partially-available" {
			continue
		}
		dir, ok := src.Dir(s)
		if !ok {
			ds = append(ds, RuleSourceUnreadable.New(contract.TopologyFile, "source %q has no location on this machine (give --source-root or --source-map %s=PATH); it was not scanned", s.ID, s.ID).AtPointer(s.At))
			continue
		}
		fi, err := os.Stat(dir)
		if err != nil || !fi.IsDir() {
			ds = append(ds, RuleSourceUnreadable.New(contract.TopologyFile, "source %q: %s is not a readable directory; it was not scanned", s.ID, dir).AtPointer(s.At))
			continue
		}
		f.roots = append(f.roots, filepath.Clean(dir))
		if real, err := filepath.EvalSymlinks(dir); err == nil && real != filepath.Clean(dir) {
			f.roots = append(f.roots, real)
		}
		err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if d != nil && d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				if p != dir && slices.Contains(skippedSourceDirs, d.Name()) {
					return fs.SkipDir
				}
				return nil
			}
			if !d.Type().IsRegular() {
				return nil // symbolic links are not followed
			}
			if files >= maxSourceFiles || total >= maxSourceBytes {
				truncated = true
				return fs.SkipAll
			}
			rel, err := filepath.Rel(dir, p)
			if err != nil {
				return nil
			}
			rel = filepath.ToSlash(rel)
			if strings.Contains(rel, "/") {
				f.paths[rel] = true
			}
			if toolMetadata(d.Name()) {
				return nil // it names tools, caches and third-party packages
			}
			data, ok := readSmall(p)
			if !ok {
				return nil
			}
			files++
			total += len(data)
			f.addText(data)
			f.findSecrets(s.ID, rel, data)
			return nil
		})
		if err != nil {
			ds = append(ds, RuleSourceUnreadable.New(contract.TopologyFile, "source %q: %v", s.ID, err).AtPointer(s.At))
			continue
		}
		f.scanned = append(f.scanned, s.ID)
	}
	if truncated {
		ds = append(ds, RuleSourceUnreadable.New(contract.TopologyFile,
			"the sources hold more than %d files or %d MiB; the rest was not scanned", maxSourceFiles, maxSourceBytes>>20))
	}
	return f, ds
}

// readSmall reads a text file of at most maxSourceFileSize bytes; binary and
// larger files are skipped.
func readSmall(p string) ([]byte, bool) {
	fh, err := os.Open(p)
	if err != nil {
		return nil, false
	}
	defer fh.Close()
	data, err := io.ReadAll(io.LimitReader(fh, maxSourceFileSize+1))
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, false
	}
	if len(data) > maxSourceFileSize || bytes.IndexByte(data, 0) >= 0 {
		return nil, false
	}
	return data, true
}

// addText records the hosts and compound names of one source file. A name
// counts as the source's own only where the source uses it, not where it
// cites something public: inside a URL (a link names the document it
// points to) or on a line that cites a public specification by its
// identifier (RFC 9457, ISO 8601, ECMA-262, W3C, WHATWG, IETF, "the …
// specification"), whose names are that specification's.
func (f *sourceFacts) addText(data []byte) {
	t := anchored.NewText(data)
	for _, loc := range t.FindAll(urlHost) {
		host := strings.ToLower(string(data[loc[2]:loc[3]]))
		if !isReservedHost(host) {
			f.hosts[host] = true
		}
	}
	cited := citations(t)
	identifiers(data, func(start, end int) {
		tok := data[start:end]
		if !mayBeCompound(tok) || inSpans(cited, start) {
			return
		}
		if c := compound(string(tok)); c != "" {
			f.names[c] = true
		}
	})
}

// urlSpan finds whole URLs.
var urlSpan = &anchored.Pattern{Anchors: []string{"://"}, Re: regexp.MustCompile(`\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s"'<>()\[\]{}` + "`" + `]+`)}

// specCitation finds a public specification cited by its identifier.
var specCitation = &anchored.Pattern{Anchors: []string{"rfc", "bcp", "iso", "ecma-", "ieee", "w3c", "whatwg", "ietf", "specification"}, Fold: true,
	Re: regexp.MustCompile(`(?i)\b(?:(?:RFC|BCP)[ -]?\d{3,5}|ISO(?:/IEC)?[ -]?\d{3,5}|ECMA-\d{2,4}|IEEE[ -]?\d{3,5}|W3C|WHATWG|IETF|specification)\b`)}

// citations returns the spans of text that cite rather than use names, in
// offset order: every URL, and every line citing a specification.
func citations(t *anchored.Text) [][2]int {
	data := t.Bytes()
	var spans [][2]int
	for _, loc := range t.FindAll(urlSpan) {
		spans = append(spans, [2]int{loc[0], loc[1]})
	}
	for _, loc := range t.FindAll(specCitation) {
		start, end := loc[0], loc[1]
		for start > 0 && data[start-1] != '\n' {
			start--
		}
		for end < len(data) && data[end] != '\n' {
			end++
		}
		spans = append(spans, [2]int{start, end})
	}
	slices.SortFunc(spans, func(a, b [2]int) int { return a[0] - b[0] })
	return spans
}

// inSpans reports whether offset at lies in one of spans (sorted by start).
func inSpans(spans [][2]int, at int) bool {
	for _, s := range spans {
		if s[0] > at {
			return false
		}
		if at < s[1] {
			return true
		}
	}
	return false
}

// toolMetadata reports whether a source file lists tools, caches, build
// output or third-party packages rather than the application's own
// content: ignore files and lockfiles. Their names are not the source's.
func toolMetadata(name string) bool {
	switch strings.ToLower(name) {
	case "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lockb", "go.sum",
		"cargo.lock", "poetry.lock", "pipfile.lock", "composer.lock", "gemfile.lock", "uv.lock":
		return true
	}
	return strings.HasPrefix(name, ".") && strings.HasSuffix(name, "ignore") // .gitignore, .dockerignore, .npmignore …
}
