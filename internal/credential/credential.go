// Package credential recognises what must never be a Tool argument or be
// written into a package: names that denote credentials or service
// addresses, and literals in the formats of well-known tokens and keys.
//
// Spec 003 keeps authentication and business-service addresses out of a
// Tool's arguments (the host injects them) and out of the package (no
// token, cookie or key is stored in it). The checks of validate ask this
// package, so that a Tool input schema, an environment variable and a
// literal in the code are judged by the same words:
//
//	credential.Name("apiKey")           // true
//	credential.Name("nextPageToken")    // false: a pagination cursor
//	credential.Address("baseUrl")       // true
//	credential.Address("imageUrl")      // false: a business value
//	credential.Format("ghp_…")          // "a GitHub token", true
//
// Names are split into words at underscores, hyphens, dots and case
// changes ("CODE2SKILL_SHOP_API_TOKEN", "accessToken", "x-api-key"), and
// judged by their last words, so that API_TOKEN_HEADER (a header's name)
// and tokenType are not credentials.
package credential

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// Words splits an identifier into lower-case words: "CODE2SKILL_API_TOKEN"
// gives [code2skill api token], "accessToken" [access token], "baseURL"
// [base url], "x-api-key" [x api key].
func Words(name string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(name)
	for i, r := range rs {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
			continue
		case unicode.IsUpper(r) && len(cur) > 0:
			prev := cur[len(cur)-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			// "accessToken" splits before T, "baseURL" before U, "URLPath"
			// before P, "oauth2Token" before T; "CODE2SKILL" stays whole.
			switch {
			case unicode.IsLower(prev),
				unicode.IsDigit(prev) && slices.ContainsFunc(cur, unicode.IsLower),
				unicode.IsUpper(prev) && nextLower:
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return words
}

// credentialWords end a name that denotes a credential.
var credentialWords = []string{
	"token", "secret", "password", "passwd", "pwd", "passphrase", "apikey",
	"credential", "credentials", "authorization", "auth", "cookie", "jwt", "bearer",
}

// credentialPairs are the two last words of a name that denotes a
// credential when the last word alone does not.
var credentialPairs = [][2]string{
	{"api", "key"}, {"access", "key"}, {"secret", "key"}, {"private", "key"},
	{"signing", "key"}, {"client", "secret"}, {"session", "id"}, {"session", "key"},
}

// notCredentials are words that, before "token", make it something other
// than a credential: pagination cursors and counts.
var notCredentials = []string{"page", "cursor", "next", "continuation", "sync", "count", "max", "limit"}

// credentialStems are in every name Name accepts, lower-cased; a name
// holding none is rejected without being split into words.
var credentialStems = []string{"token", "secret", "pass", "pwd", "key", "auth", "cookie", "jwt", "bearer", "session", "credential"}

// Name reports whether an identifier (a variable, property or environment
// variable name) denotes a credential: a token, secret, password, API key,
// authorization header value, cookie or session.
func Name(name string) bool {
	lower := strings.ToLower(name)
	if !slices.ContainsFunc(credentialStems, func(s string) bool { return strings.Contains(lower, s) }) {
		return false
	}
	w := Words(name)
	if len(w) == 0 {
		return false
	}
	last := w[len(w)-1]
	if len(w) >= 2 {
		pair := [2]string{w[len(w)-2], last}
		if slices.Contains(credentialPairs, pair) {
			return true
		}
		if slices.Contains(notCredentials, w[len(w)-2]) {
			return false
		}
	}
	if last == "session" || last == "sessions" {
		return true
	}
	return slices.Contains(credentialWords, last)
}

// addressWords end a name that denotes where requests go.
var addressWords = []string{"host", "hostname", "endpoint", "origin", "baseurl", "baseuri", "apibase"}

// addressQualifiers make a trailing url or uri a service address rather
// than a business value (imageUrl, websiteUrl are business values).
var addressQualifiers = []string{"base", "api", "service", "server", "backend", "request", "target", "proxy", "upstream", "gateway", "remote"}

// Address reports whether an identifier denotes a service address: a URL,
// base URL, host or endpoint the request is sent to.
func Address(name string) bool {
	w := Words(name)
	if len(w) == 0 {
		return false
	}
	last := w[len(w)-1]
	if slices.Contains(addressWords, last) {
		return true
	}
	if len(w) >= 2 && slices.Contains(addressWords, w[len(w)-2]+last) { // api base, base url
		return true
	}
	if last != "url" && last != "uri" {
		return false
	}
	return len(w) == 1 || slices.Contains(addressQualifiers, w[len(w)-2])
}

// formats are literal formats of well-known credentials, most specific
// first. hints are substrings every match contains: a literal holding none
// of them is not matched against the expression at all, which keeps the
// check cheap on the many strings of a module that are prose.
var formats = []struct {
	what  string
	hints []string
	re    *regexp.Regexp
}{
	{"a private key", []string{"PRIVATE KEY-----"}, regexp.MustCompile(`-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----`)},
	{"a JSON Web Token", []string{"eyJ"}, regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`)},
	{"an AWS access key", []string{"AKIA", "ASIA"}, regexp.MustCompile(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`)},
	{"a GitHub token", []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"}, regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})`)},
	{"a Slack token", []string{"xox"}, regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9-]{10,}`)},
	{"a Stripe key", []string{"k_live_"}, regexp.MustCompile(`\b[rs]k_live_[A-Za-z0-9]{16,}`)},
	{"an Anthropic API key", []string{"sk-ant-"}, regexp.MustCompile(`\bsk-ant-[A-Za-z0-9_-]{20,}`)},
	{"an OpenAI API key", []string{"sk-"}, regexp.MustCompile(`\bsk-(?:proj-)?[A-Za-z0-9_-]{32,}`)},
	{"a Google API key", []string{"AIza"}, regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}`)},
}

// Format reports whether s contains a literal in the format of a
// well-known credential, and names the format ("a JSON Web Token").
func Format(s string) (string, bool) {
	for _, f := range formats {
		if slices.ContainsFunc(f.hints, func(h string) bool { return strings.Contains(s, h) }) && f.re.MatchString(s) {
			return f.what, true
		}
	}
	return "", false
}

var (
	authScheme = regexp.MustCompile(`(?i)^(?:bearer|basic|token|digest)\s+(\S+)$`)
	envName    = regexp.MustCompile(`^[A-Z][A-Z0-9_]*$`)
	headerName = regexp.MustCompile(`^[a-z]+(?:-[a-z0-9]+)+$`)
)

// Secret reports whether s, the literal value of something Name calls a
// credential, looks like a credential itself rather than a name, a header,
// a URL, prose or an empty placeholder. key is the name it is assigned to:
// a value equal to it ({password: "password"}) maps a field name.
func Secret(key, s string) bool {
	v := strings.TrimSpace(s)
	if m := authScheme.FindStringSubmatch(v); m != nil {
		v = m[1] // "Bearer abc…": the credential is after the scheme
	}
	switch {
	case len(v) < 6,
		strings.ContainsFunc(v, unicode.IsSpace),
		strings.Contains(v, "://"),
		envName.MatchString(v),    // the name of the variable holding it
		headerName.MatchString(v), // x-api-key, set-cookie
		normalize(v) == normalize(key),
		slices.Contains(credentialWords, strings.ToLower(v)):
		return false
	}
	return true
}

func normalize(s string) string {
	return strings.Join(Words(s), "")
}

// Redact shows the start of a secret for a message without repeating it.
func Redact(s string) string {
	r := []rune(s)
	if len(r) <= 4 {
		return "…"
	}
	return string(r[:4]) + "…"
}
