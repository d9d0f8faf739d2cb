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
	// The command that starts the stdio server.
	startCommand = regexp.MustCompile(`\bnode\s+(?:\S*/)?mcp-tool/index\.mjs\b`)
)

// checkSetup checks MCP-SETUP.md.
func checkSetup(d *document, f *facts) []diag.Diagnostic {
	var out []diag.Diagnostic
	if !hasInstallLine(d, f.dir) {
		out = append(out, RuleSetupInstall.New(d.file,
			"has no line \"npx skills add …%s… -a <agent> -g -y\": name the package directory and the -a/--agent, -g/--global and -y/--yes flags", f.dir))
	}
	l := f.lang
	var scope []string
	if !l.onlySkill.MatchString(d.Text) {
		scope = append(scope, "that it installs only the Skill ("+l.onlySkillHint+")")
	}
	if !l.notMCP.MatchString(d.Text) {
		scope = append(scope, "that it does not set up MCP ("+l.notMCPHint+")")
	}
	if len(scope) > 0 {
		out = append(out, RuleSetupScope.New(d.file, "does not say %s", strings.Join(scope, " or ")))
	}
	if gaps := missing(d.Text, l.setupTopics); len(gaps) > 0 {
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
func placeholders(d *document, l *docLang) []diag.Diagnostic {
	var out []diag.Diagnostic
	for i, line := range d.Lines {
		if m := placeholder.FindString(line); m != "" {
			out = append(out, RuleDocPlaceholder.New(d.file, "still holds the placeholder %s: write the package's own value", m).At(lineOf(i), 0))
		}
		if strings.Contains(line, l.templateTitle) {
			out = append(out, RuleDocPlaceholder.New(d.file, "still carries the template's title %s", l.templateTitle).At(lineOf(i), 0))
		}
	}
	return out
}
