// Package credential is the one judge of what a credential is: names that
// denote credentials or service addresses, and credentials in text and in
// JSON values.
//
// Spec 003 keeps authentication and business-service addresses out of a
// Tool's arguments (the host injects them) and out of the package (no
// token, cookie or key is stored in it). Strict validate's rules, the
// pipeline's sanitiser of live evidence, finalize's live-evidence gate and
// the contamination gate over a package's files all ask this package, so
// that a Tool input schema, an environment variable, a literal in the
// code, a recorded Tool result and a document are judged by the same
// words and patterns:
//
//	credential.Name("apiKey")           // true
//	credential.Name("nextPageToken")    // false: a pagination cursor
//	credential.Address("baseUrl")       // true
//	credential.Address("imageUrl")      // false: a business value
//	credential.Format("ghp_…")          // "a GitHub token", true
//	credential.Find(text)               // the credentials in a text
//	credential.Sanitize(v)              // v with its credentials redacted
//
// Names are split into words at underscores, hyphens, dots and case
// changes ("CODE2SKILL_SHOP_API_TOKEN", "accessToken", "x-api-key"), and
// judged by their last words, so that API_TOKEN_HEADER (a header's name)
// and tokenType are not credentials.
//
// What Sanitize redacts is exactly what FindInValue reports: the pipeline
// persists live evidence only in sanitised form, and finalize refuses live
// evidence in which FindInValue finds anything.
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

// keys are the member and header names whose value, by convention, is the
// credential itself, compared without case, "-" and "_".
var keys = []string{
	"authorization", "proxyauthorization", "cookie", "setcookie", "password", "passwd", "secret", "clientsecret",
	"apikey", "xapikey", "accesstoken", "refreshtoken", "idtoken", "authtoken", "sessiontoken", "token", "bearer",
	"privatekey", "secretkey", "csrftoken", "xcsrftoken", "xsrftoken",
}

// Key reports whether a JSON member or header name conventionally holds a
// credential as its value (Authorization, Set-Cookie, password, x-api-key,
// access_token…). Every Key is a Name; Key is the narrower judgement, for
// redacting data: a member Name alone calls a credential ("session",
// "auth") may hold a record or a flag, which redaction would destroy.
func Key(name string) bool {
	return slices.Contains(keys, strings.ToLower(keySeparators.Replace(name)))
}

// keySeparators are left out when names are compared with keys.
var keySeparators = strings.NewReplacer("-", "", "_", "")

// Name reports whether an identifier (a variable, property or environment
// variable name) denotes a credential: a token, secret, password, API key,
// authorization header value, cookie or session.
func Name(name string) bool {
	if Key(name) {
		return true
	}
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
		slices.Contains(credentialWords, strings.ToLower(v)),
		slices.Contains(modeWords, strings.ToLower(v)),
		modeName(key) && lowerWord.MatchString(v):
		return false
	}
	return true
}

// modeWords are values that say how something is configured, not what a
// credential is: { password: "required" }, { token: "optional" }.
var modeWords = []string{"optional", "required", "disabled", "enabled", "hidden", "masked", "inherit", "include", "omit"}

// lowerWord is a single lower-case word.
var lowerWord = regexp.MustCompile(`^[a-z]+$`)

// modeName reports whether a name is one of the words that name a mode as
// often as a credential: auth: "optional", session: "cookie",
// credentials: "include" are settings, whereas a password or a token is
// always the credential itself.
func modeName(key string) bool {
	w := Words(key)
	if len(w) == 0 {
		return false
	}
	switch w[len(w)-1] {
	case "auth", "session", "sessions", "credential", "credentials", "cookie":
		return true
	}
	return false
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
