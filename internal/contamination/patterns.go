package contamination

import (
	"bytes"
	"fmt"
	"net/netip"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/diag"
)

// A Match is one piece of text a detector found: where it is and what it
// looks like, described without repeating it (a credential in a finding
// would leak it into logs).
type Match struct {
	Rule   *diag.Rule
	Offset int // 0-based, in bytes
	Len    int
	What   string
}

// detector finds one kind of contamination in text. Its regular expression
// runs only when one of its anchors occurs, so that most detectors cost one
// substring search on most files.
type detector struct {
	rule    *diag.Rule
	anchors []string // literal substrings; matched against the lower-cased text when fold
	fold    bool
	re      *regexp.Regexp
	group   int // the submatch that is the finding (0: the whole match)
	what    func(m string) string
	keep    func(m string) bool // nil: every match is a finding
	// near, when set, must accept the text right after an anchor
	// occurrence for the regular expression to run on its window: a cheap
	// filter for anchors that are common words.
	near func(after []byte) bool
}

// assigned reports whether text right after a key name assigns it a value:
// the rest of the name, an optional quote, spaces, then ":" or "=".
func assigned(after []byte) bool {
	i := 0
	for i < len(after) && i < 24 && (isLetter(after[i]) || isDigit(after[i]) || after[i] == '_' || after[i] == '-') {
		i++
	}
	if i < len(after) && (after[i] == '"' || after[i] == '\'') {
		i++
	}
	for i < len(after) && i < 32 && (after[i] == ' ' || after[i] == '\t') {
		i++
	}
	return i < len(after) && (after[i] == ':' || after[i] == '=')
}

// spaced reports whether text right after a word is whitespace followed by
// a token character, as after "Bearer".
func spaced(after []byte) bool {
	return len(after) > 1 && (after[0] == ' ' || after[0] == '\t') && (isLetter(after[1]) || isDigit(after[1]) || after[1] == ' ')
}

func redacted(kind string) func(string) string {
	return func(m string) string {
		head := m
		if len(head) > 4 {
			head = head[:4]
		}
		return fmt.Sprintf("%s (%q…, %d characters)", kind, head, len(m))
	}
}

func literal(kind string) func(string) string {
	return func(m string) string { return fmt.Sprintf("%s %q", kind, m) }
}

// placeholders are words that mark a value as an example rather than a
// credential.
var placeholders = []string{"example", "placeholder", "synthetic", "redacted", "dummy", "sample", "changeme", "your-", "your_", "xxxx", "****", "<", "${", "{{", "$("}

func notPlaceholder(m string) bool {
	l := strings.ToLower(m)
	return !slices.ContainsFunc(placeholders, func(p string) bool { return strings.Contains(l, p) })
}

// tokenLike reports whether a value mixes letters and digits, as generated
// secrets do and prose does not.
func tokenLike(m string) bool {
	return strings.ContainsAny(m, "0123456789") && strings.ContainsFunc(m, func(r rune) bool {
		return (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
	}) && notPlaceholder(m)
}

// pathBoundary is what may precede an absolute path: not a character that
// would make it the tail of a URL or of a longer path.
const pathBoundary = `(?:^|[^A-Za-z0-9_.~%/-])`

var credentialDetectors = []detector{
	{rule: RuleCredential, anchors: []string{"PRIVATE KEY-----"},
		re: regexp.MustCompile(`-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----`), what: literal("a private key block")},
	{rule: RuleCredential, anchors: []string{"AKIA", "ASIA"},
		re: regexp.MustCompile(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`), what: redacted("an AWS access key ID")},
	{rule: RuleCredential, anchors: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"},
		re: regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})`), what: redacted("a GitHub token")},
	{rule: RuleCredential, anchors: []string{"xox"},
		re: regexp.MustCompile(`\bxox[abprs]-[A-Za-z0-9-]{10,}`), what: redacted("a Slack token")},
	{rule: RuleCredential, anchors: []string{"AIza"},
		re: regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}`), what: redacted("a Google API key")},
	{rule: RuleCredential, anchors: []string{"k_live_"},
		re: regexp.MustCompile(`\b[rs]k_live_[0-9A-Za-z]{16,}`), what: redacted("a live payment API key")},
	{rule: RuleCredential, anchors: []string{"npm_"},
		re: regexp.MustCompile(`\bnpm_[A-Za-z0-9]{36}\b`), what: redacted("an npm token")},
	{rule: RuleCredential, anchors: []string{"eyJ"},
		re: regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}`), what: redacted("a JSON Web Token")},
	{rule: RuleCredential, anchors: []string{"bearer"}, fold: true,
		re: regexp.MustCompile(`(?i)\bbearer\s+([A-Za-z0-9._~+/-]{20,}=*)`), group: 1, what: redacted("a bearer token"), keep: tokenLike, near: spaced},
	{rule: RuleCredential, anchors: []string{"authorization"}, fold: true,
		re: regexp.MustCompile(`(?i)authorization["']?\s*[:=]\s*["']?basic\s+([A-Za-z0-9+/]{12,}={0,2})`), group: 1, what: redacted("basic authentication credentials"), keep: notPlaceholder, near: assigned},
	{rule: RuleCredential, anchors: []string{"cookie"}, fold: true,
		re: regexp.MustCompile(`(?i)\b(?:set-)?cookie["']?\s*[:=]\s*["']?([A-Za-z0-9_.-]+=[^;\s"'\\]{8,})`), group: 1, what: redacted("a cookie value"), keep: notPlaceholder, near: assigned},
	{rule: RuleCredential, anchors: []string{"password", "passwd", "secret", "api_key", "apikey", "api-key", "token", "private_key"}, fold: true,
		re:    regexp.MustCompile(`(?i)["']?\b(?:password|passwd|client[_-]?secret|secret[_-]?key|secret|api[_-]?key|apikey|access[_-]?token|refresh[_-]?token|auth[_-]?token|session[_-]?token|id[_-]?token|private[_-]?key)["']?\s*[:=]\s*["']([^"'\s]{6,})["']`),
		group: 1, what: redacted("a secret assigned in text"), keep: notPlaceholder, near: assigned},
	{rule: RuleCredential, anchors: []string{"://"},
		re: regexp.MustCompile(`\b[a-zA-Z][a-zA-Z0-9+.-]*://[^\s/:@"'<>]+:([^\s/@"'<>]+)@[^\s/"'<>]+`), group: 1, what: redacted("a password in a URL"),
		keep: func(m string) bool {
			return notPlaceholder(m) && !slices.Contains([]string{"password", "pass", "secret", "pwd"}, strings.ToLower(m))
		}},
}

