package contamination

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/anchored"
	"github.com/code2skill/code2skill/internal/credential"
)

// A source secret is a literal the authorised sources keep secret: a
// package must never repeat it, whatever it looks like there.
//
// A literal is a source secret when it is assigned to a name that says it
// is one, or when the source marks it as one and it reads as generated
// material:
//
//   - a name the credential judge calls a credential (JWT_SECRET,
//     signingKey, adminPassword, API_TOKEN …), with a value that reads as a
//     credential rather than a word, a name or a header (a digit, a symbol
//     or mixed case, eight characters or more);
//   - a name holding secret, key, password, private, signing, salt, hmac or
//     seed, or a declaration marked private or secret (a private modifier,
//     a comment on the same line), with a high-entropy value: sixteen
//     characters or more, two kinds of characters and at least 3.5 bits of
//     entropy per character, as keys and salts are and routes, cache keys
//     and labels are not.
//
// Placeholders (example, changeme, <…>, ${…}) are never secrets.
type sourceSecret struct {
	value string
	// where: the source, file and line, and the name it is assigned to.
	sourceID, file string
	line           int
	name           string
}

// secretStems anchor the assignments worth judging.
var secretStems = []string{"secret", "key", "pass", "pwd", "token", "private", "salt", "hmac", "seed", "credential", "auth", "signing", "cookie", "session", "jwt"}

// assignments find a quoted literal assigned to a name (const, field,
// property, keyword argument, map entry), optionally marked private or
// secret before the name; and an unquoted value of an INI, .env or YAML
// entry.
var (
	quotedAssignment = &anchored.Pattern{Anchors: secretStems, Fold: true,
		Re: regexp.MustCompile("(?i)(?:\\b(private|secret)\\b[^\\n=:;{}]{0,40}?)?\\b([A-Za-z_$][\\w$-]*)[\"']?[ \\t]*(?::=|=>|=|:)[ \\t]*(?:[A-Za-z_$][\\w$.]*\\([ \\t]*)?[\"'`]([^\"'`\\n\\\\]{8,256})[\"'`]")}
	plainAssignment = &anchored.Pattern{Anchors: secretStems, Fold: true,
		Re: regexp.MustCompile(`(?im)^[ \t]*(?:export[ \t]+)?([A-Za-z_][\w.-]*)[ \t]*[:=][ \t]*([A-Za-z0-9+/=._~!@#%^*-]{8,256})[ \t]*$`)}
	secretMarker = regexp.MustCompile(`(?i)(?://|#|--|/\*)[^\n]*\b(?:secret|private|confidential)\b`)
)

// findSecrets adds the secrets of one source file to f.
func (f *sourceFacts) findSecrets(sourceID, file string, data []byte) {
	t := anchored.NewText(data)
	var lines []int
	add := func(name, marker, value string, at int) {
		if !isSourceSecret(name, marker, value) {
			return
		}
		if lines == nil {
			lines = lineStarts(data)
		}
		line, _ := position(lines, at)
		if _, dup := f.secrets[value]; !dup {
			f.secrets[value] = sourceSecret{value: value, sourceID: sourceID, file: file, line: line, name: name}
		}
	}
	for _, loc := range t.FindAll(quotedAssignment) {
		marker := ""
		if loc[2] >= 0 {
			marker = string(data[loc[2]:loc[3]])
		}
		if marker == "" && secretMarker.Match(lineOf(data, loc[0])) {
			marker = "comment"
		}
		add(string(data[loc[4]:loc[5]]), marker, string(data[loc[6]:loc[7]]), loc[6])
	}
	for _, loc := range t.FindAll(plainAssignment) {
		marker := ""
		if secretMarker.Match(lineOf(data, loc[0])) {
			marker = "comment"
		}
		add(string(data[loc[2]:loc[3]]), marker, string(data[loc[4]:loc[5]]), loc[4])
	}
}

// lineOf returns the line of data holding offset at.
func lineOf(data []byte, at int) []byte {
	start := at
	for start > 0 && data[start-1] != '\n' {
		start--
	}
	end := at
	for end < len(data) && data[end] != '\n' {
		end++
	}
	return data[start:end]
}

// weakSecretWords make a name say it may hold a secret.
var weakSecretWords = []string{"secret", "key", "password", "passwd", "private", "signing", "salt", "hmac", "seed", "credential", "credentials"}

// isSourceSecret judges an assignment (see sourceSecret).
func isSourceSecret(name, marker, value string) bool {
	if credential.Placeholder(value) || credential.IsRedacted(value) || !credential.Secret(name, value) {
		return false
	}
	if credential.Name(name) && len(value) >= 8 && readsAsCredential(value) {
		return true
	}
	words := credential.Words(name)
	weak := marker != "" || slices.ContainsFunc(words, func(w string) bool { return slices.Contains(weakSecretWords, w) })
	return weak && highEntropy(value)
}

// readsAsCredential reports whether a value holds a digit, a symbol or
// both cases: not a plain word.
func readsAsCredential(v string) bool {
	var lower, upper bool
	for _, r := range v {
		switch {
		case r >= '0' && r <= '9', strings.ContainsRune("+/=!@#%^*~_-.$&", r):
			return true
		case r >= 'a' && r <= 'z':
			lower = true
		case r >= 'A' && r <= 'Z':
			upper = true
		}
	}
	return lower && upper
}

// highEntropy reports whether a value reads as generated: sixteen
// characters or more of at least two kinds (lower case, upper case,
// digits, symbols) and at least 3.5 bits of entropy per character.
func highEntropy(v string) bool {
	if len(v) < 16 || strings.ContainsAny(v, " \t") {
		return false
	}
	kinds := map[int]bool{}
	counts := map[rune]int{}
	n := 0
	for _, r := range v {
		switch {
		case r >= 'a' && r <= 'z':
			kinds[0] = true
		case r >= 'A' && r <= 'Z':
			kinds[1] = true
		case r >= '0' && r <= '9':
			kinds[2] = true
		default:
			kinds[3] = true
		}
		counts[r]++
		n++
	}
	if len(kinds) < 2 {
		return false
	}
	h := 0.0
	for _, c := range counts {
		p := float64(c) / float64(n)
		h -= p * math.Log2(p)
	}
	return h >= 3.5
}

// describe says where a source secret comes from, without repeating it.
func (s sourceSecret) describe() string {
	return fmt.Sprintf("the value of %s from source %s (%s:%d), which the source keeps secret", s.name, s.sourceID, s.file, s.line)
}
