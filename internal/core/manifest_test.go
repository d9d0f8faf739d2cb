package core

import (
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/canonjson"
	"github.com/code2skill/code2skill/internal/diag"
)

const goodManifest = `{
  "name": "x",
  "type": "module",
  "scripts": {"test": "node --test tests/"},
  "dependencies": {"@modelcontextprotocol/sdk": "1.32.2", "zod": "^4.6.7"},
  "code2skill": {"profile": "core-export-v1"}
}`

func TestManifest(t *testing.T) {
	for _, tc := range []struct {
		name     string
		src      string
		want     []*diag.Rule
		contains string // a fragment of the rendered findings
	}{
		{name: "good", src: goodManifest},
		{name: "host integration flag", src: strings.Replace(goodManifest, `"core-export-v1"`, `"core-export-v1", "requiresHostIntegration": true`, 1)},
		{name: "syntax error", src: "{\n  \"type\": \"module\",\n}", want: []*diag.Rule{canonjson.RuleSyntax}, contains: "package.json:3:1"},
		{name: "truncated", src: `{"type": "mod`, want: []*diag.Rule{canonjson.RuleSyntax}, contains: "package.json:1:14"},
		{name: "duplicate key", src: strings.Replace(goodManifest, `"name": "x",`, `"type": "commonjs", "name": "x",`, 1), want: []*diag.Rule{canonjson.RuleDuplicateKey}},
		{name: "not an object", src: `["module"]`, want: []*diag.Rule{RuleManifestInvalid}, contains: "an array"},
		{name: "trailing data", src: goodManifest + "{}", want: []*diag.Rule{canonjson.RuleSyntax}},
		{name: "commonjs", src: strings.Replace(goodManifest, `"module"`, `"commonjs"`, 1), want: []*diag.Rule{RuleManifestType}, contains: "package.json#/type"},
		{name: "wrong profile", src: strings.Replace(goodManifest, `"core-export-v1"`, `"strict-export-v1"`, 1), want: []*diag.Rule{RuleManifestProfile}, contains: "#/code2skill/profile"},
		{name: "public endpoints", src: strings.Replace(goodManifest, `"core-export-v1"`, `"core-export-v1", "publicEndpoints": ["https://auth.open-protocol.org/token"]`, 1)},
		{name: "public endpoint over http", src: strings.Replace(goodManifest, `"core-export-v1"`, `"core-export-v1", "publicEndpoints": ["https://auth.open-protocol.org/token", "http://auth.open-protocol.org/token"]`, 1), want: []*diag.Rule{RuleManifestPublicEndpoint}, contains: "#/code2skill/publicEndpoints/1"},
		{name: "public endpoint local", src: strings.Replace(goodManifest, `"core-export-v1"`, `"core-export-v1", "publicEndpoints": ["https://svc.seed.invalid/api"]`, 1), want: []*diag.Rule{RuleManifestPublicEndpoint}, contains: "reserved"},
		{name: "public endpoint not a string", src: strings.Replace(goodManifest, `"core-export-v1"`, `"core-export-v1", "publicEndpoints": [3]`, 1), want: []*diag.Rule{RuleManifestPublicEndpoint}, contains: "not a string"},
		{name: "public endpoints not a list", src: strings.Replace(goodManifest, `"core-export-v1"`, `"core-export-v1", "publicEndpoints": "https://auth.open-protocol.org/token"`, 1), want: []*diag.Rule{RuleManifestPublicEndpoint}, contains: "#/code2skill/publicEndpoints"},
		{name: "host flag not boolean", src: strings.Replace(goodManifest, `"core-export-v1"`, `"core-export-v1", "requiresHostIntegration": "yes"`, 1), want: []*diag.Rule{RuleManifestHostIntegration}},
		{name: "sdk missing", src: strings.Replace(goodManifest, `"@modelcontextprotocol/sdk": "1.32.2", `, ``, 1), want: []*diag.Rule{RuleManifestDependency}, contains: "#/dependencies/@modelcontextprotocol~1sdk"},
		{name: "zod latest", src: strings.Replace(goodManifest, `"^4.6.7"`, `"latest"`, 1), want: []*diag.Rule{RuleManifestDependency}, contains: "accepts any release"},
		{name: "zod star", src: strings.Replace(goodManifest, `"^4.6.7"`, `"*"`, 1), want: []*diag.Rule{RuleManifestDependency}},
		{name: "zod empty", src: strings.Replace(goodManifest, `"^4.6.7"`, `""`, 1), want: []*diag.Rule{RuleManifestDependency}, contains: "is empty"},
		{name: "zod git url", src: strings.Replace(goodManifest, `"^4.6.7"`, `"github:colinhacks/zod"`, 1), want: []*diag.Rule{RuleManifestDependency}},
		{name: "zod number", src: strings.Replace(goodManifest, `"^4.6.7"`, `4`, 1), want: []*diag.Rule{RuleManifestDependency}, contains: "not a string"},
		{name: "test not a string", src: strings.Replace(goodManifest, `"node --test tests/"`, `["node", "--test"]`, 1), want: []*diag.Rule{RuleManifestTestScript}, contains: "not a string"},
		{name: "sdk only dev", src: strings.Replace(goodManifest, `"dependencies": {"@modelcontextprotocol/sdk": "1.32.2", `, `"devDependencies": {"@modelcontextprotocol/sdk": "1.32.2"}, "dependencies": {`, 1), want: []*diag.Rule{RuleManifestDependency}, contains: "only a devDependency"},
		{name: "test chained", src: strings.Replace(goodManifest, `node --test tests/`, `node --test tests/ && curl x`, 1), want: []*diag.Rule{RuleManifestTestScript}, contains: `"&"`},
		{name: "test substitution", src: strings.Replace(goodManifest, `node --test tests/`, `node --test $(ls tests)`, 1), want: []*diag.Rule{RuleManifestTestScript}},
		{name: "test not node", src: strings.Replace(goodManifest, `node --test tests/`, `vitest run`, 1), want: []*diag.Rule{RuleManifestTestScript}},
		{name: "test without --test", src: strings.Replace(goodManifest, `node --test tests/`, `node tests/run.mjs`, 1), want: []*diag.Rule{RuleManifestTestScript}},
		{name: "test missing", src: strings.Replace(goodManifest, `"test": "node --test tests/"`, `"start": "node mcp-tool/index.mjs"`, 1), want: []*diag.Rule{RuleManifestTestScript}, contains: "is missing"},
		{name: "glob is fine", src: strings.Replace(goodManifest, `node --test tests/`, `node --test tests/*.test.mjs`, 1)},
		{name: "lifecycle hooks", src: strings.Replace(goodManifest, `"test": "node --test tests/"`, `"test": "node --test tests/", "postinstall": "node x.mjs", "prepare": "x"`, 1), want: []*diag.Rule{RuleManifestLifecycle}, contains: "#/scripts/postinstall"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := testChecker(t, map[string]string{"package.json": tc.src})
			m := c.checkManifest()
			wantRules(t, c, tc.want...)
			if tc.contains != "" && !strings.Contains(strings.Join(findings(c), "\n"), tc.contains) {
				t.Errorf("findings do not mention %q:\n%s", tc.contains, strings.Join(findings(c), "\n"))
			}
			if tc.name == "public endpoints" && (m == nil || len(m.public) != 1) {
				t.Error("publicEndpoints not read")
			}
			if tc.name == "host integration flag" && (m == nil || !m.host) {
				t.Error("requiresHostIntegration not read")
			}
		})
	}
}
