package canonjson

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// Encode returns the file form of v: 2-space indentation, members in order,
// ": " between key and value, non-ASCII characters raw, and a trailing
// newline. Empty arrays and objects are written as [] and {}.
func Encode(v Value) []byte {
	b := appendIndented(make([]byte, 0, sizeHint(v, 0)+1), v, 0, false)
	return append(b, '\n')
}

// EncodeSorted returns the file form of v with every object's members
// sorted by key (by code point), the layout of files whose readers expect
// sorted keys, such as behaviour-vector evidence.
func EncodeSorted(v Value) []byte {
	b := appendIndented(make([]byte, 0, sizeHint(v, 0)+1), v, 0, true)
	return append(b, '\n')
}

// sizeHint estimates the length of v's file form (exact but for escapes and
// reformatted numbers), so that Encode allocates its buffer once.
func sizeHint(v Value, depth int) int {
	switch v := v.(type) {
	case Array:
		n := 2
		for _, e := range v {
			n += 2 + 2*(depth+1) + sizeHint(e, depth+1)
		}
		return n + 1 + 2*depth
	case *Object:
		if v == nil {
			return 4
		}
		n := 2
		for _, m := range v.members {
			n += 2 + 2*(depth+1) + len(m.Key) + 4 + sizeHint(m.Value, depth+1)
		}
		return n + 1 + 2*depth
	case String:
		return len(v) + 2
	case Number:
		return len(v)
	}
	return 5
}

// DigestForm returns the compact form of v that hashes are computed over:
// object keys sorted by code point, no whitespace, non-ASCII characters raw.
func DigestForm(v Value) []byte { return appendCompact(make([]byte, 0, sizeHint(v, 0)), v, true) }

// Compact returns v without whitespace, members in their order, strings
// and numbers as Encode writes them: the one-line form messages show.
func Compact(v Value) []byte { return appendCompact(make([]byte, 0, sizeHint(v, 0)), v, false) }

func appendIndented(b []byte, v Value, depth int, sorted bool) []byte {
	switch v := v.(type) {
	case Array:
		if len(v) == 0 {
			return append(b, "[]"...)
		}
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendNewline(b, depth+1)
			b = appendIndented(b, e, depth+1, sorted)
		}
		b = appendNewline(b, depth)
		return append(b, ']')
	case *Object:
		if v == nil {
			return append(b, "null"...)
		}
		if v.Len() == 0 {
			return append(b, "{}"...)
		}
		members := v.members
		if sorted {
			members = sortedMembers(members)
		}
		b = append(b, '{')
		for i, m := range members {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendNewline(b, depth+1)
			b = appendString(b, m.Key)
			b = append(b, ": "...)
			b = appendIndented(b, m.Value, depth+1, sorted)
		}
		b = appendNewline(b, depth)
		return append(b, '}')
	}
	return appendScalar(b, v)
}

func appendNewline(b []byte, depth int) []byte {
	b = append(b, '\n')
	for range depth {
		b = append(b, "  "...)
	}
	return b
}

func appendCompact(b []byte, v Value, sorted bool) []byte {
	switch v := v.(type) {
	case Array:
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendCompact(b, e, sorted)
		}
		return append(b, ']')
	case *Object:
		if v == nil {
			return append(b, "null"...)
		}
		members := v.members
		if sorted {
			members = sortedMembers(members)
		}
		b = append(b, '{')
		for i, m := range members {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, m.Key)
			b = append(b, ':')
			b = appendCompact(b, m.Value, sorted)
		}
		return append(b, '}')
	}
	return appendScalar(b, v)
}

// sortedMembers returns the members sorted by key. Sorting strings compares
// their UTF-8 bytes, which orders them by code point, as the established
// toolchain's key sort does.
func sortedMembers(members []Member) []Member {
	out := slices.Clone(members)
	slices.SortFunc(out, func(x, y Member) int { return strings.Compare(x.Key, y.Key) })
	return out
}

func appendScalar(b []byte, v Value) []byte {
	switch v := v.(type) {
	case Bool:
		if v {
			return append(b, "true"...)
		}
		return append(b, "false"...)
	case Number:
		return append(b, formatNumber(string(v))...)
	case String:
		return appendString(b, string(v))
	}
	// Null, and a nil Value or nil *Object, which a model built in code may
	// hold.
	return append(b, "null"...)
}

const hexDigits = "0123456789abcdef"

// appendString writes s as a JSON string. Only the quote, the backslash and
// the C0 controls are escaped; everything else, including U+2028, U+2029 and
// DEL, is written raw.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// formatNumber writes a number literal the way the established toolchain
// does: integers verbatim (-0 becomes 0), other numbers as the shortest
// decimal that reads back to the same float64, in Python's repr layout.
func formatNumber(lit string) string {
	n := Number(lit)
	if n.IsInteger() {
		if lit == "-0" {
			return "0"
		}
		return lit
	}
	f, ok := n.Float64()
	if !ok {
		return lit // not a valid literal; Decode never produces one
	}
	return formatFloat(f)
}

// formatFloat lays out f like Python's repr: fixed notation while the decimal
// exponent is in (-4, 16], with at least one digit after the point;
// otherwise d.ddde±XX with at least two exponent digits.
func formatFloat(f float64) string {
	if f == 0 {
		if math.Signbit(f) {
			return "-0.0"
		}
		return "0.0"
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	// Shortest round-trip digits and exponent: "d.ddde±XX".
	s := strconv.FormatFloat(f, 'e', -1, 64)
	mant, expText, _ := strings.Cut(s, "e")
	digits := strings.Replace(mant, ".", "", 1)
	exp, _ := strconv.Atoi(expText)
	point := exp + 1 // digits[:point] is the integer part
	var b strings.Builder
	b.WriteString(sign)
	switch {
	case point <= -4 || point > 16:
		b.WriteString(digits[:1])
		if len(digits) > 1 {
			b.WriteByte('.')
			b.WriteString(digits[1:])
		}
		b.WriteByte('e')
		if exp < 0 {
			b.WriteByte('-')
			exp = -exp
		} else {
			b.WriteByte('+')
		}
		if exp < 10 {
			b.WriteByte('0')
		}
		b.WriteString(strconv.Itoa(exp))
	case point <= 0:
		b.WriteString("0.")
		b.WriteString(strings.Repeat("0", -point))
		b.WriteString(digits)
	case point >= len(digits):
		b.WriteString(digits)
		b.WriteString(strings.Repeat("0", point-len(digits)))
		b.WriteString(".0")
	default:
		b.WriteString(digits[:point])
		b.WriteByte('.')
		b.WriteString(digits[point:])
	}
	return b.String()
}
