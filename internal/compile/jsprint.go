package compile

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/code2skill/code2skill/internal/canonjson"
)

// quote returns s as a JavaScript string literal in double quotes. It is the
// one routine every string of a generated module goes through: quotes and
// backslashes are escaped, control characters and the two line separators
// JavaScript once refused in strings are written as escapes, everything else
// (Chinese prose included) stays readable.
func quote(s string) string { return string(appendQuote(make([]byte, 0, len(s)+2), s)) }

func appendQuote(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i, r := range s {
		var esc string
		switch {
		case r == '"':
			esc = `\"`
		case r == '\\':
			esc = `\\`
		case r == '\n':
			esc = `\n`
		case r == '\r':
			esc = `\r`
		case r == '\t':
			esc = `\t`
		case r < 0x20 || r == 0x7f || r == '\u2028' || r == '\u2029':
			esc = fmt.Sprintf(`\u%04x`, r)
		default:
			continue
		}
		b = append(b, s[start:i]...)
		b = append(b, esc...)
		start = i + utf8.RuneLen(r)
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// key returns an object literal key for a JSON member name. Every key is a
// quoted string, except that __proto__ is written as a computed key: as a
// plain key it would set the object's prototype instead of a member.
func key(name string) string { return string(appendKey(nil, name)) }

func appendKey(b []byte, name string) []byte {
	if name == "__proto__" {
		b = append(b, '[')
		return append(appendQuote(b, name), ']')
	}
	return appendQuote(b, name)
}

// lineWidth is the width up to which a JSON value is printed on one line.
const lineWidth = 100

// value returns a JavaScript expression equal to the JSON value v, laid out
// for a line indented by indent levels (two spaces each): on one line when
// it fits, otherwise one member or element per line.
func value(v canonjson.Value, indent int) string { return string(appendValue(nil, v, indent)) }

func appendValue(b []byte, v canonjson.Value, indent int) []byte {
	start := len(b)
	b, fits := appendCompact(b, v, start+lineWidth-2*indent)
	if fits || !isContainer(v) {
		if !fits { // a long scalar: finish it on the line
			b = appendCompactAll(b[:start], v)
		}
		return b
	}
	b = b[:start]
	switch v := v.(type) {
	case canonjson.Array:
		b = append(b, "[\n"...)
		for _, e := range v {
			b = appendIndent(b, indent+1)
			b = appendValue(b, e, indent+1)
			b = append(b, ",\n"...)
		}
		b = appendIndent(b, indent)
		return append(b, ']')
	case *canonjson.Object:
		b = append(b, "{\n"...)
		for k, e := range v.All() {
			b = appendIndent(b, indent+1)
			b = appendKey(b, k)
			b = append(b, ": "...)
			b = appendValue(b, e, indent+1)
			b = append(b, ",\n"...)
		}
		b = appendIndent(b, indent)
		return append(b, '}')
	}
	return b
}

func appendIndent(b []byte, indent int) []byte {
	for range indent {
		b = append(b, "  "...)
	}
	return b
}

// compact returns v on one line: {"a": 1, "b": [true, null]}.
func compact(v canonjson.Value) string { return string(appendCompactAll(nil, v)) }

func appendCompactAll(b []byte, v canonjson.Value) []byte {
	b, _ = appendCompact(b, v, -1)
	return b
}

// appendCompact appends v on one line. With a limit of 0 or more it stops,
// reporting false, as soon as the buffer grows past limit bytes, so that
// trying whether a value fits costs at most a line.
func appendCompact(b []byte, v canonjson.Value, limit int) ([]byte, bool) {
	fits := func() bool { return limit < 0 || len(b) <= limit }
	switch v := v.(type) {
	case canonjson.Array:
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ", "...)
			}
			var ok bool
			if b, ok = appendCompact(b, e, limit); !ok {
				return b, false
			}
		}
		b = append(b, ']')
	case *canonjson.Object:
		if v == nil {
			b = append(b, "null"...)
			break
		}
		b = append(b, '{')
		i := 0
		for k, e := range v.All() {
			if i > 0 {
				b = append(b, ", "...)
			}
			i++
			b = appendKey(b, k)
			b = append(b, ": "...)
			var ok bool
			if b, ok = appendCompact(b, e, limit); !ok {
				return b, false
			}
		}
		b = append(b, '}')
	case canonjson.String:
		b = appendQuote(b, string(v))
	case canonjson.Number:
		// A JSON number literal is a JavaScript one; canonjson only holds
		// valid literals.
		b = append(b, v...)
	case canonjson.Bool:
		if v {
			b = append(b, "true"...)
		} else {
			b = append(b, "false"...)
		}
	default:
		b = append(b, "null"...)
	}
	return b, fits()
}

func isContainer(v canonjson.Value) bool {
	switch v := v.(type) {
	case canonjson.Array:
		return len(v) > 0
	case *canonjson.Object:
		return v.Len() > 0
	}
	return false
}

// strList returns a JavaScript array literal of strings.
func strList(ss []string) string {
	return compact(canonjson.Strings(ss))
}

// writer builds a module line by line.
type writer struct {
	b strings.Builder
}

// line writes one line at an indentation of indent levels; an empty text
// writes an empty line.
func (w *writer) line(indent int, text string) {
	if text != "" {
		w.b.WriteString(strings.Repeat("  ", indent))
		w.b.WriteString(text)
	}
	w.b.WriteByte('\n')
}

// lineBreaks are what ends a line in JavaScript source, a // comment
// included.
var lineBreaks = strings.NewReplacer("\r\n", "\n", "\r", "\n", "\u2028", "\n", "\u2029", "\n")

// comment writes a // comment, one line per line of text. Every character
// JavaScript reads as a line break starts a new comment line, so that no
// text from the contract can end a comment and become code.
func (w *writer) comment(indent int, text string) {
	for _, l := range strings.Split(lineBreaks.Replace(text), "\n") {
		if l == "" {
			w.line(indent, "//")
		} else {
			w.line(indent, "// "+l)
		}
	}
}

func (w *writer) bytes() []byte { return []byte(w.b.String()) }