var pathDetectors = []detector{
	{rule: RuleHomePath, anchors: []string{"/home/", "/Users/", "/root/"},
		re: regexp.MustCompile(pathBoundary + `(/(?:home|Users)/[A-Za-z0-9._-]+|/root)/`), group: 1, what: literal("a home-directory path")},
	{rule: RuleHomePath, anchors: []string{":\\"},
		re: regexp.MustCompile(`(?i)\b[a-z]:\\{1,2}(?:users|documents and settings)\\{1,2}[^\\\s"']*`), what: literal("a home-directory path")},
	{rule: RuleMachinePath, anchors: []string{"file://"},
		re: regexp.MustCompile(`\bfile://[^\s"'<>)]+`), what: literal("a file URI")},
	{rule: RuleMachinePath, anchors: []string{"/tmp/", "/var/folders/", "/private/", "/Volumes/", "/mnt/", "/media/"},
		re: regexp.MustCompile(pathBoundary + `(/(?:tmp|var/folders|private/(?:tmp|var)|Volumes|mnt|media)/[^\s"'<>),;]+)`), group: 1,
		what: literal("an absolute path of a machine")},
}

// urlHost finds the host of URLs: scheme://host.
var urlHost = regexp.MustCompile(`\b[a-zA-Z][a-zA-Z0-9+.-]*://(?:[^\s/@"'<>]*@)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)`)

// privateSuffixes mark host names that exist only inside an organisation.
var privateSuffixes = []string{".internal", ".local", ".corp", ".lan", ".intranet", ".home.arpa", ".localdomain", ".private"}

// isPrivateHost reports whether host is a private network address or an
// internal host name. Loopback is not private: it names this machine, as
// setup documents do.
func isPrivateHost(host string) bool {
	if a, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		return (a.IsPrivate() || a.IsLinkLocalUnicast()) && !a.IsLoopback()
	}
	return slices.ContainsFunc(privateSuffixes, func(s string) bool { return strings.HasSuffix(host, s) })
}

// isReservedHost reports whether host is reserved for examples and tests
// (RFC 2606, RFC 6761) or is loopback: names that carry nothing private.
func isReservedHost(host string) bool {
	if a, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		return a.IsLoopback() || a.IsUnspecified()
	}
	for _, s := range []string{"example", "test", "invalid", "localhost"} {
		if host == s || strings.HasSuffix(host, "."+s) {
			return true
		}
	}
	for _, s := range []string{"example.com", "example.net", "example.org"} {
		if host == s || strings.HasSuffix(host, "."+s) {
			return true
		}
	}
	return false
}

// run runs the detectors over text.
func run(detectors []detector, text []byte, lower []byte) []Match {
	var out []Match
	for i := range detectors {
		d := &detectors[i]
		hay := text
		if d.fold {
			hay = lower
		}
		for _, loc := range findAnchored(d.re, text, hay, d.anchors, d.near) {
			start, end := loc[2*d.group], loc[2*d.group+1]
			if start < 0 {
				continue
			}
			m := string(text[start:end])
			if d.keep != nil && !d.keep(m) {
				continue
			}
			out = append(out, Match{Rule: d.rule, Offset: start, Len: end - start, What: d.what(m)})
		}
	}
	return out
}

// Window bounds of findAnchored: how far before and after an anchor a match
// may reach.
const (
	windowBefore = 64
	windowAfter  = 512
)

