package canonjson

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// MaxDepth is the deepest nesting of arrays and objects Decode accepts. The
// package formats nest a few dozen levels at most; the limit keeps hostile
// input from exhausting the stack.
const MaxDepth = 1000

// ErrorKind classifies a decoding failure.
type ErrorKind uint8

const (
	// KindSyntax is malformed JSON.
	KindSyntax ErrorKind = iota + 1
	// KindDuplicateKey is an object that repeats a key.
	KindDuplicateKey
	// KindEncoding is text that is not UTF-8 (invalid bytes, a byte-order
	// mark, or an escaped lone UTF-16 surrogate).
	KindEncoding
	// KindNumberRange is a non-integer number outside the float64 range.
	KindNumberRange
)

// SyntaxError describes why Decode rejected its input and where.
type SyntaxError struct {
	Kind   ErrorKind
	Msg    string // no location, no trailing period
	Offset int    // 0-based, in bytes
	Line   int    // 1-based
	Column int    // 1-based, in bytes
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%d:%d: %s", e.Line, e.Column, e.Msg)
}

// Decode parses one JSON document. On failure the error is a *SyntaxError.
func Decode(data []byte) (Value, error) {
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		return nil, newError(data, 0, KindEncoding, "file starts with a UTF-8 byte-order mark")
	}
	d := decoder{data: data}
	d.skipSpace()
	v := d.value(0)
	if d.err == nil {
		d.skipSpace()
		if d.pos < len(d.data) {
			d.fail(KindSyntax, "unexpected %s after the top-level value", d.describe())
		}
	}
	if d.err != nil {
		return nil, d.err
	}
	return v, nil
}

type decoder struct {
	data []byte
	pos  int
	err  *SyntaxError
	// Scratch stacks of the members and elements of the containers being
	// read: a container collects its entries here and takes one exactly
	// sized copy when it closes, instead of growing its own slice.
	members []Member
	values  []Value
	// keys interns object keys: documents repeat a few dozen keys
	// thousands of times.
	keys map[string]string
}

func newError(data []byte, offset int, kind ErrorKind, msg string) *SyntaxError {
	line, col := lineColumn(data, offset)
	return &SyntaxError{Kind: kind, Msg: msg, Offset: offset, Line: line, Column: col}
}

// fail records the first error at the current position.
func (d *decoder) fail(kind ErrorKind, format string, args ...any) {
	d.failAt(d.pos, kind, format, args...)
}

func (d *decoder) failAt(offset int, kind ErrorKind, format string, args ...any) {
	if d.err == nil {
		d.err = newError(d.data, offset, kind, fmt.Sprintf(format, args...))
	}
}

// describe names the byte at the current position for an error message.
func (d *decoder) describe() string {
	if d.pos >= len(d.data) {
		return "end of input"
	}
	r, _ := utf8.DecodeRune(d.data[d.pos:])
	if r == utf8.RuneError {
		return fmt.Sprintf("byte 0x%02x", d.data[d.pos])
	}
	return strconv.QuoteRune(r)
}

func (d *decoder) skipSpace() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

func (d *decoder) value(depth int) Value {
	if d.pos >= len(d.data) {
		d.fail(KindSyntax, "unexpected end of input, want a value")
		return nil
	}
	switch c := d.data[d.pos]; {
	case c == '{':
		return d.object(depth + 1)
	case c == '[':
		return d.array(depth + 1)
	case c == '"':
		s, ok := d.string()
		if !ok {
			return nil
		}
		return String(s)
	case c == '-' || ('0' <= c && c <= '9'):
		return d.number()
	case d.literal("true"):
		return Bool(true)
	case d.literal("false"):
		return Bool(false)
	case d.literal("null"):
		return Null{}
	}
	d.fail(KindSyntax, "unexpected %s, want a value", d.describe())
	return nil
}

func (d *decoder) literal(word string) bool {
	if bytes.HasPrefix(d.data[d.pos:], []byte(word)) {
		d.pos += len(word)
		return true
	}
	return false
}

