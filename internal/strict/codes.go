package strict

import "strings"

// The error codes are scanned by hand rather than with a regular
// expression: the runtime files are scanned on every derive and validate,
// and a scan is most of what deriving costs. An error code is an UPPER_SNAKE
// word: an upper-case letter, then upper-case letters and digits in runs
// joined by single underscores (A, UPSTREAM_STEP_REJECTED, HTTP_4XX).

// errorCodesIn records the error-code-shaped words of a text: every
// UPPER_SNAKE word, and every upper-case word of four characters or more
// (a source's own UNAUTHENTICATED). A word is a run of ASCII letters,
// digits and underscores.
func errorCodesIn(text string, into map[string]bool) {
	for i := 0; i < len(text); {
		if !isWordByte(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isWordByte(text[j]) {
			j++
		}
		if w := text[i:j]; codeLength(w) == len(w) && (strings.Contains(w, "_") || len(w) >= 4) {
			into[w] = true
		}
		i = j
	}
}

// addRuntimeCodes records the error codes a runtime file can return: its
// UPPER_SNAKE string literals, quoted with ' or ".
func addRuntimeCodes(js []byte, into map[string]bool) {
	for i := 0; i < len(js); i++ {
		if !isQuote(js[i]) {
			continue
		}
		n := codeLength(js[i+1:])
		if end := i + 1 + n; n > 0 && end < len(js) && isQuote(js[end]) {
			into[string(js[i+1:end])] = true
			i = end // a closing quote opens nothing
		}
	}
}

// codeLength returns the length of the longest UPPER_SNAKE word s starts
// with, 0 when it starts with none.
func codeLength[T string | []byte](s T) int {
	if len(s) == 0 || !isUpper(s[0]) {
		return 0
	}
	n := 1
	for n < len(s) {
		switch {
		case isUpper(s[n]) || isDigit(s[n]):
			n++
		case s[n] == '_' && n+1 < len(s) && (isUpper(s[n+1]) || isDigit(s[n+1])):
			n += 2
		default:
			return n
		}
	}
	return n
}

func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }
func isQuote(c byte) bool { return c == '\'' || c == '"' }

// isWordByte reports whether c is an ASCII letter, digit or underscore.
func isWordByte(c byte) bool {
	return isUpper(c) || isDigit(c) || c == '_' || 'a' <= c && c <= 'z'
}
