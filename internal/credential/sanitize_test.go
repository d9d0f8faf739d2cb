package credential

import (
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/canonjson"
)

func TestSanitize(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{`{"Authorization": "Bearer abc", "x-api-key": "k", "name": "plain"}`,
			`{"Authorization":"[redacted]","name":"plain","x-api-key":"[redacted]"}`},
		{`{"nested": [{"password": "p", "session_token": "s", "token": null}]}`,
			`{"nested":[{"password":"[redacted]","session_token":"[redacted]","token":null}]}`},
		{`{"note": "call with Bearer abcdefghijklmnop next"}`,
			`{"note":"call with [redacted] next"}`},
		{`{"jwt": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlLXZhbHVl"}`,
			`{"jwt":"[redacted]"}`},
		{`{"url": "https://user:hunter2@api.example/x"}`,
			`{"url":"https://user:[redacted]@api.example/x"}`},
		{`{"header": "Cookie: sid=0123456789abcdef"}`,
			`{"header":"[redacted]"}`},
		{`{"text": "{\"accessToken\":\"t-1\",\"ok\":true}"}`,
			`{"text":"{\"accessToken\":\"[redacted]\",\"ok\":true}"}`},
		{`{"text": "{\"ok\": true}", "count": 3}`, `{"count":3,"text":"{\"ok\": true}"}`},
		{`{"grantId": "grant-7", "quoteId": "q"}`, `{"grantId":"grant-7","quoteId":"q"}`},
	} {
		doc, err := canonjson.Decode([]byte(tc.in))
		if err != nil {
			t.Fatal(err)
		}
		if got := string(canonjson.DigestForm(Sanitize(doc))); got != tc.want {
			t.Errorf("sanitize(%s)\n got %s\nwant %s", tc.in, got, tc.want)
		}
	}
}

func TestSanitizeLeavesNoKnownSecret(t *testing.T) {
	t.Parallel()
	doc, _ := canonjson.Decode([]byte(`{"a": "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----", "b": "Basic dXNlcjpwYXNzd29yZA=="}`))
	got := string(canonjson.DigestForm(Sanitize(doc)))
	for _, secret := range []string{"MIIE", "dXNlcjpwYXNzd29yZA"} {
		if strings.Contains(got, secret) {
			t.Errorf("%q survived sanitisation: %s", secret, got)
		}
	}
}

// sanitizeCases are values with and without credentials, in every place
// FindInValue looks.
var sanitizeCases = []string{
	`{"Authorization": "Bearer abc", "x-api-key": "k", "name": "plain"}`,
	`{"nested": [{"password": "p", "session_token": "s", "token": null}]}`,
	`{"note": "call with Bearer abcdefghijklmnop next"}`,
	`{"url": "https://user:hunter2@api.example/x"}`,
	`{"header": "Cookie: sid=0123456789abcdef"}`,
	`{"text": "{\"accessToken\":\"t-1\",\"ok\":true}"}`,
	`{"text": "{\"ok\": true}", "count": 3}`,
	`{"grantId": "grant-7", "quoteId": "q"}`,
	`{"token": "[redacted]", "password": "", "secret": "***", "cookie": null}`,
	`{"token": 12345, "authorization": {"scheme": "basic"}, "apiKey": ["a", "b"]}`,
	`["Basic dXNlcjpwYXNzd29yZA==", "the Basic Multilingual Plane", "Bearer <token>"]`,
	`{"config": "{\"db\": \"postgres://app:s3cr3tPa55@db/app\"}"}`,
	`{"list": "[1, 2, \"` + "ghp_" + `A1b2A1b2A1b2A1b2A1b2A1b2A1b2A1b2A1b2\"]"}`,
	`"-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----"`,
	`{"broken": "{not json, Bearer abcdefghijklmnop"}`,
	`{"a~b/c": {"Set-Cookie": "sid=1"}}`,
	`"plain text"`,
	`42`,
}

// TestSanitizeIsFindInValue: what Sanitize redacts is exactly what
// FindInValue reports. A value with findings changes, at those pointers;
// one without is returned equal; and a sanitised value holds nothing to
// find. The pipeline persists live evidence through Sanitize and finalize
// refuses live evidence FindInValue finds anything in, so this is the
// promise that sanitised evidence passes the gate and that the gate
// refuses nothing the sanitiser would have left.
func TestSanitizeIsFindInValue(t *testing.T) {
	t.Parallel()
	found := 0
	for _, in := range sanitizeCases {
		doc, err := canonjson.Decode([]byte(in))
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if len(FindInValue(doc)) > 0 {
			found++
		}
		checkSanitizeAgrees(t, doc)
	}
	if found < len(sanitizeCases)/2 || found == len(sanitizeCases) {
		t.Errorf("%d of %d cases hold a credential: the corpus must have both", found, len(sanitizeCases))
	}
}

func checkSanitizeAgrees(t *testing.T, doc canonjson.Value) {
	t.Helper()
	before := string(canonjson.DigestForm(doc))
	fs := FindInValue(doc)
	clean := Sanitize(doc)
	if string(canonjson.DigestForm(doc)) != before {
		t.Fatalf("Sanitize changed its argument: %s", before)
	}
	after := string(canonjson.DigestForm(clean))
	if (len(fs) > 0) != (after != before) {
		t.Errorf("%s: FindInValue found %+v, but Sanitize gave %s", before, fs, after)
	}
	for _, f := range fs {
		was, _ := canonjson.Resolve(doc, f.Pointer)
		now, ok := canonjson.Resolve(clean, f.Pointer)
		if !ok || string(canonjson.DigestForm(was)) == string(canonjson.DigestForm(now)) {
			t.Errorf("%s: the finding at %q was not redacted: %s", before, f.Pointer, after)
		}
	}
	if again := FindInValue(clean); len(again) > 0 {
		t.Errorf("%s: the sanitised %s still holds %+v", before, after, again)
	}
}

func FuzzSanitize(f *testing.F) {
	for _, in := range sanitizeCases {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		doc, err := canonjson.Decode([]byte(in))
		if err != nil {
			return
		}
		checkSanitizeAgrees(t, doc)
	})
}

func TestWithInjectedValues(t *testing.T) {
	secret := "plain-value-0123"
	v, err := canonjson.Decode([]byte(`{"note":"sent with plain-value-0123 attached","list":["x","plain-value-0123"],"plain-value-0123":1,"token":"abcdefgh12345"}`))
	if err != nil {
		t.Fatal(err)
	}
	var at []string
	for _, f := range FindInValueWith(v, []string{secret, ""}) {
		at = append(at, f.Pointer)
		if strings.Contains(f.What, secret) {
			t.Errorf("%q repeats the value", f.What)
		}
	}
	if want := []string{"/token", "/note", "/list/1"}; strings.Join(at, " ") != strings.Join(want, " ") {
		t.Errorf("found at %v, want %v", at, want)
	}
	clean, changed := SanitizeWith(v, []string{secret})
	text := string(canonjson.Encode(clean))
	if !changed || strings.Contains(strings.ReplaceAll(text, `"plain-value-0123": 1`, ""), secret) || strings.Contains(text, "abcdefgh12345") {
		t.Errorf("SanitizeWith left a credential: %s", text)
	}
	if len(FindInValueWith(clean, []string{secret})) != 0 {
		t.Errorf("the sanitised value still has findings: %s", text)
	}
	if same, changed := SanitizeWith(canonjson.String("nothing here"), []string{secret}); changed || same != canonjson.Value(canonjson.String("nothing here")) {
		t.Errorf("SanitizeWith changed a clean value: %v %v", same, changed)
	}
}
