package contamination

import (
	"strings"
	"unicode"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
)

// identifiers calls f with the bounds of every identifier-like token of
// text: a letter followed by letters, digits, "_" and "-", without a
// trailing "_" or "-".
func identifiers(text []byte, f func(start, end int)) {
	for i := 0; i < len(text); {
		if !isLetter(text[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(text) && (isLetter(text[j]) || isDigit(text[j]) || text[j] == '_' || text[j] == '-') {
			j++
		}
		end := j
		for end > i && (text[end-1] == '_' || text[end-1] == '-') {
			end--
		}
		f(i, end)
		i = j
	}
}

func isLetter(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

// mayBeCompound is a cheap test that rules out most tokens before compound
// splits them: long enough, and with a separator or a lower-to-upper case
// change.
func mayBeCompound(tok []byte) bool {
	if len(tok) < minCompoundLetters+1 {
		return false
	}
	for i := 1; i < len(tok); i++ {
		c := tok[i]
		if c == '_' || c == '-' || (c >= 'A' && c <= 'Z' && tok[i-1] >= 'a' && tok[i-1] <= 'z') {
			return true
		}
	}
	return false
}

// minCompoundLetters is how many letters a compound name needs: shorter
// ones ("get-id", "toJSON") are too common to say anything about a source.
const minCompoundLetters = 8

// compound returns the normal form of a name made of two or more words
// ("orderLineItems", "order_line_items" and "order-line-items" all give
// "order-line-items"), or "" when tok is not such a name.
func compound(tok string) string {
	var words []string
	for _, part := range strings.FieldsFunc(tok, func(r rune) bool { return r == '_' || r == '-' }) {
		words = append(words, splitCamel(part)...)
	}
	if len(words) < 2 {
		return ""
	}
	letters := 0
	for i, w := range words {
		words[i] = strings.ToLower(w)
		for _, r := range w {
			if unicode.IsLetter(r) {
				letters++
			}
		}
	}
	if letters < minCompoundLetters {
		return ""
	}
	return strings.Join(words, "-")
}

// splitCamel splits "orderLineItems" into order, Line, Items and
// "HTTPServer" into HTTP, Server.
func splitCamel(s string) []string {
	var out []string
	start := 0
	rs := []rune(s)
	for i := 1; i < len(rs); i++ {
		prev, cur := rs[i-1], rs[i]
		next := rune(0)
		if i+1 < len(rs) {
			next = rs[i+1]
		}
		lowerToUpper := unicode.IsLower(prev) && unicode.IsUpper(cur)
		acronymEnd := unicode.IsUpper(prev) && unicode.IsUpper(cur) && unicode.IsLower(next)
		if lowerToUpper || acronymEnd {
			out = append(out, string(rs[start:i]))
			start = i
		}
	}
	return append(out, string(rs[start:]))
}

// compounds adds the compound names of text to set.
func compounds(text []byte, set map[string]bool) {
	identifiers(text, func(start, end int) {
		if tok := text[start:end]; mayBeCompound(tok) {
			if c := compound(string(tok)); c != "" {
				set[c] = true
			}
		}
	})
}

// valueCompounds adds the compound names of every key and string of v.
func valueCompounds(v canonjson.Value, set map[string]bool) {
	switch v := v.(type) {
	case canonjson.String:
		compounds([]byte(v), set)
	case canonjson.Array:
		for _, e := range v {
			valueCompounds(e, set)
		}
	case *canonjson.Object:
		for k, e := range v.All() {
			compounds([]byte(k), set)
			valueCompounds(e, set)
		}
	}
}

// valueStrings calls f with every key and string of v, and its JSON Pointer.
func valueStrings(v canonjson.Value, at string, f func(at, s string)) {
	switch v := v.(type) {
	case canonjson.String:
		f(at, string(v))
	case canonjson.Array:
		for i, e := range v {
			valueStrings(e, at+"/"+itoa(i), f)
		}
	case *canonjson.Object:
		for k, e := range v.All() {
			p := at + "/" + diag.EscapeToken(k)
			f(p, k)
			valueStrings(e, p, f)
		}
	}
}

func itoa(i int) string {
	return string(canonjson.Int(i))
}
