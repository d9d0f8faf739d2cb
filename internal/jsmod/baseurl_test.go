package jsmod

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLiteralBaseURLs(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"named const", "const API_BASE = 'https://api.example.com';\nexport const u = `${API_BASE}/items`;", []string{`the base URL "API_BASE": https://api.example.com @1:18`}},
		{"config property", "export const config = { baseUrl: 'https://api.example.com/v2', timeoutMs: 300 };", []string{`the base URL "baseUrl": https://api.example.com/v2 @1:34`}},
		{"fetch of a literal", "export const f = () => fetch('https://api.example.com/items');", []string{`the URL of a fetch call: https://api.example.com/items @1:30`}},
		{"fetch of a template", "export const f = (id) => globalThis.fetch(`https://api.example.com/items/${id}`);", []string{`the URL of a fetch call: https://api.example.com/items/… @1:43`}},
		{"URL base", "export const u = (p) => new URL(p, 'http://localhost:8080/');", []string{`the base of a URL: http://localhost:8080/ @1:36`}},
		// Not literal addresses.
		{"from the environment", "export const u = (env, p) => new URL(p, env.CODE2SKILL_SHOP_API_BASE_URL);", []string{}},
		{".invalid", "const API_BASE = 'https://api.invalid/';\nexport const f = () => fetch(`https://shop.invalid/${1}`);", []string{}},
		{"a fallback is another rule's", "const API_BASE = 'https://api.example.com';\nexport const b = process.env.API_URL || API_BASE;", []string{}},
		{"a business link", "export const item = { imageUrl: 'https://cdn.example.com/a.png', homepage: 'https://example.com' };", []string{}},
		{"prose", "export const HELP = 'see https://docs.example.com';", []string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := mustParse(t, tc.src)
			got := []string{}
			for _, u := range m.LiteralBaseURLs() {
				got = append(got, fmt.Sprintf("%s: %s @%d:%d", u.Where, u.URL, u.Pos.Line, u.Pos.Column))
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("LiteralBaseURLs (-want +got)\n%s", diff)
			}
			var findings int
			for _, d := range m.Check() {
				if d.Rule == RuleBaseURLLiteral.ID {
					findings++
					if !strings.Contains(d.Message, "BASE_URL variable") {
						t.Errorf("finding %v does not say what to do", d)
					}
				}
			}
			if findings != len(tc.want) {
				t.Errorf("Check() reports %d JS_BASE_URL_LITERAL findings, want %d", findings, len(tc.want))
			}
		})
	}
}
