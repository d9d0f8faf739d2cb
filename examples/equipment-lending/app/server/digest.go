package server

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
)

// TermsDigest is the payload digest a quote grant binds: the SHA-256, in
// lowercase hex, of the terms' canonical JSON. Canonical JSON has its object
// members sorted by name, no whitespace, and strings escaped as ECMAScript's
// JSON.stringify escapes them, so that any client can compute the same
// digest from the same terms:
//
//	{"days":3,"note":"back by Friday"}
func TermsDigest(t Terms) string {
	sum := sha256.Sum256([]byte(canonicalTerms(t)))
	return hex.EncodeToString(sum[:])
}

// canonicalTerms is the canonical JSON of t.
func canonicalTerms(t Terms) string {
	var b strings.Builder
	b.WriteString(`{"days":`)
	b.WriteString(strconv.Itoa(t.Days))
	if t.Note != nil {
		b.WriteString(`,"note":`)
		writeJSONString(&b, *t.Note)
	}
	b.WriteString("}")
	return b.String()
}

// writeJSONString writes s as JSON.stringify does: quotes, backslashes and
// control characters escaped, everything else, U+2028 and U+2029 included,
// as it is.
func writeJSONString(b *strings.Builder, s string) {
	const hexDigits = "0123456789abcdef"
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 {
				b.WriteString(`\u00`)
				b.WriteByte(hexDigits[r>>4])
				b.WriteByte(hexDigits[r&0xf])
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
}
