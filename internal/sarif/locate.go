package sarif

import (
	"bytes"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
	"github.com/code2skill/code2skill/internal/pkgdir"
)

// locator finds the files findings name and the places in them.
type locator struct {
	roots []string
	cwd   string
	// paths caches where each file named was found; contents each file
	// read, nil for one that cannot be read.
	paths    map[string]string
	contents map[string][]byte
	// pointers are the JSON Pointers the findings name, by file; positions
	// where they are, resolved in one pass over each file.
	pointers  map[string][]string
	positions map[string]map[string]canonjson.Position
}

func newLocator(roots []string, findings []diag.Diagnostic) *locator {
	if len(roots) == 0 {
		roots = []string{"."}
	}
	cwd, _ := os.Getwd()
	l := &locator{roots: roots, cwd: cwd, paths: map[string]string{}, contents: map[string][]byte{}, pointers: map[string][]string{}}
	for _, d := range findings {
		if d.File != "" && d.Line == 0 && d.Pointer != "" {
			name := l.path(d.File)
			l.pointers[name] = append(l.pointers[name], d.Pointer)
		}
	}
	return l
}

// position returns where a JSON Pointer is in a file, when the file can be
// read and the pointer's place in it found.
func (l *locator) position(name, pointer string) (canonjson.Position, bool) {
	if l.positions == nil {
		l.positions = map[string]map[string]canonjson.Position{}
	}
	ps, done := l.positions[name]
	if !done {
		if data := l.read(name); data != nil {
			ps, _ = canonjson.LocateAll(data, l.pointers[name]) // what the walk found before an error still counts
		}
		l.positions[name] = ps
	}
	p, ok := ps[pointer]
	return p, ok && p.Line > 0
}

// locate returns where a finding is. A finding about the package as a
// whole is shown on the anchor file, or on the package directory when the
// command names none; one about a file as a whole has no region.
func (l *locator) locate(d diag.Diagnostic, anchor string) Location {
	file := d.File
	if file == "" {
		file = anchor
	}
	name := l.path(file)
	loc := Location{PhysicalLocation: PhysicalLocation{ArtifactLocation: l.artifact(name, file == "")}}
	if d.File == "" {
		return loc
	}
	switch {
	case d.Line > 0:
		r := &Region{StartLine: d.Line}
		if d.Column > 0 {
			r.StartColumn = d.Column
			if data := l.read(name); data != nil {
				r.StartColumn = utf16Column(data, lineStart(data, d.Line), d.Column)
			}
		}
		loc.PhysicalLocation.Region = r
	case d.Pointer != "":
		loc.LogicalLocations = []LogicalLocation{{FullyQualifiedName: d.Pointer}}
		if p, ok := l.position(name, d.Pointer); ok {
			loc.PhysicalLocation.Region = &Region{
				StartLine:   p.Line,
				StartColumn: utf16Column(l.read(name), p.Offset-(p.Column-1), p.Column),
			}
		}
	}
	return loc
}

// path is where a finding's file is: under the first root that holds it,
// else under the first root (a finding may name a file that is missing).
func (l *locator) path(file string) string {
	if file == "" {
		return l.roots[0]
	}
	if filepath.IsAbs(file) {
		return filepath.Clean(file)
	}
	if p, ok := l.paths[file]; ok {
		return p
	}
	p := filepath.Join(l.roots[0], filepath.FromSlash(file))
	for _, root := range l.roots {
		if q := filepath.Join(root, filepath.FromSlash(file)); exists(q) {
			p = q
			break
		}
	}
	l.paths[file] = p
	return p
}

func exists(name string) bool {
	_, err := os.Lstat(name)
	return err == nil
}

// artifact names a file by its URI: relative to the working directory
// (SourceRoot) when it lies inside it, else an absolute file URI.
func (l *locator) artifact(name string, dir bool) ArtifactLocation {
	abs := name
	if !filepath.IsAbs(abs) && l.cwd != "" {
		abs = filepath.Join(l.cwd, name)
	}
	suffix := ""
	if dir {
		suffix = "/"
	}
	if l.cwd != "" {
		if rel, err := filepath.Rel(l.cwd, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			if rel == "." {
				return ArtifactLocation{URI: "./", URIBaseID: SourceRoot}
			}
			return ArtifactLocation{URI: escapePath(filepath.ToSlash(rel)) + suffix, URIBaseID: SourceRoot}
		}
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs) + suffix}
	if !strings.HasPrefix(u.Path, "/") {
		u.Path = "/" + u.Path // a Windows drive letter
	}
	return ArtifactLocation{URI: u.String()}
}

// dirURI is the URI of the first root, the package, for the run's category.
func (l *locator) dirURI() string {
	return l.artifact(l.roots[0], true).URI
}

// read returns a file's bytes, nil when it cannot be read as a regular
// file of bounded size.
func (l *locator) read(name string) []byte {
	if data, seen := l.contents[name]; seen {
		return data
	}
	data, err := pkgdir.ReadFile(name, 0)
	if err != nil {
		data = nil
	}
	l.contents[name] = data
	return data
}

// escapePath percent-encodes each segment of a slash-separated path.
func escapePath(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return path.Join(parts...)
}

// lineStart returns the offset of the first byte of a 1-based line, or
// len(data) past the last line.
func lineStart(data []byte, line int) int {
	off := 0
	for n := 1; n < line; n++ {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			return len(data)
		}
		off += i + 1
	}
	return off
}

// utf16Column turns a 1-based byte column of the line starting at start
// into a 1-based column in UTF-16 code units, the unit code-scanning
// services count in. Columns past the line's end are kept as counted.
func utf16Column(data []byte, start, column int) int {
	if start < 0 || start > len(data) {
		return column
	}
	line := data[start:]
	if i := bytes.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	n := column - 1
	if n > len(line) {
		return column - len(line) + utf16Len(line)
	}
	return utf16Len(line[:n]) + 1
}

// utf16Len counts the UTF-16 code units of UTF-8 text; a byte that is not
// UTF-8 counts as one.
func utf16Len(b []byte) int {
	n := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
		b = b[size:]
	}
	return n
}
