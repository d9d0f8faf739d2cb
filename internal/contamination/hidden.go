package contamination

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"path"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/code2skill/code2skill/internal/anchored"
	"github.com/code2skill/code2skill/internal/credential"
)

// What the gate finds beyond a URL's host and a credential as written:
//
//   - a private network address written bare, in any text ("the database
//     is at 10.1.2.3"), as a URL's host is: a private or link-local
//     address, not loopback, not a documentation address (192.0.2.x,
//     198.51.100.x, 203.0.113.x, 2001:db8::), not part of a longer dotted
//     number (a version, an OID);
//   - an internal host name written bare in prose (Markdown, JSON, YAML,
//     text; not code, where "this.local" is a property): a name ending in
//     .internal, .corp, .local … ("build-01.corp", "db.internal");
//   - a credential hidden from the credential patterns: written with
//     zero-width characters inside it or in full-width letters, which the
//     scan reads as the ASCII text they stand for, or encoded in base64,
//     which it decodes.

// addressRuns calls f with the bounds of every run of text that may be an
// IP address written bare: digits and dots starting with a digit (IPv4),
// or hexadecimal digits and colons holding two colons or more (IPv6), not
// part of a word or of a longer dotted number. A hand-written scan: a
// regular expression over a whole bundle costs a hundred times more.
func addressRuns(data []byte, f func(start, end int)) {
	word := func(c byte) bool { return isLetter(c) || isDigit(c) || c == '_' }
	hex := func(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }
	for i := 0; i < len(data); i++ {
		c := data[i]
		if !hex(c) && c != ':' || i > 0 && (word(data[i-1]) || data[i-1] == '.' || data[i-1] == ':') {
			continue
		}
		j := i
		for j < len(data) && (hex(data[j]) || data[j] == '.' || data[j] == ':') {
			j++
		}
		end := j
		for end > i && (data[end-1] == '.' || data[end-1] == ':') {
			end-- // a sentence's full stop, a label's colon
		}
		if end < len(data) && word(data[end]) && end == j {
			i = j
			continue // part of a word
		}
		run := data[i:end]
		if dots, colons := bytes.Count(run, []byte(".")), bytes.Count(run, []byte(":")); dots == 3 && colons == 0 || colons >= 2 && dots == 0 {
			f(i, end)
		}
		i = j
	}
}

// bareHost finds host names with a private suffix written bare.
var bareHost = &anchored.Pattern{Anchors: privateSuffixes, Fold: true,
	Re: regexp.MustCompile(`(?i)(?:^|[^A-Za-z0-9_.@/-])((?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+(?:internal|local|corp|lan|intranet|home\.arpa|localdomain|private))(?:$|[^A-Za-z0-9_-]|\.[^A-Za-z0-9_-]|\.$)`)}

// bareAddresses returns the private addresses written bare in data and,
// in prose, the internal host names; declared says which hosts the
// contract names.
func bareAddresses(data []byte, t *anchored.Text, prose bool, declared map[string]bool) []match {
	var out []match
	add := func(start, end int) {
		host := strings.ToLower(string(data[start:end]))
		if !declared[host] && isPrivateHost(host) {
			out = append(out, match{Rule: RulePrivateHost, Offset: start, Len: end - start, What: "the private host " + host})
		}
	}
	// isPrivateHost reads each run as an address: none is private that
	// is reserved for documentation (192.0.2.x, 2001:db8:: …), and a run
	// of hexadecimal digits, dots and colons has no private suffix.
	addressRuns(data, add)
	if prose {
		for _, loc := range t.FindAll(bareHost) {
			add(loc[2], loc[3])
		}
	}
	return out
}

// proseFile reports whether a package file is prose or data rather than
// code, where a bare internal host name is one: Markdown, JSON, YAML, text.
func proseFile(rel string) bool {
	switch path.Ext(rel) {
	case ".md", ".json", ".yaml", ".yml", ".txt", ".toml":
		return true
	}
	return strings.HasPrefix(rel, "authoring/")
}