func (d *decoder) object(depth int) Value {
	if depth > MaxDepth {
		d.fail(KindSyntax, "nesting deeper than %d levels", MaxDepth)
		return nil
	}
	d.pos++ // '{'
	start := len(d.members)
	defer func() { d.members = d.members[:start] }()
	var seen map[string]struct{} // keys read so far, once there are many
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		return &Object{}
	}
	for {
		d.skipSpace()
		if d.pos >= len(d.data) || d.data[d.pos] != '"' {
			d.fail(KindSyntax, "unexpected %s, want a string key", d.describe())
			return nil
		}
		keyAt := d.pos
		key, ok := d.key()
		if !ok {
			return nil
		}
		if d.repeated(start, key, &seen) {
			d.failAt(keyAt, KindDuplicateKey, "duplicate key %s", strconv.Quote(key))
			return nil
		}
		d.skipSpace()
		if d.pos >= len(d.data) || d.data[d.pos] != ':' {
			d.fail(KindSyntax, "unexpected %s, want ':' after an object key", d.describe())
			return nil
		}
		d.pos++
		d.skipSpace()
		v := d.value(depth)
		if d.err != nil {
			return nil
		}
		d.members = append(d.members, Member{key, v})
		d.skipSpace()
		if d.pos < len(d.data) {
			switch d.data[d.pos] {
			case ',':
				d.pos++
				continue
			case '}':
				d.pos++
				o := &Object{members: slices.Clone(d.members[start:])}
				if len(o.members) > indexThreshold {
					o.reindex()
				}
				return o
			}
		}
		d.fail(KindSyntax, "unexpected %s, want ',' or '}' in an object", d.describe())
		return nil
	}
}

// repeated reports whether the object whose members start at start already
// has key. Small objects are scanned; larger ones keep a set, so that an
// object with many keys is not checked in quadratic time.
func (d *decoder) repeated(start int, key string, seen *map[string]struct{}) bool {
	members := d.members[start:]
	if *seen == nil && len(members) <= indexThreshold {
		for _, m := range members {
			if m.Key == key {
				return true
			}
		}
		return false
	}
	if *seen == nil {
		*seen = make(map[string]struct{}, 2*len(members))
		for _, m := range members {
			(*seen)[m.Key] = struct{}{}
		}
	}
	if _, ok := (*seen)[key]; ok {
		return true
	}
	(*seen)[key] = struct{}{}
	return false
}

func (d *decoder) array(depth int) Value {
	if depth > MaxDepth {
		d.fail(KindSyntax, "nesting deeper than %d levels", MaxDepth)
		return nil
	}
	d.pos++ // '['
	start := len(d.values)
	defer func() { d.values = d.values[:start] }()
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		return Array{}
	}
	for {
		d.skipSpace()
		v := d.value(depth)
		if d.err != nil {
			return nil
		}
		d.values = append(d.values, v)
		d.skipSpace()
		if d.pos < len(d.data) {
			switch d.data[d.pos] {
			case ',':
				d.pos++
				continue
			case ']':
				d.pos++
				return Array(slices.Clone(d.values[start:]))
			}
		}
		d.fail(KindSyntax, "unexpected %s, want ',' or ']' in an array", d.describe())
		return nil
	}
}

// key reads an object key, sharing one string per distinct key.
func (d *decoder) key() (string, bool) {
	end := bytes.IndexByte(d.data[d.pos+1:], '"')
	if end < 0 {
		return d.string()
	}
	raw := d.data[d.pos+1 : d.pos+1+end]
	if bytes.IndexByte(raw, '\\') >= 0 {
		return d.string()
	}
	if k, ok := d.keys[string(raw)]; ok { // no allocation for the lookup
		d.pos += end + 2
		return k, true
	}
	k, ok := d.string()
	if ok && len(k) <= 64 {
		if d.keys == nil {
			d.keys = make(map[string]string)
		}
		d.keys[k] = k
	}
	return k, ok
}

// string reads a string token starting at its opening quote.
func (d *decoder) string() (string, bool) {
	d.pos++ // opening quote
	start := d.pos
	// Fast path: no escapes.
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		if c == '"' {
			raw := d.data[start:d.pos]
			if !utf8.Valid(raw) {
				d.failAt(start+invalidUTF8At(raw), KindEncoding, "invalid UTF-8 in a string")
				return "", false
			}
			d.pos++
			return string(raw), true
		}
		if c == '\\' || c < 0x20 {
			break
		}
		d.pos++
	}
	var b []byte
	b = append(b, d.data[start:d.pos]...)
	for {
		if d.pos >= len(d.data) {
			d.fail(KindSyntax, "unterminated string")
			return "", false
		}
		c := d.data[d.pos]
		switch {
		case c == '"':
			if !utf8.Valid(b) {
				d.failAt(start, KindEncoding, "invalid UTF-8 in a string")
				return "", false
			}
			d.pos++
			return string(b), true
		case c < 0x20:
			d.fail(KindSyntax, "control character 0x%02x in a string must be escaped", c)
			return "", false
		case c == '\\':
			r, ok := d.escape()
			if !ok {
				return "", false
			}
			b = utf8.AppendRune(b, r)
		default:
			b = append(b, c)
			d.pos++
		}
	}
}

