package core

import (
	"strings"
	"testing"

	"github.com/code2skill/code2skill/internal/diag"
)

const goodSetupEN = "# Setup\n\n" +
	"```sh\nnpx skills add ./pkg -a claude-code -g -y\n```\n\n" +
	"This installs only the Skill. The MCP server is registered separately.\n\n" +
	"Run `npm ci` (the package has a package-lock.json), or `npm install` without a lockfile.\n\n" +
	"```json\n{\"command\": \"node\", \"args\": [\"mcp-tool/index.mjs\"], \"cwd\": \"/srv/pkg\", \"env\": {\"CODE2SKILL_DEMO_API_BASE_URL\": \"https://api.example.test\"}}\n```\n"

const goodSetupZH = "# 安装\n\n" +
	"`npx skills add ./pkg -a codex -g -y` 仅安装 Skill 文件，不会启动或注册 MCP 服务；MCP 需要单独注册。\n\n" +
	"依赖：有锁文件时运行 `npm ci`，否则运行 `npm install`。\n\n" +
	"```toml\ncommand = \"node\"\nargs = [\"mcp-tool/index.mjs\"]\ncwd = \"/srv/pkg\"\n[env]\nCODE2SKILL_DEMO_API_BASE_URL = \"https://api.example.test\"\n```\n"

const noLockfileSetup = "# Setup\n\n" +
	"`npx skills add ./pkg -a claude-code -g -y` installs only the Skill; the MCP server is registered separately.\n\n" +
	"From the package directory run `npm install`.\n\n" +
	"```json\n{\"command\": \"node\", \"args\": [\"mcp-tool/index.mjs\"], \"cwd\": \"/srv/pkg\", \"env\": {}}\n```\n"

func TestSetup(t *testing.T) {
	for _, tc := range []struct {
		name     string
		doc      string
		lockfile bool // the package ships a package-lock.json
		env      []string
		want     []*diag.Rule
		contains string
	}{
		{name: "english", doc: goodSetupEN, lockfile: true, env: []string{"CODE2SKILL_DEMO_API_BASE_URL"}},
		{name: "chinese", doc: goodSetupZH, lockfile: true, env: []string{"CODE2SKILL_DEMO_API_BASE_URL"}},
		{name: "english without a lockfile", doc: goodSetupEN, env: []string{"CODE2SKILL_DEMO_API_BASE_URL"}},
		{name: "npm install alone without a lockfile", doc: noLockfileSetup},
		{name: "no skills add", doc: strings.Replace(goodSetupEN, "npx skills add", "skills-install", 1), want: []*diag.Rule{RuleSetupInstallScope}, contains: "npx skills add"},
		{name: "no only", doc: strings.Replace(goodSetupEN, "installs only the Skill", "installs the Skill", 1), want: []*diag.Rule{RuleSetupInstallScope}, contains: "only the Skill"},
		{name: "no separately", doc: strings.Replace(goodSetupEN, "The MCP server is registered separately.", "Then you are done.", 1), want: []*diag.Rule{RuleSetupInstallScope}, contains: "registered separately"},
		{name: "chinese no separately", doc: strings.Replace(goodSetupZH, "，不会启动或注册 MCP 服务；MCP 需要单独注册", "", 1), want: []*diag.Rule{RuleSetupInstallScope}},
		{name: "no npm ci", doc: strings.Replace(goodSetupEN, "`npm ci`", "`npm i --frozen`", 1), lockfile: true, want: []*diag.Rule{RuleSetupDependencies}, contains: "`npm ci`"},
		{name: "no lockfile wording", doc: strings.NewReplacer("package-lock.json", "manifest", "lockfile", "manifest").Replace(goodSetupEN), lockfile: true, want: []*diag.Rule{RuleSetupDependencies}},
		{name: "npm install alone with a lockfile", doc: noLockfileSetup, lockfile: true, want: []*diag.Rule{RuleSetupDependencies}, contains: "package-lock.json"},
		{name: "no npm install without a lockfile", doc: strings.Replace(goodSetupEN, "`npm install`", "nothing", 1), want: []*diag.Rule{RuleSetupDependencies}, contains: "`npm install`"},
		{name: "npm ci alone with a lockfile", doc: strings.Replace(goodSetupEN, "`npm install`", "nothing", 1), lockfile: true},
		{name: "no cwd", doc: strings.Replace(goodSetupEN, `"cwd": "/srv/pkg", `, "", 1), env: []string{"CODE2SKILL_DEMO_API_BASE_URL"}, want: []*diag.Rule{RuleSetupRegistration}, contains: "cwd"},
		{name: "env undocumented", doc: goodSetupEN, env: []string{"CODE2SKILL_DEMO_API_BASE_URL", "CODE2SKILL_DRY_RUN"}, want: []*diag.Rule{RuleSetupEnv}, contains: "CODE2SKILL_DRY_RUN"},
		{name: "credential undocumented", doc: goodSetupEN, env: []string{"CODE2SKILL_DEMO_API_BASE_URL", "CODE2SKILL_DEMO_API_TOKEN"}, want: []*diag.Rule{RuleSetupCredential}, contains: "CODE2SKILL_DEMO_API_TOKEN"},
		{name: "credential documented", doc: strings.Replace(goodSetupEN, `"env": {`, `"env": {"CODE2SKILL_DEMO_API_TOKEN": "…", `, 1), env: []string{"CODE2SKILL_DEMO_API_BASE_URL", "CODE2SKILL_DEMO_API_TOKEN"}},
		{name: "env prefix is not a mention", doc: goodSetupEN, env: []string{"CODE2SKILL_DEMO_API"}, want: []*diag.Rule{RuleSetupEnv}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"MCP-SETUP.md": tc.doc}
			if tc.lockfile {
				files["package-lock.json"] = "{}"
			}
			c := testChecker(t, files)
			c.checkSetup(tc.env)
			wantRules(t, c, tc.want...)
			if tc.contains != "" && !strings.Contains(strings.Join(findings(c), "\n"), tc.contains) {
				t.Errorf("findings do not mention %q:\n%s", tc.contains, strings.Join(findings(c), "\n"))
			}
		})
	}
}