// hiddenCredentials returns the credentials of data that its zero-width
// and full-width characters, or base64, hide from the credential
// patterns; found are the credentials found as written, which it does not
// repeat.
func hiddenCredentials(data []byte, found []match) []match {
	var out []match
	covered := func(start, end int) bool {
		for _, m := range found {
			if m.Offset < end && start < m.Offset+m.Len {
				return true
			}
		}
		return false
	}
	// Only around the hiding characters: a credential they hide holds
	// one, and its form spans less than hideReach on either side.
	for _, w := range hidingWindows(data) {
		plain, at := asASCII(data[w[0]:w[1]])
		for _, c := range credential.Find(plain) {
			start, end := w[0]+at[c.Offset], w[0]+at[c.Offset+c.Len]
			if !covered(start, end) {
				out = append(out, match{Rule: RuleCredential, Offset: start, Len: end - start,
					What: c.What + " written with zero-width or full-width characters"})
			}
		}
	}
	base64Runs(data, func(start, end int) {
		if covered(start, end) {
			return
		}
		decoded, ok := decodeBase64(data[start:end])
		if !ok {
			return
		}
		if cs := credential.Find(decoded); len(cs) > 0 {
			out = append(out, match{Rule: RuleCredential, Offset: start, Len: end - start,
				What: fmt.Sprintf("%s encoded in base64 (%d characters)", cs[0].What, end-start)})
		}
	})
	return out
}

// base64Runs calls f with the bounds of every run long enough to hold a
// token in base64 (standard or URL alphabet, padded or not) that holds a
// digit or a symbol of the alphabet: not a mere word or identifier.
func base64Runs(data []byte, f func(start, end int)) {
	in := func(c byte) bool { return isLetter(c) || isDigit(c) || c == '+' || c == '/' || c == '_' || c == '-' }
	for i := 0; i < len(data); {
		if !in(data[i]) {
			i++
			continue
		}
		j, mixed := i, false
		for j < len(data) && in(data[j]) {
			mixed = mixed || !isLetter(data[j])
			j++
		}
		end := j
		for end < len(data) && end-j < 2 && data[end] == '=' {
			end++
		}
		if j-i >= 24 && mixed {
			f(i, end)
		}
		i = end
	}
}

// zeroWidth are the characters that show as nothing: inside a token they
// break every pattern while the token reads the same.
var zeroWidth = map[rune]bool{0x200B: true, 0x200C: true, 0x200D: true, 0x2060: true, 0xFEFF: true, 0x00AD: true, 0x180E: true}

// hideReach is how far around a hiding character its credential is
// sought, in bytes.
const hideReach = 512

// hiding reports whether r is a character asASCII reads otherwise.
func hiding(r rune) bool { return zeroWidth[r] || r >= 0xFF01 && r <= 0xFF5E || r == 0x3000 }

// hidingWindows returns the spans of data within hideReach of a hiding
// character, merged, at rune boundaries. Mostly ASCII, data is decoded
// only where it is not.
func hidingWindows(data []byte) [][2]int {
	var out [][2]int
	for i := 0; i < len(data); i++ {
		if data[i] < 0xC2 {
			continue
		}
		r, size := utf8.DecodeRune(data[i:])
		if hiding(r) {
			start, end := max(0, i-hideReach), min(len(data), i+size+hideReach)
			for start > 0 && !utf8.RuneStart(data[start]) {
				start--
			}
			for end < len(data) && !utf8.RuneStart(data[end]) {
				end++
			}
			if n := len(out); n > 0 && start <= out[n-1][1] {
				out[n-1][1] = end
			} else {
				out = append(out, [2]int{start, end})
			}
		}
		i += size - 1
	}
	return out
}

// asASCII returns data with zero-width characters dropped and full-width
// forms (U+FF01–U+FF5E, U+3000) read as the ASCII they stand for, and the
// offset in data of each of its bytes (and of its end).
func asASCII(data []byte) (plain []byte, at []int) {
	plain = make([]byte, 0, len(data))
	at = make([]int, 0, len(data)+1)
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		switch {
		case zeroWidth[r]:
		case r >= 0xFF01 && r <= 0xFF5E:
			plain = append(plain, byte(r-0xFF01+0x21))
			at = append(at, i)
		case r == 0x3000:
			plain = append(plain, ' ')
			at = append(at, i)
		default:
			plain = append(plain, data[i:i+size]...)
			for range size {
				at = append(at, i)
			}
		}
		i += size
	}
	return plain, append(at, len(data))
}

// decodeBase64 decodes a run that is base64 of text: printable ASCII,
// tabs and newlines. Anything else (a hash, an image) is no text to scan.
func decodeBase64(run []byte) ([]byte, bool) {
	s := strings.TrimRight(string(run), "=")
	for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
		b, err := enc.DecodeString(s)
		if err != nil || len(b) < 16 {
			continue
		}
		printable := true
		for _, c := range b {
			if (c < 0x20 || c > 0x7e) && c != '\n' && c != '\t' && c != '\r' {
				printable = false
				break
			}
		}
		if printable {
			return b, true
		}
	}
	return nil, false
}