// findAnchored returns the submatch indexes of re's matches that contain an
// occurrence of an anchor (searched in hay, which is text or its lower-case
// form). It runs re only on a window around each occurrence: the regular
// expression engine is far slower than a substring search, and most text
// holds no anchor at all.
func findAnchored(re *regexp.Regexp, text, hay []byte, anchors []string, near func([]byte) bool) [][]int {
	var out [][]int
	var seen map[int]bool // match starts already reported; made on the first match
	for _, a := range anchors {
		r := rarestOf(a)
		for off := 0; off < len(hay); {
			j := bytes.IndexByte(hay[off:], a[r])
			if j < 0 {
				break
			}
			at := off + j - r
			off += j + 1
			if at < 0 || !bytes.HasPrefix(hay[at:], []byte(a)) {
				continue
			}
			if near != nil && !near(hay[at+len(a):min(len(hay), at+len(a)+40)]) {
				continue
			}
			lo, hi := max(0, at-windowBefore), min(len(text), at+len(a)+windowAfter)
			for _, loc := range re.FindAllSubmatchIndex(text[lo:hi], -1) {
				if loc[0] == 0 && lo > 0 {
					// The match may depend on what precedes the window
					// (a boundary); its own anchor's window decides it.
					continue
				}
				if seen[lo+loc[0]] {
					continue
				}
				if seen == nil {
					seen = map[int]bool{}
				}
				seen[lo+loc[0]] = true
				abs := make([]int, len(loc))
				for k, x := range loc {
					abs[k] = x
					if x >= 0 {
						abs[k] = x + lo
					}
				}
				out = append(out, abs)
			}
		}
	}
	return out
}

// byteRarity orders bytes from rare to common in source code and prose, as
// a rough guide: findAnchored looks for an anchor's rarest byte, which the
// vectorised byte search skips through fastest.
const byteRarity = "JQZXKVjqzxBGYWPFMUHCDLNORSTAEI_kvbgywpfm-umhdlcrsnioat"

// rarestCache holds rarest's answer for every anchor of the detectors,
// computed once.
var rarestCache = func() map[string]int {
	m := map[string]int{"://": rarest("://")}
	for _, ds := range [][]detector{credentialDetectors, pathDetectors} {
		for _, d := range ds {
			for _, a := range d.anchors {
				m[a] = rarest(a)
			}
		}
	}
	return m
}()

func rarestOf(a string) int {
	if r, ok := rarestCache[a]; ok {
		return r
	}
	return rarest(a)
}

// rarest returns the offset of the rarest byte of an anchor.
func rarest(a string) int {
	best, bestRank := 0, len(byteRarity)+1
	for i := 0; i < len(a); i++ {
		r := strings.IndexByte(byteRarity, a[i])
		if r < 0 {
			r = len(byteRarity) // punctuation, digits, spaces: common
		}
		if r < bestRank {
			best, bestRank = i, r
		}
	}
	return best
}

// Secrets returns the credentials found in text: private keys, tokens, API
// keys, passwords, cookies and URLs with a password. Placeholders such as
// "<token>" or "example-secret" are not credentials.
func Secrets(text string) []Match {
	b := []byte(text)
	return run(credentialDetectors, b, asciiLower(b))
}

// credentialKeys are member names whose values are credentials; names are
// compared without case, "-" and "_".
var credentialKeys = []string{
	"authorization", "proxyauthorization", "cookie", "setcookie", "password", "passwd", "secret", "clientsecret",
	"apikey", "xapikey", "accesstoken", "refreshtoken", "idtoken", "authtoken", "sessiontoken", "token", "bearer",
	"privatekey", "secretkey", "csrftoken", "xcsrftoken", "xsrftoken",
}

// CredentialKey reports whether a member or header name conventionally
// holds a credential (authorization, cookie, password, token, API key…).
func CredentialKey(name string) bool {
	n := strings.ToLower(strings.NewReplacer("-", "", "_", "").Replace(name))
	return slices.Contains(credentialKeys, n)
}

// IsRedacted reports whether a value is a redaction marker rather than data:
// empty, "[redacted]", "<redacted>", "***"…
func IsRedacted(s string) bool {
	t := strings.Trim(strings.ToLower(strings.TrimSpace(s)), "[]<>()*")
	return t == "" || t == "redacted" || t == "removed" || t == "omitted" || strings.Trim(s, "*x") == ""
}

// secretFile reports why a file name is one that holds secrets, or "".
func secretFile(rel string) string {
	base := strings.ToLower(path.Base(rel))
	switch base {
	case ".env", "credentials.json", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", ".npmrc", ".netrc", ".pgpass",
		".git-credentials", ".htpasswd", ".dockercfg":
		return "a file that conventionally holds credentials"
	}
	if strings.HasPrefix(base, ".env.") && !slices.Contains([]string{".env.example", ".env.sample", ".env.template"}, base) {
		return "an environment file, which conventionally holds credentials"
	}
	switch path.Ext(base) {
	case ".pem", ".key", ".p12", ".pfx", ".jks", ".keystore", ".ppk":
		return "a key or certificate store"
	}
	return ""
}

// asciiLower returns text with ASCII letters in lower case. Other bytes are
// kept, so that offsets into the result are offsets into text (the anchors
// are ASCII).
func asciiLower(text []byte) []byte {
	out := make([]byte, len(text))
	for i, c := range text {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}
