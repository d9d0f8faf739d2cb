package diag

import (
	"strconv"
	"strings"
)

// Pointer builds an RFC 6901 JSON Pointer from reference tokens: strings are
// escaped ("~" → "~0", "/" → "~1"), integers are array indexes.
//
//	Pointer("capabilities", 3, "inputs", 0, "name") == "/capabilities/3/inputs/0/name"
func Pointer(tokens ...any) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		switch v := t.(type) {
		case int:
			b.WriteString(strconv.Itoa(v))
		case string:
			b.WriteString(EscapeToken(v))
		default:
			panic("diag.Pointer: token must be string or int")
		}
	}
	return b.String()
}

// EscapeToken escapes one reference token of a JSON Pointer.
func EscapeToken(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

// SplitPointer returns the unescaped reference tokens of a JSON Pointer.
// The empty pointer (the whole document) has no tokens.
func SplitPointer(p string) []string {
	if p == "" {
		return nil
	}
	parts := strings.Split(strings.TrimPrefix(p, "/"), "/")
	for i, s := range parts {
		if strings.Contains(s, "~") {
			parts[i] = strings.NewReplacer("~1", "/", "~0", "~").Replace(s)
		}
	}
	return parts
}
