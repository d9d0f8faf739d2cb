package jsmod

import (
	"sort"
	"unicode/utf8"
	"unsafe"
)

// Pos is a place in a module's source.
type Pos struct {
	Line   int // 1-based; 0 when unknown
	Column int // 1-based, in bytes from the start of the line; 0 when unknown
}

// IsValid reports whether the position is known.
func (p Pos) IsValid() bool { return p.Line > 0 }

// lineIndex holds the byte offset at which each line starts. Lines end the
// way ECMAScript ends them (LF, CR, CRLF, U+2028, U+2029), so that our
// positions agree with esbuild's and node's.
type lineIndex []int

func newLineIndex(src []byte) lineIndex {
	starts := lineIndex{0}
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case c == '\n':
			starts = append(starts, i+1)
		case c == '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			starts = append(starts, i+1)
		case c == 0xE2 && i+2 < len(src) && src[i+1] == 0x80 && (src[i+2] == 0xA8 || src[i+2] == 0xA9):
			// U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR.
			i += 2
			starts = append(starts, i+1)
		}
	}
	return starts
}

// pos converts a byte offset into a position.
func (ix lineIndex) pos(offset int) Pos {
	line := sort.Search(len(ix), func(i int) bool { return ix[i] > offset }) // first line starting after offset
	return Pos{Line: line, Column: offset - ix[line-1] + 1}
}

// offset converts a line and a column counted in characters (runes), both
// 1-based, into a byte offset. It clamps to the end of the line.
func (ix lineIndex) offset(src []byte, line, runeColumn int) int {
	if line < 1 {
		return 0
	}
	if line > len(ix) {
		return len(src)
	}
	off, end := ix[line-1], len(src)
	if line < len(ix) {
		end = ix[line]
	}
	for n := 1; n < runeColumn && off < end; n++ {
		_, size := utf8.DecodeRune(src[off:end])
		off += size
	}
	return off
}

// subsliceOffset returns where b starts inside buf when b is a slice of
// buf's backing array, as the parser's tokens are: the syntax tree keeps
// token bytes but no offsets, and this recovers them. The parser cuts
// tokens with full slice expressions (cap == len), so the offset cannot be
// derived from capacities; it is taken from the two addresses, then
// confirmed with an ordinary pointer comparison, so bytes allocated
// elsewhere (a copy, a constant) are never mistaken for source. Go's
// collector does not move heap objects, so the addresses are stable.
func subsliceOffset(buf, b []byte) (int, bool) {
	if len(b) == 0 || len(buf) == 0 {
		return 0, false
	}
	off := int(uintptr(unsafe.Pointer(unsafe.SliceData(b))) - uintptr(unsafe.Pointer(unsafe.SliceData(buf))))
	if off < 0 || off > len(buf)-len(b) || &buf[off] != &b[0] {
		return 0, false
	}
	return off, true
}
