package strict

import (
	"regexp"
	"strings"

	"github.com/code2skill/code2skill/internal/diag"
)

// SetupFile tells a deployer how to install the Skill and connect the MCP
// server: two separate steps.
const SetupFile = "MCP-SETUP.md"

var (
	// A template placeholder such as <feature-id> or <base-url>.
	placeholder = regexp.MustCompile(`<[A-Za-z][A-Za-z0-9_.-]*>`)
	// Installing the Skill installs only the Skill (只安装 Skill, 只把 Skill
	// 安装到…)…
	onlySkill = regexp.MustCompile(`(?:只|仅)[^。\n]{0,20}(?:安装[^。\n]{0,30}(?i:skill)|(?i:skill)[^。\n]{0,20}安装)`)
	// …and does not set up MCP.
	notMCP = regexp.MustCompile(`(?:不等于|不能视为|并不代表|不代表)[^。\n]{0,30}MCP|不会[^。\n]{0,30}(?:启动|注册)[^。\n]{0,30}MCP`)
	// The command that starts the stdio server.
	startCommand = regexp.MustCompile(`\bnode\s+(?:\S*/)?mcp-tool/index\.mjs\b`)
)

// The four things MCP-SETUP.md explains besides installation.
var setupTopics = []topic{
	newTopic("starting the MCP server (启动)", `启动`),
	newTopic("registering it with the host (注册)", `注册`),
	newTopic("authentication (认证/鉴权/身份/凭据)", `认证|鉴权|身份|凭据|(?i:authentication)`),
	newTopic("environment variables (环境变量)", `环境变量|(?i:environment variable)`),
}

// checkSetup checks MCP-SETUP.md.
func checkSetup(d *document, f *facts) []diag.Diagnostic {
	var out []diag.Diagnostic
	if !hasInstallLine(d, f.dir) {
		out = append(out, RuleSetupInstall.New(d.file,
			"has no line \"npx skills add …%s… -a <agent> -g -y\": name the package directory and the -a/--agent, -g/--global and -y/--yes flags", f.dir))
	}
	var scope []string
	if !onlySkill.MatchString(d.Text) {
		scope = append(scope, "that it installs only the Skill (只/仅…安装…Skill)")
	}
	if !notMCP.MatchString(d.Text) {
		scope = append(scope, "that it does not set up MCP (不等于/不代表…MCP, 不会启动/注册…MCP)")
	}
	if len(scope) > 0 {
		out = append(out, RuleSetupScope.New(d.file, "does not say %s", strings.Join(scope, " or ")))
	}
	if gaps := missing(d.Text, setupTopics); len(gaps) > 0 {
		out = append(out, RuleSetupTopic.New(d.file, "does not cover %s", strings.Join(gaps, ", ")))
	}
	if f.needsAttachmentResolution {
		for _, term := range []string{attachmentResolution, "requires-host-integration"} {
			if !strings.Contains(d.Text, term) {
				out = append(out, RuleSetupAttachment.New(d.file,
					"a Tool needs the host's attachment-resolution, but the setup never mentions %s", term))
			}
		}
	}
	if !strings.Contains(d.Text, f.dryRunVariable) {
		out = append(out, RuleSetupDryRun.New(d.file, "never names the dry-run variable %s", f.dryRunVariable))
	}
	if !startCommand.MatchString(d.Text) {
		out = append(out, RuleSetupStartCommand.New(d.file, "does not show the command that starts the stdio server (node mcp-tool/index.mjs)"))
	}
	if f.hostRuntime {
		out = append(out, checkSetupHost(d, f)...)
	}
	return out
}

// hasInstallLine reports whether a line runs npx skills add on the package
// with the agent, global and yes flags.
func hasInstallLine(d *document, dir string) bool {
	for _, line := range d.Lines {
		_, args, ok := strings.Cut(line, "npx skills add")
		if !ok || !strings.Contains(args, dir) {
			continue
		}
		var agent, global, yes bool
		for _, tok := range strings.Fields(args) {
			switch {
			case tok == "-a" || tok == "--agent" || strings.HasPrefix(tok, "--agent="):
				agent = true
			case tok == "-g" || tok == "--global":
				global = true
			case tok == "-y" || tok == "--yes":
				yes = true
			}
		}
		if agent && global && yes {
			return true
		}
	}
	return false
}

// placeholders reports template placeholders left in a document, and the
// feature-context template's title, in any of the four documents.
func placeholders(d *document) []diag.Diagnostic {
	var out []diag.Diagnostic
	for i, line := range d.Lines {
		if m := placeholder.FindString(line); m != "" {
			out = append(out, RuleDocPlaceholder.New(d.file, "still holds the placeholder %s: write the package's own value", m).At(lineOf(i), 0))
		}
		if strings.Contains(line, "业务背景模板") {
			out = append(out, RuleDocPlaceholder.New(d.file, "still carries the template's title 业务背景模板").At(lineOf(i), 0))
		}
	}
	return out
}
