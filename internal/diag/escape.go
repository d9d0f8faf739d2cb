package diag

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Escape makes s safe to print on a terminal as one line: control
// characters (C0 but the tab, DEL, C1), line and paragraph separators,
// the bidirectional overrides and isolates that reorder what a terminal
// shows, and bytes that are not UTF-8 are written as Go-style escapes
// (\x1b, \u202e). Text that came from a package (a file name, a test name,
// a message, a server's stderr) can then neither move the cursor, erase a
// line nor hide what follows it. JSON output never goes through it.
func Escape(s string) string { return escape(s, false) }

// EscapeLines is Escape for text of several lines: newlines are kept.
func EscapeLines(s string) string { return escape(s, true) }

func escape(s string, keepNewlines bool) string {
	if safe(s, keepNewlines) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n' && keepNewlines:
			b.WriteByte('\n')
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case unsafe(r):
			if r < 0x80 {
				fmt.Fprintf(&b, `\x%02x`, r)
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// unsafe reports whether r must not reach a terminal as it is. The tab is
// harmless; newlines are decided by the caller.
func unsafe(r rune) bool {
	switch {
	case r == '\t':
		return false
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x2028, r == 0x2029: // line and paragraph separators
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
		return true // bidirectional embeddings, overrides, isolates and marks
	}
	return false
}

func safe(s string, keepNewlines bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return false // decide rune by rune
		}
		if (c < 0x20 && c != '\t' && !(c == '\n' && keepNewlines)) || c == 0x7f {
			return false
		}
	}
	return true
}

// EscapingWriter returns a writer that escapes what is written to w as
// EscapeLines does. A multi-byte character split across writes is held
// back until it is complete.
func EscapingWriter(w io.Writer) io.Writer { return &escaper{w: w} }

type escaper struct {
	w    io.Writer
	tail []byte // the start of a character split across writes
}

func (e *escaper) Write(p []byte) (int, error) {
	buf := append(e.tail, p...)
	cut := len(buf)
	// Hold back an incomplete character at the end, at most 3 bytes.
	for i := 1; i <= 3 && i <= len(buf); i++ {
		if c := buf[len(buf)-i]; utf8.RuneStart(c) {
			if !utf8.FullRune(buf[len(buf)-i:]) {
				cut = len(buf) - i
			}
			break
		}
	}
	e.tail = append([]byte(nil), buf[cut:]...)
	if _, err := io.WriteString(e.w, EscapeLines(string(buf[:cut]))); err != nil {
		return 0, err
	}
	return len(p), nil
}
