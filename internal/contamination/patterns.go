package contamination

import (
	"fmt"
	"net/netip"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/anchored"
	"github.com/code2skill/code2skill/internal/credential"
	"github.com/code2skill/code2skill/internal/diag"
)

// A match is one piece of text a detector found: where it is and what it
// looks like, described without repeating it (a credential in a finding
// would leak it into logs).
type match struct {
	Rule   *diag.Rule
	Offset int // 0-based, in bytes
	Len    int
	What   string
}

// detector finds one kind of contamination in text.
type detector struct {
	rule  *diag.Rule
	p     anchored.Pattern
	group int // the submatch that is the finding (0: the whole match)
	what  func(m string) string
}

func literal(kind string) func(string) string {
	return func(m string) string { return fmt.Sprintf("%s %q", kind, m) }
}

// pathBoundary is what may precede an absolute path: not a character that
// would make it the tail of a URL or of a longer path.
const pathBoundary = `(?:^|[^A-Za-z0-9_.~%/-])`

var pathDetectors = []detector{
	{rule: RuleHomePath, p: anchored.Pattern{Anchors: []string{"/home/", "/Users/", "/root/"},
		Re: regexp.MustCompile(pathBoundary + `(/(?:home|Users)/[A-Za-z0-9._-]+|/root)/`)}, group: 1, what: literal("a home-directory path")},
	{rule: RuleHomePath, p: anchored.Pattern{Anchors: []string{":\\"},
		Re: regexp.MustCompile(`(?i)\b[a-z]:\\{1,2}(?:users|documents and settings)\\{1,2}[^\\\s"']*`)}, what: literal("a home-directory path")},
	{rule: RuleHomePath, p: anchored.Pattern{Anchors: []string{"~/"},
		Re: regexp.MustCompile(pathBoundary + `(~/[A-Za-z0-9._-][^\s"'<>),;]*)`)}, group: 1, what: literal("a home-directory path")},
	{rule: RuleHomePath, p: anchored.Pattern{Anchors: []string{"$HOME", "${HOME}", "%USERPROFILE%", "%HOMEPATH%", "$env:USERPROFILE"},
		Re: regexp.MustCompile(`(?:\$HOME|\$\{HOME\}|%USERPROFILE%|%HOMEPATH%|\$env:USERPROFILE)[/\\][^\s"'<>),;]*`)}, what: literal("a home-directory path")},
	{rule: RuleMachinePath, p: anchored.Pattern{Anchors: []string{"file://"},
		Re: regexp.MustCompile(`\bfile://[^\s"'<>)]+`)}, what: literal("a file URI")},
	{rule: RuleMachinePath, p: anchored.Pattern{Anchors: []string{"/tmp/", "/var/folders/", "/private/", "/Volumes/", "/mnt/", "/media/", "/opt/", "/var/lib/", "/var/run/", "/var/log/"},
		Re: regexp.MustCompile(pathBoundary + `(/(?:tmp|var/folders|private/(?:tmp|var)|Volumes|mnt|media|opt|var/lib|var/run|var/log)/[^\s"'<>),;]+)`)}, group: 1,
		what: literal("an absolute path of a machine")},
}

// urlHost finds the host of URLs: scheme://host.
var urlHost = &anchored.Pattern{Anchors: []string{"://"},
	Re: regexp.MustCompile(`\b[a-zA-Z][a-zA-Z0-9+.-]*://(?:[^\s/@"'<>]*@)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)`)}

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
func run(detectors []detector, t *anchored.Text) []match {
	var out []match
	text := t.Bytes()
	for i := range detectors {
		d := &detectors[i]
		for _, loc := range t.FindAll(&d.p) {
			start, end := loc[2*d.group], loc[2*d.group+1]
			if start < 0 {
				continue
			}
			out = append(out, match{Rule: d.rule, Offset: start, Len: end - start, What: d.what(string(text[start:end]))})
		}
	}
	return out
}

// credentials returns the credentials credential.Find finds in text.
func credentials(text []byte) []match {
	var out []match
	for _, m := range credential.Find(text) {
		out = append(out, match{Rule: RuleCredential, Offset: m.Offset, Len: m.Len, What: m.Describe(text)})
	}
	return out
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
