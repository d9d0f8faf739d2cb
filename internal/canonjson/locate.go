package canonjson

import (
	"fmt"
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
// names. data is read with Decode's rules; an error is a *SyntaxError met
// before the value was reached, or a pointer that is not one.
func Locate(data []byte, pointer string) (Position, error) {
	if pointer != "" && !strings.HasPrefix(pointer, "/") {
		return Position{}, fmt.Errorf("JSON Pointer %q does not start with /", pointer)
	}
	if len(data) >= 3 && string(data[:3]) == "\xef\xbb\xbf" {
		return Position{}, newError(data, 0, KindEncoding, "file starts with a UTF-8 byte-order mark")
	}
	d := decoder{data: data}
	d.skipSpace()
	at, found := d.pos, ""
	if pointer != "" {
		for depth, tok := range strings.Split(pointer[1:], "/") {
			tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
			next, ok := d.child(tok, depth+1)
			if d.err != nil {
				return Position{}, d.err
			}
			if !ok {
				break
			}
			at = next
			found += "/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(tok)
		}
	}
	if d.err != nil {
		return Position{}, d.err
	}
	p := Position{Offset: at, Found: found}
	p.Line, p.Column = lineColumn(data, at)
	return p, nil
}

// child moves to the value of member tok (an object) or element tok (an
// array) of the container at the current position and returns where a
// reader should look for it: a member's key, an element's first byte. ok is
// false when the container has no such child, or the value is no container.
func (d *decoder) child(tok string, depth int) (at int, ok bool) {
	if d.pos >= len(d.data) || depth > MaxDepth {
		return 0, false
	}
	switch d.data[d.pos] {
	case '{':
		d.pos++
		for {
			d.skipSpace()
			if d.pos >= len(d.data) || d.data[d.pos] != '"' {
				return 0, false // "}" of an object without the member, or malformed
			}
			keyAt := d.pos
			key, good := d.string()
			if !good {
				return 0, false
			}
			d.skipSpace()
			if d.pos >= len(d.data) || d.data[d.pos] != ':' {
				d.fail(KindSyntax, "unexpected %s, want ':' after an object key", d.describe())
				return 0, false
			}
			d.pos++
			d.skipSpace()
			if key == tok {
				return keyAt, true
			}
			if !d.skip(depth) {
				return 0, false
			}
		}
	case '[':
		i, err := strconv.Atoi(tok)
		if err != nil || i < 0 || len(tok) > 1 && tok[0] == '0' {
			return 0, false
		}
		d.pos++
		for n := 0; ; n++ {
			d.skipSpace()
			if d.pos >= len(d.data) || d.data[d.pos] == ']' {
				return 0, false
			}
			if n == i {
				return d.pos, true
			}
			if !d.skip(depth) {
				return 0, false
			}
		}
	}
	return 0, false
}

// skip reads past one value and the separator after it; false at the end
// of its container or on an error.
func (d *decoder) skip(depth int) bool {
	d.value(depth)
	if d.err != nil {
		return false
	}
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == ',' {
		d.pos++
		return true
	}
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
