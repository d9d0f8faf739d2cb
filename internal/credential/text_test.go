package credential

import (
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/anchored"
)

// Tokens below are assembled at run time so that this file itself holds no
// string a secret scanner would flag.
var (
	ghToken = "gh" + "p_" + strings.Repeat("A1b2", 9)
	jwt     = "ey" + "JhbGciOiJIUzI1NiJ9.ey" + "JzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
	bearer  = "Bea" + "rer 9f8e7d6c5b4a39281706f5e4d3c2b1a0"
)

func TestFind(t *testing.T) {
	for _, tc := range []struct {
		text, what string // what "": nothing may be found
		secret     string // the credential found, when what is set
	}{
		{"value " + jwt, "a JSON Web Token", jwt},
		{"synthetic-grant-1", "", ""},
		{"token = " + ghToken, "a GitHub token", ghToken},
		{"Authorization: " + bearer, "a bearer token", "9f8e7d6c5b4a39281706f5e4d3c2b1a0"},
		{"call with Bearer abcdefghijklmnop next", "a bearer token", "abcdefghijklmnop"},
		{"Authorization: Bearer\n\tabcdefghijklmnop", "a bearer token", "abcdefghijklmnop"},
		{"Authorization: Bearer <access-token-goes-here>", "", ""},
		{"send a Bearer token in the Authorization header", "", ""},
		{"the host sends Bearer credentials.", "", ""},
		{"Bearer example-token-0123456789", "", ""},
		{`"authorization": "Basic dXNlcjpwYXNzd29yZDEyMw=="`, "basic authentication credentials", "dXNlcjpwYXNzd29yZDEyMw=="},
		{`authorization: basic abcdefghijklmnop`, "basic authentication credentials", "abcdefghijklmnop"},
		{"Basic dXNlcjpwYXNzd29yZA==", "basic authentication credentials", "dXNlcjpwYXNzd29yZA=="},
		{"code points outside the Basic Multilingual Plane", "", ""},
		{"Cookie: sessionid=4f9a8b7c6d5e4f3a2b1c", "a cookie value", "sessionid=4f9a8b7c6d5e4f3a2b1c"},
		{"Cookie: sid=1", "a cookie value", "sid=1"},
		{"authentication is cookie_session; the Host injects the cookie", "", ""},
		{"if (cookie === '') return;", "", ""},
		{`{"password": "hunter2hunter2"}`, "a secret assigned in text", "hunter2hunter2"},
		{`API_KEY="k3y-9f8e7d6c5b4a"`, "a secret assigned in text", "k3y-9f8e7d6c5b4a"},
		{`{"password": "example-password"}`, "", ""},
		{"aws_secret_access_key = Wk7rPq2LmN9xTz4BvC8dYh3JsF6gKa1E0uQiRo5S", "a secret assigned in text", "Wk7rPq2LmN9xTz4BvC8dYh3JsF6gKa1E0uQiRo5S"},
		{"DB_PASSWORD=hunter2hunter2\n", "a secret assigned in text", "hunter2hunter2"},
		{"https://api.example/login?user=amy&password=s3cr3t-Pw&next=/", "a secret assigned in text", "s3cr3t-Pw"},
		{"password: required, at least 12 characters", "", ""},
		{"const token = process.env.TOKEN2;", "", ""},
		{"password = input.password", "", ""},
		{"token = getToken2(context)", "", ""},
		{"password=changeme123", "", ""},
		{"nextPageToken=abc123def", "", ""},
		{"password=${DB_PASSWORD}", "", ""},
		{"postgres://app:s3cr3tPa55@db.example.com/app", "a password in a URL", "s3cr3tPa55"},
		{"https://user:hunter2@", "a password in a URL", "hunter2"},
		{"postgres://app:<password>@db.example.com/app", "", ""},
		{"postgres://app:password@db.example.com/app", "", ""},
		{"https://user:" + Redacted + "@api.example/x", "", ""},
	} {
		ms := Find([]byte(tc.text))
		if tc.what == "" {
			if len(ms) > 0 {
				t.Errorf("Find(%q) = %+v, want nothing", tc.text, ms)
			}
			continue
		}
		if len(ms) != 1 || ms[0].What != tc.what || tc.text[ms[0].Offset:ms[0].Offset+ms[0].Len] != tc.secret {
			t.Errorf("Find(%q) = %+v, want one %s: %q", tc.text, ms, tc.what, tc.secret)
		}
	}
}

// TestDescribe: a finding says what it found without repeating it.
func TestDescribe(t *testing.T) {
	text := []byte("Authorization: " + bearer)
	ms := Find(text)
	if len(ms) != 1 {
		t.Fatalf("got %+v", ms)
	}
	got := ms[0].Describe(text)
	if want := `a bearer token ("9f8e"…, 32 characters)`; got != want {
		t.Errorf("Describe = %s, want %s", got, want)
	}
}

// TestRedactKeyBlock: a private key block is redacted whole, body and
// END line, however long its body.
func TestRedactKeyBlock(t *testing.T) {
	body := strings.Repeat("MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\n", 60) // 3 KiB
	for _, tc := range []struct{ text, want string }{
		{"key: -----BEGIN RSA PRIVATE KEY-----\n" + body + "-----END RSA PRIVATE KEY-----\nafter", "key: " + Redacted + "\nafter"},
		{"-----BEGIN PRIVATE KEY-----\n" + body, Redacted},
	} {
		if got := redact(tc.text, findAll(anchoredText(tc.text))); got != tc.want {
			t.Errorf("redacted to %.80q…, want %q", got, tc.want)
		}
	}
}

// TestRedactOverlap: two forms of one credential are replaced once, with
// the words that introduce it.
func TestRedactOverlap(t *testing.T) {
	for in, want := range map[string]string{
		"Authorization: Bearer " + jwt + " then":            "Authorization: " + Redacted + " then",
		`"authorization": "Basic dXNlcjpwYXNzd29yZDEyMw=="`: `"authorization": "` + Redacted + `"`,
		"a " + ghToken + " and Cookie: sid=1 b":             "a " + Redacted + " and " + Redacted + " b",
	} {
		if got := redact(in, findAll(anchoredText(in))); got != want {
			t.Errorf("redact(%q) = %q, want %q", in, got, want)
		}
	}
}

func anchoredText(s string) *anchored.Text { return anchored.NewText([]byte(s)) }
