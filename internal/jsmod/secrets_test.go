package jsmod

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/code2skill/code2skill/internal/diag"
)

const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"

func credentials(cs []CredentialLiteral) []string {
	out := []string{}
	for _, c := range cs {
		out = append(out, fmt.Sprintf("%s %q @%d:%d", c.What, c.Redacted, c.Pos.Line, c.Pos.Column))
	}
	return out
}

func TestCredentialLiterals(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		// Credentials.
		{"JWT anywhere", "export const headers = { accept: 'application/json', 'x-trace': '" + jwt + "' };", []string{`a JSON Web Token "eyJh…" @1:65`}},
		{"bearer JWT in a template", "export const h = `Bearer " + jwt + "`;", []string{`a JSON Web Token "Bear…" @1:18`}},
		{"provider key", "export function f() { return fetch(u, { headers: { 'x-key': 'ghp_" + strings.Repeat("a1B2", 9) + "' } }); }", []string{`a GitHub token "ghp_…" @1:61`}},
		{"const", "const apiKey = 'k3y-123456';", []string{`a literal assigned to "apiKey" "k3y-…" @1:16`}},
		{"let and var", "let password = 'hunter22';\nvar SESSION_COOKIE = 'sid=abc123';", []string{`a literal assigned to "password" "hunt…" @1:16`, `a literal assigned to "SESSION_COOKIE" "sid=…" @2:22`}},
		{"property", "export const body = { username: 'ada', password: 'hunter22' };", []string{`a literal assigned to "password" "hunt…" @1:50`}},
		{"authorization header", "export const headers = { Authorization: 'Bearer abcdef123456' };", []string{`a literal assigned to "Authorization" "Bear…" @1:41`}},
		{"member assignment", "const client = {};\nclient.accessToken = 'abcdef123456';", []string{`a literal assigned to "accessToken" "abcd…" @2:22`}},
		{"parameter default", "export function login(user, password = 'hunter22') { return [user, password]; }", []string{`a literal assigned to "password" "hunt…" @1:40`}},
		{"destructuring default", "const { CODE2SKILL_SHOP_API_TOKEN = 'abcdef123456' } = process.env;", []string{`a literal assigned to "CODE2SKILL_SHOP_API_TOKEN" "abcd…" @1:37`}},
		{"class field", "export class Client { token = 'abcdef123456'; #secret = 'zyxwvu987654'; }", []string{`a literal assigned to "token" "abcd…" @1:31`, `a literal assigned to "#secret" "zyxw…" @1:57`}},
		{"environment fallback", "export const token = process.env.CODE2SKILL_SHOP_API_TOKEN ?? 'abcdef123456';", []string{`the fallback of the environment variable CODE2SKILL_SHOP_API_TOKEN "abcd…" @1:63`}},
		{"fallback through a helper", "const TOKEN = 'CODE2SKILL_SHOP_API_TOKEN';\nfunction need(env, name) { return env[name] || 'abcdef123456'; }\nexport const t = need(process.env, TOKEN);", []string{`the fallback of the environment variable CODE2SKILL_SHOP_API_TOKEN "abcd…" @2:48`}},
		// Not credentials.
		{"variable name constant", "export const API_TOKEN = 'CODE2SKILL_SHOP_API_TOKEN';", []string{}},
		{"header name", "const TOKEN_HEADER = 'x-api-key';\nconst authorization = 'authorization';", []string{}},
		{"empty and short", "const token = '';\nconst password = 'x';", []string{}},
		{"prose", "const token = 'the token the host injects';", []string{}},
		{"field name mapping", "const FIELDS = { password: 'password', username: 'login' };", []string{}},
		{"read from the environment", "export function f(env) { const token = env.CODE2SKILL_SHOP_API_TOKEN; return { authorization: `Bearer ${token}` }; }", []string{}},
		{"empty fallback", "export const t = process.env.CODE2SKILL_SHOP_API_TOKEN ?? '';", []string{}},
		{"non-credential names", "const pageToken = 'abcdef123456';\nconst tokenType = 'Bearer';\nconst name = 'hunter22';", []string{}},
		{"modes", "export const routes = [{ path: 'articles', auth: 'optional' }, { path: 'user', auth: 'required' }];\nconst init = { credentials: 'include' };", []string{}},
		{"URL", "const loginEndpointToken = 'https://login.example.com/token';", []string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := mustParse(t, tc.src)
			if diff := cmp.Diff(tc.want, credentials(m.CredentialLiterals())); diff != "" {
				t.Errorf("CredentialLiterals (-want +got)\n%s", diff)
			}
		})
	}
}

func TestCredentialFindings(t *testing.T) {
	m := mustParse(t, "const password = 'hunter22';\nexport const jwt = '"+jwt+"';")
	code := m.Check()
	if len(code) != 2 {
		t.Fatalf("Check() = %v, want 2 findings", code)
	}
	for _, d := range code {
		if d.Rule != RuleCredentialLiteral.ID || d.Severity != diag.Error || strings.Contains(d.Message, "hunter22") || strings.Contains(d.Message, jwt) {
			t.Errorf("finding %v: wrong rule, or it repeats the secret", d)
		}
	}
	// A test names fake credentials on purpose: only a known format is
	// reported there.
	tests := m.CheckTest()
	if len(tests) != 1 || tests[0].Line != 2 || !strings.Contains(tests[0].Message, "JSON Web Token") {
		t.Errorf("CheckTest() = %v, want the JWT only", tests)
	}
}
