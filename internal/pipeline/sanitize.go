package pipeline

import (
	"regexp"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/canonjson"
)

// Redacted replaces a credential in persisted live evidence.
const Redacted = "[redacted]"

// TODO(wire): judge credentials with internal/contamination
// (CredentialKey, Secrets, IsRedacted) once it lands, so that what the
// pipeline redacts and what finalize's gate refuses are one rule; until
// then this file keeps the same key list and a subset of its patterns.

// credentialKeys are member names whose values are credentials, compared
// without case, "-" and "_".
var credentialKeys = []string{
	"authorization", "proxyauthorization", "cookie", "setcookie", "password", "passwd", "secret", "clientsecret",
	"apikey", "xapikey", "accesstoken", "refreshtoken", "idtoken", "authtoken", "sessiontoken", "token", "bearer",
	"privatekey", "secretkey", "csrftoken", "xcsrftoken", "xsrftoken",
}

// credentialKey reports whether a member name conventionally holds a
// credential.
func credentialKey(name string) bool {
	n := strings.ToLower(strings.NewReplacer("-", "", "_", "").Replace(name))
	return slices.Contains(credentialKeys, n)
}

// secretPatterns find credentials inside text, wherever they sit: bearer
// and basic authorization values, JSON Web Tokens, cookie headers, private
// key blocks, URLs carrying a password.
var secretPatterns = []*regexp.Regexp{
	regexp.MustCompile(`(?i)\bbearer\s+[A-Za-z0-9._~+/-]{8,}=*`),
	regexp.MustCompile(`(?i)\bbasic\s+[A-Za-z0-9+/]{8,}={0,2}`),
	regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`),
	regexp.MustCompile(`(?i)\b(?:set-)?cookie\s*[:=]\s*[^\s;]+=[^\s;]+`),
	regexp.MustCompile(`-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----|$)`),
	regexp.MustCompile(`\b([a-zA-Z][a-zA-Z0-9+.-]*://[^\s/:@"'<>]+:)[^\s/@"'<>]+@`),
}

// sanitize returns a copy of a live input or result with every credential
// replaced by "[redacted]": the value of a member named like a credential
// (authorization, cookie, token, password, API key…), and any credential
// text inside a string (a bearer token, a JWT, a cookie header, a key
// block, a URL's password). Live evidence is persisted and hashed only in
// this form: it leaves the machine in reports and final files.
//
// The same secret under an innocent name in a string the patterns do not
// recognise cannot be found; live cases should not send real credentials
// as Tool arguments, and the host's own credentials never enter a Tool's
// input or result.
func sanitize(v canonjson.Value) canonjson.Value {
	switch v := v.(type) {
	case canonjson.String:
		return sanitizeString(string(v))
	case canonjson.Array:
		out := make(canonjson.Array, len(v))
		for i, e := range v {
			out[i] = sanitize(e)
		}
		return out
	case *canonjson.Object:
		out := &canonjson.Object{}
		for k, e := range v.All() {
			if credentialKey(k) {
				if _, isNull := e.(canonjson.Null); !isNull {
					e = canonjson.String(Redacted)
				}
				out.Set(k, e)
				continue
			}
			out.Set(k, sanitize(e))
		}
		return out
	}
	return v
}

// sanitizeString sanitizes a string. A string holding JSON (the text block
// of an MCP result repeats its structuredContent) is sanitized as JSON, so
// that a credential member inside it is redacted too and the text still
// parses to the sanitized structuredContent; it is rewritten, compactly,
// only when something was redacted.
func sanitizeString(s string) canonjson.Value {
	if t := strings.TrimSpace(s); strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
		if doc, err := canonjson.Decode([]byte(s)); err == nil {
			clean := sanitize(doc)
			if before, after := canonjson.DigestForm(doc), canonjson.DigestForm(clean); string(before) != string(after) {
				return canonjson.String(after)
			}
			return canonjson.String(s)
		}
	}
	return canonjson.String(redactText(s))
}

// redactText replaces every credential the patterns recognise in s.
func redactText(s string) string {
	for _, re := range secretPatterns {
		if !re.MatchString(s) {
			continue
		}
		if re.NumSubexp() == 1 {
			s = re.ReplaceAllString(s, "${1}"+Redacted+"@")
		} else {
			s = re.ReplaceAllString(s, Redacted)
		}
	}
	return s
}
