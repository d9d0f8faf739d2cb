package pipeline

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
		if got := string(canonjson.DigestForm(sanitize(doc))); got != tc.want {
			t.Errorf("sanitize(%s)\n got %s\nwant %s", tc.in, got, tc.want)
		}
	}
}

func TestSanitizeLeavesNoKnownSecret(t *testing.T) {
	t.Parallel()
	doc, _ := canonjson.Decode([]byte(`{"a": "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----", "b": "Basic dXNlcjpwYXNzd29yZA=="}`))
	got := string(canonjson.DigestForm(sanitize(doc)))
	for _, secret := range []string{"MIIE", "dXNlcjpwYXNzd29yZA"} {
		if strings.Contains(got, secret) {
			t.Errorf("%q survived sanitisation: %s", secret, got)
		}
	}
}
