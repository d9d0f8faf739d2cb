package jsmod

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// scaffoldIdiom is the shape of the Function core code2skill init writes:
// the variable's name in an exported const, the environment from an
// injectable context through a settings helper, and the read inside a
// helper that takes the environment and the name.
const scaffoldIdiom = `export const API_BASE_URL = 'CODE2SKILL_SHOP_API_BASE_URL';

function settings(context) {
  return { env: context.env ?? process.env, fetch: context.fetch ?? globalThis.fetch };
}

function endpoint(env, variable, path) {
  const base = typeof env[variable] === 'string' ? env[variable].trim() : '';
  if (base === '') throw new Error(variable + ' is not set');
  return new URL(path, base);
}

export async function findOrders(input = {}, context = {}) {
  const { env, fetch } = settings(context);
  return fetch(endpoint(env, API_BASE_URL, 'orders'));
}
`

func TestEnvReadsThroughHelpers(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"scaffold idiom", scaffoldIdiom, []string{"CODE2SKILL_SHOP_API_BASE_URL@1:29"}},
		{"helper taking the name", "function need(name) { return process.env[name]; }\nexport const a = need('A');", []string{"A@2:23"}},
		{"arrow helper", "const need = (name) => process.env[name];\nexport const a = need(`A`);", []string{"A@2:23"}},
		{"helper taking env and name", "function read(env, name) { return env[name]; }\nexport function f(c = {}) {\n  const env = c.env ?? process.env;\n  return read(env, 'A');\n}", []string{"A@4:20"}},
		{"module constant name", "const NAME = 'A';\nfunction read(env, name) { return env[name]?.trim(); }\nexport const a = read(process.env, NAME);", []string{"A@1:14"}},
		{"env.NAME through a returned environment", "function settings(c) { return { env: c.env ?? process.env }; }\nexport function f(c) { return settings(c).env.A; }", []string{"A@2:47"}},
		{"destructured from a returned environment", "function settings(c) { return { env: c.env ?? process.env }; }\nexport function f(c) { const { env } = settings(c); const { A, B: b } = env; return A + b; }", []string{"A@2:61", "B@2:64"}},
		{"object pattern parameter", "function base({ A }) { return A; }\nexport const a = base(process.env);", []string{"A@1:17"}},
		{"helper calling a helper", "function get(env, n) { return env[n]; }\nfunction need(n) { return get(process.env, n); }\nexport const a = need('A');", []string{"A@3:23"}},
		{"closure over a parameter", "function reader(env) { return (n) => env[n]; }\nexport function f() { const read = reader(process.env); return read; }", []string{}},
		{"nested closure called inside", "function f(env) { const get = (n) => env[n]; return get('A'); }\nexport const a = f(process.env);", []string{"A@1:57"}},
		{"unrelated helper", "function upper(s) { return s.toUpperCase(); }\nexport const a = upper('A');", []string{}},
		{"helper never called", "function need(name) { return process.env[name]; }", []string{}},
		{"recursion is not followed forever", "function r(env, n) { return r(env, n) || env[n]; }\nexport const a = r(process.env, 'A');", []string{"A@2:33"}},
		{"spread arguments are not bound", "function read(env, n) { return env[n]; }\nexport const a = read(...[process.env, 'A']);", []string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := mustParse(t, tc.src)
			if diff := cmp.Diff(tc.want, names(m.EnvReads())); diff != "" {
				t.Errorf("EnvReads (-want +got)\n%s", diff)
			}
		})
	}
}

func TestEnvURLFallbacksThroughHelpers(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"scaffold idiom with a default", strings.Replace(scaffoldIdiom, "env[variable].trim() : ''", "env[variable].trim() : 'https://api.example.com/'", 1),
			[]string{"CODE2SKILL_SHOP_API_BASE_URL -> https://api.example.com/ @8:75"}},
		{"fallback inside the helper", "function base(env, name) { return env[name] || 'https://a.example'; }\nexport const u = base(process.env, 'API_URL');", []string{"API_URL -> https://a.example @1:48"}},
		{"fallback after the helper", "function need(name) { return process.env[name]; }\nexport const u = need('API_URL') ?? 'https://a.example';", []string{"API_URL -> https://a.example @2:37"}},
		{"fallback on a returned environment", "function settings(c) { return { env: c.env ?? process.env }; }\nexport function f(c) { const { env } = settings(c); return env.API_URL || 'https://a.example'; }", []string{"API_URL -> https://a.example @2:75"}},
		{"default parameter", "function base(name, env = process.env) { return env[name] || 'https://a.example'; }\nexport const u = base('API_URL');", []string{"API_URL -> https://a.example @1:62"}},
		{"injectable environment indexed by a module constant", "const NAME = 'API_URL';\nexport function f(c = {}) {\n  const env = c.env ?? process.env;\n  return env[NAME] || 'https://a.example';\n}", []string{"API_URL -> https://a.example @4:23"}},
		{"destructured from an injectable environment", "export function f(c = {}) {\n  const { API_URL = 'https://a.example' } = c.env ?? process.env;\n  return API_URL;\n}", []string{"API_URL -> https://a.example @2:21"}},
		{"scaffold idiom has none", scaffoldIdiom, []string{}},
		{".invalid default in a helper", "function base(env, name) { return env[name] || 'https://a.invalid'; }\nexport const u = base(process.env, 'API_URL');", []string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := mustParse(t, tc.src)
			if diff := cmp.Diff(tc.want, fallbacks(m.EnvURLFallbacks())); diff != "" {
				t.Errorf("EnvURLFallbacks (-want +got)\n%s", diff)
			}
			if got := len(m.Check()); got != len(tc.want) {
				t.Errorf("Check() has %d findings, want %d", got, len(tc.want))
			}
		})
	}
}

// TestEnvHelpersBounded makes sure a module full of helpers calling each
// other with many distinct arguments is analysed in bounded work.
func TestEnvHelpersBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("function h0(env, n) { return env[n]; }\n")
	for i := 1; i < 40; i++ { // deeper than maxCallDepth
		b.WriteString("function h" + itoa(i) + "(env, n) { return h" + itoa(i-1) + "(env, n) || h" + itoa(i-1) + "(env, n + 'x'); }\n")
	}
	for i := 0; i < 2000; i++ {
		b.WriteString("export const v" + itoa(i) + " = h39(process.env, 'V" + itoa(i) + "') + h3(process.env, 'W" + itoa(i) + "');\n")
	}
	m := mustParse(t, b.String())
	if n := len(m.EnvReads()); n == 0 || n > maxInstances {
		t.Errorf("EnvReads found %d variables; want some, at most %d", n, maxInstances)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
