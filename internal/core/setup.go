package core

import (
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/code2skill/code2skill/internal/credential"
	"github.com/code2skill/code2skill/internal/markdown"
	"github.com/code2skill/code2skill/internal/pkgdir"
)

var reGoModDownload = regexp.MustCompile(`\bgo mod download\b`)

const setupFile = "MCP-SETUP.md"

// setupDoc is MCP-SETUP.md, read by the markdown scanner and split into
// blocks (paragraphs, list items, code blocks), lower-cased, for phrase
// checks that accept English or Chinese wording.
type setupDoc struct {
	text   string   // the whole file, lower-cased
	blocks []string // blank-line separated blocks, list items split apart
}

func parseSetup(src []byte) *setupDoc {
	doc := markdown.Parse(src)
	d := &setupDoc{text: strings.ToLower(doc.Text)}
	var block []string
	flush := func() {
		if s := strings.TrimSpace(strings.Join(block, "\n")); s != "" {
			d.blocks = append(d.blocks, strings.ToLower(s))
		}
		block = block[:0]
	}
	for _, line := range doc.Lines {
		switch {
		case strings.Trim(line, " \t") == "":
			flush()
		case len(block) > 0 && listItem.MatchString(line):
			// A list item inside a block starts a block of its own,
			// without its marker.
			flush()
			block = append(block, line[len(listItem.FindString(line)):])
		default:
			block = append(block, line)
		}
	}
	flush()
	return d
}

// listItem is the marker that starts a list item.
var listItem = regexp.MustCompile(`^[ \t]*(?:[-*+]|\d+[.)])[ \t]+`)

// anyBlock reports whether some block matches every pattern.
func (d *setupDoc) anyBlock(patterns ...*regexp.Regexp) bool {
	return slices.ContainsFunc(d.blocks, func(b string) bool {
		for _, p := range patterns {
			if !p.MatchString(b) {
				return false
			}
		}
		return true
	})
}

var (
	reSkillsAdd = regexp.MustCompile(`npx\s+skills\s+add`)
	// "installs only the Skill", "仅安装 Skill", "只会安装技能文件".
	reOnly  = regexp.MustCompile(`\bonly\b|\bjust\b|只|仅`)
	reSkill = regexp.MustCompile(`skill|技能`)
	reMCP   = regexp.MustCompile(`\bmcp\b|mcp\s*server|mcp\s*服务`)
	// "registered separately", "does not start or register", "单独注册", "不会启动", "不等于".
	reSeparate = regexp.MustCompile(`separate|on its own|independent|(?:does not|doesn't|do not|don't|not|never)\b[^.\n]{0,40}\b(?:start|register|configure|connect|run)|单独|另行|分别|独立|不会[^。\n]{0,20}(?:启动|注册|配置|连接)|不(?:启动|注册|配置)|不等于|并不代表|不代表|不能视为`)

	reNpmCI      = regexp.MustCompile(`\bnpm\s+ci\b`)
	reNpmInstall = regexp.MustCompile(`\bnpm\s+(?:install|i)\b`)
	reLockfile   = regexp.MustCompile(`lock\s*file|lockfile|package-lock|锁文件|锁定文件`)
)

// registrationKeys are the fields of a stdio registration, in JSON, YAML or
// TOML form ("command": …, command: …, command = …, or a TOML table such as
// [mcp_servers.x.env]).
var registrationKeys = []struct {
	name string
	re   *regexp.Regexp
}{
	{"command", registrationKey("command")},
	{"args", registrationKey("args")},
	{"cwd", registrationKey("cwd")},
	{"env", registrationKey("env")},
}

func registrationKey(k string) *regexp.Regexp {
	return regexp.MustCompile(`(?m)["'` + "`" + `]?\b` + k + `\b["'` + "`" + `]?\s*[:=]|^\s*\[(?:[\w.-]+\.)?` + k + `\]`)
}

