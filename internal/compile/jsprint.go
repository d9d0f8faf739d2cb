package compile

import (
	"fmt"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
)

// quote returns s as a JavaScript string literal in double quotes. It is the
// one routine every string of a generated module goes through: quotes and
// backslashes are escaped, control characters and the two line separators
// JavaScript once refused in strings are written as escapes, everything else
// (Chinese prose included) stays readable.
func quote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\u2028', '\u2029':
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			if r < 0x20 || r == 0x7f {
				fmt.Fprintf(&b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// key returns an object literal key for a JSON member name. Every key is a
// quoted string, except that __proto__ is written as a computed key: as a
// plain key it would set the object's prototype instead of a member.
func key(name string) string {
	if name == "__proto__" {
		return "[" + quote(name) + "]"
	}
	return quote(name)
}

// lineWidth is the width up to which a JSON value is printed on one line.
const lineWidth = 100

// value returns a JavaScript expression equal to the JSON value v, laid out
// for a line indented by indent levels (two spaces each): on one line when
// it fits, otherwise one member or element per line.
func value(v canonjson.Value, indent int) string {
	flat := compact(v)
	if len(flat)+2*indent <= lineWidth || !isContainer(v) {
		return flat
	}
	var b strings.Builder
	pad := strings.Repeat("  ", indent+1)
	switch v := v.(type) {
	case canonjson.Array:
		b.WriteString("[\n")
		for _, e := range v {
			b.WriteString(pad + value(e, indent+1) + ",\n")
		}
		b.WriteString(strings.Repeat("  ", indent) + "]")
	case *canonjson.Object:
		b.WriteString("{\n")
		for k, e := range v.All() {
			b.WriteString(pad + key(k) + ": " + value(e, indent+1) + ",\n")
		}
		b.WriteString(strings.Repeat("  ", indent) + "}")
	}
	return b.String()
}

// compact returns v on one line: {"a": 1, "b": [true, null]}.
func compact(v canonjson.Value) string {
	switch v := v.(type) {
	case canonjson.Array:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = compact(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case *canonjson.Object:
		if v == nil {
			return "null"
		}
		parts := make([]string, 0, v.Len())
		for k, e := range v.All() {
			parts = append(parts, key(k)+": "+compact(e))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case canonjson.String:
		return quote(string(v))
	case canonjson.Number:
		// A JSON number literal is a JavaScript one; canonjson only holds
		// valid literals.
		return string(v)
	case canonjson.Bool:
		if v {
			return "true"
		}
		return "false"
	}
	return "null"
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

// comment writes a // comment, one line per line of text.
func (w *writer) comment(indent int, text string) {
	for _, l := range strings.Split(text, "\n") {
		if l == "" {
			w.line(indent, "//")
		} else {
			w.line(indent, "// "+l)
		}
	}
}

func (w *writer) bytes() []byte { return []byte(w.b.String()) }