// escape reads one escape sequence starting at its backslash.
func (d *decoder) escape() (rune, bool) {
	at := d.pos
	if d.pos+1 >= len(d.data) {
		d.fail(KindSyntax, "unterminated string")
		return 0, false
	}
	c := d.data[d.pos+1]
	d.pos += 2
	switch c {
	case '"', '\\', '/':
		return rune(c), true
	case 'b':
		return '\b', true
	case 'f':
		return '\f', true
	case 'n':
		return '\n', true
	case 'r':
		return '\r', true
	case 't':
		return '\t', true
	case 'u':
		r, ok := d.hex4(at)
		if !ok {
			return 0, false
		}
		if !utf16.IsSurrogate(r) {
			return r, true
		}
		if r < 0xdc00 && bytes.HasPrefix(d.data[d.pos:], []byte(`\u`)) {
			save := d.pos
			d.pos += 2
			r2, ok := d.hex4(save)
			if !ok {
				return 0, false
			}
			if combined := utf16.DecodeRune(r, r2); combined != utf8.RuneError {
				return combined, true
			}
		}
		d.failAt(at, KindEncoding, "lone UTF-16 surrogate \\u%04x in a string", r)
		return 0, false
	}
	d.failAt(at, KindSyntax, "invalid escape \\%c in a string", c)
	return 0, false
}

// hex4 reads the four hex digits of a \u escape that starts at offset at.
func (d *decoder) hex4(at int) (rune, bool) {
	if d.pos+4 > len(d.data) {
		d.failAt(at, KindSyntax, "truncated \\u escape in a string")
		return 0, false
	}
	v, err := strconv.ParseUint(string(d.data[d.pos:d.pos+4]), 16, 32)
	if err != nil {
		d.failAt(at, KindSyntax, "invalid \\u escape in a string")
		return 0, false
	}
	d.pos += 4
	return rune(v), true
}

// number reads a number token, following the JSON grammar exactly:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (d *decoder) number() Value {
	start := d.pos
	p := d.pos
	digits := func() int {
		n := 0
		for p < len(d.data) && '0' <= d.data[p] && d.data[p] <= '9' {
			p++
			n++
		}
		return n
	}
	if p < len(d.data) && d.data[p] == '-' {
		p++
	}
	intStart := p
	if n := digits(); n == 0 {
		d.failAt(p, KindSyntax, "invalid number: want a digit")
		return nil
	} else if n > 1 && d.data[intStart] == '0' {
		d.failAt(intStart, KindSyntax, "invalid number: leading zero")
		return nil
	}
	integer := true
	if p < len(d.data) && d.data[p] == '.' {
		integer = false
		p++
		if digits() == 0 {
			d.failAt(p, KindSyntax, "invalid number: want a digit after the decimal point")
			return nil
		}
	}
	if p < len(d.data) && (d.data[p] == 'e' || d.data[p] == 'E') {
		integer = false
		p++
		if p < len(d.data) && (d.data[p] == '+' || d.data[p] == '-') {
			p++
		}
		if digits() == 0 {
			d.failAt(p, KindSyntax, "invalid number: want a digit in the exponent")
			return nil
		}
	}
	d.pos = p
	lit := string(d.data[start:p])
	if !integer {
		// The established toolchain reads non-integers as IEEE doubles; a
		// literal beyond their range would become "Infinity", which is not
		// JSON.
		if _, err := strconv.ParseFloat(lit, 64); err != nil {
			d.failAt(start, KindNumberRange, "number %s is outside the range of a 64-bit float", lit)
			return nil
		}
	}
	return Number(lit)
}

// invalidUTF8At returns the offset of the first invalid UTF-8 sequence in b.
func invalidUTF8At(b []byte) int {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return 0
}
