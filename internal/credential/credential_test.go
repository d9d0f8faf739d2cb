package credential

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWords(t *testing.T) {
	for in, want := range map[string][]string{
		"CODE2SKILL_SHOP_API_TOKEN": {"code2skill", "shop", "api", "token"},
		"accessToken":               {"access", "token"},
		"baseURL":                   {"base", "url"},
		"URLPath":                   {"url", "path"},
		"x-api-key":                 {"x", "api", "key"},
		"api.key":                   {"api", "key"},
		"oauth2Token":               {"oauth2", "token"},
		"":                          nil,
	} {
		if diff := cmp.Diff(want, Words(in)); diff != "" {
			t.Errorf("Words(%q) (-want +got)\n%s", in, diff)
		}
	}
}

func TestName(t *testing.T) {
	for _, name := range []string{
		"password", "userPassword", "token", "accessToken", "refresh_token", "apiKey", "api_key", "API_KEY", "apikey",
		"secret", "clientSecret", "authorization", "Authorization", "cookie", "sessionCookie", "session", "sessionId",
		"CODE2SKILL_SHOP_API_TOKEN", "CODE2SKILL_SHOP_API_PASSWORD", "CODE2SKILL_SHOP_API_SESSION_COOKIE", "jwt", "privateKey",
		"credentials", "auth",
	} {
		if !Name(name) {
			t.Errorf("Name(%q) = false, want true", name)
		}
	}
	for _, name := range []string{
		"query", "pageToken", "nextPageToken", "cursor", "tokenType", "API_TOKEN_HEADER", "passwordPolicy", "key",
		"sortKey", "author", "cookieName", "CODE2SKILL_SHOP_API_BASE_URL", "CODE2SKILL_SHOP_API_USERNAME", "sessionDate", "maxTokens",
	} {
		if Name(name) {
			t.Errorf("Name(%q) = true, want false", name)
		}
	}
}

func TestAddress(t *testing.T) {
	for _, name := range []string{"url", "URL", "uri", "baseUrl", "base_url", "baseURL", "apiUrl", "serviceUrl", "targetUrl", "host", "hostname", "endpoint", "apiEndpoint", "origin", "apiBase"} {
		if !Address(name) {
			t.Errorf("Address(%q) = false, want true", name)
		}
	}
	for _, name := range []string{"imageUrl", "websiteUrl", "avatar_url", "path", "query", "hostess", "originalTitle", "domainName"} {
		if Address(name) {
			t.Errorf("Address(%q) = true, want false", name)
		}
	}
}

func TestFormat(t *testing.T) {
	for _, tc := range []struct{ s, want string }{
		{"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "a JSON Web Token"},
		{"Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "a JSON Web Token"},
		{"AKIAIOSFODNN7EXAMPLE", "an AWS access key"},
		{"ghp_" + strings.Repeat("a1B2", 9), "a GitHub token"},
		{"xoxb-1234567890-abcdefghij", "a Slack token"},
		{"sk_live_" + strings.Repeat("4eC3", 6), "a Stripe key"},
		{"sk-ant-api03-" + strings.Repeat("x", 30), "an Anthropic API key"},
		{"sk-proj-" + strings.Repeat("Ab9", 12), "an OpenAI API key"},
		{"AIza" + strings.Repeat("B", 35), "a Google API key"},
		{"npm_" + strings.Repeat("a1B2", 9), "an npm token"},
		{"github_pat_" + strings.Repeat("a1B2_", 5), "a GitHub token"},
		{"xoxo-1234567890-abcdefghij", "a Slack token"},
		{"eyJhbGciOiJIUzI1NiJ9.payload-not-json.c2lnbmF0dXJl", "a JSON Web Token"},
		{"-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIE…", "a private key"},
		{"-----BEGIN RSA PRIVATE KEY-----\nMIIE…", "a private key"},
	} {
		if got, ok := Format(tc.s); !ok || got != tc.want {
			t.Errorf("Format(%.20q…) = %q, %v; want %q", tc.s, got, ok, tc.want)
		}
	}
	for _, s := range []string{"", "test-token", "sk-short", "eyJ.eyJ.x", "https://api.example.com/", "CODE2SKILL_SHOP_API_TOKEN", "sk_test_" + strings.Repeat("a", 20)} {
		if got, ok := Format(s); ok {
			t.Errorf("Format(%q) = %q", s, got)
		}
	}
}

func TestSecret(t *testing.T) {
	for _, tc := range []struct {
		key, value string
		want       bool
	}{
		{"token", "s3cr3t-v4lue-123", true},
		{"password", "hunter22", true},
		{"authorization", "Bearer abcdef123456", true},
		{"API_TOKEN", "CODE2SKILL_SHOP_API_TOKEN", false},
		{"password", "password", false},
		{"token", "", false},
		{"token", "abc", false},
		{"authorization", "Bearer", false},
		{"description", "The token the host injects", false},
		{"TOKEN_HEADER", "x-api-key", false},
		{"loginUrl", "https://login.example.com/", false},
		{"auth", "optional", false},
		{"auth", "required", false},
		{"session", "persistent", false},
		{"credentials", "include", false},
		{"token", "optional", false},
		{"auth", "s3cr3tvalue", true},
		{"password", "letmein", true},
	} {
		if got := Secret(tc.key, tc.value); got != tc.want {
			t.Errorf("Secret(%q, %q) = %v, want %v", tc.key, tc.value, got, tc.want)
		}
	}
}

func TestRedact(t *testing.T) {
	if got := Redact("hunter22"); got != "hunt…" {
		t.Errorf("Redact = %q", got)
	}
	if got := Redact("abc"); got != "…" {
		t.Errorf("Redact = %q", got)
	}
}

func TestKey(t *testing.T) {
	for _, k := range []string{"Authorization", "set-cookie", "X-Api-Key", "access_token", "password"} {
		if !Key(k) {
			t.Errorf("%s is a credential key", k)
		}
	}
	for _, k := range []string{"grantId", "selectionGrant", "payloadDigest", "tokenCount"} {
		if Key(k) {
			t.Errorf("%s is not a credential key", k)
		}
	}
}

// TestKeysAreNames: a member whose value is a credential by convention has
// a name that denotes a credential, however it is spelt.
func TestKeysAreNames(t *testing.T) {
	for _, k := range keys {
		for _, spelling := range []string{k, strings.ToUpper(k)} {
			if !Name(spelling) {
				t.Errorf("Key(%q) but not Name(%[1]q)", spelling)
			}
		}
	}
	for _, n := range []string{"session", "auth", "sessionId"} {
		if !Name(n) || Key(n) {
			t.Errorf("%q: a name that denotes a credential, but not a member redacted whole", n)
		}
	}
}

func TestIsRedacted(t *testing.T) {
	for _, v := range []string{"[redacted]", "<REDACTED>", "***", "", Redacted, "[credential, not shown]", "<token redacted>", "(masked value)"} {
		if !IsRedacted(v) {
			t.Errorf("%q is redacted", v)
		}
	}
	for _, v := range []string{"abc", "Token eyJhbGciOi.masked.x", "Bearer hiddenvalue123"} {
		if IsRedacted(v) {
			t.Errorf("%q is not redacted", v)
		}
	}
}
