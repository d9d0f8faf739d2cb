package canonjson

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Position is where a value starts in a document's bytes.
type Position struct {
	Offset int // 0-based, in bytes
	Line   int // 1-based
	Column int // 1-based, in bytes
	// Found is the part of the pointer the document holds: the pointer
	// itself when it resolves, else its longest prefix that does (a finding
	// about a member that is missing points into the object that lacks it).
	Found string
}

// Locate returns where the value an RFC 6901 JSON Pointer designates starts
// in data: the key of an object member (where a reader looks for it), the
// first byte of an array element or of the whole document. A pointer that
// does not resolve is located at the deepest value on its way, which Found
// names. data is read with Decode's rules; an error is a *SyntaxError in
// the containers on the way (the position is still returned when the
// pointer's value stands before it), or a pointer that is not one.
func Locate(data []byte, pointer string) (Position, error) {
	ps, err := LocateAll(data, []string{pointer})
	return ps[pointer], err
}

// LocateAll is Locate for many pointers into one document, in one pass
// over its bytes: the positions, by pointer. On an error the positions of
// the pointers found before it are returned with it.
func LocateAll(data []byte, pointers []string) (map[string]Position, error) {
	l := &locator{want: map[string]bool{}, at: map[string]int{}}
	canonical := make(map[string]string, len(pointers))
	for _, p := range pointers {
		c, err := canonicalPointer(p)
		if err != nil {
			return nil, err
		}
		canonical[p] = c
		for prefix := c; ; {
			l.want[prefix] = true
			i := strings.LastIndexByte(prefix, '/')
			if i < 0 {
				break
			}
			prefix = prefix[:i]
		}
	}
	if len(data) >= 3 && string(data[:3]) == "\xef\xbb\xbf" {
		return nil, newError(data, 0, KindEncoding, "file starts with a UTF-8 byte-order mark")
	}
	l.d = decoder{data: data}
	l.d.skipSpace()
	l.walk("", l.d.pos, 0)
	var lines []int // the offset of each line's first byte
	for i, c := range data {
		if c == '\n' {
			lines = append(lines, i+1)
		}
	}
	out := make(map[string]Position, len(pointers))
	for p, c := range canonical {
		found := c
		for {
			if _, ok := l.at[found]; ok {
				break
			}
			found = found[:strings.LastIndexByte(found, '/')] // "" is always found
		}
		if l.d.err != nil && found != c {
			continue // what the document lacks may stand after the error
		}
		pos := Position{Offset: l.at[found], Found: found}
		n, _ := slices.BinarySearch(lines, pos.Offset+1)
		pos.Line, pos.Column = n+1, pos.Offset+1
		if n > 0 {
			pos.Column = pos.Offset - lines[n-1] + 1
		}
		out[p] = pos
	}
	if l.d.err != nil {
		return out, l.d.err
	}
	return out, nil
}

// canonicalPointer checks a JSON Pointer and writes its tokens escaped the
// one way diag.Pointer does.
func canonicalPointer(p string) (string, error) {
	if p == "" {
		return "", nil
	}
	if !strings.HasPrefix(p, "/") {
		return "", fmt.Errorf("JSON Pointer %q does not start with /", p)
	}
	var b strings.Builder
	for _, tok := range strings.Split(p[1:], "/") {
		b.WriteByte('/')
		if strings.IndexByte(tok, '~') >= 0 {
			tok = escapeToken(tokenUnescaper.Replace(tok))
		}
		b.WriteString(tok)
	}
	return b.String(), nil
}

var (
	tokenEscaper   = strings.NewReplacer("~", "~0", "/", "~1")
	tokenUnescaper = strings.NewReplacer("~1", "/", "~0", "~")
)

// escapeToken escapes one reference token of a JSON Pointer.
func escapeToken(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return tokenEscaper.Replace(s)
}

// locator walks a document once, recording where each wanted value is.
type locator struct {
	d    decoder
	want map[string]bool // the pointers asked for and their prefixes
	at   map[string]int  // where each wanted value found is
}

// walk reads the value at the current position, whose pointer is p and
// which a reader finds at offset at; only wanted values are entered, the
// others are read past.
func (l *locator) walk(p string, at, depth int) {
	d := &l.d
	if !l.want[p] || depth > MaxDepth || d.pos >= len(d.data) {
		d.value(depth)
		return
	}
	if _, dup := l.at[p]; !dup { // a repeated key: the first one counts
		l.at[p] = at
	}
	switch d.data[d.pos] {
	case '{':
		d.pos++
		d.skipSpace()
		if d.pos < len(d.data) && d.data[d.pos] == '}' {
			d.pos++
			return
		}
		for d.err == nil {
			d.skipSpace()
			if d.pos >= len(d.data) || d.data[d.pos] != '"' {
				d.fail(KindSyntax, "unexpected %s, want a string key", d.describe())
				return
			}
			keyAt := d.pos
			key, ok := d.string()
			if !ok {
				return
			}
			d.skipSpace()
			if d.pos >= len(d.data) || d.data[d.pos] != ':' {
				d.fail(KindSyntax, "unexpected %s, want ':' after an object key", d.describe())
				return
			}
			d.pos++
			d.skipSpace()
			l.walk(p+"/"+escapeToken(key), keyAt, depth+1)
			if !l.next('}') {
				return
			}
		}
	case '[':
		d.pos++
		d.skipSpace()
		if d.pos < len(d.data) && d.data[d.pos] == ']' {
			d.pos++
			return
		}
		for i := 0; d.err == nil; i++ {
			d.skipSpace()
			l.walk(p+"/"+strconv.Itoa(i), d.pos, depth+1)
			if !l.next(']') {
				return
			}
		}
	default:
		d.value(depth)
	}
}

// next reads the separator after a member or element: true after a comma,
// false at the container's end or on an error.
func (l *locator) next(end byte) bool {
	d := &l.d
	if d.err != nil {
		return false
	}
	d.skipSpace()
	if d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ',':
			d.pos++
			return true
		case end:
			d.pos++
			return false
		}
	}
	d.fail(KindSyntax, "unexpected %s, want ',' or '%c'", d.describe(), end)
	return false
}

// lineColumn returns the 1-based line and byte column of offset in data.
func lineColumn(data []byte, offset int) (line, column int) {
	line, column = 1, 1
	for _, c := range data[:offset] {
		if c == '\n' {
			line, column = line+1, 1
		} else {
			column++
		}
	}
	return line, column
}
