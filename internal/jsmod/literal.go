package jsmod

import (
	"net/url"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// stringValue returns the value of a string literal token, quotes included
// ("…" or '…').
func stringValue(tok []byte) (string, bool) {
	if len(tok) < 2 || (tok[0] != '"' && tok[0] != '\'') || tok[len(tok)-1] != tok[0] {
		return "", false
	}
	return cook(tok[1 : len(tok)-1])
}

// templateValue returns the value of a template literal without
// substitutions, backquotes included (`…`).
func templateValue(tok []byte) (string, bool) {
	if len(tok) < 2 || tok[0] != '`' || tok[len(tok)-1] != '`' {
		return "", false
	}
	return cook(tok[1 : len(tok)-1])
}

// singleEscapes maps the single-character escape sequences (\b, \n, …)
// to what they stand for; "\0" is only valid when no digit follows, which
// the syntax check has made sure of.
var singleEscapes = map[byte]rune{'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t', 'v': '\v', '0': 0}

// cook decodes the escape sequences of a string or template literal body
// (ECMAScript §12.9.4): single-character escapes, \xHH, \uHHHH, \u{H…},
// line continuations and identity escapes. Surrogate pairs written as two
// \u escapes are joined; a lone surrogate becomes U+FFFD. Raw CRLF and CR
// in template bodies read as LF.
func cook(raw []byte) (string, bool) {
	if !strings.ContainsAny(string(raw), "\\\r") {
		return string(raw), true
	}
	var units []rune // code points, with surrogates still unpaired
	for i := 0; i < len(raw); {
		c := raw[i]
		if c == '\r' {
			units = append(units, '\n')
			i++
			if i < len(raw) && raw[i] == '\n' {
				i++
			}
			continue
		}
		if c != '\\' {
			r, size := utf8.DecodeRune(raw[i:])
			units = append(units, r)
			i += size
			continue
		}
		i++
		if i >= len(raw) {
			return "", false
		}
		c = raw[i]
		if r, ok := singleEscapes[c]; ok {
			units, i = append(units, r), i+1
			continue
		}
		switch c {
		case '\n':
			i++
		case '\r':
			i++
			if i < len(raw) && raw[i] == '\n' {
				i++
			}
		case 'x':
			if i+3 > len(raw) {
				return "", false
			}
			v, err := strconv.ParseUint(string(raw[i+1:i+3]), 16, 8)
			if err != nil {
				return "", false
			}
			units, i = append(units, rune(v)), i+3
		case 'u':
			var hex []byte
			if i+1 < len(raw) && raw[i+1] == '{' {
				end := strings.IndexByte(string(raw[i+2:]), '}')
				if end < 0 {
					return "", false
				}
				hex, i = raw[i+2:i+2+end], i+3+end
			} else {
				if i+5 > len(raw) {
					return "", false
				}
				hex, i = raw[i+1:i+5], i+5
			}
			v, err := strconv.ParseUint(string(hex), 16, 32)
			if err != nil || v > utf8.MaxRune {
				return "", false
			}
			units = append(units, rune(v))
		default:
			if strings.HasPrefix(string(raw[i:]), "\u2028") || strings.HasPrefix(string(raw[i:]), "\u2029") {
				i += 3 // a line continuation
				continue
			}
			r, size := utf8.DecodeRune(raw[i:])
			units, i = append(units, r), i+size
		}
	}
	var b strings.Builder
	for i := 0; i < len(units); i++ {
		r := units[i]
		if utf16.IsSurrogate(r) {
			if i+1 < len(units) {
				if pair := utf16.DecodeRune(r, units[i+1]); pair != utf8.RuneError {
					b.WriteRune(pair)
					i++
					continue
				}
			}
			r = utf8.RuneError
		}
		b.WriteRune(r)
	}
	return b.String(), true
}

// isHTTPURL reports whether s starts with an http:// or https:// scheme
// (case-insensitive, as URL schemes are).
func isHTTPURL(s string) bool {
	lower := strings.ToLower(s)
	return strings.HasPrefix(lower, "http://") || strings.HasPrefix(lower, "https://")
}

// reservedInvalidHost reports whether the URL's host is under the .invalid
// top-level domain, which RFC 6761 guarantees never resolves: offline
// tests use it as a fake base URL, and a fallback to it cannot reach any
// environment.
func reservedInvalidHost(s string) bool {
	u, err := url.Parse(s)
	if err != nil {
		return false
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	return host == "invalid" || strings.HasSuffix(host, ".invalid")
}
