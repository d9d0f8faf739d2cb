package credential

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/anchored"
)

// A pattern is one form a credential takes in text.
type pattern struct {
	what string // "a GitHub token"
	// format marks a well-known credential format, which is a credential
	// wherever it appears (Format reports these).
	format bool
	p      anchored.Pattern
	// secret is the submatch that is the credential itself; redact the
	// one a redaction replaces: the credential alone, or with the words
	// that introduce it ("Bearer …", "Cookie: …"). 0 is the whole match.
	secret, redact int
	// keep, when set, must accept the credential: placeholders and prose
	// are not credentials.
	keep func(string) bool
	// name, when set, is the submatch of the name the credential is
	// assigned to, which Name must call a credential.
	name int
}

// patterns are the forms of credentials in text, the well-known formats
// first, each most specific first: Format names the first that matches.
var patterns = []pattern{
	// A key block is redacted whole, up to its END line; a PEM body of
	// an 8192-bit RSA key is under 7 KiB.
	{what: "a private key", format: true, p: anchored.Pattern{Anchors: []string{"PRIVATE KEY-----"}, Reach: 16 << 10,
		Re: regexp.MustCompile(`-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----|$)`)}},
	{what: "a JSON Web Token", format: true, p: anchored.Pattern{Anchors: []string{"eyJ"},
		Re: regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`)}},
	{what: "an AWS access key", format: true, p: anchored.Pattern{Anchors: []string{"AKIA", "ASIA"},
		Re: regexp.MustCompile(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`)}},
	{what: "a GitHub token", format: true, p: anchored.Pattern{Anchors: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"},
		Re: regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})`)}},
	{what: "a Slack token", format: true, p: anchored.Pattern{Anchors: []string{"xox"},
		Re: regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9-]{10,}`)}},
	{what: "a Stripe key", format: true, p: anchored.Pattern{Anchors: []string{"k_live_"},
		Re: regexp.MustCompile(`\b[rs]k_live_[A-Za-z0-9]{16,}`)}},
	{what: "an Anthropic API key", format: true, p: anchored.Pattern{Anchors: []string{"sk-ant-"},
		Re: regexp.MustCompile(`\bsk-ant-[A-Za-z0-9_-]{20,}`)}},
	{what: "an OpenAI API key", format: true, p: anchored.Pattern{Anchors: []string{"sk-"},
		Re: regexp.MustCompile(`\bsk-(?:proj-)?[A-Za-z0-9_-]{32,}`)}},
	{what: "a Google API key", format: true, p: anchored.Pattern{Anchors: []string{"AIza"},
		Re: regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}`)}},
	{what: "an npm token", format: true, p: anchored.Pattern{Anchors: []string{"npm_"},
		Re: regexp.MustCompile(`\bnpm_[A-Za-z0-9]{36}\b`)}},

	// Credentials known by the words around them.
	{what: "a bearer token", secret: 1, keep: notPlaceholderOrWord, p: anchored.Pattern{Anchors: []string{"bearer"}, Fold: true, Near: spaced(isTokenByte),
		Re: regexp.MustCompile(`(?i)\bbearer\s+([A-Za-z0-9._~+/-]{8,}=*)`)}},
	{what: "basic authentication credentials", secret: 1, redact: 1, keep: notPlaceholder, p: anchored.Pattern{Anchors: []string{"authorization"}, Fold: true, Near: assigned,
		Re: regexp.MustCompile(`(?i)authorization["']?\s*[:=]\s*["']?basic\s+([A-Za-z0-9+/]{12,}={0,2})`)}},
	{what: "basic authentication credentials", secret: 1, keep: encoded, p: anchored.Pattern{Anchors: []string{"basic"}, Fold: true, Near: spaced(isBase64Byte),
		Re: regexp.MustCompile(`(?i)\bbasic\s+([A-Za-z0-9+/]{8,}={0,2})`)}},
	{what: "a cookie value", secret: 1, keep: notPlaceholder, p: anchored.Pattern{Anchors: []string{"cookie"}, Fold: true, Near: assigned,
		Re: regexp.MustCompile(`(?i)\b(?:set-)?cookie["']?\s*[:=]\s*["']?([^\s;"'\\=]+=[^\s;"'\\]+)`)}},
	{what: "a secret assigned in text", secret: 1, redact: 1, keep: notPlaceholder, p: anchored.Pattern{
		Anchors: []string{"password", "passwd", "secret", "api_key", "apikey", "api-key", "token", "private_key"}, Fold: true, Near: assigned,
		Re: regexp.MustCompile(`(?i)["']?\b(?:password|passwd|client[_-]?secret|secret[_-]?key|secret|api[_-]?key|apikey|access[_-]?token|refresh[_-]?token|auth[_-]?token|session[_-]?token|id[_-]?token|private[_-]?key)["']?\s*[:=]\s*["']([^"'\s]{6,})["']`)}},
	// The same, unquoted: an INI, .env or shell assignment
	// (aws_secret_access_key = …, password=…, a query string), whose
	// value reads as a secret rather than as code or a word.
	{what: "a secret assigned in text", secret: 2, redact: 2, name: 1, keep: unquotedSecret, p: anchored.Pattern{
		Anchors: []string{"password", "passwd", "secret", "api_key", "apikey", "api-key", "token", "private_key", "access_key"}, Fold: true, Near: assigned,
		Re: regexp.MustCompile(`(?i)\b([a-z0-9_.-]*(?:password|passwd|secret|api[_-]?key|apikey|access[_-]?key|token|private[_-]?key)[a-z0-9_]*)[ \t]*[:=][ \t]*([A-Za-z0-9+/=._~!@#%^*-]{6,})(?:$|[\s;,&"'<>)\]}])`)}},
	{what: "a password in a URL", secret: 1, redact: 1, keep: urlPassword, p: anchored.Pattern{Anchors: []string{"://"},
		Re: regexp.MustCompile(`\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s/:@"'<>]+:([^\s/@"'<>]+)@`)}},
}

// A Match is a credential found in text.
type Match struct {
	What        string // "a GitHub token"
	Offset, Len int    // of the credential, in bytes
	// RedactOffset and RedactLen are the span a redaction replaces: the
	// credential, or with it the words that introduce it.
	RedactOffset, RedactLen int
}

// Describe says what a match is without repeating it (a credential in a
// finding would leak into logs): its kind, first bytes and length.
func (m Match) Describe(text []byte) string {
	head := text[m.Offset : m.Offset+min(m.Len, 4)]
	return fmt.Sprintf("%s (%q…, %d characters)", m.What, head, m.Len)
}

// Find returns the credentials in text, by offset: private keys, tokens
// and API keys in their providers' formats, JSON Web Tokens, bearer
// tokens, basic authentication, cookie values, passwords and API keys
// assigned a value, URLs with a password. Placeholders such as "<token>"
// or "example-secret" are not credentials. Where two forms find the same
// credential, the first pattern's is kept.
func Find(text []byte) []Match {
	out := findAll(anchored.NewText(text))
	return slices.CompactFunc(out, func(a, b Match) bool { return a.Offset == b.Offset })
}

// findAll returns every pattern's matches, by offset and, at one offset,
// in the order of the patterns.
func findAll(t *anchored.Text) []Match {
	var out []Match
	for i := range patterns {
		out = append(out, patterns[i].find(t)...)
	}
	slices.SortStableFunc(out, func(a, b Match) int { return cmp.Compare(a.Offset, b.Offset) })
	return out
}

// find returns the pattern's matches in t that keep accepts.
func (pt *pattern) find(t *anchored.Text) []Match {
	var out []Match
	for _, loc := range t.FindAll(&pt.p) {
		start, end := loc[2*pt.secret], loc[2*pt.secret+1]
		if start < 0 {
			continue
		}
		if pt.keep != nil && !pt.keep(string(t.Bytes()[start:end])) {
			continue
		}
		if pt.name > 0 && !Name(string(t.Bytes()[loc[2*pt.name]:loc[2*pt.name+1]])) {
			continue
		}
		rs, re := loc[2*pt.redact], loc[2*pt.redact+1]
		out = append(out, Match{What: pt.what, Offset: start, Len: end - start, RedactOffset: rs, RedactLen: re - rs})
	}
	return out
}

// Format reports whether s contains a literal in the format of a
// well-known credential, and names the format ("a JSON Web Token"): the
// first of the formats, most specific first, that s holds.
func Format(s string) (string, bool) {
	t := anchored.NewText([]byte(s))
	for i := range patterns {
		if pt := &patterns[i]; pt.format && len(pt.find(t)) > 0 {
			return pt.what, true
		}
	}
	return "", false
}

// redact returns s with the redaction spans of its matches replaced by
// Redacted. Overlapping spans are replaced once, so that what introduces a
// credential ("Bearer …") goes with it whichever form found it.
func redact(s string, ms []Match) string {
	spans := make([][2]int, 0, len(ms))
	for _, m := range ms {
		spans = append(spans, [2]int{m.RedactOffset, m.RedactOffset + m.RedactLen})
	}
	slices.SortFunc(spans, func(a, b [2]int) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
	var b strings.Builder
	last := 0
	for i := 0; i < len(spans); {
		start, end := spans[i][0], spans[i][1]
		for i++; i < len(spans) && spans[i][0] < end; i++ {
			end = max(end, spans[i][1])
		}
		b.WriteString(s[last:max(last, start)])
		b.WriteString(Redacted)
		last = max(last, end)
	}
	b.WriteString(s[last:])
	return b.String()
}

// placeholders are words that mark a value as an example rather than a
// credential.
var placeholders = []string{"example", "placeholder", "synthetic", "redacted", "dummy", "sample", "changeme", "your-", "your_", "xxxx", "****", "<", "${", "{{", "$("}

func notPlaceholder(m string) bool { return !Placeholder(m) }

// Placeholder reports whether a value is marked as an example rather than
// a credential: "example-secret", "<token>", "${API_KEY}", "changeme".
func Placeholder(s string) bool {
	l := strings.ToLower(s)
	return slices.ContainsFunc(placeholders, func(p string) bool { return strings.Contains(l, p) })
}

// notPlaceholderOrWord also refuses a word that names a kind of
// credential, as in "Bearer credentials".
func notPlaceholderOrWord(m string) bool {
	return notPlaceholder(m) && !slices.Contains(credentialWords, strings.ToLower(strings.TrimRight(m, ".")))
}

// encoded reports whether a value after "Basic" looks encoded rather than
// like a word of prose ("the Basic Multilingual Plane"): it holds a digit,
// "+", "/" or "=", or a capital after a small letter.
func encoded(m string) bool {
	if !notPlaceholder(m) {
		return false
	}
	for i := 0; i < len(m); i++ {
		c := m[i]
		if isDigit(c) || c == '+' || c == '/' || c == '=' || i > 0 && c >= 'A' && c <= 'Z' && m[i-1] >= 'a' && m[i-1] <= 'z' {
			return true
		}
	}
	return false
}

// identifierPath matches a member expression (input.password,
// process.env.TOKEN2): code, not a secret.
var identifierPath = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+$`)

// unquotedSecret accepts an unquoted value that reads as a secret: not a
// placeholder, not a member expression, and holding a digit or a
// symbol, as generated secrets and passwords do; words ("required",
// "optional") are prose.
func unquotedSecret(m string) bool {
	if !notPlaceholder(m) || identifierPath.MatchString(m) || !Secret("", m) {
		return false
	}
	return strings.ContainsFunc(m, func(r rune) bool { return r >= '0' && r <= '9' || strings.ContainsRune("+/=!@#%^*~", r) })
}

// urlPassword refuses the words that stand for a password in examples.
func urlPassword(m string) bool {
	return notPlaceholder(m) && !slices.Contains([]string{"password", "pass", "secret", "pwd"}, strings.ToLower(m))
}

// assigned reports whether text right after a key name may assign it a
// value: the rest of the name, an optional quote, white space, then ":" or
// "=".
func assigned(after []byte) bool {
	i := 0
	for i < len(after) && i < 24 && (isLetter(after[i]) || isDigit(after[i]) || after[i] == '_' || after[i] == '-') {
		i++
	}
	if i < len(after) && (after[i] == '"' || after[i] == '\'') {
		i++
	}
	for i < len(after) && isSpace(after[i]) {
		i++
	}
	return i == len(after) || after[i] == ':' || after[i] == '='
}

// spaced returns a filter accepting text right after a word that is white
// space followed by a byte the credential may start with, as after
// "Bearer".
func spaced(starts func(c byte) bool) func(after []byte) bool {
	return func(after []byte) bool {
		if len(after) == 0 || !isSpace(after[0]) {
			return false
		}
		i := 1
		for i < len(after) && isSpace(after[i]) {
			i++
		}
		return i == len(after) || starts(after[i])
	}
}

func isLetter(c byte) bool { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

// isSpace reports whether c is white space as \s means it: \t \n \f \r and
// the space.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

func isTokenByte(c byte) bool {
	return isLetter(c) || isDigit(c) || strings.IndexByte("._~+/-", c) >= 0
}

func isBase64Byte(c byte) bool { return isLetter(c) || isDigit(c) || c == '+' || c == '/' }