// checkSetup checks MCP-SETUP.md. envVars are the environment variables the
// package's code reads, which the document must name.
func (c *checker) checkSetup(envVars []string) {
	if !c.pkg.Has(setupFile) {
		return // reported by the layout check
	}
	src, err := c.pkg.ReadFile(setupFile)
	if err != nil {
		c.add(RuleMissingFile.New(setupFile, "%v", err))
		return
	}
	d := parseSetup(src)

	var missing []string
	if !reSkillsAdd.MatchString(d.text) {
		missing = append(missing, "the `npx skills add` command")
	}
	if !d.anyBlock(reOnly, reSkill) {
		missing = append(missing, "that it installs only the Skill")
	}
	if !d.anyBlock(reMCP, reSeparate) {
		missing = append(missing, "that the MCP server is registered separately")
	}
	if len(missing) > 0 {
		c.add(RuleSetupInstallScope.New(setupFile, "the installation section does not state %s", joinAnd(missing)))
	}

	// Spec 003 installs with npm install; a package that ships a lockfile
	// is installed with npm ci, which needs it.
	missing = missing[:0]
	if c.result.Runtime == pkgdir.RuntimeGo {
		// A go-stdio package is installed by the go command: go mod
		// download fills the module cache from go.sum.
		if !reGoModDownload.MatchString(d.text) {
			c.add(RuleSetupDependencies.New(setupFile, "dependency installation does not mention `go mod download`; validate builds offline from the module cache it fills"))
		}
		build := goBuildCommand(filepath.Base(c.pkg.Dir()))
		switch missing, found := setupGoBuildMissing(d.text); {
		case !found:
			c.add(RuleSetupGoBuild.New(setupFile, "MCP-SETUP.md gives no go build of ./mcp-tool; write `%s`, the build validate checks", build))
		case len(missing) > 0:
			c.add(RuleSetupGoBuild.New(setupFile, "the go build of the server does not set %s, as validate's build does: without them the consumer's build may compile other code than validate checked (cgo files, a go.work, a vendor directory); write `%s`",
				joinAnd(missing), build))
		}
	} else if c.pkg.Has("package-lock.json") {
		if !reNpmCI.MatchString(d.text) {
			missing = append(missing, "`npm ci`")
		}
		if !reLockfile.MatchString(d.text) {
			missing = append(missing, "that npm ci installs from the package-lock.json")
		}
		if len(missing) > 0 {
			c.add(RuleSetupDependencies.New(setupFile, "the package ships a package-lock.json, but dependency installation does not mention %s", joinAnd(missing)))
		}
	} else if !reNpmInstall.MatchString(d.text) {
		c.add(RuleSetupDependencies.New(setupFile, "dependency installation does not mention `npm install`; the package has no package-lock.json, so npm ci cannot install it"))
	}

	missing = missing[:0]
	for _, k := range registrationKeys {
		if !k.re.MatchString(d.text) {
			missing = append(missing, k.name)
		}
	}
	if len(missing) > 0 {
		c.add(RuleSetupRegistration.New(setupFile, "no stdio registration example with %s; hosts need command, args, cwd and env to start the server", joinAnd(missing)))
	}

	for _, e := range c.public {
		if !strings.Contains(string(src), e) {
			c.add(RuleSetupPublicEndpoint.New(setupFile, "package.json declares the public endpoint %s, but MCP-SETUP.md does not name it; "+
				"say which public protocol it belongs to and that the package calls it at that fixed address", e))
		}
	}
	for _, v := range envVars {
		if regexp.MustCompile(`\b` + regexp.QuoteMeta(strings.ToLower(v)) + `\b`).MatchString(d.text) {
			continue
		}
		if credential.Name(v) {
			c.add(RuleSetupCredential.New(setupFile, "the package reads the credential variable %s, but MCP-SETUP.md does not name it; "+
				"say which credential it holds, where the host gets it and that it is injected into the server's environment, never passed as a Tool argument", v))
			continue
		}
		if credential.Address(v) {
			c.add(RuleSetupBaseURL.New(setupFile, "the package reads the service address variable %s, but MCP-SETUP.md does not name it: a deployer cannot run the package without it; "+
				"say which service it addresses, what its value looks like (with any route prefix) and that the host sets it", v))
			continue
		}
		c.add(RuleSetupEnv.New(setupFile, "the package reads the environment variable %s, but MCP-SETUP.md does not name it; say what it configures and how the host sets it", v))
	}
}

// joinAnd joins items as "a, b and c".
func joinAnd(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return fmt.Sprintf("%s and %s", strings.Join(items[:len(items)-1], ", "), items[len(items)-1])
}
